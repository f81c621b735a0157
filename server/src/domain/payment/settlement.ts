import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { PayChannel } from '../../../../types/api/payment'
import type { PayProvidersOf } from '../../plugins/providers'
import type { Db, Tx } from '../../db'
import { orders, paymentNotifications, refunds } from '../../db/schema'
import { AppError, badInput } from '../../errors'
import type { PaidReport, PayNotification, PayProvider, RefundAnswer } from '../../plugins/providers/pay'
import {
  DUPLICATE_PAYMENT_REFUND_REASON,
  LATE_PAYMENT_REFUND_REASON,
  PAID,
  UNDELIVERED_REFUND_REASON,
  handlersOf,
  lockOrder,
  newRefundNo,
  selfPayFen,
  transition,
  type OrderRow,
  type RefundRow,
} from './orders'
import { writeDuplicateLedger, writeLedger } from './ledger'
import { markInsuranceRefunded, returnInsurance, settleInsurance } from './insuranceState'

/** Money arriving and going back: provider notifications (or query answers), refunds, and their ledger rows. */

/** The core needs only the payment providers; the app's whole set fits. */
export function providerOf(providers: PayProvidersOf, channel: PayChannel): PayProvider | null {
  // the patient's hospital account is no provider: it is paid and refunded inside our own transactions
  if (channel === 'account') return null
  return providers.pay[channel] ?? null
}

/**
 * An order paid from the patient's account at the hospital (channel `account`): inside the caller's transaction,
 * created -> paying -> paid, the ledger, and the business's onPaid, which is where the HIS debits the account. No
 * savepoint: a refusal (the balance is short) rolls the caller's whole transaction back, so nothing was paid.
 */
export async function payInternally(tx: Tx, orderId: number, now: Date): Promise<OrderRow> {
  const order = await lockOrder(tx, { id: orderId })
  if (!order) throw badInput('订单不存在')
  if (PAID.includes(order.status)) return order
  if (order.status !== 'created') throw badInput('订单状态不允许支付')
  const paying = await transition(tx, order, 'paying', '发起支付（account）', { channel: 'account' })
  const paid = await transition(tx, paying, 'paid', '就诊卡余额支付', { tradeNo: order.orderNo, paidAt: now })
  await writeLedger(tx, paid, 'account', null)
  await handlersOf(paid.business).onPaid(tx, paid)
  return paid
}

/**
 * The refund of an order paid from the account, inside the caller's transaction (whose HIS call already credited the
 * account back): paid -> refunding -> refunded at once, with its ledger rows and the business's onRefunded.
 */
export async function refundInternally(tx: Tx, orderId: number, reason: string): Promise<void> {
  const order = await lockOrder(tx, { id: orderId })
  if (!order || order.channel !== 'account') throw new Error('not an order paid from the account')
  if (order.status === 'refunded') return
  const refund = await beginRefund(tx, order, reason)
  const [done] = await tx.update(refunds).set({ status: 'succeeded', finishedAt: new Date() }).where(eq(refunds.id, refund.id)).returning()
  const refunding = await lockOrder(tx, { id: orderId })
  const refunded = await transition(tx, refunding!, 'refunded', `退回就诊卡（${refund.refundNo}）`)
  await writeLedger(tx, refunded, 'account', done!)
  await handlersOf(refunded.business).onRefunded?.(tx, refunded)
}


/** A notification that must change nothing and be answered with a failure (unknown order, wrong amount...). */
export class NotificationRefused extends Error {}

/** Records a provider's notification once per (channel, notifyId); false when it came before (a copy changes nothing). */
async function recordNotification(tx: Tx, n: typeof paymentNotifications.$inferInsert): Promise<boolean> {
  const [recorded] = await tx
    .insert(paymentNotifications)
    .values({ ...n, payload: n.payload ?? {} })
    .onConflictDoNothing({ target: [paymentNotifications.channel, paymentNotifications.notifyId] })
    .returning({ id: paymentNotifications.id })
  return recorded !== undefined
}

export type PaidOutcome = 'paid' | 'copy' | 'late-refunded' | 'refused-by-business' | 'double-payment'

