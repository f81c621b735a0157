import { and, asc, desc, eq, getTableColumns, gt, ilike, isNull, lte, or, sql, count } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db'
import { isRichTextKey, sanitizeRichText } from './richText'
import type { FieldCipher } from '../crypto'
import { ads, articles, brands, consultations, departments, dictItems, hospitalConfigs, hospitals, inquiries, type HomePageConfig } from '../db/schema'
import { conversations as chatConversations, unreadTotal } from './chat'
import { conversationIDOf, messageSummary, patientImAccount } from '@/utils/chatRules'
import { forbidden, notFound } from '../errors'
import { isStaffOf } from '@/utils/staffRules'

export type HospitalRow = typeof hospitals.$inferSelect

/**
 * The code of the hospital that `hospitalId` (a row's column, or an id) names, as a column of the statement that reads
 * or writes the row. A transaction reads its own rows, not HospitalCache's: this is a statement fewer than reading the
 * hospital after.
 */
export const codeOfHospital = (hospitalId: AnyPgColumn | number) => sql<string>`(select ${hospitals.code} from ${hospitals} where ${hospitals.id} = ${hospitalId})`

/** A table's columns and the code of the hospital its row names (codeOfHospital), to select or return in one statement. */
export const withHospitalCode = <T extends PgTable & { hospitalId: AnyPgColumn }>(table: T) => ({
  ...getTableColumns(table),
  hospitalCode: codeOfHospital(table.hospitalId),
})

/** The hospital as the app sees it (spec §3: hospitalCode, configDto). */
export function toHospitalDto(h: HospitalRow) {
  return {
    id: h.id,
    hospitalCode: h.code,
    hospitalName: h.name,
    shortName: h.shortName,
    brandId: h.brandId,
    appId: h.appId,
    level: h.level,
    logo: h.logo,
    address: h.address,
    phone: h.phone,
    intro: h.intro,
    configDto: { isInternet: h.isInternet, isPalm: h.isPalm },
  }
}

export async function listHospitals(db: Db, opts: { keyword?: string; brandId?: number }) {
  const conditions = []
  if (opts.keyword) conditions.push(or(ilike(hospitals.name, `%${opts.keyword}%`), eq(hospitals.code, opts.keyword)))
  if (opts.brandId) conditions.push(eq(hospitals.brandId, opts.brandId))
  const rows = await db
    .select()
    .from(hospitals)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(hospitals.sort), asc(hospitals.id))
  return rows.map(toHospitalDto)
}

export async function findHospitalByCode(db: Db, code: string) {
  const [row] = await db.select().from(hospitals).where(eq(hospitals.code, code)).limit(1)
  return row ?? null
}

/** What a process keeps of the hospitals of a database (HospitalCache): a hospital by code or by id, or null. */
export interface KeptHospitals {
  byCode(code: string): Promise<HospitalRow | null>
  byId(id: number): Promise<HospitalRow | null>
}

/**
 * The plain databases whose hospitals a process keeps, each with its HospitalCache, which registers itself here while
 * it hears every change (readHospitalsThrough). A transaction is another object: it reads its own rows.
 */
const keptHospitals = new WeakMap<Db, KeptHospitals>()

/** From now on hospitals by code or id on `db` are read through `cache`; with null, from the database again. */
export function readHospitalsThrough(db: Db, cache: KeptHospitals | null) {
  if (cache) keptHospitals.set(db, cache)
  else keptHospitals.delete(db)
}

/**
 * The hospital with this code, or null. Nearly every patient call names its hospital: on the plain database it is read
 * from what this process keeps (HospitalCache), not with a statement each time.
 */
export const hospitalByCode = (db: Db, code: string) => keptHospitals.get(db)?.byCode(code) ?? findHospitalByCode(db, code)

/** The hospital with this code (hospitalByCode); not found (医院) when there is none. */
export async function requireHospitalByCode(db: Db, code: string) {
  const row = await hospitalByCode(db, code)
  if (!row) throw notFound('医院')
  return row
}

export async function findHospitalById(db: Db, id: number) {
  const [row] = await db.select().from(hospitals).where(eq(hospitals.id, id)).limit(1)
  return row ?? null
}

/** The hospital with this id, or null; on the plain database from what this process keeps (HospitalCache). */
export const hospitalById = (db: Db, id: number) => keptHospitals.get(db)?.byId(id) ?? findHospitalById(db, id)

export async function requireHospital(db: Db, id: number) {
  const row = await hospitalById(db, id)
  if (!row) throw notFound('医院')
  return row
}

/** The texts a hospital configures, by key; rich text (keys ending in Html) as sanitised HTML. */
export async function hospitalTexts(db: Db, id: number): Promise<Record<string, string>> {
  const texts = (await requireHospital(db, id)).textConfig
  return Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, isRichTextKey(k) ? sanitizeRichText(v) : v]))
}

/** The hospital whose own official account is `appId`; null for the platform's shared account (main mode). */
export async function findHospitalByAppId(db: Db, appId: string) {
  const [row] = await db.select().from(hospitals).where(eq(hospitals.appId, appId)).orderBy(asc(hospitals.id)).limit(1)
  return row ?? null
}

