import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idempotencyKey, pageNo, pageOf, pageSize } from '../schemas'
import { payActionDto, payOrderDto } from './pay'
import * as bills from '../../domain/bills'

const billNo = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '缴费单号不正确')
/** One bill number, several (JSON array, repeated form field), or several joined with commas. */
const billNos = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z
    .array(billNo)
    .min(1, '请选择缴费单')
    .max(bills.MAX_BILLS_PER_ORDER, `一次最多缴纳${bills.MAX_BILLS_PER_ORDER}张缴费单`),
)
const category = z.enum(['drug', 'herbal', 'lab', 'exam', 'treatment', 'material', 'service'])
const orderStatus = z.enum(['created', 'paying', 'paid', 'cancelled', 'refunding', 'refunded', 'closed'])
const returnUrl = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')

const billItemDto = z.object({ name: z.string(), spec: z.string(), unit: z.string(), quantity: z.number(), unitPriceFen: z.number().int(), amountFen: z.number().int() })
const unpaidVisitDto = z.object({
  visitNo: z.string(),
  visitDate: z.string(),
  deptName: z.string(),
  doctorName: z.string(),
  amountFen: z.number().int(),
  bills: z.array(
    z.object({
      billNo: z.string(),
      title: z.string(),
      category,
      place: z.string(),
      amountFen: z.number().int(),
      orderedAt: z.string(),
      paying: z.boolean(),
      payingId: z.number().nullable(),
    }),
  ),
})
export const billDetailDto = z.object({
  billNo: z.string(),
  visitNo: z.string(),
  visitDate: z.string(),
  deptName: z.string(),
  doctorName: z.string(),
  title: z.string(),
  category,
  place: z.string(),
  status: z.enum(['unpaid', 'paid', 'refunded', 'cancelled']),
  amountFen: z.number().int(),
  orderedAt: z.string(),
  items: z.array(billItemDto),
})
const paidBillDto = z.object({
  billNo: z.string(),
  title: z.string(),
  category,
  deptName: z.string(),
  doctorName: z.string(),
  visitNo: z.string(),
  visitDate: z.string(),
  place: z.string(),
  amountFen: z.number().int(),
})
const paymentDto = z.object({
  id: z.number(),
  orderNo: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  status: orderStatus,
  statusText: z.string(),
  amountFen: z.number().int(),
  deptNames: z.string(),
  bills: z.array(paidBillDto),
  sourceType: z.number().int(),
  payable: z.boolean(),
  order: payOrderDto,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
})
const paymentDetailDto = paymentDto.extend({
  refundable: z.boolean(),
  bills: z.array(paidBillDto.extend({ items: z.array(billItemDto), performed: z.boolean() })),
})
const ticketDto = z.object({
  kind: z.enum(['pharmacy', 'lab', 'exam', 'treatment']),
  place: z.string(),
  window: z.string(),
  location: z.string(),
  ticketNo: z.string(),
  ahead: z.number().int(),
  status: z.enum(['waiting', 'called', 'done', 'cancelled']),
  statusText: z.string(),
  guide: z.string(),
  billNos: z.array(z.string()),
})
const priceDto = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string(),
  unit: z.string(),
  priceFen: z.number().int(),
  category,
  categoryName: z.string(),
})
const listQuery = z.object({
  hospitalCode: hospitalCode.optional(),
  patientId: id.optional(),
  page: pageNo,
  size: pageSize(bills.MAX_PAGE_SIZE),
})
const patientAt = z.object({ hospitalCode, patientId: id })

/**
 * Outpatient payment (门诊缴费), `/dld-palm/api` (spec §7 Palm service "Payment", types/api/palm.ts): the chosen
 * patient's unpaid bills from the HIS, paying them as one order through the payment core, cancelling, refunding, the
 * records, where to go next, and the price catalogue. Every read is checked against the caller first: someone else's
 * patient, bill or record answers 2999.
 */