/** paid -> refunding with a pending refund of the whole self-paid amount; the provider is asked after commit. */
async function beginRefund(tx: Tx, order: OrderRow, reason: string): Promise<RefundRow> {
  await transition(tx, order, 'refunding', reason)
  const [refund] = await tx
    .insert(refunds)
    .values({ refundNo: newRefundNo(), orderId: order.id, amountFen: selfPayFen(order), status: 'pending', reason })
    .returning()
  return refund!
}

/**
 * A payment the provider reports (notification or query). In ONE transaction with the order row locked: record it
 * once per (channel, notifyId), check order number, amount and currency, mark paid, write the ledger, run onPaid.
 * A payment for an order already closed is kept as paid and refunded at once.
 */
export async function applyPaid(
  db: Db,
  providers: PayProvidersOf,
  channel: PayChannel,
  report: PaidReport & { notifyId: string; payload: unknown },
): Promise<PaidOutcome> {
  let refundToSubmit: RefundRow | null = null
  const outcome = await db.transaction(async (tx): Promise<PaidOutcome> => {
    const order = await lockOrder(tx, { orderNo: report.orderNo })
    if (!order) throw new NotificationRefused(`unknown order ${report.orderNo}`)
    if (report.currency !== 'CNY') throw new NotificationRefused(`currency ${report.currency} for ${order.orderNo}`)
    if (report.amountFen !== selfPayFen(order)) throw new NotificationRefused(`amount ${report.amountFen} for ${order.orderNo}, expected ${selfPayFen(order)}`)
    if (order.channel !== channel) throw new NotificationRefused(`channel ${channel} for ${order.orderNo} started on ${order.channel}`)
    const recorded = await recordNotification(tx, { channel, notifyId: report.notifyId, kind: 'paid', orderNo: order.orderNo, amountFen: report.amountFen, payload: report.payload })
    if (!recorded) return 'copy'
    if (PAID.includes(order.status)) {
      if (order.tradeNo === report.tradeNo) return 'copy'
      // the provider took a second payment for this order: it goes back at once, the order stays as it is
      const [known] = await tx.select({ id: refunds.id }).from(refunds).where(and(eq(refunds.orderId, order.id), eq(refunds.tradeNo, report.tradeNo))).limit(1)
      if (known) return 'copy'
      await writeDuplicateLedger(tx, order, channel, report.amountFen, null)
      const [refund] = await tx
        .insert(refunds)
        .values({ refundNo: newRefundNo(), orderId: order.id, amountFen: report.amountFen, status: 'pending', reason: DUPLICATE_PAYMENT_REFUND_REASON, tradeNo: report.tradeNo })
        .returning()
      refundToSubmit = refund!
      return 'double-payment'
    }

    const late = order.status === 'cancelled' || order.status === 'closed'
    const paid = await transition(tx, order, 'paid', late ? '订单关闭后收到支付' : '支付成功', {
      tradeNo: report.tradeNo,
      paidAt: report.paidAt,
      channel,
    })
    await writeLedger(tx, paid, channel, null)
    if (late) {
      refundToSubmit = await beginRefund(tx, paid, LATE_PAYMENT_REFUND_REASON)
      return 'late-refunded'
    }
    await settleInsurance(tx, paid.id)
    try {
      // a savepoint: a business that cannot deliver (AppError) rolls back its own work, and the money goes back
      await tx.transaction(async (sp) => handlersOf(paid.business).onPaid(sp, paid))
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      refundToSubmit = await beginRefund(tx, paid, UNDELIVERED_REFUND_REASON)
      return 'refused-by-business'
    }
    return 'paid'
  })
  if (refundToSubmit) await submitRefund(db, providers, refundToSubmit)
  return outcome
}

/**
 * Refunds of money the patient got nothing for (paid after the order closed, or the business could not deliver):
 * the order cannot go back to paid, since there is nothing to show for it.
 */
const OWED_REFUND_REASONS = [LATE_PAYMENT_REFUND_REASON, UNDELIVERED_REFUND_REASON, DUPLICATE_PAYMENT_REFUND_REASON]

/** retrying / stuck: a refund the patient is owed was refused (owedRefundFailed). */
export type RefundOutcome = 'refunded' | 'failed' | 'retrying' | 'stuck' | 'copy'
/** How often such a refund is asked again after the provider refused it, waiting 2, 4, 8 ... minutes (about 17 hours in all). */
export const OWED_REFUND_ATTEMPTS = 10

