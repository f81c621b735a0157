/** Payment records of outpatient bills (spec §2 Order pages payment: list and detail), and where to go next. */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { BillItem, BillPayment, BillPaymentDetail, BillPaymentListQuery, PaidBill, QueueTicket, WaitQueue } from '../../../../types/api/palm'
import type { OrderStatus } from '../../../../types/api/payment'
import type { Page } from '../../../../types/api/hospital'
import type { Db, Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hospitals, orders, outpatientBills, outpatientPayments, patients } from '../../db/schema'
import { forbidden } from '../../errors'
import { maskName } from '@/utils/mask'
import type { HisTicket } from '../../plugins/providers/his'
import { requireOwnPatient } from '../patient'
import { requireHospitalByCode } from '../hospital'
import { payableNow, refundedFenByOrder, toPayOrder } from '../payment'
import { MAX_PAGE_SIZE, hisOfKind, hisPatientOf } from './his'

type PaymentRow = typeof outpatientPayments.$inferSelect
type BillRow = typeof outpatientBills.$inferSelect

const STATUS_TEXT: Record<OrderStatus, string> = {
  created: '待支付',
  paying: '待支付',
  paid: '已支付',
  refunding: '退款中',
  refunded: '已退款',
  cancelled: '已取消',
  closed: '已关闭',
}
export const statusTextOf = (s: OrderStatus) => STATUS_TEXT[s]

/** The list filters, by the order's status. */
const STATUS_FILTER: Record<NonNullable<BillPaymentListQuery['status']>, OrderStatus[]> = {
  unpaid: ['created', 'paying'],
  paid: ['paid'],
  refunded: ['refunding', 'refunded'],
  closed: ['cancelled', 'closed'],
}
const PAID_STATUSES: OrderStatus[] = ['paid', 'refunding', 'refunded']

