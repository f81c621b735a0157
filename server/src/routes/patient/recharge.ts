import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idempotencyKey, pageNo, pageOf, pageSize } from '../schemas'
import { payActionDto, payOrderDto } from './pay'
import * as recharge from '../../domain/recharge'
import { dischargeSettlement } from '../../domain/recharge/settlement'

const orderStatus = z.enum(['created', 'paying', 'paid', 'cancelled', 'refunding', 'refunded', 'closed'])
const category = z.enum(['drug', 'herbal', 'lab', 'exam', 'treatment', 'material', 'service'])
const returnUrl = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')
const amountFen = z.coerce.number({ error: '请输入充值金额' }).int('充值金额应为整数分').positive('充值金额应大于0').max(100_000_000, '充值金额过大')
const admissionNo = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '住院号不正确')
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期应为YYYY-MM-DD')
const patientAt = z.object({ hospitalCode, patientId: id })

const recordDto = z.object({
  id: z.number(),
  kind: z.enum(['clinic', 'inpatient']),
  orderNo: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  admissionNo: z.string().nullable(),
  amountFen: z.number().int(),
  status: orderStatus,
  statusText: z.string(),
  payable: z.boolean(),
  order: payOrderDto,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
})
const startDto = z.object({ record: recordDto, action: payActionDto.nullable() })
const listQuery = z.object({ hospitalCode: hospitalCode.optional(), patientId: id.optional(), page: pageNo, size: pageSize(recharge.MAX_PAGE_SIZE) })
const inpatientDto = z
  .object({
    hospitalCode: z.string(),
    patientId: z.number(),
    patientName: z.string(),
    admissionNo: z.string(),
    deptName: z.string(),
    ward: z.string(),
    bed: z.string(),
    doctorName: z.string(),
    admittedAt: z.string(),
    status: z.enum(['in', 'discharged']),
    dischargedAt: z.string().nullable(),
    depositFen: z.number().int(),
    costFen: z.number().int(),
    balanceFen: z.number().int(),
    days: z.array(z.object({ date: z.string(), amountFen: z.number().int() })),
    averageDailyFen: z.number().int(),
    lowDeposit: z.boolean(),
    warning: z.string().nullable(),
    settlement: z.object({ returnedFen: z.number().int(), owedFen: z.number().int() }).nullable(),
  })
  .nullable()

/**
 * The outpatient account (门诊预交金, spec §7 Payment `clinic/balance`, `recharge`; pages /palm/accountRecharge/*) and
 * the inpatient deposit (住院预交金, spec §7 Recharge; pages /palm/hospitalization/*, /pages/order/recharge/*), under
 * `/dld-palm/api` (types/api/palm.ts). Someone else's patient, stay or record answers 2999.
 */
