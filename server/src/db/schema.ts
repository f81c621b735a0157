import { sql } from 'drizzle-orm'
import type { MenuEntry } from '../../../types/api/hospital'
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** A group of hospitals sharing a brand (医联体); the platform itself is brand 1. */
export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull().default(''),
  intro: text('intro').notNull().default(''),
  createdAt: createdAt(),
})

export interface HomePageConfig {
  banners: { image: string; title: string; url?: string }[]
  notice?: string
  /** Grid entries on the home page; `role` says which service family shows it. */
  menus: MenuEntry[]
}

export type { MenuEntry }

export const hospitals = pgTable(
  'hospitals',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    shortName: text('short_name').notNull().default(''),
    brandId: integer('brand_id').references(() => brands.id),
    /** WeChat official-account app id the hospital's own app runs under; several may share the platform's. */
    appId: text('app_id'),
    level: text('level').notNull().default(''),
    logo: text('logo').notNull().default(''),
    address: text('address').notNull().default(''),
    phone: text('phone').notNull().default(''),
    intro: text('intro').notNull().default(''),
    isInternet: boolean('is_internet').notNull().default(false),
    isPalm: boolean('is_palm').notNull().default(false),
    /** The city the hospital is in, as patients choose it (GET /dld-hospital/index/city). */
    city: text('city').notNull().default(''),
    homePageConfig: jsonb('home_page_config').$type<HomePageConfig>().notNull(),
    textConfig: jsonb('text_config').$type<Record<string, string>>().notNull().default({}),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('hospitals_code_key').on(t.code), index('hospitals_app_id_idx').on(t.appId)],
)

/** Per-hospital settings edited by hospital staff (`/dld-palm/admin/hospital-config`). */
export const hospitalConfigs = pgTable(
  'hospital_configs',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by'),
  },
  (t) => [uniqueIndex('hospital_configs_key').on(t.hospitalId, t.key)],
)

export const dictItems = pgTable(
  'dict_items',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    label: text('label').notNull(),
    value: text('value').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('dict_items_type_value').on(t.type, t.value)],
)

export const departments = pgTable(
  'departments',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    parentId: integer('parent_id'),
    name: text('name').notNull(),
    intro: text('intro').notNull().default(''),
    /** Shown among the brand's featured departments (特色科室). */
    featured: boolean('featured').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('departments_hospital_idx').on(t.hospitalId)],
)

/** A person with a bound mobile number; id 0 on the client means "not bound yet". */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    nickname: text('nickname').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    mobileEnc: text('mobile_enc').notNull(),
    mobileIndex: text('mobile_index').notNull(),
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    /** sourceType (spec §4) of the page that made the person bind. */
    sourceType: integer('source_type').notNull().default(8),
    /** Real-name identity the person declared (`/dld-user/user/modifyiIdentify`), encrypted. */
    realNameEnc: text('real_name_enc'),
    idCardEnc: text('id_card_enc'),
    createdAt: createdAt(),
    /**
     * The holder closed the account (domain/account.ts): the personal fields are cleared, `mobileIndex` holds
     * `closed:<id>` so the mobile can make a new account, and the records the law keeps still join on the id.
     */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_mobile_index_key').on(t.mobileIndex)],
)

/** A WeChat or Alipay identity (openid / user_id under one app id); it may not be bound to a user yet. */
export const identities = pgTable(
  'identities',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    appId: text('app_id').notNull(),
    subject: text('subject').notNull(),
    nickname: text('nickname').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    userId: integer('user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('identities_subject_key').on(t.provider, t.appId, t.subject)],
)

/** Bearer tokens, stored only as hashes. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    identityId: integer('identity_id').notNull().references(() => identities.id),
    accessHash: text('access_hash').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sessions_access_key').on(t.accessHash), uniqueIndex('sessions_refresh_key').on(t.refreshHash)],
)

/** One-time authorisation codes issued by the sandbox WeChat / Alipay authorisation pages. */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
  appId: text('app_id').notNull(),
  subject: text('subject').notNull(),
  scope: text('scope').notNull(),
  nickname: text('nickname').notNull().default(''),
  avatar: text('avatar').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
})

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: serial('id').primaryKey(),
    mobileIndex: text('mobile_index').notNull(),
    codeHash: text('code_hash').notNull(),
    purpose: text('purpose').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sms_codes_mobile_idx').on(t.mobileIndex, t.createdAt)],
)