/** The caller's payment record, or 2999 that says nothing about whether it exists. */
export async function requireOwnBillPayment(db: Db | Tx, userId: number, id: number): Promise<PaymentRow> {
  const [row] = await db
    .select()
    .from(outpatientPayments)
    .where(and(eq(outpatientPayments.id, id), eq(outpatientPayments.userId, userId)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

const viewQuery = (db: Db | Tx) =>
  db
    .select({ p: outpatientPayments, order: orders, hospitalCode: hospitals.code, hospitalName: hospitals.name, patientNameEnc: patients.nameEnc })
    .from(outpatientPayments)
    .innerJoin(orders, eq(orders.id, outpatientPayments.orderId))
    .innerJoin(hospitals, eq(hospitals.id, outpatientPayments.hospitalId))
    .innerJoin(patients, eq(patients.id, outpatientPayments.patientId))
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

const paidBill = (b: BillRow): PaidBill => ({
  billNo: b.billNo,
  title: b.title,
  category: b.category as PaidBill['category'],
  deptName: b.deptName,
  doctorName: b.doctorName,
  visitNo: b.visitNo,
  visitDate: b.visitDate,
  place: b.place,
  amountFen: b.amountFen,
})

async function billsOf(db: Db | Tx, paymentIds: number[]): Promise<Map<number, BillRow[]>> {
  const out = new Map<number, BillRow[]>()
  if (!paymentIds.length) return out
  const rows = await db.select().from(outpatientBills).where(inArray(outpatientBills.paymentId, paymentIds)).orderBy(asc(outpatientBills.id))
  for (const r of rows) out.set(r.paymentId, [...(out.get(r.paymentId) ?? []), r])
  return out
}

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[], now: Date): Promise<{ view: BillPayment; bills: BillRow[] }[]> {
  const bills = await billsOf(db, rows.map((r) => r.p.id))
  const refunded = await refundedFenByOrder(db, rows.map((r) => r.order.id))
  return rows.map(({ p, order, hospitalCode, hospitalName, patientNameEnc }) => {
    const own = bills.get(p.id) ?? []
    const view: BillPayment = {
      id: p.id,
      orderNo: order.orderNo,
      hospitalCode,
      hospitalName,
      patientId: p.patientId,
      // spec §9: names masked
      patientName: maskName(cipher.decrypt(patientNameEnc)),
      status: order.status,
      statusText: STATUS_TEXT[order.status],
      amountFen: p.amountFen,
      deptNames: [...new Set(own.map((b) => b.deptName))].join('、'),
      bills: own.map(paidBill),
      sourceType: p.sourceType,
      payable: payableNow(order, now),
      order: toPayOrder(order, refunded.get(order.id) ?? 0),
      createdAt: p.createdAt.toISOString(),
      paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    }
    return { view, bills: own }
  })
}

export async function paymentView(db: Db | Tx, cipher: FieldCipher, id: number, now: Date): Promise<BillPayment> {
  const [row] = await toViews(db, cipher, await viewQuery(db).where(eq(outpatientPayments.id, id)), now)
  if (!row) throw forbidden()
  return row.view
}

/**
 * GET /payment/list (every record of the caller, by status) and GET /payment/paid/list (`paidOnly`: paid, refunding
 * and refunded), newest first, optionally of one of the caller's patients (someone else's is 2999) and one hospital.
 */
export async function listBillPayments(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  query: BillPaymentListQuery & { page: number; size: number },
  now: Date,
  opts: { paidOnly: boolean },
): Promise<Page<BillPayment>> {
  if (query.patientId !== undefined) await requireOwnPatient(db, userId, query.patientId)
  const hospital = query.hospitalCode ? await requireHospitalByCode(db, query.hospitalCode) : null
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const statuses = opts.paidOnly ? PAID_STATUSES : query.status ? STATUS_FILTER[query.status] : null
  const where: (SQL | undefined)[] = [
    eq(outpatientPayments.userId, userId),
    query.patientId !== undefined ? eq(outpatientPayments.patientId, query.patientId) : undefined,
    hospital ? eq(outpatientPayments.hospitalId, hospital.id) : undefined,
    statuses ? inArray(orders.status, statuses) : undefined,
  ]
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(outpatientPayments)
    .innerJoin(orders, eq(orders.id, outpatientPayments.orderId))
    .where(and(...where))
  const rows = await viewQuery(db)
    .where(and(...where))
    .orderBy(desc(outpatientPayments.createdAt), desc(outpatientPayments.id))
    .limit(size)
    .offset((query.page - 1) * size)
  const views = await toViews(db, cipher, rows, now)
  return { records: views.map((v) => v.view), total: total?.n ?? 0, page: query.page, size }
}

/**
 * GET /payment/detail: one of the caller's records with each bill's items (as they were when paid) and whether it
 * was dispensed or performed (asked of the HIS once paid); refundable while paid and nothing of it performed.
 */
export async function billPaymentDetail(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<BillPaymentDetail> {
  const own = await requireOwnBillPayment(db, userId, id)
  const [row] = await toViews(db, cipher, await viewQuery(db).where(eq(outpatientPayments.id, own.id)), now)
  if (!row) throw forbidden()
  const { view, bills } = row
  const performed = view.status === 'paid' ? await performedAtHis(db, cipher, userId, own, view.hospitalCode, bills) : null
  const { bills: _summaries, ...rest } = view
  return {
    ...rest,
    refundable: view.status === 'paid' && performed !== null && performed.size === 0 && bills.every((b) => b.status === 'paid'),
    bills: bills.map((b) => ({ ...paidBill(b), items: JSON.parse(cipher.decrypt(b.itemsEnc)) as BillItem[], performed: !!performed?.has(b.billNo) })),
  }
}

/**
 * The bills of a payment the HIS says were dispensed or performed; null when it cannot tell now (the patient unbound
 * since, the HIS not answering): the record still reads, and is not offered for refund meanwhile.
 */
async function performedAtHis(db: Db, cipher: FieldCipher, userId: number, own: PaymentRow, hospitalCode: string, bills: BillRow[]): Promise<Set<string> | null> {
  try {
    const patient = await requireOwnPatient(db, userId, own.patientId)
    const answer = await hisOfKind(own.hisKind).bills({ hospitalCode, patient: await hisPatientOf(db, cipher, patient, own.hospitalId), billNos: bills.map((b) => b.billNo) })
    if (answer.length !== bills.length) return null
    return new Set(answer.filter((b) => b.performed).map((b) => b.billNo))
  } catch {
    return null
  }
}

const TICKET_TEXT: Record<HisTicket['status'], string> = { waiting: '候诊中', called: '请到窗口', done: '已完成', cancelled: '已取消' }
const ACTION: Record<HisTicket['kind'], string> = { pharmacy: '取药', lab: '采血或留取标本', exam: '检查', treatment: '治疗' }

export function toQueueTicket(t: HisTicket): QueueTicket {
  return { ...t, statusText: TICKET_TEXT[t.status], guide: `请到${t.location}${t.place}${t.window}${ACTION[t.kind]}` }
}

/** GET /payment/wait/queue: after paying, where the patient goes next with the number; nothing before it is paid. */
export async function waitQueue(db: Db, userId: number, id: number): Promise<WaitQueue> {
  const own = await requireOwnBillPayment(db, userId, id)
  const [row] = await db
    .select({ order: orders, hospitalCode: hospitals.code })
    .from(orders)
    .innerJoin(hospitals, eq(hospitals.id, orders.hospitalId))
    .where(eq(orders.id, own.orderId))
  const { order, hospitalCode } = row!
  const tickets = order.status === 'paid' ? await hisOfKind(own.hisKind).tickets({ hospitalCode, orderNo: order.orderNo }) : []
  return { id: own.id, orderNo: order.orderNo, status: order.status, statusText: STATUS_TEXT[order.status], tickets: tickets.map(toQueueTicket) }
}

