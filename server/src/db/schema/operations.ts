import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { createdAt } from './core'

/**
 * Per-caller limits on costly calls (domain/limits.ts): how many calls one account made in one fixed window, in the
 * database so that every server process counts the same calls. Old windows are pruned by the order sweep.
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_counters_window_idx').on(t.windowStart)],
)

/**
 * Who read or changed health data and money, and when (domain/audit.ts): one row per patient touched by a call of a
 * patient, a staff member at the workbench or an administrator. Append-only: the code has no path that changes or
 * removes a row, and a trigger refuses UPDATE, DELETE and TRUNCATE (migration 0013). It holds ids, never content.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorKind: text('actor_kind').$type<'patient' | 'staff' | 'admin'>().notNull(),
    /** The user (patient, admin) or the workbench account (staff). */
    actorId: integer('actor_id').notNull(),
    action: text('action').$type<'read' | 'change'>().notNull(),
    /** What kind of data (audit.ts AuditSubject). */
    subject: text('subject').notNull(),
    /** The call: method and route pattern, e.g. `GET /dld-palm/api/patient/:id`. */
    route: text('route').notNull(),
    /** The patient whose data it was, when the data is a patient's. */
    patientId: integer('patient_id'),
    /** The account whose data it was, when it is the account's own (chat history). */
    userId: integer('user_id'),
    address: text('address').notNull(),
    requestId: text('request_id').notNull(),
  },
  (t) => [
    index('audit_log_patient_idx').on(t.patientId, t.at),
    index('audit_log_user_idx').on(t.userId, t.at),
    index('audit_log_actor_idx').on(t.actorKind, t.actorId, t.at),
    // an administrator's search without a filter (audit.ts searchAudit): the newest page of a log that only grows
    index('audit_log_at_idx').on(t.at),
  ],
)

/**
 * The sandbox payment provider's own books (plugins/providers/pay.ts sandboxPay), standing in for the provider's side:
 * the trades it was told to collect and whether it took the money, the refunds it made, and the notifications it owes
 * this server. In the database, so that a payment the cashier confirmed survives a crash and every server process
 * sees the same cashier.
 */
export const sandboxPayTrades = pgTable('sandbox_pay_trades', {
  orderNo: text('order_no').primaryKey(),
  subject: text('subject').notNull(),
  hospitalName: text('hospital_name').notNull(),
  amountFen: integer('amount_fen').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  tradeNo: text('trade_no'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
})

export const sandboxPayRefunds = pgTable(
  'sandbox_pay_refunds',
  {
    refundNo: text('refund_no').primaryKey(),
    orderNo: text('order_no').notNull(),
    amountFen: integer('amount_fen').notNull(),
    providerRefundNo: text('provider_refund_no').notNull(),
  },
  (t) => [index('sandbox_pay_refunds_order_idx').on(t.orderNo)],
)

/** Notifications the sandbox owes the server, written with the change they tell of and kept until answered success. */
export const sandboxPayOutbox = pgTable(
  'sandbox_pay_outbox',
  {
    id: serial('id').primaryKey(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('sandbox_pay_outbox_pending_idx').on(t.deliveredAt)],
)

/**
 * Chat signatures of an account issued at or before `revokedAt` no longer open our chat socket: the account's mobile
 * was unbound, and a signature lives 7 days. One row per account, moved forward at each revocation.
 */
export const chatRevocations = pgTable('chat_revocations', {
  account: text('account').primaryKey(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull(),
})

/**
 * Wrong workbench passwords per login and client address (domain/staff.ts): kept in the database so that every
 * server process counts the same guesses, and per address so that guessing from one place never locks a doctor out
 * everywhere. Rows of unknown logins are kept too (the answer must not say which logins exist) and pruned by age.
 */
export const staffLoginFailures = pgTable(
  'staff_login_failures',
  {
    login: text('login').notNull(),
    address: text('address').notNull(),
    failures: integer('failures').notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.login, t.address] }), index('staff_login_failures_last_idx').on(t.lastFailureAt)],
)