/**
 * The provider refused a refund the patient is owed: the order stays refunding and the same amount is asked again
 * under a new refund number after a growing wait; after OWED_REFUND_ATTEMPTS refusals it waits for staff ('stuck').
 */
async function owedRefundFailed(tx: Tx, order: OrderRow, refund: RefundRow, now: Date): Promise<'retrying' | 'stuck'> {
  const [{ failures } = { failures: 0 }] = await tx
    .select({ failures: sql<number>`count(*)`.mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), eq(refunds.status, 'failed'), eq(refunds.reason, refund.reason)))
  if (failures >= OWED_REFUND_ATTEMPTS) return 'stuck'
  const retryAt = new Date(now.getTime() + 2 ** failures * 60_000)
  await tx
    .insert(refunds)
    .values({ refundNo: newRefundNo(now), orderId: order.id, amountFen: refund.amountFen, status: 'pending', reason: refund.reason, retryAt, tradeNo: refund.tradeNo })
  return 'retrying'
}

/** The provider's word on returning a second payment: the duplicate's ledger rows reversed, or asked again later. */
async function settleDuplicateRefund(
  tx: Tx,
  order: OrderRow,
  channel: PayChannel,
  refund: RefundRow,
  report: { succeeded: boolean; providerRefundNo: string | null },
): Promise<RefundOutcome> {
  if (refund.status !== 'pending') return 'copy'
  const finishedAt = new Date()
  const [done] = await tx
    .update(refunds)
    .set({ status: report.succeeded ? 'succeeded' : 'failed', finishedAt, providerRefundNo: report.providerRefundNo ?? refund.providerRefundNo })
    .where(eq(refunds.id, refund.id))
    .returning()
  if (!report.succeeded) return owedRefundFailed(tx, order, refund, finishedAt)
  await writeDuplicateLedger(tx, order, channel, refund.amountFen, done!)
  return 'refunded'
}

/** A refund the provider reports: refunding -> refunded (ledger reversed, onRefunded), or back to paid when it failed. */
export async function applyRefundReport(
  db: Db,
  channel: PayChannel,
  report: { refundNo: string; orderNo: string; amountFen: number; succeeded: boolean; providerRefundNo: string | null },
  notification: { notifyId: string; payload: unknown } | null,
): Promise<RefundOutcome> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, { orderNo: report.orderNo })
    if (!order) throw new NotificationRefused(`unknown order ${report.orderNo}`)
    const [refund] = await tx.select().from(refunds).where(and(eq(refunds.refundNo, report.refundNo), eq(refunds.orderId, order.id))).for('update')
    if (!refund) throw new NotificationRefused(`unknown refund ${report.refundNo}`)
    if (report.amountFen !== refund.amountFen) throw new NotificationRefused(`refund amount ${report.amountFen} for ${refund.refundNo}`)
    if (order.channel !== channel) throw new NotificationRefused(`refund on ${channel} for an order paid on ${order.channel}`)
    if (notification) {
      const recorded = await recordNotification(tx, {
        channel,
        notifyId: notification.notifyId,
        kind: 'refunded',
        orderNo: order.orderNo,
        amountFen: report.amountFen,
        payload: notification.payload,
      })
      if (!recorded) return 'copy'
    }
    if (refund.tradeNo) return settleDuplicateRefund(tx, order, channel, refund, report)
    if (refund.status !== 'pending' || order.status !== 'refunding') return 'copy'
    const finishedAt = new Date()
    if (!report.succeeded) {
      await tx.update(refunds).set({ status: 'failed', finishedAt, providerRefundNo: report.providerRefundNo }).where(eq(refunds.id, refund.id))
      if (OWED_REFUND_REASONS.includes(refund.reason)) return owedRefundFailed(tx, order, refund, finishedAt)
      await transition(tx, order, 'paid', `退款失败（${refund.refundNo}）`)
      return 'failed'
    }
    const [done] = await tx
      .update(refunds)
      .set({ status: 'succeeded', finishedAt, providerRefundNo: report.providerRefundNo ?? refund.providerRefundNo })
      .where(eq(refunds.id, refund.id))
      .returning()
    const refunded = await transition(tx, order, 'refunded', `退款成功（${refund.refundNo}）`)
    await markInsuranceRefunded(tx, order.id)
    await writeLedger(tx, refunded, channel, done!)
    // an order refunded because it was never delivered has nothing for its business to undo
    if (refund.reason !== LATE_PAYMENT_REFUND_REASON && refund.reason !== UNDELIVERED_REFUND_REASON) {
      await handlersOf(refunded.business).onRefunded?.(tx, refunded)
    }
    return 'refunded'
  })
}

