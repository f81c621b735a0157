import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { createSelfServiceBill, selfServiceItems } from '../../domain/selfService'
import { MAX_SELF_SERVICE_ITEMS } from '@/utils/selfService'
import { hospitalCode, id, idempotencyKey } from '../schemas'

const code = z.string().trim().regex(/^[A-Za-z0-9_-]{1,32}$/, '检验项目编码不正确')
/** Codes as a JSON array, a repeated form field, or joined with commas. */
const codes = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z.array(code).min(1, '请选择检验项目').max(MAX_SELF_SERVICE_ITEMS, `一次最多选择${MAX_SELF_SERVICE_ITEMS}项`),
)
const patientAt = z.object({ hospitalCode, patientId: id })

const itemDto = z.object({
  code: z.string(),
  name: z.string(),
  priceFen: z.number().int(),
  notes: z.string(),
  audience: z.string(),
  allowed: z.boolean(),
  reason: z.string().nullable(),
})
const billDto = z.object({
  billNos: z.array(z.string()),
  amountFen: z.number().int(),
  items: z.array(z.object({ code: z.string(), name: z.string(), amountFen: z.number().int() })),
  place: z.string(),
})

/**
 * Self-service tests (自助开单), `/dld-palm/api/diagnosis` (spec §7 Palm service "Payment", types/api/selfService.ts):
 * the tests a patient may order without a doctor, and one unpaid bill for a choice, paid with POST /payment/init.
 */
export async function selfServiceRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'POST',
    url: `${A}/diagnosis/dict`,
    summary: 'The hospital’s self-service tests (自助开单) with code, name, price and notes, and for this patient whether allowed (sex and age), with the reason when not',
    auth: 'user',
    body: patientAt,
    data: z.array(itemDto),
    handler: async ({ body, auth }) => selfServiceItems(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/diagnosis/onLine/clinicalBill`,
    summary:
      'One unpaid HIS bill for the chosen self-service tests, every rule checked again (a test not allowed for the patient is refused and nothing made); ' +
      'the same idempotencyKey answers the same bill. Paid with POST /payment/init {billNos}',
    callerLimit: CALLER_LIMITS.order,
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt.extend({ codes, idempotencyKey }),
    data: billDto,
    handler: async ({ body, auth }) => createSelfServiceBill(db(), cipher, providers.his, auth.userId, body, new Date()),
  })
}