export const articles = pgTable(
  'articles',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').references(() => hospitals.id),
    category: text('category').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    cover: text('cover').notNull().default(''),
    author: text('author').notNull().default(''),
    content: text('content').notNull(),
    views: integer('views').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('articles_published_idx').on(t.publishedAt)],
)

/** A patient's online consultation as listed on the "my consultations" tab; filled by the consultation service. */
export const consultations = pgTable(
  'consultations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    orderNo: text('order_no').notNull(),
    doctorName: text('doctor_name').notNull(),
    doctorAvatar: text('doctor_avatar').notNull().default(''),
    deptName: text('dept_name').notNull().default(''),
    status: text('status').notNull(),
    /** The doctor's IM account (`d_<id>`): the consultation's conversation is `C2C` + peer, whose unread count it shows. */
    peer: text('peer').notNull().default(''),
    lastMessage: text('last_message').notNull().default(''),
    unreadCount: integer('unread_count').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('consultations_order_no_key').on(t.orderNo), index('consultations_user_idx').on(t.userId)],
)

export const files = pgTable('files', {
  id: serial('id').primaryKey(),
  identityId: integer('identity_id').notNull().references(() => identities.id),
  storedName: text('stored_name').notNull(),
  originalName: text('original_name').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
})

/**
 * A person an account books and pays for (就诊人). Name, identity number and mobile are encrypted at rest;
 * `personIndex` is a blind index of the identity number (or, for a child without one, of guardian + name + birthday)
 * so the same person cannot be bound twice to one account. Unbinding keeps the row for the records that name it.
 */
export const patients = pgTable(
  'patients',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    /** The hospital the patient was bound in; cards at other hospitals live in patient_cards. */
    hospitalId: integer('hospital_id').references(() => hospitals.id),
    nameEnc: text('name_enc').notNull(),
    /** Empty for a child bound without an identity card. */
    idCardEnc: text('id_card_enc'),
    personIndex: text('person_index').notNull(),
    mobileEnc: text('mobile_enc'),
    sex: integer('sex').$type<1 | 2>().notNull(),
    birthday: text('birthday').notNull(),
    relation: text('relation').notNull(),
    /** How the patient was bound: identity card (typed or read from a photo), child without a card, or health card. */
    source: text('source').$type<'idCard' | 'ocr' | 'neonate' | 'eHealth'>().notNull(),
    guardianNameEnc: text('guardian_name_enc'),
    guardianIdCardEnc: text('guardian_id_card_enc'),
    /** Electronic health card id from the health-card provider. */
    healthCardEnc: text('health_card_enc'),
    isDefault: boolean('is_default').notNull().default(false),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('patients_user_idx').on(t.userId),
    uniqueIndex('patients_person_key').on(t.userId, t.personIndex).where(sql`${t.unboundAt} is null`),
    uniqueIndex('patients_default_key').on(t.userId).where(sql`${t.isDefault} and ${t.unboundAt} is null`),
  ],
)

/** A patient's card number at one hospital (hisMedCardNo), issued the first time the patient is filed there. */
export const patientCards = pgTable(
  'patient_cards',
  {
    id: serial('id').primaryKey(),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    cardNoEnc: text('card_no_enc').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('patient_cards_key').on(t.patientId, t.hospitalId)],
)

