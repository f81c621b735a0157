import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, patients, users } from './core'
import { orders } from './payment'

// ---- health insurance (医保移动支付, issue 4) -------------------------------------------------------------------------

/** One-time codes handed out by the sandbox insurance authorisation page (the real platform keeps its own). */
export const insuranceAuthCodes = pgTable('insurance_auth_codes', {
  codeHash: text('code_hash').primaryKey(),
  /** The insured person as the platform answers it, encrypted: it carries an identity number. */
  personEnc: text('person_enc').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
})

/**
 * A patient's insurance authorisation: the platform's payAuthNo (encrypted, it lets us settle on the person's
 * account) for the person the patient is, until it expires. The newest live one is used.
 */
export const insuranceAuths = pgTable(
  'insurance_auths',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    channel: text('channel').$type<'wechat' | 'alipay'>().notNull(),
    payAuthNoEnc: text('pay_auth_no_enc').notNull(),
    /** 310 职工基本医疗保险, 390 城乡居民基本医疗保险 ... as the platform names the person's insurance. */
    insuType: text('insu_type').notNull(),
    insuTypeName: text('insu_type_name').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('insurance_auths_patient_idx').on(t.patientId, t.expiresAt)],
)

export type InsuranceSettlementStatus = 'uploaded' | 'settled' | 'refunded' | 'void'

/**
 * How insurance splits one order (its fee upload answer): fund (统筹) + personal account = orders.insurance_fen, and
 * cash is what the patient pays through the channel. Settled when the order is paid, refunded with it; `void` when
 * the order closed unpaid.
 */
export const insuranceSettlements = pgTable(
  'insurance_settlements',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => orders.id),
    authId: integer('auth_id').notNull().references(() => insuranceAuths.id),
    /** The platform's id for this settlement (payOrdId). */
    payOrdId: text('pay_ord_id').notNull(),
    totalFen: integer('total_fen').notNull(),
    fundFen: integer('fund_fen').notNull(),
    accountFen: integer('account_fen').notNull(),
    cashFen: integer('cash_fen').notNull(),
    status: text('status').$type<InsuranceSettlementStatus>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('insurance_settlements_order_key').on(t.orderId)],
)
