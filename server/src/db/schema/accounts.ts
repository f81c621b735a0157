import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, users } from './core'
import { orders } from './payment'

// ---- top-ups of a patient's accounts at a hospital (issue 17: 门诊预交金 and 住院预交金) --------------------------------

/**
 * One top-up paid through the payment core: of the outpatient account (门诊预交金 / 就诊卡余额, kind `clinic`, order
 * business 'clinic_recharge') or of an admission's deposit (住院预交金, kind `inpatient`, business 'recharge').
 * `accountNo` is what the HIS credits: the outpatient account's number, or the admission number. The HIS is told in
 * the transaction that records the payment (onPaid); `hisKind` names the HIS told.
 */
export const recharges = pgTable(
  'recharges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    orderId: integer('order_id').notNull().references(() => orders.id),
    kind: text('kind').$type<'clinic' | 'inpatient'>().notNull(),
    hisKind: text('his_kind').$type<'sandbox' | 'http'>().notNull(),
    accountNo: text('account_no').notNull(),
    amountFen: integer('amount_fen').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('recharges_order_key').on(t.orderId),
    uniqueIndex('recharges_idempotency_key').on(t.userId, t.idempotencyKey),
    index('recharges_patient_idx').on(t.patientId, t.hospitalId, t.kind, t.createdAt),
    check('recharges_amount_positive', sql`${t.amountFen} > 0`),
  ],
)

// ---- the sandbox HIS: accounts and admissions ----------------------------------------------------------------------

/**
 * A patient's outpatient account at a sandbox hospital (one per patient key). It has no balance column on purpose:
 * the balance is the sum of its entries, always. The row is what a debit locks.
 */
export const hisAccounts = pgTable(
  'his_accounts',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    accountNo: text('account_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('his_accounts_patient_key').on(t.hospitalCode, t.patientKey), unique('his_accounts_no_key').on(t.hospitalCode, t.accountNo)],
)

/** The account's ledger, append-only: + a top-up or a refund of bills paid from it, - a payment of bills. */
export const hisAccountEntries = pgTable(
  'his_account_entries',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => hisAccounts.id),
    kind: text('kind').$type<'recharge' | 'payment' | 'refund'>().notNull(),
    amountFen: integer('amount_fen').notNull(),
    orderNo: text('order_no').notNull(),
    memo: text('memo').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('his_account_entries_order_key').on(t.accountId, t.orderNo, t.kind), check('his_account_entries_nonzero', sql`${t.amountFen} <> 0`)],
)

/**
 * A stay in hospital (住院). Deposits are the sum of its deposit entries, costs the sum of its daily charges; the
 * balance is deposits - costs. On discharge the balance is settled: returned (an entry `return`) or owed.
 */
export const hisAdmissions = pgTable(
  'his_admissions',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    admissionNo: text('admission_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    deptName: text('dept_name').notNull(),
    ward: text('ward').notNull(),
    bed: text('bed').notNull(),
    doctorName: text('doctor_name').notNull(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }).notNull(),
    status: text('status').$type<'in' | 'discharged'>().notNull(),
    dischargedAt: timestamp('discharged_at', { withTimezone: true }),
  },
  (t) => [
    unique('his_admissions_no_key').on(t.hospitalCode, t.admissionNo),
    uniqueIndex('his_admissions_in_key').on(t.hospitalCode, t.patientKey).where(sql`${t.status} = 'in'`),
    index('his_admissions_patient_idx').on(t.hospitalCode, t.patientKey, t.admittedAt),
  ],
)

/** An admission's deposit ledger: + a top-up, - the balance returned at discharge. */
export const hisDepositEntries = pgTable(
  'his_deposit_entries',
  {
    id: serial('id').primaryKey(),
    admissionId: integer('admission_id')
      .notNull()
      .references(() => hisAdmissions.id),
    kind: text('kind').$type<'deposit' | 'return'>().notNull(),
    amountFen: integer('amount_fen').notNull(),
    orderNo: text('order_no').notNull(),
    channel: text('channel').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('his_deposit_entries_order_key').on(t.admissionId, t.orderNo, t.kind), check('his_deposit_entries_nonzero', sql`${t.amountFen} <> 0`)],
)

/** What a stay costs, day by day (每日清单): catalogue items priced when posted. */
export const hisDailyCharges = pgTable(
  'his_daily_charges',
  {
    id: serial('id').primaryKey(),
    admissionId: integer('admission_id')
      .notNull()
      .references(() => hisAdmissions.id),
    chargeDate: text('charge_date').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    spec: text('spec').notNull(),
    unit: text('unit').notNull(),
    category: text('category').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceFen: integer('unit_price_fen').notNull(),
    amountFen: integer('amount_fen').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('his_daily_charges_day_idx').on(t.admissionId, t.chargeDate)],
)