/** Applies a verified notification; NotificationRefused means it must change nothing and be answered with a failure. */
export async function applyNotification(db: Db, providers: PayProvidersOf, channel: PayChannel, n: PayNotification): Promise<string> {
  if (n.kind === 'paid') return applyPaid(db, providers, channel, n)
  if (n.kind === 'refund') return applyRefundReport(db, channel, n, { notifyId: n.notifyId, payload: n.payload })
  return 'ignored'
}

/**
 * Asks the provider to return a pending refund; a network failure leaves it pending for the next sweep. Answers what
 * came of it when the provider answered at once (null otherwise).
 */
export async function submitRefund(db: Db, providers: PayProvidersOf, refund: RefundRow): Promise<RefundOutcome | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, refund.orderId))
  if (!order?.channel) return null
  const provider = providerOf(providers, order.channel)
  if (!provider) return null
  let answer: RefundAnswer
  try {
    // a second payment was the patient's own money only: the order's insurance part stays settled
    if (!refund.tradeNo) await returnInsurance(db, providers, order, refund)
    answer = await provider.refund({
      orderNo: order.orderNo,
      refundNo: refund.refundNo,
      ...(refund.tradeNo ? { tradeNo: refund.tradeNo } : {}),
      amountFen: refund.amountFen,
      totalFen: selfPayFen(order),
      reason: refund.reason,
    })
  } catch {
    return null
  }
  if (answer.providerRefundNo) await db.update(refunds).set({ providerRefundNo: answer.providerRefundNo }).where(eq(refunds.id, refund.id))
  if (answer.status === 'pending') return null
  return applyRefundReport(
    db,
    order.channel,
    { refundNo: refund.refundNo, orderNo: order.orderNo, amountFen: refund.amountFen, succeeded: answer.status === 'succeeded', providerRefundNo: answer.providerRefundNo },
    null,
  )
}

/**
 * Inside the caller's transaction, so the business change that refunds (a cancelled booking) and the pending refund
 * commit together: paid -> refunding with a pending refund; null when it is already on its way back. The caller
 * submits it after commit (submitRefund); a crash in between leaves it pending for the sweep, never forgotten.
 */
export async function startRefund(tx: Tx, orderId: number, reason: string): Promise<RefundRow | null> {
  const order = await lockOrder(tx, { id: orderId })
  if (!order) throw badInput('订单不存在')
  if (order.status === 'refunding' || order.status === 'refunded') return null
  if (order.status !== 'paid') throw badInput('订单未支付，无法退款')
  return beginRefund(tx, order, reason)
}

/** Paid -> refunding; asks the provider; the provider's refund notification (or a successful synchronous answer) -> refunded. */
export async function refundOrder(db: Db, providers: PayProvidersOf, orderId: number, reason: string): Promise<OrderRow> {
  const refund = await db.transaction((tx) => startRefund(tx, orderId, reason))
  if (refund) await submitRefund(db, providers, refund)
  const [fresh] = await db.select().from(orders).where(eq(orders.id, orderId))
  return fresh!
}

/**
 * Asks again about refunds still pending after `olderThanMs` (the provider is idempotent on the refund number);
 * `onStuck` hears of each order whose owed refund the provider refused OWED_REFUND_ATTEMPTS times (staff must act).
 */
export async function retryPendingRefunds(
  db: Db,
  providers: PayProvidersOf,
  now = new Date(),
  olderThanMs = 60_000,
  onStuck?: (orderId: number) => void,
): Promise<number> {
  const pending = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.status, 'pending'),
        lt(refunds.createdAt, new Date(now.getTime() - olderThanMs)),
        or(isNull(refunds.retryAt), lte(refunds.retryAt, now)),
      ),
    )
    .orderBy(refunds.id)
    .limit(100)
  for (const r of pending) if ((await submitRefund(db, providers, r)) === 'stuck') onStuck?.(r.orderId)
  return pending.length
}