/** A person accompanying a patient (陪护人); the escort pass itself belongs to the inpatient service. */
export const accompanies = pgTable(
  'accompanies',
  {
    id: serial('id').primaryKey(),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    userId: integer('user_id').notNull().references(() => users.id),
    nameEnc: text('name_enc').notNull(),
    idCardEnc: text('id_card_enc').notNull(),
    personIndex: text('person_index').notNull(),
    mobileEnc: text('mobile_enc').notNull(),
    relation: text('relation').notNull(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('accompanies_patient_idx').on(t.patientId),
    uniqueIndex('accompanies_person_key').on(t.patientId, t.personIndex).where(sql`${t.unboundAt} is null`),
  ],
)

/** Delivery addresses for pharmacy and shop orders. */
export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    nameEnc: text('name_enc').notNull(),
    mobileEnc: text('mobile_enc').notNull(),
    provinceCode: integer('province_code').notNull(),
    cityCode: integer('city_code').notNull(),
    districtCode: integer('district_code').notNull(),
    /** Region names at the time of saving, e.g. "广东省 深圳市 南山区". */
    regionText: text('region_text').notNull(),
    detailEnc: text('detail_enc').notNull(),
    latitude: text('latitude'),
    longitude: text('longitude'),
    isDefault: boolean('is_default').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    uniqueIndex('addresses_default_key').on(t.userId).where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
)

/** National administrative divisions (GB/T 2260 codes): provinces (parent 0), cities, districts. */
export const regions = pgTable(
  'regions',
  {
    code: integer('code').primaryKey(),
    parentCode: integer('parent_code').notNull(),
    name: text('name').notNull(),
    level: integer('level').$type<1 | 2 | 3>().notNull(),
  },
  (t) => [index('regions_parent_idx').on(t.parentCode)],
)

/** One-time codes handed out by the sandbox electronic-health-card authorisation page. */
export const healthCardCodes = pgTable('health_card_codes', {
  codeHash: text('code_hash').primaryKey(),
  /** The card holder as the provider answers it, encrypted: it carries an identity number. */
  holderEnc: text('holder_enc').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
})

// ---- registration (issue 4) ----------------------------------------------------------------------------------------

/** A doctor who sees patients in one department; the clinic tree is `departments` (parent = clinic group). */
export const doctors = pgTable(
  'doctors',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    name: text('name').notNull(),
    /** 主任医师, 副主任医师, 主治医师, 医师. */
    title: text('title').notNull(),
    avatar: text('avatar').notNull().default(''),
    speciality: text('speciality').notNull().default(''),
    intro: text('intro').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('doctors_dept_idx').on(t.deptId), index('doctors_hospital_idx').on(t.hospitalId)],
)

/** A disease a patient may search for, and the department that treats it (spec §3 search results). */
export const diseases = pgTable(
  'diseases',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    name: text('name').notNull(),
    deptId: integer('dept_id').notNull().references(() => departments.id),
  },
  (t) => [index('diseases_hospital_idx').on(t.hospitalId)],
)

/**
 * One doctor's (or a department's general clinic's, doctorId null) morning or afternoon on one day, with its fee and
 * numbered slots. `stopped` is a clinic the hospital called off (停诊): shown, not bookable.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    doctorId: integer('doctor_id').references(() => doctors.id),
    /** YYYY-MM-DD in the hospital's time zone (Asia/Shanghai). */
    visitDate: text('visit_date').notNull(),
    segment: text('segment').$type<'am' | 'pm'>().notNull(),
    /** 普通号, 专家号, 特需号. */
    registerType: text('register_type').notNull(),
    feeFen: integer('fee_fen').notNull(),
    totalSlots: integer('total_slots').notNull(),
    stopped: boolean('stopped').notNull().default(false),
  },
  (t) => [
    index('schedules_dept_date_idx').on(t.deptId, t.visitDate),
    index('schedules_doctor_date_idx').on(t.doctorId, t.visitDate),
    // NULLS NOT DISTINCT: a department's general clinic (doctorId null) also has one schedule per day and segment,
    // so the rolling window can be filled again (insert ... on conflict do nothing) without doubling it
    unique('schedules_key').on(t.deptId, t.doctorId, t.visitDate, t.segment).nullsNotDistinct(),
  ],
)

