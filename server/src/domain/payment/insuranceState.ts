/**
 * A health-insurance settlement's life with its order, inside the order's own transactions: settled when the order is
 * paid, void when it closes unpaid, given back to the platform before a refund's cash goes back (insurance.ts has the
 * patient's insurance calls).
 */
import { and, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db'
import { insuranceSettlements, type orders } from '../../db/schema'
import type { PayProvidersOf } from '../../plugins/providers'

type SettlementRow = typeof insuranceSettlements.$inferSelect

const setStatus = (tx: Tx, orderId: number, from: SettlementRow['status'], to: SettlementRow['status']) =>
  tx
    .update(insuranceSettlements)
    .set({ status: to, updatedAt: new Date() })
    .where(and(eq(insuranceSettlements.orderId, orderId), eq(insuranceSettlements.status, from)))

/** The order is paid: the insurance part is settled with it. */
export const settleInsurance = (tx: Tx, orderId: number) => setStatus(tx, orderId, 'uploaded', 'settled')
/** The order closed unpaid: the uploaded split is void. */
export const voidInsurance = (tx: Tx, orderId: number) => setStatus(tx, orderId, 'uploaded', 'void')
/** The order's refund succeeded: the insurance part was given back before it (returnInsurance). */
export const markInsuranceRefunded = (tx: Tx, orderId: number) => setStatus(tx, orderId, 'settled', 'refunded')

/**
 * Before the cash goes back, the insurance part is given back to the platform (idempotent on the refund number); a
 * platform that cannot be reached leaves the refund pending for the next sweep.
 */
export async function returnInsurance(db: Db, providers: PayProvidersOf, order: Pick<typeof orders.$inferSelect, 'id' | 'orderNo'>, refund: { refundNo: string; reason: string }): Promise<void> {
  const [s] = await db.select().from(insuranceSettlements).where(eq(insuranceSettlements.orderId, order.id))
  if (!s || s.status !== 'settled') return
  await providers.insurance.refund({ payOrdId: s.payOrdId, orderNo: order.orderNo, refundNo: refund.refundNo, reason: refund.reason })
}
