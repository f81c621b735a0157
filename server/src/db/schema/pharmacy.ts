import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, users } from './core'
import { inquiries } from './inquiry'
import { orders } from './payment'
import { doctors } from './register'

// ---- medicines: the formulary, prescriptions, pharmacist review, pharmacy and shop orders (issue 19) ----------------

/** A hospital pharmacist: reviews (审方) every prescription before it can be ordered; signs in to the workbench. */
export const pharmacists = pgTable('pharmacists', {
  id: serial('id').primaryKey(),
  hospitalId: integer('hospital_id')
    .notNull()
    .references(() => hospitals.id),
  name: text('name').notNull(),
  title: text('title').notNull().default('药师'),
  createdAt: createdAt(),
})

/** The shop's categories (spec §7 `drugType/list`). */
export const drugTypes = pgTable('drug_types', {
  id: serial('id').primaryKey(),
  hospitalId: integer('hospital_id')
    .notNull()
    .references(() => hospitals.id),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
})

export type DrugCategory = 'western' | 'patent' | 'chinese'

/**
 * One medicine of the hospital's formulary. What doctors prescribe and what the shop sells are the same rows: `rx`
 * marks a prescription-only medicine (处方药), which the shop sells only against a reviewed prescription of that
 * patient; `onShelf` puts an over-the-counter one in the shop. Prices in fen per `unit` (盒, 瓶; g for 中药饮片).
 */
export const drugs = pgTable(
  'drugs',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** 通用名 */
    commonName: text('common_name').notNull().default(''),
    category: text('category').$type<DrugCategory>().notNull(),
    /** 规格, e.g. "0.25g*24粒" (drugSpec). */
    spec: text('spec').notNull().default(''),
    /** The unit of the specification's dose, e.g. "g", "mg", "粒" (drugSpecUnit). */
    specUnit: text('spec_unit').notNull().default(''),
    /** The unit sold and counted in stock: 盒, 瓶, g. */
    unit: text('unit').notNull(),
    dosageForm: text('dosage_form').notNull().default(''),
    manufacturer: text('manufacturer').notNull().default(''),
    /** The usage printed on a new prescription line until the doctor changes it. */
    defaultUsage: text('default_usage').notNull().default(''),
    priceFen: integer('price_fen').notNull(),
    rx: boolean('rx').notNull().default(true),
    onShelf: boolean('on_shelf').notNull().default(false),
    typeId: integer('type_id').references(() => drugTypes.id),
    picture: text('picture').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('drugs_code_key').on(t.hospitalId, t.code),
    index('drugs_type_idx').on(t.hospitalId, t.typeId),
    check('drugs_price_positive', sql`${t.priceFen} > 0`),
  ],
)

/** A pharmacy that fills the hospital's prescriptions and sells its shop (spec `/internet/store/index`, `store/detail`). */
export const pharmacyStores = pgTable('pharmacy_stores', {
  id: serial('id').primaryKey(),
  hospitalId: integer('hospital_id')
    .notNull()
    .references(() => hospitals.id),
  name: text('name').notNull(),
  address: text('address').notNull(),
  phone: text('phone').notNull().default(''),
  /** e.g. "08:00-20:00" */
  hours: text('hours').notNull().default(''),
  intro: text('intro').notNull().default(''),
  latitude: text('latitude'),
  longitude: text('longitude'),
  delivery: boolean('delivery').notNull().default(true),
  pickup: boolean('pickup').notNull().default(true),
  /**
   * Delivery fee (spec §9: 15 yuan by default) and the order amount from which delivery is free (null: never). The
   * spec's 0.01 yuan "in dev/pro" is its test profiles' fee, for paying with real money while testing: a hospital's
   * test deployment sets it on its stores' rows; nothing in the code depends on the deployment's name.
   */
  expressFeeFen: integer('express_fee_fen').notNull().default(1500),
  freeShippingFromFen: integer('free_shipping_from_fen'),
  createdAt: createdAt(),
})

/** What a store has on its shelf; `quantity` never goes below 0 (an order takes stock in one conditional update). */
export const storeStock = pgTable(
  'store_stock',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => pharmacyStores.id),
    drugId: integer('drug_id')
      .notNull()
      .references(() => drugs.id),
    quantity: integer('quantity').notNull(),
  },
  (t) => [uniqueIndex('store_stock_key').on(t.storeId, t.drugId), check('store_stock_nonnegative', sql`${t.quantity} >= 0`)],
)