/** A numbered slot of a schedule with its time range; `registrationId` is set while it is held or booked. */
export const scheduleSlots = pgTable(
  'schedule_slots',
  {
    id: serial('id').primaryKey(),
    scheduleId: integer('schedule_id').notNull().references(() => schedules.id),
    seq: integer('seq').notNull(),
    /** e.g. 08:00-08:30 */
    timeRange: text('time_range').notNull(),
    registrationId: integer('registration_id'),
  },
  // (schedule_id, seq) also serves "the lowest free slot of a schedule" and the free counts: a schedule has a few dozen
  // slots at most, and a second index would slow down writing the rolling window
  (t) => [uniqueIndex('schedule_slots_key').on(t.scheduleId, t.seq)],
)

/**
 * A booking. `holding` keeps the slot until `holdExpiresAt` while the patient pays; `booked` is paid (or free);
 * `cancelled` and `expired` have given the slot back. One patient holds at most one live booking per department,
 * day and segment (the partial unique index is the last line of defence).
 */
export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    regNo: text('reg_no').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    doctorId: integer('doctor_id').references(() => doctors.id),
    scheduleId: integer('schedule_id').notNull().references(() => schedules.id),
    slotId: integer('slot_id').notNull().references(() => scheduleSlots.id),
    visitDate: text('visit_date').notNull(),
    segment: text('segment').$type<'am' | 'pm'>().notNull(),
    seq: integer('seq').notNull(),
    timeRange: text('time_range').notNull(),
    feeFen: integer('fee_fen').notNull(),
    status: text('status').$type<'holding' | 'booked' | 'cancelled' | 'expired'>().notNull(),
    /** The patient chose to settle with health insurance (paid through /palm/chsPayment, spec §6 chsRegisterList). */
    insurance: boolean('insurance').notNull().default(false),
    /** The payment order; null for a free registration. */
    orderId: integer('order_id').references(() => orders.id),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('registrations_reg_no_key').on(t.regNo),
    uniqueIndex('registrations_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('registrations_one_per_segment')
      .on(t.patientId, t.deptId, t.visitDate, t.segment)
      .where(sql`${t.status} in ('holding', 'booked')`),
    index('registrations_user_idx').on(t.userId, t.createdAt),
    index('registrations_hold_idx').on(t.holdExpiresAt).where(sql`${t.status} = 'holding'`),
  ],
)

// ---- payment core (issue 4; every paid flow) ---------------------------------------------------------------------

export type OrderStatus = 'created' | 'paying' | 'paid' | 'cancelled' | 'refunding' | 'refunded' | 'closed'
export type OrderBusiness = 'register' | 'outpatient' | 'recharge' | 'inquiry' | 'gift' | 'pharmacy'
export type PayChannel = 'sandbox' | 'wechat' | 'alipay'

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

// ---- our own chat service (issue 5) --------------------------------------------------------------------------------

/**
 * Every message between two IM accounts (a patient `0_<userId>`, a doctor `d_<doctorId>`), append-only. One
 * conversation per pair of accounts (`pairKey`, the two in order), tagged with the consultation order it belongs to.
 * The content is a patient's health information: stored encrypted. The sender's own id of the message (`clientId`)
 * makes a resend after a dropped connection store it once.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    fromAccount: text('from_account').notNull(),
    toAccount: text('to_account').notNull(),
    pairKey: text('pair_key').notNull(),
    orderNo: text('order_no'),
    type: text('type').$type<'text' | 'image'>().notNull(),
    payloadEnc: text('payload_enc').notNull(),
    /** The doctor side's marks of a turn in the order (start, return, doctorBusy, orderFinished), else ''. */
    description: text('description').notNull().default(''),
    clientId: text('client_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_messages_client_key').on(t.fromAccount, t.clientId),
    index('chat_messages_pair_idx').on(t.pairKey, t.id),
    index('chat_messages_to_idx').on(t.toAccount, t.fromAccount, t.id),
  ],
)

/** How far one account has read its conversation with a peer: messages after lastReadId are unread. */
export const chatReads = pgTable(
  'chat_reads',
  {
    account: text('account').notNull(),
    peer: text('peer').notNull(),
    lastReadId: integer('last_read_id').notNull().default(0),
  },
  (t) => [uniqueIndex('chat_reads_key').on(t.account, t.peer)],
)

