import { randomInt } from 'node:crypto'
import { and, eq, inArray, isNull, lte, notInArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { OrderBusiness, OrderStatus, PayOrder } from '../../../../types/api/payment'
import { uniqueViolation, type Db, type Tx } from '../../db'
import { orderEvents, orders, refunds } from '../../db/schema'
import { AppError, Code, badInput, conflict } from '../../errors'
import type { FeeItem } from '../../plugins/providers/insurance'
import type { FieldCipher } from '../../crypto'
import { voidInsurance } from './insuranceState'
import { hospitalToday } from '@/utils/hospitalClock'

/** Orders, their state machine and the businesses that sell through them. */
export type OrderRow = typeof orders.$inferSelect
export type RefundRow = typeof refunds.$inferSelect
/** The core needs only the payment providers; the app's whole set fits. */

export interface NewOrder {
  userId: number
  hospitalId: number
  business: OrderBusiness
  businessId: number
  subject: string
  amountFen: number
  insuranceFen?: number
  expiresAt: Date
  idempotencyKey: string
}

/** What a business does when its order changes; called inside the transaction that changes the order. */
export interface OrderHandlers {
  onPaid(tx: Tx, order: OrderRow): Promise<void>
  onClosed(tx: Tx, order: OrderRow): Promise<void>
  onRefunded?(tx: Tx, order: OrderRow): Promise<void>
  /**
   * What health insurance may settle of this order: its patient and fee items, or null when the patient did not
   * choose insurance (businesses that never take insurance leave it out).
   */
  insuranceClaim?(db: Db | Tx, order: OrderRow, cipher: FieldCipher): Promise<{ patientId: number; items: FeeItem[] } | null>
}

/** The reason a payment that came for a closed or cancelled order is given back (money is never kept for nothing). */
export const LATE_PAYMENT_REFUND_REASON = '订单已关闭，自动退款'
/** The reason a payment is given back when its business refused it in onPaid (e.g. the thing sold is gone). */
export const UNDELIVERED_REFUND_REASON = '业务办理失败，自动退款'
/** A second payment for an order already paid (refunds.tradeNo names it): returned, the order untouched. */
export const DUPLICATE_PAYMENT_REFUND_REASON = '重复支付，自动退款'
export const ORDER_EXPIRED = '订单已超时关闭'
export const DUPLICATE_REQUEST = '重复的请求'

/**
 * The order state machine, the one place transitions are allowed. cancelled|closed -> paid exists only for a payment
 * that arrives after the order closed; that order is refunded in the same transaction (see applyPaid).
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  created: ['paying', 'cancelled', 'closed'],
  paying: ['paid', 'cancelled', 'closed'],
  paid: ['refunding'],
  refunding: ['refunded', 'paid'],
  cancelled: ['paid'],
  closed: ['paid'],
  refunded: [],
}

export const UNPAID: readonly OrderStatus[] = ['created', 'paying']
export const PAID: readonly OrderStatus[] = ['paid', 'refunding', 'refunded']

/**
 * An order the patient can still pay: unpaid and within its time (every record's `payable`). startPayment checks again
 * under the order's lock; an order past its time is closed by the sweep, or by whoever meets it first.
 */
export const payableNow = (order: Pick<OrderRow, 'status' | 'expiresAt'>, now: Date) => UNPAID.includes(order.status) && order.expiresAt.getTime() > now.getTime()

const handlers = new Map<OrderBusiness, OrderHandlers>()

/** Each business registers once at start-up; registering again replaces (tests use their own). */
export function registerBusiness(business: OrderBusiness, h: OrderHandlers): void {
  handlers.set(business, h)
}

export function handlersOf(business: OrderBusiness): OrderHandlers {
  const h = handlers.get(business)
  // a paid order nobody can deliver must not be acknowledged: the provider retries until the business is deployed
  if (!h) throw new Error(`no order handlers registered for business "${business}"`)
  return h
}

/** YYYYMMDD in the hospital's time zone. */
const shanghaiDate = (now: Date) => hospitalToday(now).replace(/-/g, '')

const randomDigits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('')

/** A letter + date + 12 random digits: unguessable, so a number alone never finds someone else's order or record. */
export const newBusinessNo = (letter: string, now = new Date()) => `${letter}${shanghaiDate(now)}${randomDigits(12)}`
export const newOrderNo = (now = new Date()) => newBusinessNo('P', now)
export const newRefundNo = (now = new Date()) => newBusinessNo('R', now)

export const selfPayFen = (o: Pick<OrderRow, 'amountFen' | 'insuranceFen'>) => o.amountFen - o.insuranceFen

/** Moves an order along the state machine and writes the event; refuses any transition the table does not list. */
export async function transition(tx: Tx, order: OrderRow, to: OrderStatus, reason: string, set: Partial<OrderRow> = {}): Promise<OrderRow> {
  if (!ORDER_TRANSITIONS[order.status].includes(to)) throw conflict('订单当前状态不允许此操作')
  // conditional on the status read: a concurrent change makes this update miss instead of overwriting it
  const [row] = await tx
    .update(orders)
    .set({ ...set, status: to })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning()
  if (!row) throw conflict('订单状态已变化，请刷新后重试')
  await tx.insert(orderEvents).values({ orderId: order.id, fromStatus: order.status, toStatus: to, reason })
  return row
}

export async function lockOrder(tx: Tx, where: { id: number } | { orderNo: string }): Promise<OrderRow | undefined> {
  const cond = 'id' in where ? eq(orders.id, where.id) : eq(orders.orderNo, where.orderNo)
  const [row] = await tx.select().from(orders).where(cond).for('update')
  return row
}

/**
 * Inside the caller's transaction. Same (userId, idempotencyKey) answers the existing order, never a second one;
 * the same key with a different amount or purpose is refused (409).
 * `alongside`: the business's own insert (with a `returning`), run in the same statement as the order's creation, a
 * round trip fewer; given the new order's id as a subquery. It runs whether or not the order is created: it must fail
 * by itself when the order exists already (the business row's own idempotency key, as the order's was its), or it
 * would be written with no order.
 */
export async function createOrder(tx: Tx, input: NewOrder, alongside?: (orderId: SQL) => SQLWrapper): Promise<OrderRow> {
  const insuranceFen = input.insuranceFen ?? 0
  // money only in integer fen; the channel part must be at least 1 fen (no provider takes a 0 payment)
  if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) throw badInput('订单金额不正确')
  if (!Number.isSafeInteger(insuranceFen) || insuranceFen < 0 || insuranceFen >= input.amountFen) throw badInput('医保支付金额不正确')
  const key = input.idempotencyKey.trim()
  if (!key || key.length > 128) throw badInput('缺少请求编号')
  const subject = input.subject.trim()
  if (!subject || subject.length > 64) throw badInput('订单说明不正确')
  if (!(input.expiresAt instanceof Date) || Number.isNaN(input.expiresAt.getTime())) throw badInput('订单有效期不正确')

  // the order and its first event in one statement (one round trip of every order's creation): the event's CTE
  // inserts only when the order's did (a conflict on the key inserts nothing and returns no row)
  const created = tx.$with('created').as(
    tx
      .insert(orders)
      .values({
        orderNo: newOrderNo(),
        userId: input.userId,
        hospitalId: input.hospitalId,
        business: input.business,
        businessId: input.businessId,
        subject,
        amountFen: input.amountFen,
        insuranceFen,
        status: 'created',
        expiresAt: input.expiresAt,
        idempotencyKey: key,
      })
      .onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] })
      .returning(),
  )
  const firstEvent = tx
    .$with('first_event', { orderId: sql<number>`order_id` })
    .as(
      sql`insert into ${orderEvents} (order_id, from_status, to_status, reason) select id, null, 'created', ${'创建订单'} from ${created} returning order_id`,
    )
  const business = alongside ? tx.$with('business', { id: sql<number>`id` }).as(alongside(sql`(select id from ${created})`).getSQL()) : null
  const [inserted] = await tx
    .with(created, firstEvent, ...(business ? [business] : []))
    .select()
    .from(created)
  if (inserted) return inserted
  const [existing] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, key)))
  if (!existing) throw conflict(DUPLICATE_REQUEST) // the other request rolled back between our insert and select
  const same =
    existing.amountFen === input.amountFen &&
    existing.insuranceFen === insuranceFen &&
    existing.business === input.business &&
    existing.businessId === input.businessId &&
    existing.hospitalId === input.hospitalId
  if (!same) throw conflict(DUPLICATE_REQUEST)
  return existing
}

