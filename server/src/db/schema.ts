import { sql } from 'drizzle-orm'
import type { MenuEntry } from '../../../types/api/hospital'
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

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
    createdAt: createdAt(),
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
