/**
 * The pharmacy console of the workbench (pharmacist of the store's hospital): the stores' orders by status, and each
 * step a pharmacy takes: ship (paid delivery), ready (paid pickup), complete, and accepting a refund request. Every
 * step is a conditional update on the status read and writes a step the patient's order page lists.
 */
import { and, desc, eq, inArray } from 'drizzle-orm'
import type { PharmacyOrder, PharmacyOrderStatus } from '../../../../types/api/pharmacy'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { pharmacyOrders } from '../../db/schema'
import { badInput, notFound } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import { startRefund, submitRefund } from '../payment'
import type { StaffContext } from '../staff'
import { addEvent, orderView, type PharmacyOrderRow } from './orders'

export const CONSOLE_LIST_MAX = 100

/** An order of the pharmacist's hospital; another hospital's answers like a missing one. */
async function requireHospitalOrder(db: Db, staff: StaffContext, id: number): Promise<PharmacyOrderRow> {
  const [row] = await db
    .select()
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.id, id), eq(pharmacyOrders.hospitalId, staff.hospitalId)))
  if (!row) throw notFound('订单')
  return row
}

/** GET /pharmacy/orders?status=: the hospital's orders, newest first (unpaid ones are the patients' business). */
export async function consoleOrders(db: Db, cipher: FieldCipher, staff: StaffContext, status?: PharmacyOrderStatus): Promise<PharmacyOrder[]> {
  const rows = await db
    .select({ id: pharmacyOrders.id })
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.hospitalId, staff.hospitalId), status ? eq(pharmacyOrders.status, status) : undefined))
    .orderBy(desc(pharmacyOrders.createdAt), desc(pharmacyOrders.id))
    .limit(CONSOLE_LIST_MAX)
  return Promise.all(rows.map((r) => orderView(db, cipher, r.id, true)))
}

/** The patients of the orders the pharmacist was answered, for the audit log. */
export async function orderPatients(db: Db, orderIds: number[]): Promise<number[]> {
  if (!orderIds.length) return []
  const rows = await db.select({ patientId: pharmacyOrders.patientId }).from(pharmacyOrders).where(inArray(pharmacyOrders.id, orderIds))
  return rows.flatMap((r) => (r.patientId === null ? [] : [r.patientId]))
}

/** Moves an order from one of `from` to `to` with `set`, refusing with `refusal` when its status is another. */
async function step(
  db: Db,
  cipher: FieldCipher,
  staff: StaffContext,
  id: number,
  move: { from: PharmacyOrderStatus[]; to: PharmacyOrderStatus; delivery?: 'express' | 'pickup'; set?: Partial<PharmacyOrderRow>; note: string; refusal: string },
): Promise<PharmacyOrder> {
  const o = await requireHospitalOrder(db, staff, id)
  if (move.delivery && o.delivery !== move.delivery) throw badInput(move.refusal)
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ ...move.set, status: move.to })
      .where(and(eq(pharmacyOrders.id, id), inArray(pharmacyOrders.status, move.from)))
      .returning()
    if (!row) throw badInput(move.refusal)
    await addEvent(tx, id, move.to, move.note)
  })
  return orderView(db, cipher, id, true)
}

/** POST /pharmacy/orders/{id}/ship {carrier, trackingNo}: a paid delivery order handed to the carrier. */
export function shipOrder(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, input: { carrier: string; trackingNo: string }, now: Date) {
  return step(db, cipher, staff, id, {
    from: ['paid'],
    to: 'shipped',
    delivery: 'express',
    set: { carrier: input.carrier, trackingNo: input.trackingNo, shippedAt: now },
    note: `${input.carrier} ${input.trackingNo}`,
    refusal: '只有已支付的快递订单可以发货',
  })
}

/** POST /pharmacy/orders/{id}/ready: a paid pickup order's medicines are waiting at the store. */
export function readyOrder(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date) {
  return step(db, cipher, staff, id, {
    from: ['paid'],
    to: 'ready',
    delivery: 'pickup',
    set: { shippedAt: now },
    note: '药品已备好，请凭取药码到药房取药',
    refusal: '只有已支付的自取订单可以备药',
  })
}

/** POST /pharmacy/orders/{id}/complete: delivered or picked up. */
export function completeOrder(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date) {
  return step(db, cipher, staff, id, {
    from: ['shipped', 'ready'],
    to: 'completed',
    set: { completedAt: now },
    note: '订单已完成',
    refusal: '只有已发货或待取药的订单可以完成',
  })
}

/**
 * POST /pharmacy/orders/{id}/refund: a refund request accepted; the whole amount goes back through the payment core.
 * The medicines left the pharmacy, so the stock does not come back.
 */
export async function acceptRefund(db: Db, cipher: FieldCipher, providers: PayProvidersOf, staff: StaffContext, id: number, now: Date): Promise<PharmacyOrder> {
  const o = await requireHospitalOrder(db, staff, id)
  if (o.status !== 'refundRequested' || !o.orderId) throw badInput('只有申请退款的订单可以退款')
  const refund = await db.transaction(async (tx) => {
    // the payment order first, as everywhere: then the pharmacy order's own conditional update
    const pending = await startRefund(tx, o.orderId!, o.refundReason || '药房同意退款')
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ status: 'refunded', cancelledAt: now })
      .where(and(eq(pharmacyOrders.id, id), eq(pharmacyOrders.status, 'refundRequested')))
      .returning()
    if (!row) throw badInput('只有申请退款的订单可以退款')
    await addEvent(tx, id, 'refunded', '药房同意退款，费用原路退回', now)
    return pending
  })
  if (refund) await submitRefund(db, providers, refund)
  return orderView(db, cipher, id, true)
}