/** Closes one unpaid order (cancelled by someone, or closed by time) and lets its business release what it held. */
async function closeLocked(tx: Tx, order: OrderRow, to: 'cancelled' | 'closed', reason: string): Promise<OrderRow> {
  const row = await transition(tx, order, to, reason)
  await voidInsurance(tx, row.id)
  await handlersOf(row.business).onClosed(tx, row)
  return row
}

/**
 * An unpaid order the patient or the business gives up: created|paying -> cancelled (onClosed runs). An order already
 * cancelled or closed is answered as it is; a paid one is refused (it needs a refund). A payment that still arrives
 * for it is refunded at once.
 */
export async function cancelOrder(tx: Tx, orderId: number, reason: string): Promise<OrderRow> {
  const order = await lockOrder(tx, { id: orderId })
  if (!order) throw badInput('订单不存在')
  if (order.status === 'cancelled' || order.status === 'closed') return order
  if (!UNPAID.includes(order.status)) throw conflict('订单已支付，请申请退款')
  return closeLocked(tx, order, 'cancelled', reason)
}

/**
 * Closes every unpaid order past expiresAt (onClosed runs for each); answers how many. Idempotent, safe to run
 * concurrently. Each order closes in its own transaction, so one whose business fails does not hold back the rest:
 * its error goes to `onError` (or is thrown once the others are closed).
 */