/** Entries the platform's own home page shows in main mode: one per hospital, plus the hospital list. */
const MAIN_HOME: HomePageConfig = {
  notice: '请选择就诊医院，开始预约挂号、在线问诊等服务。',
  menus: [{ name: '选择医院', icon: 'hospital', url: '/pages/hospital/index', role: 'all' }],
}

/** The home page's notice and menu of a hospital; the platform's own (main mode) for none. */
export function homePageConfig(h: HospitalRow | null) {
  if (!h) return { main: true, hospital: null, ...MAIN_HOME }
  return { main: false, hospital: toHospitalDto(h), ...h.homePageConfig }
}

/**
 * GET /dld-hospital/common/ad: the banners of a hospital's home page (the platform's own without a code), enabled and
 * within their dates, in their order.
 */
export async function listAds(db: Db, hospitalCode: string | undefined, now = new Date()) {
  const hospitalId = hospitalCode ? (await requireHospitalByCode(db, hospitalCode)).id : null
  return db
    .select({ id: ads.id, title: ads.title, image: ads.image, url: ads.url })
    .from(ads)
    .where(
      and(
        hospitalId === null ? isNull(ads.hospitalId) : eq(ads.hospitalId, hospitalId),
        eq(ads.enabled, true),
        or(isNull(ads.startsAt), lte(ads.startsAt, now)),
        or(isNull(ads.endsAt), gt(ads.endsAt, now)),
      ),
    )
    .orderBy(asc(ads.sort), asc(ads.id))
}

export async function listBrands(db: Db) {
  const rows = await db
    .select({ id: brands.id, name: brands.name, logo: brands.logo, intro: brands.intro, hospitalCount: count(hospitals.id) })
    .from(brands)
    .leftJoin(hospitals, eq(hospitals.brandId, brands.id))
    .groupBy(brands.id)
    .orderBy(asc(brands.id))
  return rows
}

export async function brandDepartments(db: Db, brandId: number) {
  return db
    .select({ id: departments.id, deptName: departments.name, intro: departments.intro, hospitalCode: hospitals.code, hospitalName: hospitals.name })
    .from(departments)
    .innerJoin(hospitals, eq(hospitals.id, departments.hospitalId))
    .where(and(eq(hospitals.brandId, brandId), eq(departments.featured, true)))
    .orderBy(asc(departments.sort), asc(departments.id))
}

export async function brandHospitalInfo(db: Db, hospitalCode: string) {
  const h = await requireHospitalByCode(db, hospitalCode)
  const [brand] = h.brandId ? await db.select().from(brands).where(eq(brands.id, h.brandId)) : []
  return { hospital: toHospitalDto(h), brand: brand ? { id: brand.id, name: brand.name, logo: brand.logo, intro: brand.intro } : null }
}

export async function listDict(db: Db, type: string) {
  return db
    .select({ label: dictItems.label, value: dictItems.value, sort: dictItems.sort })
    .from(dictItems)
    .where(eq(dictItems.type, type))
    .orderBy(asc(dictItems.sort), asc(dictItems.id))
}

/** Keys hospital staff keep to themselves (credentials of the hospital's systems): never served by the public call. */
export const isPrivateConfigKey = (key: string) => /^(private|secret)\./.test(key)

/** Staff of a hospital carry the role `staff:<code>`; platform administrators `admin`. */
export function requireStaff(roles: string[], hospitalCode: string) {
  if (!isStaffOf(roles, hospitalCode)) throw forbidden()
}

export async function listHospitalConfig(db: Db, hospitalCode: string) {
  const h = await requireHospitalByCode(db, hospitalCode)
  return db
    .select({ key: hospitalConfigs.key, value: hospitalConfigs.value, updatedAt: hospitalConfigs.updatedAt })
    .from(hospitalConfigs)
    .where(eq(hospitalConfigs.hospitalId, h.id))
    .orderBy(asc(hospitalConfigs.key))
}

export async function saveHospitalConfig(db: Db, hospitalCode: string, key: string, value: string, userId: number) {
  const h = await requireHospitalByCode(db, hospitalCode)
  const [row] = await db
    .insert(hospitalConfigs)
    .values({ hospitalId: h.id, key, value, updatedBy: userId })
    .onConflictDoUpdate({ target: [hospitalConfigs.hospitalId, hospitalConfigs.key], set: { value, updatedBy: userId, updatedAt: new Date() } })
    .returning({ key: hospitalConfigs.key, value: hospitalConfigs.value, updatedAt: hospitalConfigs.updatedAt })
  return row!
}

export async function publicHospitalConfig(db: Db, hospitalCode: string, key: string) {
  if (isPrivateConfigKey(key)) throw forbidden()
  const h = await requireHospitalByCode(db, hospitalCode)
  const [row] = await db
    .select({ value: hospitalConfigs.value })
    .from(hospitalConfigs)
    .where(and(eq(hospitalConfigs.hospitalId, h.id), eq(hospitalConfigs.key, key)))
  return { key, value: row?.value ?? null }
}

