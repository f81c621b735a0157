import { eq, sql } from 'drizzle-orm'
import type { PayChannel } from '../../../../types/api/payment'
import type { Tx } from '../../db'
import { ledgerEntries } from '../../db/schema'
import { codeOfHospital } from '../hospital'
import { selfPayFen, type OrderRow, type RefundRow } from './orders'

/** The hospital's account, `hospital:<code>` (its id when it has none), worked out by the ledger's own insert. */
const hospitalAccount = (hospitalId: number) => sql<string>`'hospital:' || coalesce(${codeOfHospital(hospitalId)}, ${String(hospitalId)})`

/**
 * Double entry: on payment the channel (money held by the provider) and insurance (owed by it) are debited and the
 * hospital's income credited; a refund writes the same rows reversed. Every pair sums to zero.
 */
export async function writeLedger(tx: Tx, order: OrderRow, channel: PayChannel, refund: RefundRow | null): Promise<void> {
  const sign = refund ? -1 : 1
  const memo = refund ? `退款 ${refund.refundNo}` : `支付 ${order.orderNo}`
  const hospital = hospitalAccount(order.hospitalId)
  const rows = [
    { account: `channel:${channel}`, amountFen: sign * selfPayFen(order) },
    ...(order.insuranceFen ? [{ account: 'insurance', amountFen: sign * order.insuranceFen }] : []),
    { account: hospital, amountFen: -sign * order.amountFen },
  ]
  await tx.insert(ledgerEntries).values(rows.map((r) => ({ ...r, orderId: order.id, refundId: refund?.id ?? null, memo })))
}



/**
 * A second payment for an order already paid: the channel holds it and owes it back to the payer (`duplicate`) until
 * its refund writes the same rows reversed. The order's own rows are not touched.
 */
export async function writeDuplicateLedger(tx: Tx, order: OrderRow, channel: PayChannel, amountFen: number, refund: RefundRow | null): Promise<void> {
  const sign = refund ? -1 : 1
  const memo = refund ? `退还重复支付 ${refund.refundNo}` : `重复支付 ${order.orderNo}`
  await tx.insert(ledgerEntries).values([
    { account: `channel:${channel}`, amountFen: sign * amountFen, orderId: order.id, refundId: refund?.id ?? null, memo },
    { account: DUPLICATE_ACCOUNT, amountFen: -sign * amountFen, orderId: order.id, refundId: refund?.id ?? null, memo },
  ])
}

/** Money taken twice, owed back to those who paid it. */
export const DUPLICATE_ACCOUNT = 'duplicate'

/** An account's balance in fen: the sum of its rows. */
export async function ledgerBalance(db: Tx, account: string): Promise<number> {
  const [row] = await db.select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountFen}), 0)` }).from(ledgerEntries).where(eq(ledgerEntries.account, account))
  return Number(row?.total ?? 0)
}

/** The sum of every ledger row: 0 when every movement was written as a balanced pair. */
export async function ledgerImbalance(db: Tx): Promise<number> {
  const [row] = await db.select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountFen}), 0)` }).from(ledgerEntries)
  return Number(row?.total ?? 0)
}