// ---- the internet hospital's doctors (find a doctor online) ----------------------------------------------------------

/**
 * A doctor of `doctors` who consults online (1:1): the service level shown as stars (spec §3), the average reply
 * time in seconds (spec §9), how many consultations they have served, the share of good ratings (percent), and
 * whether they accept consultations now. Name, title, department, speciality and introduction stay in `doctors`;
 * the doctor's IM account is `d_<doctors.id>`.
 */
export const onlineDoctors = pgTable(
  'online_doctors',
  {
    doctorId: integer('doctor_id')
      .primaryKey()
      .references(() => doctors.id),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    /** 0–5, halves allowed (3.5 shows three stars and a half). */
    level: real('level').notNull(),
    /** 0 when not known yet (shown as 6小时, spec §9). */
    avgReplySeconds: integer('avg_reply_seconds').notNull().default(0),
    servedCount: integer('served_count').notNull().default(0),
    /** Good ratings among all ratings, 0–100. */
    goodRate: integer('good_rate').notNull().default(100),
    online: boolean('online').notNull().default(true),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('online_doctors_hospital_idx').on(t.hospitalId)],
)

export type ConsultService = 'text' | 'video'

/** What an online doctor offers and for how much (图文问诊 text, 视频问诊 video), in fen. */
export const onlineDoctorServices = pgTable(
  'online_doctor_services',
  {
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => onlineDoctors.doctorId),
    type: text('type').$type<ConsultService>().notNull(),
    priceFen: integer('price_fen').notNull(),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.type] })],
)

/** A hospital's physician assistant (医生助理), an IM account of its own: `a_<id>`. */
export const physicianAssistants = pgTable(
  'physician_assistants',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    name: text('name').notNull(),
    avatar: text('avatar').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('physician_assistants_hospital_idx').on(t.hospitalId)],
)

/** A patient following an online doctor (粉丝); following twice is one row. */
export const doctorFans = pgTable(
  'doctor_fans',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => onlineDoctors.doctorId),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.doctorId] }), index('doctor_fans_doctor_idx').on(t.doctorId)],
)

// ---- inquiry orders (图文问诊) --------------------------------------------------------------------------------------

export type InquiryStatus = 'unpaid' | 'waiting' | 'inProgress' | 'finished' | 'cancelled' | 'closed'

/**
 * A patient's consultation order with one online doctor. `unpaid` until its order is paid (a free service starts
 * `waiting`); `serviceEndsAt` is 48 h after payment while no doctor has accepted, then 24 h after acceptance. The
 * illness and the complaint are the patient's health information: stored encrypted. One inquiry per (user, key).
 */