/** The cities a store delivers to (spec `supportCity`, `shipProvince`, `shipCity`), GB/T 2260 codes as addresses have. */
export const storeShipCities = pgTable(
  'store_ship_cities',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => pharmacyStores.id),
    provinceCode: integer('province_code').notNull(),
    cityCode: integer('city_code').notNull(),
  },
  (t) => [uniqueIndex('store_ship_cities_key').on(t.storeId, t.cityCode)],
)

/** One diagnosis of a prescription, from `common/diseaseCode`. */
export interface PrescriptionDiagnosis {
  code: string
  name: string
}

/** One line of a diagnosis template: a drug of the formulary with its usual usage. */
export interface TemplateLine {
  drugId: number
  dose: string
  frequency: string
  days: number
  quantity: number
}

/**
 * 诊断模板 (`/internet/diagnosisTemplate/index`): a doctor's own (doctorId set, kept at the workbench) or the hospital's
 * shared ones (seeded, read-only to doctors). `category` is the prescription category it fills.
 */
export const diagnosisTemplates = pgTable(
  'diagnosis_templates',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    doctorId: integer('doctor_id').references(() => doctors.id),
    name: text('name').notNull(),
    category: text('category').$type<DrugCategory>().notNull().default('western'),
    diagnoses: jsonb('diagnoses').$type<PrescriptionDiagnosis[]>().notNull(),
    lines: jsonb('lines').$type<TemplateLine[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('diagnosis_templates_hospital_idx').on(t.hospitalId, t.doctorId)],
)

/**
 * `reviewing` until a pharmacist decides: `approved` (orderable until `expiresAt`) or `rejected` (back to the doctor,
 * who writes a new one); `revoked` when the doctor withdraws one not yet ordered.
 */
export type PrescriptionStatus = 'reviewing' | 'approved' | 'rejected' | 'revoked'

/**
 * A prescription written by the treating doctor of one consultation (inquiryId) for its patient. Its diagnoses are
 * health information: stored encrypted. Fees are fixed when written: drugFee is the sum of its lines, diagnosisFee
 * the hospital's 诊查费 (0 when the consultation was paid).
 */
