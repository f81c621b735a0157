/**
 * The internet hospital's doctors (spec §7 Internet hospital → Doctors): who consults online at a hospital with the
 * internet service, their departments, search, the most consulted, the cities, the physician assistants, one doctor in
 * full, and patients following doctors (我的医生). Listings are public; following is the caller's own.
 */
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import type {
  ConsultService,
  DoctorSort,
  FollowState,
  InternetCity,
  OnlineDept,
  OnlineDoctor,
  OnlineDoctorInfo,
  OnlineSearchResult,
  PhysicianAssistant,
} from '../../../types/api/internet'
import type { Page } from '../../../types/api/hospital'
import { averageReplyTime } from '@/utils/time'
import { starRating } from '@/utils/level'
import type { Db } from '../db'
import { departments, doctorFans, doctors, hospitals, onlineDoctorServices, onlineDoctors, physicianAssistants } from '../db/schema'
import { badInput, notFound } from '../errors'
import { requireHospitalByCode } from './hospital'
import { containing, doctorAvatarUrl, doctorsInDept } from './register/catalogue'

export const MAX_PAGE_SIZE = 50
/** Search results per kind: one screen of suggestions. */
const SEARCH_LIMIT = 20
/** spec §9: an unknown reply time reads 6小时, so it sorts as six hours. */
const UNKNOWN_REPLY_SECONDS = 6 * 3600

const SERVICE_NAMES: Record<ConsultService['type'], string> = { text: '图文问诊', video: '视频问诊' }

/** A doctor's IM account, as our chat service knows them. */
export const doctorImAccount = (id: number) => `d_${id}`
export const assistantImAccount = (id: number) => `a_${id}`
export const assistantAvatarUrl = (id: number) => `/static/assistants/${id}.svg`

type HospitalRow = typeof hospitals.$inferSelect

/** A hospital with the internet service, or 400: a palm-only hospital has no online doctors. */
export async function requireInternetHospital(db: Db, code: string): Promise<HospitalRow> {
  const hospital = await requireHospitalByCode(db, code)
  if (!hospital.isInternet) throw badInput('该医院暂未开通互联网医院服务')
  return hospital
}

const textPrice = onlineDoctorServices.priceFen
const columns = {
  online: onlineDoctors,
  doctor: doctors,
  deptName: departments.name,
  hospitalCode: hospitals.code,
  hospitalName: hospitals.name,
  priceFen: textPrice,
}

/** The join of an online doctor to their 图文问诊, when they offer it (enabled). */
export const textServiceOfDoctor = and(
  eq(onlineDoctorServices.doctorId, onlineDoctors.doctorId),
  eq(onlineDoctorServices.type, 'text'),
  eq(onlineDoctorServices.enabled, true),
)

/** Online doctors with their doctor row, department, hospital and 图文问诊 price (toOnlineDoctor's rows). */
export const onlineDoctorRows = (db: Db) =>
  db
    .select(columns)
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(hospitals, eq(hospitals.id, onlineDoctors.hospitalId))
    .leftJoin(onlineDoctorServices, textServiceOfDoctor)

const countBase = (db: Db) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))

type Row = {
  online: typeof onlineDoctors.$inferSelect
  doctor: typeof doctors.$inferSelect
  deptName: string
  hospitalCode: string
  hospitalName: string
  priceFen: number | null
}

export function toOnlineDoctor(r: Row): OnlineDoctor {
  return {
    id: r.doctor.id,
    doctorName: r.doctor.name,
    title: r.doctor.title,
    avatar: r.doctor.avatar || doctorAvatarUrl(r.doctor.id),
    deptId: r.doctor.deptId,
    deptName: r.deptName,
    hospitalCode: r.hospitalCode,
    hospitalName: r.hospitalName,
    level: r.online.level,
    stars: starRating(r.online.level),
    priceFen: r.priceFen,
    avgReplySeconds: r.online.avgReplySeconds,
    replyTimeText: averageReplyTime(r.online.avgReplySeconds),
    servedCount: r.online.servedCount,
    goodRate: r.online.goodRate,
    online: r.online.online,
    speciality: r.doctor.speciality,
    imAccount: doctorImAccount(r.doctor.id),
  }
}