/**
 * The hospital config key naming the regulator's platform its internet diagnosis reports to (互联网医疗服务监管平台:
 * the records and prescriptions of every online consultation are uploaded there, as the 2018 internet-diagnosis rules
 * ask). Unset or empty: the hospital reports to none, and the app says nothing.
 */
export const CONFIG_SUPERVISION_PLATFORM = 'internet.supervisionPlatform'

/** GET /dld-hospital/common/isSupervision: whether the hospital's online consultations are supervised, and by whom. */
export async function supervision(db: Db, hospitalCode: string) {
  const { value } = await publicHospitalConfig(db, hospitalCode, CONFIG_SUPERVISION_PLATFORM)
  const platformName = value?.trim() ?? ''
  return { supervised: platformName !== '', platformName }
}

/**
 * Articles, newest first: one doctor's (医生文章), or else a hospital's own with the platform's shared ones (健康知识;
 * the platform's only, without a hospital).
 */
export async function listArticles(db: Db, opts: { page: number; size: number; category?: string; hospitalCode?: string; doctorId?: number }) {
  const h = opts.hospitalCode && !opts.doctorId ? await findHospitalByCode(db, opts.hospitalCode) : null
  const where = and(
    opts.category ? eq(articles.category, opts.category) : undefined,
    opts.doctorId
      ? eq(articles.doctorId, opts.doctorId)
      : h
        ? or(eq(articles.hospitalId, h.id), isNull(articles.hospitalId))
        : isNull(articles.hospitalId),
  )
  const [total] = await db.select({ n: count() }).from(articles).where(where)
  const records = await db
    .select({
      id: articles.id,
      title: articles.title,
      summary: articles.summary,
      cover: articles.cover,
      category: articles.category,
      author: articles.author,
      doctorId: articles.doctorId,
      views: articles.views,
      publishedAt: articles.publishedAt,
    })
    .from(articles)
    .where(where)
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(opts.size)
    .offset((opts.page - 1) * opts.size)
  return { records, total: total?.n ?? 0, page: opts.page, size: opts.size }
}

export async function readArticle(db: Db, id: number) {
  const [row] = await db
    .update(articles)
    .set({ views: sql`${articles.views} + 1` })
    .where(eq(articles.id, id))
    .returning()
  if (!row) throw notFound('文章')
  return { ...row, content: sanitizeRichText(row.content) }
}

/**
 * "My consultations": the caller's consultations, newest first. A consultation with a doctor carries its IM
 * conversation (`C2C` + the doctor's account): one conversation per doctor, whatever the number of consultations, so
 * its unread count and last message belong to the newest consultation with that doctor, and a new message moves it up.
 */
export async function listConsultations(db: Db, cipher: FieldCipher, userId: number, hospitalCode?: string) {
  const rows = await db
    .select({
      id: consultations.id,
      orderNo: consultations.orderNo,
      inquiryId: inquiries.id,
      doctorName: consultations.doctorName,
      doctorAvatar: consultations.doctorAvatar,
      deptName: consultations.deptName,
      status: consultations.status,
      peer: consultations.peer,
      lastMessage: consultations.lastMessage,
      unreadCount: consultations.unreadCount,
      updatedAt: consultations.updatedAt,
      hospitalCode: hospitals.code,
      hospitalName: hospitals.name,
    })
    .from(consultations)
    .innerJoin(hospitals, eq(hospitals.id, consultations.hospitalId))
    .leftJoin(inquiries, and(eq(inquiries.inquiryNo, consultations.orderNo), eq(inquiries.userId, consultations.userId)))
    .where(and(eq(consultations.userId, userId), hospitalCode ? eq(hospitals.code, hospitalCode) : undefined))
    .orderBy(desc(consultations.updatedAt), desc(consultations.id))
  const chats = rows.some((r) => r.peer) ? new Map((await chatConversations(db, cipher, patientImAccount(userId))).map((c) => [c.peer, c])) : new Map()
  const claimed = new Set<string>()
  return rows
    .map(({ peer, inquiryId, ...row }) => {
      const item = { ...row, ...(inquiryId === null ? {} : { inquiryId }) }
      if (!peer) return item
      const chat = claimed.has(peer) ? undefined : chats.get(peer)
      claimed.add(peer)
      const last = chat?.lastMessage
      return {
        ...item,
        conversationID: conversationIDOf(peer),
        unreadCount: chat?.unreadCount ?? 0,
        lastMessage: last ? messageSummary(last) : row.lastMessage,
        updatedAt: last && last.time > row.updatedAt.getTime() ? new Date(last.time) : row.updatedAt,
      }
    })
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
}

/** The badge of the consultation tab: every unread chat message, plus the stored counts of consultations without a chat. */
export async function unreadCount(db: Db, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${consultations.unreadCount}), 0)::int` })
    .from(consultations)
    .where(and(eq(consultations.userId, userId), eq(consultations.peer, '')))
  return (row?.n ?? 0) + (await unreadTotal(db, patientImAccount(userId)))
}
