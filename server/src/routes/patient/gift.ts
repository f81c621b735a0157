import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { id, idempotencyKey, pageSize, pageNo as page } from '../schemas'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { payActionDto } from './pay'
import * as gift from '../../domain/gift'

/** One per attempt on the page; a retry of the same attempt sends the same key. */
const returnUrl = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')
const size = pageSize(gift.MAX_PAGE_SIZE)
const optionalId = id.optional().or(z.literal('').transform(() => undefined))

const giftItem = z.object({ code: z.string(), name: z.string(), priceFen: z.number().int() })
const giftDto = z.object({
  id: z.number(),
  giftNo: z.string(),
  doctorId: z.number(),
  doctorName: z.string(),
  inquiryId: z.number().nullable(),
  giftCode: z.string(),
  giftName: z.string(),
  priceFen: z.number().int(),
  message: z.string(),
  status: z.enum(['unpaid', 'paid', 'closed']),
  orderNo: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
})

/**
 * Gifts to doctors (心意), `/dld-hospital/im/gift` (spec §7 Internet hospital → Evaluation and gifts): the catalogue,
 * sending one (paid through the payment core, business 'gift'), and a doctor's received gifts.
 */
export async function giftRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital/im/gift'

  route(app, {
    method: 'POST',
    url: `${H}/gifts`,
    summary: 'The gifts a patient may send a doctor, with their prices in fen',
    auth: 'user',
    data: z.array(giftItem),
    handler: async () => gift.giftCatalogue(),
  })

  route(app, {
    method: 'POST',
    url: `${H}/toPay`,
    callerLimit: CALLER_LIMITS.order,
    summary:
      'Send a doctor a gift, optionally for one of the caller’s consultations with them: the gift (unpaid) and its payment ' +
      'order in one transaction, and how to pay it. The same idempotencyKey answers the same gift (pay null once paid or closed)',
    auth: 'user',
    body: z.object({
      doctorId: id,
      inquiryId: optionalId,
      giftCode: z.string().trim().min(1, gift.UNKNOWN_GIFT).max(20, gift.UNKNOWN_GIFT),
      message: z.string().trim().max(gift.MESSAGE_MAX, `留言不能超过${gift.MESSAGE_MAX}个字`).default(''),
      idempotencyKey,
      returnUrl,
    }),
    data: z.object({ gift: giftDto, pay: payActionDto.nullable() }),
    handler: async ({ body, auth }) => gift.giftToPay(db(), providers, auth, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/doctor/gifts`,
    summary: 'A doctor’s received (paid) gifts, the latest first, with the sender’s masked name and message',
    auth: 'user',
    body: z.object({ doctorId: id, page, size }),
    data: z.object({
      records: z.array(z.object({ id: z.number(), giftCode: z.string(), giftName: z.string(), senderName: z.string(), message: z.string(), paidAt: z.string() })),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
    handler: async ({ body }) => gift.doctorGifts(db(), cipher, body),
  })
}