const replySeconds = sql`case when ${onlineDoctors.avgReplySeconds} > 0 then ${onlineDoctors.avgReplySeconds} else ${UNKNOWN_REPLY_SECONDS} end`
/** The hospital's own order: department, then the doctor within it. */
const hospitalOrder = [asc(departments.sort), asc(departments.id), asc(onlineDoctors.sort), asc(onlineDoctors.doctorId)]

/**
 * spec §7 /index/doctorList sort orders. `default` shows the doctors accepting consultations first; the others sort by
 * their key alone (a patient who asks for the cheapest sees the cheapest), the hospital's order breaking ties.
 */
function orderOf(sort: DoctorSort): SQL[] {
  switch (sort) {
    case 'level':
      return [desc(onlineDoctors.level), ...hospitalOrder]
    case 'replyTime':
      return [asc(replySeconds), ...hospitalOrder]
    case 'price':
      // a doctor without 图文问诊 last
      return [sql`${textPrice} asc nulls last`, ...hospitalOrder]
    default:
      return [desc(onlineDoctors.online), ...hospitalOrder]
  }
}

/** GET /index/doctorList: a hospital's online doctors, a page at a time, optionally in one department. */
export async function listOnlineDoctors(
  db: Db,
  input: { hospitalCode: string; deptId?: number; sort: DoctorSort; page: number; size: number },
): Promise<Page<OnlineDoctor>> {
  const hospital = await requireInternetHospital(db, input.hospitalCode)
  const where: SQL[] = [eq(onlineDoctors.hospitalId, hospital.id)]
  if (input.deptId !== undefined) where.push(await doctorsInDept(db, hospital.id, input.deptId))
  const [rows, [total]] = await Promise.all([
    onlineDoctorRows(db)
      .where(and(...where))
      .orderBy(...orderOf(input.sort))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    countBase(db).where(and(...where)),
  ])
  return { records: rows.map(toOnlineDoctor), total: total?.n ?? 0, page: input.page, size: input.size }
}

/** GET /index/hospitalDept: the hospital's departments that have online doctors, in its own order, with counts. */
export async function onlineDepartments(db: Db, hospitalCode: string): Promise<OnlineDept[]> {
  const hospital = await requireInternetHospital(db, hospitalCode)
  return db
    .select({
      id: departments.id,
      deptName: departments.name,
      doctorCount: sql<number>`count(*)::int`,
      onlineCount: sql<number>`(count(*) filter (where ${onlineDoctors.online}))::int`,
    })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(eq(onlineDoctors.hospitalId, hospital.id))
    .groupBy(departments.id)
    .orderBy(asc(departments.sort), asc(departments.id))
}

/** Hospitals to look in: the one named, else every hospital with the internet service. */
async function hospitalScope(db: Db, hospitalCode?: string): Promise<SQL> {
  if (hospitalCode) return eq(onlineDoctors.hospitalId, (await requireInternetHospital(db, hospitalCode)).id)
  return eq(hospitals.isInternet, true)
}

/**
 * GET /index/search: online doctors whose name, speciality or department matches (a name match first), and the
 * departments with online doctors whose name matches; in one hospital, or all internet hospitals without one.
 */