export const prescriptions = pgTable(
  'prescriptions',
  {
    id: serial('id').primaryKey(),
    presNo: text('pres_no').notNull(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    category: text('category').$type<DrugCategory>().notNull(),
    diagnosesEnc: text('diagnoses_enc').notNull(),
    /** 医嘱 / the doctor's advice, encrypted like the diagnoses. */
    adviceEnc: text('advice_enc').notNull().default(''),
    status: text('status').$type<PrescriptionStatus>().notNull().default('reviewing'),
    drugFeeFen: integer('drug_fee_fen').notNull(),
    diagnosisFeeFen: integer('diagnosis_fee_fen').notNull().default(0),
    /** A chronic patient's prescription that may be ordered again (`planOrder`) until it expires. */
    renewable: boolean('renewable').notNull().default(false),
    pharmacistId: integer('pharmacist_id').references(() => pharmacists.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The doctor's idempotency key: writing the same prescription twice answers the first. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('prescriptions_pres_no_key').on(t.presNo),
    uniqueIndex('prescriptions_idempotency_key').on(t.doctorId, t.idempotencyKey),
    index('prescriptions_user_idx').on(t.userId, t.createdAt),
    index('prescriptions_inquiry_idx').on(t.inquiryId),
    index('prescriptions_review_idx').on(t.hospitalId, t.status),
  ],
)

/** One drug of a prescription, its name, specification and price as they were when written. */
export const prescriptionLines = pgTable(
  'prescription_lines',
  {
    id: serial('id').primaryKey(),
    prescriptionId: integer('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    lineNo: integer('line_no').notNull(),
    drugId: integer('drug_id')
      .notNull()
      .references(() => drugs.id),
    drugName: text('drug_name').notNull(),
    spec: text('spec').notNull(),
    unit: text('unit').notNull(),
    /** 每次用量, e.g. "0.5g", "1粒". */
    dose: text('dose').notNull(),
    /** 频次, e.g. "每日3次". */
    frequency: text('frequency').notNull(),
    days: integer('days').notNull(),
    quantity: integer('quantity').notNull(),
    priceFen: integer('price_fen').notNull(),
  },
  (t) => [uniqueIndex('prescription_lines_key').on(t.prescriptionId, t.lineNo), check('prescription_lines_quantity', sql`${t.quantity} > 0`)],
)

export type PharmacyOrderSource = 'prescription' | 'shop'
export type PharmacyDelivery = 'express' | 'pickup'
/**
 * unpaid → paid → shipped | ready → completed; unpaid → cancelled | closed; paid → cancelled (refunded, stock back);
 * shipped/ready → refundRequested → refunded (the pharmacy accepts) or back (the patient withdraws, cancelRefund).
 */
export type PharmacyOrderStatus = 'unpaid' | 'paid' | 'shipped' | 'ready' | 'completed' | 'refundRequested' | 'refunded' | 'cancelled' | 'closed'

/**
 * A pharmacy order (prescription outflow) or a shop order. The delivery address is the patient's personal data: a
 * snapshot, encrypted. Stock is taken when the order is placed and given back exactly once when it is cancelled,
 * closed or refunded before shipping (`stockReturnedAt`).
 */
export const pharmacyOrders = pgTable(
  'pharmacy_orders',
  {
    id: serial('id').primaryKey(),
    orderCode: text('order_code').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    patientId: integer('patient_id').references(() => patients.id),
    prescriptionId: integer('prescription_id').references(() => prescriptions.id),
    source: text('source').$type<PharmacyOrderSource>().notNull(),
    storeId: integer('store_id')
      .notNull()
      .references(() => pharmacyStores.id),
    delivery: text('delivery').$type<PharmacyDelivery>().notNull(),
    /** { name, mobile, regionText, detail } of the chosen address, encrypted; null for pickup. */
    addressEnc: text('address_enc'),
    cityCode: integer('city_code'),
    drugFeeFen: integer('drug_fee_fen').notNull(),
    diagnosisFeeFen: integer('diagnosis_fee_fen').notNull().default(0),
    expressFeeFen: integer('express_fee_fen').notNull().default(0),
    totalFen: integer('total_fen').notNull(),
    status: text('status').$type<PharmacyOrderStatus>().notNull().default('unpaid'),
    /** The payment core's order (business 'pharmacy'). */
    orderId: integer('order_id').references(() => orders.id),
    carrier: text('carrier'),
    trackingNo: text('tracking_no'),
    /** The code the store scans at pickup (storeQrCode/getInfo). */
    pickupCode: text('pickup_code'),
    refundReason: text('refund_reason'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    stockReturnedAt: timestamp('stock_returned_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pharmacy_orders_code_key').on(t.orderCode),
    uniqueIndex('pharmacy_orders_idempotency_key').on(t.userId, t.idempotencyKey),
    index('pharmacy_orders_user_idx').on(t.userId, t.createdAt),
    index('pharmacy_orders_store_idx').on(t.storeId, t.status),
    // the pharmacist's order list (pharmacy/console.ts consoleOrders): the hospital's newest orders (one status of
    // them takes pharmacy_orders_store_idx)
    index('pharmacy_orders_hospital_idx').on(t.hospitalId, t.createdAt),
    // one live order per prescription: a second one waits until the first is cancelled, closed or refunded, or (a
    // renewable prescription's repeat order, planOrder) completed
    uniqueIndex('pharmacy_orders_live_prescription_key')
      .on(t.prescriptionId)
      .where(sql`${t.prescriptionId} is not null and ${t.status} not in ('cancelled', 'closed', 'refunded', 'completed')`),
  ],
)

export const pharmacyOrderLines = pgTable(
  'pharmacy_order_lines',
  {
    id: serial('id').primaryKey(),
    pharmacyOrderId: integer('pharmacy_order_id')
      .notNull()
      .references(() => pharmacyOrders.id),
    drugId: integer('drug_id')
      .notNull()
      .references(() => drugs.id),
    drugName: text('drug_name').notNull(),
    spec: text('spec').notNull(),
    unit: text('unit').notNull(),
    quantity: integer('quantity').notNull(),
    priceFen: integer('price_fen').notNull(),
  },
  (t) => [index('pharmacy_order_lines_order_idx').on(t.pharmacyOrderId), check('pharmacy_order_lines_quantity', sql`${t.quantity} > 0`)],
)

/** Each step of a pharmacy order as the patient's order page lists it. */
export const pharmacyOrderEvents = pgTable(
  'pharmacy_order_events',
  {
    id: serial('id').primaryKey(),
    pharmacyOrderId: integer('pharmacy_order_id')
      .notNull()
      .references(() => pharmacyOrders.id),
    status: text('status').$type<PharmacyOrderStatus>().notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('pharmacy_order_events_order_idx').on(t.pharmacyOrderId)],
)
