import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, users } from './core'

// ---- payment core (issue 4; every paid flow) ---------------------------------------------------------------------

export type OrderStatus = 'created' | 'paying' | 'paid' | 'cancelled' | 'refunding' | 'refunded' | 'closed'
export type OrderBusiness = 'register' | 'outpatient' | 'recharge' | 'clinic_recharge' | 'inquiry' | 'gift' | 'pharmacy' | 'physical' | 'nucleic'
export type PayChannel = 'sandbox' | 'wechat' | 'alipay' | 'account'

/**
 * What a patient pays for, in fen (integers only). `insuranceFen` is the part health insurance settles; the patient
 * pays `amountFen - insuranceFen` through `channel`. Every status change is also written to `order_events`.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    business: text('business').$type<OrderBusiness>().notNull(),
    /** The id of the thing paid for in its own table (registrations.id, ...). */
    businessId: integer('business_id').notNull(),
    subject: text('subject').notNull(),
    amountFen: integer('amount_fen').notNull(),
    insuranceFen: integer('insurance_fen').notNull().default(0),
    status: text('status').$type<OrderStatus>().notNull(),
    channel: text('channel').$type<PayChannel>(),
    /** The payment provider's transaction id, once paid. */
    tradeNo: text('trade_no'),
    /** Unpaid orders close at this time. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    uniqueIndex('orders_idempotency_key').on(t.userId, t.idempotencyKey),
    index('orders_business_idx').on(t.business, t.businessId),
    index('orders_user_idx').on(t.userId, t.createdAt),
    // the order sweep (payment/orders.ts closeExpiredOrders): the few unpaid orders, not a scan of every order
    index('orders_unpaid_expiry_idx').on(t.expiresAt).where(sql`${t.status} in ('created', 'paying')`),
  ],
)

/** Every transition of an order, append-only. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => orders.id),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>().notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId)],
)

export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    refundNo: text('refund_no').notNull(),
    orderId: integer('order_id').notNull().references(() => orders.id),
    amountFen: integer('amount_fen').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull(),
    reason: text('reason').notNull(),
    providerRefundNo: text('provider_refund_no'),
    createdAt: createdAt(),
    /** A refund the provider refused once is asked again no earlier than this (settlement.ts, refunds the patient is owed). */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /**
     * The provider's transaction this refund returns when it is not the order's own payment: a second payment for an
     * order already paid (settlement.ts). Such a refund leaves the order as it is.
     */
    tradeNo: text('trade_no'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('refunds_refund_no_key').on(t.refundNo), index('refunds_order_idx').on(t.orderId)],
)

/**
 * Every payment or refund notification a provider sent, kept once per (channel, notifyId): a copy that arrives again,
 * however concurrently, finds the row and changes nothing.
 */
export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    id: serial('id').primaryKey(),
    channel: text('channel').$type<PayChannel>().notNull(),
    notifyId: text('notify_id').notNull(),
    kind: text('kind').$type<'paid' | 'refunded'>().notNull(),
    orderNo: text('order_no').notNull(),
    amountFen: integer('amount_fen').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_notifications_key').on(t.channel, t.notifyId)],
)

/**
 * Double-entry ledger, append-only: each movement of money is two rows with opposite signs, so every account's
 * balance is the sum of its rows and all rows sum to zero. Accounts: `channel:<channel>` (money held by the payment
 * provider), `insurance` (owed by health insurance), `hospital:<code>` (the hospital's income).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => orders.id),
    refundId: integer('refund_id').references(() => refunds.id),
    account: text('account').notNull(),
    amountFen: integer('amount_fen').notNull(),
    memo: text('memo').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.account), index('ledger_entries_order_idx').on(t.orderId)],
)