export async function searchOnline(db: Db, input: { hospitalCode?: string; keyword: string }): Promise<OnlineSearchResult> {
  const scope = await hospitalScope(db, input.hospitalCode)
  const pattern = containing(input.keyword)
  const [doctorRows, deptRows] = await Promise.all([
    onlineDoctorRows(db)
      .where(and(scope, or(ilike(doctors.name, pattern), ilike(doctors.speciality, pattern), ilike(departments.name, pattern))))
      .orderBy(sql`case when ${doctors.name} ilike ${pattern} then 0 else 1 end`, desc(onlineDoctors.online), ...hospitalOrder)
      .limit(SEARCH_LIMIT),
    db
      .select({
        id: departments.id,
        deptName: departments.name,
        hospitalCode: hospitals.code,
        hospitalName: hospitals.name,
        doctorCount: sql<number>`count(*)::int`,
        onlineCount: sql<number>`(count(*) filter (where ${onlineDoctors.online}))::int`,
      })
      .from(onlineDoctors)
      .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
      .innerJoin(departments, eq(departments.id, doctors.deptId))
      .innerJoin(hospitals, eq(hospitals.id, onlineDoctors.hospitalId))
      .where(and(scope, ilike(departments.name, pattern)))
      .groupBy(departments.id, hospitals.id)
      .orderBy(asc(hospitals.sort), asc(departments.sort), asc(departments.id))
      .limit(SEARCH_LIMIT),
  ])
  return { doctors: doctorRows.map(toOnlineDoctor), depts: deptRows }
}

/**
 * GET /index/hotService: the most consulted doctors accepting consultations now (served count, highest first), of
 * one hospital or of all internet hospitals. Doctors rather than departments: the patient can consult them at once.
 */
export async function hotService(db: Db, input: { hospitalCode?: string; limit: number }): Promise<OnlineDoctor[]> {
  const scope = await hospitalScope(db, input.hospitalCode)
  const rows = await onlineDoctorRows(db)
    .where(and(scope, eq(onlineDoctors.online, true)))
    .orderBy(desc(onlineDoctors.servedCount), asc(onlineDoctors.doctorId))
    .limit(input.limit)
  return rows.map(toOnlineDoctor)
}

/** GET /index/city: the cities with a hospital that has the internet service, each with those hospitals. */
export async function internetCities(db: Db): Promise<InternetCity[]> {
  const rows = await db
    .select({ city: hospitals.city, hospitalCode: hospitals.code, hospitalName: hospitals.name })
    .from(hospitals)
    .where(and(eq(hospitals.isInternet, true), sql`${hospitals.city} <> ''`))
    .orderBy(asc(hospitals.city), asc(hospitals.sort), asc(hospitals.id))
  const cities = new Map<string, InternetCity>()
  for (const r of rows) {
    const entry = cities.get(r.city) ?? { city: r.city, hospitals: [] }
    entry.hospitals.push({ hospitalCode: r.hospitalCode, hospitalName: r.hospitalName })
    cities.set(r.city, entry)
  }
  return [...cities.values()]
}

/** GET /index/physicianAssistant: the hospital's physician assistants with their IM accounts. */
export async function listAssistants(db: Db, hospitalCode: string): Promise<PhysicianAssistant[]> {
  const hospital = await requireInternetHospital(db, hospitalCode)
  const rows = await db
    .select()
    .from(physicianAssistants)
    .where(eq(physicianAssistants.hospitalId, hospital.id))
    .orderBy(asc(physicianAssistants.sort), asc(physicianAssistants.id))
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    imAccount: assistantImAccount(a.id),
    avatar: a.avatar || assistantAvatarUrl(a.id),
    hospitalCode: hospital.code,
  }))
}

/** An assistant's name by id, for the portrait; null when there is none. */
export async function assistantName(db: Db, id: number): Promise<string | null> {
  const [row] = await db.select({ name: physicianAssistants.name }).from(physicianAssistants).where(eq(physicianAssistants.id, id)).limit(1)
  return row?.name ?? null
}

const fansOf = async (db: Db, doctorId: number) =>
  (await db.select({ n: sql<number>`count(*)::int` }).from(doctorFans).where(eq(doctorFans.doctorId, doctorId)))[0]?.n ?? 0

