import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id } from '../schemas'
import { orderNo, payActionDto, payInput } from './pay'
import { insurance } from '../../domain/payment'
import type { InsuranceChannel } from '../../../../types/api/insurance'

const redirect = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')
const authCode = z.string().trim().min(8, '医保授权码不正确').max(128, '医保授权码不正确')

const identity = z.object({
  authorized: z.boolean(),
  channel: z.enum(['wechat', 'alipay']),
  authUrl: z.string().nullable(),
  insuTypeName: z.string().nullable(),
  expiresAt: z.string().nullable(),
})
const split = z.object({
  orderNo: z.string(),
  totalFen: z.number().int(),
  fundFen: z.number().int(),
  accountFen: z.number().int(),
  cashFen: z.number().int(),
  insuTypeName: z.string(),
  status: z.enum(['uploaded', 'settled', 'refunded', 'void']),
})

/**
 * Health insurance mobile payment, `/dld-palm/api` (spec §7 "Insurance", §6 chsList): authorisation, the fee upload
 * that splits an order, and paying its cash part through the payment core.
 */
export async function insuranceRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'GET',
    url: `${A}/yibao/getAuthTestUserInfo`,
    summary: 'The insurance platform’s test person (test platforms only), to bind as a patient and try insurance',
    auth: 'user',
    data: z.object({ name: z.string(), idCard: z.string(), insuTypeName: z.string() }),
    handler: async () => insurance.testUser(providers),
  })

  route(app, {
    method: 'POST',
    url: `${A}/yibao/identify`,
    summary: 'Whether one of the caller’s patients has a live insurance authorisation, else the authorisation page (back to redirect with authCode)',
    audit: 'insurance',
    auth: 'user',
    body: z.object({ patientId: id, hospitalCode, redirect }),
    data: identity,
    handler: async ({ body, auth }) => insurance.identify(db(), cipher, providers, auth, body, new Date()),
  })

  for (const [path, channel] of [
    ['wechat', 'wechat'],
    ['aliPay', 'alipay'],
  ] as const satisfies readonly (readonly [string, InsuranceChannel])[]) {
    route(app, {
      method: 'POST',
      url: `${A}/yibao/${path}/userquery`,
      summary: `Redeems the one-time authCode of the ${channel === 'wechat' ? 'WeChat' : 'Alipay'} insurance voucher page; the insured person must be the patient`,
      auth: 'user',
      body: z.object({ authCode, patientId: id }),
      data: identity,
      handler: async ({ body, auth }) => insurance.userQuery(db(), cipher, providers, auth.userId, channel, body),
    })
  }

  route(app, {
    method: 'POST',
    url: `${A}/yibao/outpfeeupload`,
    summary: 'Uploads an unpaid order’s fees for its patient’s authorisation and answers the split (fund, personal account, cash); the same order again answers the same split',
    audit: 'insurance',
    auth: 'user',
    body: z.object({ orderNo }),
    data: split,
    handler: async ({ body, auth }) => insurance.uploadFees(db(), cipher, providers, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/yibao/split`,
    summary: 'How insurance split one of the caller’s orders (null when it was not settled with insurance)',
    audit: 'insurance',
    auth: 'user',
    query: z.object({ orderNo }),
    data: split.nullable(),
    handler: async ({ query, auth }) => insurance.orderSplit(db(), auth.userId, query.orderNo),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/yibao/init`,
    callerLimit: CALLER_LIMITS.pay,
    summary: 'How to pay the cash part of an order whose fees were uploaded; the insurance part settles with the payment',
    audit: 'insurance',
    auth: 'user',
    body: payInput,
    data: payActionDto,
    handler: async ({ body, auth }) => insurance.payWithInsurance(db(), providers, auth, body),
  })
}