export async function billRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'POST',
    url: `${A}/payment/unpaid/list`,
    summary: 'The chosen patient’s unpaid bills at a hospital (from the HIS), one group per visit and department, newest first; a bill in an unpaid order says so',
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt,
    data: z.array(unpaidVisitDto),
    handler: async ({ body, auth }) => bills.unpaidVisits(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/unpaid/detail`,
    summary: 'One of the patient’s bills with its items: name, specification, unit, quantity, unit price, amount',
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt.extend({ billNo }),
    data: billDetailDto,
    handler: async ({ body, auth }) => bills.unpaidBillDetail(db(), cipher, providers.his, auth.userId, body),
  })

  const payInputExtras = {
    returnUrl,
    idempotencyKey,
    channel: z.enum(['cashier', 'account', 'insurance'], { error: '支付方式不正确' }).optional(),
  }

  route(app, {
    method: 'POST',
    url: `${A}/payment/unpaid/report/detail`,
    summary:
      'The bill of a test or an examination whose report is released once it is paid (报告缴费; the rule is src/utils/reportBill.ts): its items, ' +
      'whether the report waits for it, and the caller’s payment that holds it; a bill of another kind is refused (400), someone else’s is 2999',
    audit: { subject: 'payment', patients: async ({ body }) => [body.patientId] },
    auth: 'user',
    body: patientAt.extend({ billNo }),
    data: billDetailDto.extend({
      reportKind: z.enum(['lab', 'exam']),
      reportKindText: z.string(),
      reportHeld: z.boolean(),
      note: z.string(),
      payingId: z.number().nullable(),
    }),
    handler: async ({ body, auth }) => bills.reportBillDetail(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/report/init`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'payment',
    summary:
      'Pay one report’s bill (a test or an examination, 报告缴费) as payment/init pays one bill: same idempotencyKey rule, the same claim on the bill, ' +
      'settled with the HIS on payment; a bill of another kind is refused (400), someone else’s is 2999',
    auth: 'user',
    body: patientAt.extend({ billNo, ...payInputExtras }),
    data: z.object({ record: paymentDto, action: payActionDto.nullable() }),
    handler: async ({ body, auth }) => bills.payReportBill(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/init`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'payment',
    summary:
      'Pay one or several unpaid bills of one patient as one order (business outpatient; sourceType 0 palm pages, 2 scan-to-pay), ' +
      'answered with the record and how to pay it. The same idempotencyKey answers the same payment; the same bills in an unpaid order of the caller answer that order; ' +
      'bills in another unpaid order are refused (409). Settled with the HIS on payment: all bills or none. ' +
      'channel account pays from the outpatient account (就诊卡余额) at once, no cashier: refused with the balance when short, nothing made; ' +
      'channel insurance (chsList hospitals only) makes the order with no action: its fees go to yibao/outpfeeupload, its cash part to payment/yibao/init',
    auth: 'user',
    body: patientAt.extend({
      billNos,
      returnUrl,
      idempotencyKey,
      sourceType: z.coerce
        .number()
        .int()
        .refine((n) => n === 0 || n === 2, '来源类型不正确')
        .transform((n) => n as 0 | 2)
        .optional(),
      channel: z.enum(['cashier', 'account', 'insurance'], { error: '支付方式不正确' }).optional(),
    }),
    data: z.object({ record: paymentDto, action: payActionDto.nullable() }),
    handler: async ({ body, auth }) => bills.payBills(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/cancel`,
    audit: 'payment',
    summary: 'Cancel one of the caller’s unpaid payments: its bills may be paid again; one already closed or cancelled is answered as it is',
    auth: 'user',
    body: z.object({ id }),
    data: paymentDto,
    handler: async ({ body, auth }) => bills.cancelBillPayment(db(), cipher, auth.userId, body.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/fund/:id`,
    audit: 'payment',
    summary:
      'Refund one of the caller’s paid payments, all of it, while none of its bills was dispensed or performed (the HIS returns the bills, then the payment core the money)',
    auth: 'user',
    params: z.object({ id }),
    // the app sends no body without a reason (it arrives as null)
    body: z.object({ reason: z.string().trim().max(100, '退费原因不能超过100个字').optional() }).nullish(),
    data: paymentDto,
    handler: async ({ params, body, auth }) => bills.refundBillPayment(db(), cipher, providers, auth.userId, { id: params.id, reason: body?.reason }, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/list`,
    audit: 'payment',
    summary: 'The caller’s payments of outpatient bills (the order page), newest first: all, or unpaid / paid / refunded / closed; optionally of one patient and hospital',
    auth: 'user',
    query: listQuery.extend({ status: z.enum(['unpaid', 'paid', 'refunded', 'closed']).optional() }),
    data: pageOf(paymentDto),
    handler: async ({ query, auth }) => bills.listBillPayments(db(), cipher, auth.userId, query, new Date(), { paidOnly: false }),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/paid/list`,
    audit: 'payment',
    summary: 'The paid records (paid, refunding, refunded) of the caller’s payments, newest first; optionally of one patient and hospital',
    auth: 'user',
    query: listQuery,
    data: pageOf(paymentDto),
    handler: async ({ query, auth }) => bills.listBillPayments(db(), cipher, auth.userId, query, new Date(), { paidOnly: true }),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/detail`,
    audit: 'payment',
    summary: 'One of the caller’s payments with each bill’s items as paid, whether dispensed or performed, and whether it may be refunded',
    auth: 'user',
    query: z.object({ id }),
    data: paymentDetailDto,
    handler: async ({ query, auth }) => bills.billPaymentDetail(db(), cipher, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/wait/queue`,
    audit: 'payment',
    summary: 'After paying: where to go next (pharmacy window, laboratory, examination room) with the queue number and how many wait before it',
    auth: 'user',
    query: z.object({ id }),
    data: z.object({ id: z.number(), orderNo: z.string(), status: orderStatus, statusText: z.string(), tickets: z.array(ticketDto) }),
    handler: async ({ query, auth }) => bills.waitQueue(db(), auth.userId, query.id),
  })

  route(app, {
    method: 'GET',
    url: `${A}/price/list`,
    summary:
      'The hospital’s price catalogue (drugs, tests, examinations, treatments, materials, services) for the price-disclosure page /palm/priceDisclosure/index; ' +
      'the spec names no call for it, so this path was chosen. keyword matches name or code',
    auth: 'none',
    query: z.object({
      hospitalCode,
      keyword: z.string().trim().max(20, '搜索关键词不能超过20个字').optional().transform((v) => v || undefined),
      category: category.optional(),
      page: pageNo,
      size: pageSize(bills.MAX_PAGE_SIZE, 20),
    }),
    data: pageOf(priceDto),
    handler: async ({ query }) => bills.listPrices(db(), providers.his, query),
  })
}