export async function closeExpiredOrders(db: Db, now = new Date(), onError?: (orderId: number, err: unknown) => void): Promise<number> {
  let closed = 0
  const seen: number[] = []
  const errors: unknown[] = []
  for (let pass = 0; pass < 100; pass++) {
    const due = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.status, UNPAID), lte(orders.expiresAt, now), seen.length ? notInArray(orders.id, seen) : undefined))
      .orderBy(orders.id)
      .limit(100)
    if (!due.length) break
    for (const { id } of due) {
      seen.push(id)
      try {
        const did = await db.transaction(async (tx) => {
          // SKIP LOCKED: an order another run (or a notification) holds is theirs to settle
          const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update', { skipLocked: true })
          if (!order || !UNPAID.includes(order.status) || order.expiresAt.getTime() > now.getTime()) return false
          await closeLocked(tx, order, 'closed', '超时未支付，订单关闭')
          return true
        })
        if (did) closed += 1
      } catch (err) {
        if (onError) onError(id, err)
        else errors.push(err)
      }
    }
  }
  if (errors.length) throw new AggregateError(errors, `closing ${errors.length} expired orders failed (${closed} closed)`)
  return closed
}


/**
 * What the patient reads of a business given up after it was paid, while its money goes back: 已退款, 退款中, or
 * 退款失败 (the order still paid: the provider refused the refund); null when its order was never paid.
 */
export function refundText(order: Pick<OrderRow, 'status'> | null): string | null {
  switch (order?.status) {
    case 'refunded':
      return '已退款'
    case 'refunding':
      return '退款中'
    case 'paid':
      return '退款失败'
    default:
      return null
  }
}

/** The order as the payer sees it (types/api/payment.ts PayOrder). */
export function toPayOrder(order: OrderRow, refundedFen: number): PayOrder {
  return {
    orderNo: order.orderNo,
    business: order.business,
    subject: order.subject,
    amountFen: order.amountFen,
    insuranceFen: order.insuranceFen,
    selfPayFen: selfPayFen(order),
    status: order.status,
    channel: order.channel ?? null,
    expiresAt: order.expiresAt.toISOString(),
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    refundedFen,
    createdAt: order.createdAt.toISOString(),
  }
}

/**
 * The money given back so far, by order id (an order with none is left out): succeeded refunds only, and not the
 * return of a second payment (refunds.tradeNo names it), which never was part of the order's amount.
 */
export async function refundedFenByOrder(db: Db | Tx, orderIds: number[]): Promise<Map<number, number>> {
  const refunded = new Map<number, number>()
  if (!orderIds.length) return refunded
  const sums = await db
    .select({ orderId: refunds.orderId, total: sql<string>`coalesce(sum(${refunds.amountFen}), 0)` })
    .from(refunds)
    .where(and(inArray(refunds.orderId, orderIds), eq(refunds.status, 'succeeded'), isNull(refunds.tradeNo)))
    .groupBy(refunds.orderId)
  for (const s of sums) refunded.set(s.orderId, Number(s.total))
  return refunded
}

export async function refundedFenOf(db: Tx, orderId: number): Promise<number> {
  return (await refundedFenByOrder(db, [orderId])).get(orderId) ?? 0
}

/**
 * For a call that creates a business row and its order under an idempotency key: a retry of the same attempt that
 * raced the first one is answered with what the first one made (`find`), whatever went wrong; the refusal otherwise.
 */
export const answerWithMadeMeanwhile =
  <T>(find: () => Promise<T | null>) =>
  async (refusal: unknown): Promise<T> => {
    const made = await find()
    if (made === null) throw refusal
    return made
  }

/**
 * Where the creating transaction failed on the same key used at once (the business's unique index on (user, key),
 * answered 409 `sameKeyOther`, or the order's own idempotency check, a 409 already): what the other attempt made.
 * Any other failure is thrown again.
 */
export async function answerSameKeyRace<T>(
  err: unknown,
  keyConstraint: string,
  sameKeyOther: string,
  madeMeanwhile: (refusal: AppError) => Promise<T>,
): Promise<T> {
  if (uniqueViolation(err) === keyConstraint) return madeMeanwhile(conflict(sameKeyOther))
  if (err instanceof AppError && err.code === Code.CONFLICT) return madeMeanwhile(err)
  throw err
}


/** Closes an expired unpaid order on the spot (the timer may not have come yet) and answers whether it did. */
export async function closeIfExpired(db: Db, orderId: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, { id: orderId })
    if (!order || !UNPAID.includes(order.status) || order.expiresAt.getTime() > now.getTime()) return false
    await closeLocked(tx, order, 'closed', '超时未支付，订单关闭')
    return true
  })
}