/** An online doctor (404 for an unknown id or a doctor who does not consult online). */
async function requireOnlineDoctor(db: Db, id: number): Promise<Row> {
  const [row] = await onlineDoctorRows(db).where(eq(onlineDoctors.doctorId, id)).limit(1)
  if (!row) throw notFound('医生')
  return row
}

/** GET /doctor/info: one online doctor in full; `followed` says whether the signed-in caller follows them. */
export async function onlineDoctorInfo(db: Db, id: number, userId: number | null): Promise<OnlineDoctorInfo> {
  const row = await requireOnlineDoctor(db, id)
  const [services, fansCount, follow] = await Promise.all([
    db
      .select()
      .from(onlineDoctorServices)
      .where(and(eq(onlineDoctorServices.doctorId, id), eq(onlineDoctorServices.enabled, true)))
      .orderBy(asc(onlineDoctorServices.type)),
    fansOf(db, id),
    userId
      ? db
          .select({ id: doctorFans.doctorId })
          .from(doctorFans)
          .where(and(eq(doctorFans.userId, userId), eq(doctorFans.doctorId, id)))
          .limit(1)
      : Promise.resolve([]),
  ])
  return {
    ...toOnlineDoctor(row),
    intro: row.doctor.intro,
    // 图文问诊 first
    services: services
      .sort((a, b) => (a.type === 'text' ? -1 : b.type === 'text' ? 1 : 0))
      .map((s) => ({ type: s.type, name: SERVICE_NAMES[s.type], priceFen: s.priceFen })),
    fansCount,
    followed: follow.length > 0,
  }
}

/** PUT /im/fans/follow: the caller follows an online doctor; following again changes nothing. */
export async function followDoctor(db: Db, userId: number, doctorId: number): Promise<FollowState> {
  await requireOnlineDoctor(db, doctorId)
  await db.insert(doctorFans).values({ userId, doctorId }).onConflictDoNothing()
  return { doctorId, followed: true, fansCount: await fansOf(db, doctorId) }
}

/** PUT /im/fans/cancel/follow: the caller stops following; for a doctor not followed it changes nothing. */
export async function unfollowDoctor(db: Db, userId: number, doctorId: number): Promise<FollowState> {
  await requireOnlineDoctor(db, doctorId)
  await db.delete(doctorFans).where(and(eq(doctorFans.userId, userId), eq(doctorFans.doctorId, doctorId)))
  return { doctorId, followed: false, fansCount: await fansOf(db, doctorId) }
}

const followedBy = (db: Db, userId: number) =>
  onlineDoctorRows(db).innerJoin(doctorFans, and(eq(doctorFans.doctorId, onlineDoctors.doctorId), eq(doctorFans.userId, userId)))

/** GET /im/fans/doctor/list: the doctors the caller follows, the latest followed first; optionally of one hospital. */
export async function followedDoctors(db: Db, userId: number, hospitalCode?: string): Promise<OnlineDoctor[]> {
  const where = hospitalCode ? eq(hospitals.code, hospitalCode) : undefined
  const rows = await followedBy(db, userId)
    .where(where)
    .orderBy(desc(doctorFans.createdAt), desc(onlineDoctors.doctorId))
  return rows.map(toOnlineDoctor)
}

/**
 * GET /doctor/chronic/getMyDoctor (我的医生): the doctors the caller follows, those accepting consultations first,
 * then the latest followed; optionally of one hospital. Consultations do not add doctors here: following is the
 * patient's own choice of "my doctor", and it is undone the same way.
 */
export async function myDoctors(db: Db, userId: number, hospitalCode?: string): Promise<OnlineDoctor[]> {
  const where = hospitalCode ? eq(hospitals.code, hospitalCode) : undefined
  const rows = await followedBy(db, userId)
    .where(where)
    .orderBy(desc(onlineDoctors.online), desc(doctorFans.createdAt), desc(onlineDoctors.doctorId))
  return rows.map(toOnlineDoctor)
}
