import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import type { MenuEntry } from '../../../../types/api/hospital'

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** A group of hospitals sharing a brand (医联体); the platform itself is brand 1. */
export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull().default(''),
  intro: text('intro').notNull().default(''),
  createdAt: createdAt(),
})

export interface HomePageConfig {
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

/**
 * The home page's banners (spec §7 `common/ad`, the swiper of §9): a picture (or, without one, its title drawn as a
 * card), where a tap goes (a page of the app, or an outside page through the web-view allow-list), shown between
 * `startsAt` and `endsAt` when set. hospitalId null: the platform's own home page (main mode).
 */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').references(() => hospitals.id),
    title: text('title').notNull(),
    image: text('image').notNull().default(''),
    url: text('url').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('ads_hospital_idx').on(t.hospitalId, t.sort)],
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
    /**
     * WeChat's unionid (the same person across the hospital's official account and its mini-program, when both are
     * bound to one open-platform account); Alipay's user id plays the same part. A new identity with a union id that
     * an identity of the same provider already has joins that identity's user.
     */
    unionId: text('union_id'),
    userId: integer('user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('identities_subject_key').on(t.provider, t.appId, t.subject), index('identities_union_idx').on(t.provider, t.unionId)],
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
  (t) => [
    uniqueIndex('sessions_access_key').on(t.accessHash),
    uniqueIndex('sessions_refresh_key').on(t.refreshHash),
    // the order sweep forgets sessions past their refresh token's expiry (pruneSessions)
    index('sessions_refresh_expires_idx').on(t.refreshExpiresAt),
  ],
)

/**
 * The sandbox's WeChat / Alipay user of a mini-program phone (its device id), chosen on the sandbox login page:
 * `person` stands in for the account (the device id itself at first, a fresh one when the tester switches). A phone
 * with a row signs in silently, as wx.login does; one without opens the login page first.
 */
export const sandboxMiniDevices = pgTable(
  'sandbox_mini_devices',
  {
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    device: text('device').notNull(),
    person: text('person').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.device] })],
)

/** A sign-in confirmed on the sandbox login page, collected once by the mini-program with the nonce it opened the page with. */
export const sandboxMiniLogins = pgTable(
  'sandbox_mini_logins',
  {
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    device: text('device').notNull(),
    nonce: text('nonce').notNull(),
    appId: text('app_id').notNull(),
    person: text('person').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.device, t.nonce] })],
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
  unionId: text('union_id'),
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
    /**
     * The doctor who wrote it (医生文章, /internet/doctorArticle/index); null for the hospital's and the platform's
     * own. A doctor id of register.ts, kept without a foreign key there: that schema file imports this one.
     */
    doctorId: integer('doctor_id'),
    content: text('content').notNull(),
    views: integer('views').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('articles_published_idx').on(t.publishedAt), index('articles_doctor_idx').on(t.doctorId, t.publishedAt)],
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