export async function rechargeRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'GET',
    url: `${A}/payment/clinic/balance`,
    summary: 'The patient’s outpatient account balance (就诊卡余额 / 门诊预交金) at the hospital, from the HIS',
    audit: { subject: 'payment', patients: async ({ query }) => [query.patientId] },
    auth: 'user',
    query: patientAt,
    data: z.object({ hospitalCode: z.string(), patientId: z.number(), patientName: z.string(), balanceFen: z.number().int() }),
    handler: async ({ query, auth }) => recharge.clinicBalance(db(), cipher, providers.his, auth.userId, query),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/recharge`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'payment',
    summary:
      'Top up the patient’s outpatient account through the payment core (business clinic_recharge), answered with the record and how to pay it; ' +
      'the HIS credits the account when the payment is settled. The same idempotencyKey answers the same top-up',
    auth: 'user',
    body: patientAt.extend({ amountFen, returnUrl, idempotencyKey }),
    data: startDto,
    handler: async ({ body, auth }) => recharge.rechargeClinic(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/recharge/list`,
    audit: 'payment',
    summary: 'The caller’s top-ups of outpatient accounts, newest first; optionally of one patient and hospital (the spec names no call for it: this path was chosen)',
    auth: 'user',
    query: listQuery,
    data: pageOf(recordDto),
    handler: async ({ query, auth }) => recharge.listRecharges(db(), cipher, auth.userId, 'clinic', query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/recharge/detail`,
    audit: 'payment',
    summary: 'One of the caller’s top-ups of an outpatient account',
    auth: 'user',
    query: z.object({ id }),
    data: recordDto,
    handler: async ({ query, auth }) => recharge.rechargeDetail(db(), cipher, auth.userId, 'clinic', query.id, new Date()),
  })

  for (const path of ['inpatient', 'balance'] as const) {
    route(app, {
      method: 'POST',
      url: `${A}/recharge/${path}`,
      summary:
        'The patient’s current stay at the hospital (in hospital, else the latest): ward, bed, doctor, deposits, costs, balance, day totals, a low-deposit warning, and the discharge settlement; null when none' +
        (path === 'balance' ? ' (the same answer as /recharge/inpatient)' : ''),
      audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
      auth: 'user',
      body: patientAt,
      data: inpatientDto,
      handler: async ({ body, auth }) => recharge.inpatient(db(), cipher, providers.his, auth.userId, body),
    })
  }

  route(app, {
    method: 'POST',
    url: `${A}/recharge/daily`,
    summary: 'One day’s charges (每日清单) of one of the patient’s stays, with items',
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt.extend({ admissionNo, date }),
    data: z.object({
      admissionNo: z.string(),
      date: z.string(),
      totalFen: z.number().int(),
      items: z.array(
        z.object({ code: z.string(), name: z.string(), spec: z.string(), unit: z.string(), category, quantity: z.number().int(), unitPriceFen: z.number().int(), amountFen: z.number().int() }),
      ),
    }),
    handler: async ({ body, auth }) => recharge.dailyCharges(db(), cipher, providers.his, auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: `${A}/recharge/settlement`,
    summary:
      'The discharge settlement (出院结算) of one of the patient’s stays, from the HIS: costs per category, deposits, the balance returned (and how it goes back) or owed; ' +
      'a stay not yet settled is refused (the spec names no call for /palm/hospitalization/settlement/result: this path was chosen)',
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt.extend({ admissionNo }),
    data: z.object({
      hospitalCode: z.string(),
      patientId: z.number(),
      patientName: z.string(),
      admissionNo: z.string(),
      deptName: z.string(),
      ward: z.string(),
      bed: z.string(),
      admittedAt: z.string(),
      dischargedAt: z.string(),
      stayDays: z.number().int(),
      costFen: z.number().int(),
      depositFen: z.number().int(),
      returnedFen: z.number().int(),
      owedFen: z.number().int(),
      returns: z.array(z.object({ way: z.enum(['original', 'window']), channel: z.string(), text: z.string(), amountFen: z.number().int() })),
      categories: z.array(z.object({ category, name: z.string(), amountFen: z.number().int() })),
    }),
    handler: async ({ body, auth }) => dischargeSettlement(db(), cipher, providers.his, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: `${A}/recharge/amount`,
    summary: 'The hospital’s deposit top-up choices in fen (hospital_configs recharge.amounts, yuan, comma-separated; 1000/2000/5000/10000 yuan by default) and the limits',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.object({ hospitalCode: z.string(), amountsFen: z.array(z.number().int()), minFen: z.number().int(), maxFen: z.number().int() }),
    handler: async ({ query }) => recharge.rechargeAmounts(db(), query.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${A}/recharge`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'payment',
    summary:
      'Pay into the patient’s stay now in hospital (住院预交金) through the payment core (business recharge); the HIS credits the deposit when the payment is settled ' +
      '(refused after discharge: the order is refunded). The same idempotencyKey answers the same top-up',
    auth: 'user',
    body: patientAt.extend({ admissionNo, amountFen, returnUrl, idempotencyKey }),
    data: startDto,
    handler: async ({ body, auth }) => recharge.rechargeInpatient(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/recharge/list`,
    audit: 'payment',
    summary: 'The caller’s deposit top-ups (the order page /pages/order/recharge), newest first; optionally of one patient and hospital',
    auth: 'user',
    query: listQuery,
    data: pageOf(recordDto),
    handler: async ({ query, auth }) => recharge.listRecharges(db(), cipher, auth.userId, 'inpatient', query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/recharge/detail`,
    audit: 'payment',
    summary: 'One of the caller’s deposit top-ups',
    auth: 'user',
    query: z.object({ id }),
    data: recordDto,
    handler: async ({ query, auth }) => recharge.rechargeDetail(db(), cipher, auth.userId, 'inpatient', query.id, new Date()),
  })
}