export const inquiries = pgTable(
  'inquiries',
  {
    id: serial('id').primaryKey(),
    inquiryNo: text('inquiry_no').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    doctorId: integer('doctor_id').notNull().references(() => doctors.id),
    serviceType: text('service_type').$type<'text'>().notNull(),
    kind: text('kind').$type<InquiryKind>().notNull().default('inquiry'),
    descriptionEnc: text('description_enc').notNull(),
    /** Urls of pictures this server stored (`/dld-file/files/...`). */
    pictures: jsonb('pictures').$type<string[]>().notNull().default([]),
    priceFen: integer('price_fen').notNull(),
    status: text('status').$type<InquiryStatus>().notNull(),
    /** The payment order; null for a free consultation. */
    orderId: integer('order_id').references(() => orders.id),
    idempotencyKey: text('idempotency_key').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    serviceEndsAt: timestamp('service_ends_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    complaintEnc: text('complaint_enc'),
    complainedAt: timestamp('complained_at', { withTimezone: true }),
    /** The patient's 问诊单 (intake: offline visit, diagnosis, past history, allergies, medication), health information: one encrypted JSON. */
    intakeEnc: text('intake_enc'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('inquiries_inquiry_no_key').on(t.inquiryNo),
    uniqueIndex('inquiries_idempotency_key').on(t.userId, t.idempotencyKey),
    index('inquiries_user_idx').on(t.userId, t.createdAt),
    index('inquiries_doctor_idx').on(t.doctorId),
    index('inquiries_service_ends_idx').on(t.serviceEndsAt).where(sql`${t.status} in ('waiting', 'inProgress')`),
  ],
)

/** What kind of consultation an inquiry is: chosen doctor (图文问诊), quick (快速问诊, any doctor of a department), chronic (复诊续方 with my doctor). */
export type InquiryKind = 'inquiry' | 'quick' | 'chronic'

// ---- the doctor side: staff accounts of the doctors' workbench --------------------------------------------------------

/**
 * A doctor's or physician assistant's sign-in to the workbench the server serves (`/workbench/`). The password is kept
 * only as a scrypt hash. Exactly one of doctorId / assistantId is set, matching `kind`.
 */
export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'doctor' | 'assistant'>().notNull(),
    doctorId: integer('doctor_id').references(() => onlineDoctors.doctorId),
    assistantId: integer('assistant_id').references(() => physicianAssistants.id),
    login: text('login').notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_accounts_login_key').on(t.login)],
)

/** Workbench bearer tokens, stored only as hashes (like patients' `sessions`, but never valid on patient calls). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_sessions_token_key').on(t.tokenHash)],
)

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

/**
 * The doctor's electronic medical record of one inquiry (门诊病历): written on the workbench, read by the patient
 * (`/im/medical/...`, `/pages/medicalHistory`). The fields (chief complaint, present illness, past history,
 * diagnosis, advice) are health information: stored encrypted as one JSON object. One record per inquiry; rewriting
 * it replaces it while the inquiry is open.
 */
export const medicalRecords = pgTable(
  'medical_records',
  {
    id: serial('id').primaryKey(),
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
    fieldsEnc: text('fields_enc').notNull(),
    /** Codes from the hospital's disease list (`/common/diseaseCode`), shown with the diagnosis. */
    diseaseCodes: jsonb('disease_codes').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('medical_records_inquiry_key').on(t.inquiryId), index('medical_records_user_idx').on(t.userId, t.createdAt)],
)

/** A patient's rating of one finished inquiry (评价): once per inquiry, 1–5 stars, chosen tags and words. */
export const evaluations = pgTable(
  'evaluations',
  {
    id: serial('id').primaryKey(),
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    score: integer('score').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    content: text('content').notNull().default(''),
    /** Shown on the doctor's page without the patient's name when set. */
    anonymous: boolean('anonymous').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('evaluations_inquiry_key').on(t.inquiryId), index('evaluations_doctor_idx').on(t.doctorId, t.createdAt)],
)

export type GiftStatus = 'unpaid' | 'paid' | 'closed'

/** A gift (心意) a patient sends a doctor, paid through the payment core (business 'gift'); idempotent per (user, key). */
export const gifts = pgTable(
  'gifts',
  {
    id: serial('id').primaryKey(),
    giftNo: text('gift_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    inquiryId: integer('inquiry_id').references(() => inquiries.id),
    /** One of the catalogue's codes (domain/gift.ts). */
    giftCode: text('gift_code').notNull(),
    priceFen: integer('price_fen').notNull(),
    message: text('message').notNull().default(''),
    status: text('status').$type<GiftStatus>().notNull(),
    orderId: integer('order_id').references(() => orders.id),
    idempotencyKey: text('idempotency_key').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('gifts_gift_no_key').on(t.giftNo),
    uniqueIndex('gifts_idempotency_key').on(t.userId, t.idempotencyKey),
    index('gifts_doctor_idx').on(t.doctorId, t.createdAt),
  ],
)

/**
 * The message centre (消息中心, `/message/messageList`): notices to one user about their orders and consultations,
 * written by the domain in the same transaction as the change they tell of.
 */
export const userMessages = pgTable(
  'user_messages',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<'inquiry' | 'register' | 'payment' | 'system'>().notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** The app page it opens, e.g. `/pages/order/inquiry/detail?id=3`; '' when none. */
    link: text('link').notNull().default(''),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_messages_user_idx').on(t.userId, t.id)],
)
