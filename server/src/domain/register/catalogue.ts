/**
 * The registration catalogue: the clinic tree, search, doctors and their portraits (spec §2 Registration pages,
 * §3 search results). Everything here is public.
 */
import { and, asc, eq, gte, ilike, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm'
import type { Dept, DeptGroup, DeptSort, RegisterDoctor, RegisterSearchResult } from '../../../../types/api/register'
import type { Db, Tx } from '../../db'
import { departments, diseases, doctors, hospitals, registrations } from '../../db/schema'
import { badInput, notFound } from '../../errors'
import { requireHospitalByCode } from '../hospital'
import { HOT_DAYS } from './rules'

type HospitalRow = typeof hospitals.$inferSelect
type DeptRow = typeof departments.$inferSelect
type DoctorRow = typeof doctors.$inferSelect

/** Search results per kind: enough for one screen of suggestions. */
const SEARCH_LIMIT = 20

/** The portrait a doctor without a photo gets: drawn by the server from the name (see doctorPortraitSvg). */
export const doctorAvatarUrl = (id: number) => `/static/doctors/${id}.svg`
const avatarOf = (d: Pick<DoctorRow, 'id' | 'avatar'>) => d.avatar || doctorAvatarUrl(d.id)

/** A LIKE pattern matching `keyword` anywhere, its own % and _ taken literally. */
export const containing = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** A department (or clinic group) of the hospital, or 400 for another hospital's or a missing one. */
async function requireHospitalDept(db: Db | Tx, hospitalId: number, deptId: number): Promise<DeptRow> {
  const [row] = await db
    .select()
    .from(departments)
    .where(and(eq(departments.id, deptId), eq(departments.hospitalId, hospitalId)))
    .limit(1)
  if (!row) throw badInput('该医院没有这个科室')
  return row
}

/**
 * A department of the hospital that patients book in (a leaf of the tree), or 400: another hospital's department
 * or a clinic group is not something to book.
 */
export async function requireBookableDept(db: Db | Tx, hospitalId: number, deptId: number): Promise<DeptRow> {
  const row = await requireHospitalDept(db, hospitalId, deptId)
  if (row.parentId === null) throw badInput('请选择具体科室')
  return row
}

/**
 * The filter of doctors by department (a query joining `doctors` and their `departments`): a leaf department, or a
 * clinic group meaning all of its departments; 400 for another hospital's.
 */
export async function doctorsInDept(db: Db | Tx, hospitalId: number, deptId: number): Promise<SQL> {
  const dept = await requireHospitalDept(db, hospitalId, deptId)
  return dept.parentId === null ? eq(departments.parentId, dept.id) : eq(doctors.deptId, dept.id)
}

/** Registrations still standing (held or booked) per department since `since`. */
async function bookingsPerDept(db: Db, hospitalId: number, since: Date) {
  const rows = await db
    .select({ deptId: registrations.deptId, n: sql<number>`count(*)::int` })
    .from(registrations)
    .where(and(eq(registrations.hospitalId, hospitalId), gte(registrations.createdAt, since), inArray(registrations.status, ['holding', 'booked'])))
    .groupBy(registrations.deptId)
  return new Map(rows.map((r) => [r.deptId, r.n]))
}

/**
 * GET /department/:hospitalCode: clinic groups (parent null) with their departments, in the hospital's own order, or
 * with `hot` the most booked in the last HOT_DAYS days first (groups by the sum of their departments). Groups
 * without departments are left out.
 */
export async function departmentTree(db: Db, hospitalCode: string, sort: DeptSort, now: Date): Promise<DeptGroup[]> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const rows = await db
    .select()
    .from(departments)
    .where(eq(departments.hospitalId, hospital.id))
    .orderBy(asc(departments.sort), asc(departments.id))
  const groups = rows.filter((r) => r.parentId === null)
  const toDept = (r: DeptRow): Dept => ({ id: r.id, deptName: r.name, intro: r.intro })
  let tree = groups
    .map((g) => ({ group: g, children: rows.filter((r) => r.parentId === g.id) }))
    .filter((g) => g.children.length > 0)
  if (sort === 'hot') {
    const counts = await bookingsPerDept(db, hospital.id, new Date(now.getTime() - HOT_DAYS * 86_400_000))
    const n = (r: DeptRow) => counts.get(r.id) ?? 0
    // Array.prototype.sort is stable: equal counts keep the hospital's order
    tree = tree
      .map((g) => ({ ...g, children: [...g.children].sort((a, b) => n(b) - n(a)), total: g.children.reduce((s, c) => s + n(c), 0) }))
      .sort((a, b) => b.total - a.total)
  }
  return tree.map(({ group, children }) => ({ id: group.id, deptName: group.name, children: children.map(toDept) }))
}

/** GET /department/search: departments, doctors (by name or speciality) and diseases matching a keyword (spec §3). */
export async function searchCatalogue(db: Db, hospitalCode: string, keyword: string): Promise<RegisterSearchResult> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const pattern = containing(keyword)
  const [deptRows, doctorRows, diseaseRows] = await Promise.all([
    db
      .select({ id: departments.id, deptName: departments.name })
      .from(departments)
      .where(and(eq(departments.hospitalId, hospital.id), isNotNull(departments.parentId), ilike(departments.name, pattern)))
      .orderBy(asc(departments.sort), asc(departments.id))
      .limit(SEARCH_LIMIT),
    db
      .select({ doctor: doctors, deptName: departments.name })
      .from(doctors)
      .innerJoin(departments, eq(departments.id, doctors.deptId))
      .where(and(eq(doctors.hospitalId, hospital.id), or(ilike(doctors.name, pattern), ilike(doctors.speciality, pattern))))
      // a match on the name before a match on the speciality
      .orderBy(sql`case when ${doctors.name} ilike ${pattern} then 0 else 1 end`, asc(doctors.sort), asc(doctors.id))
      .limit(SEARCH_LIMIT),
    db
      .select({ name: diseases.name, deptId: diseases.deptId, deptName: departments.name })
      .from(diseases)
      .innerJoin(departments, eq(departments.id, diseases.deptId))
      .where(and(eq(diseases.hospitalId, hospital.id), ilike(diseases.name, pattern)))
      .orderBy(asc(diseases.id))
      .limit(SEARCH_LIMIT),
  ])
  return {
    depts: deptRows,
    doctors: doctorRows.map(({ doctor, deptName }) => ({
      id: doctor.id,
      doctorName: doctor.name,
      // spec §3: the remark holds title and hospital separated by a vertical bar
      remark: `${doctor.title}|${hospital.name}`,
      deptId: doctor.deptId,
      deptName,
      avatar: avatarOf(doctor),
    })),
    diseases: diseaseRows,
  }
}

export function toRegisterDoctor(d: DoctorRow, deptName: string, hospital: Pick<HospitalRow, 'code' | 'name'>): RegisterDoctor {
  return {
    id: d.id,
    doctorName: d.name,
    title: d.title,
    avatar: avatarOf(d),
    speciality: d.speciality,
    intro: d.intro,
    deptId: d.deptId,
    deptName,
    hospitalCode: hospital.code,
    hospitalName: hospital.name,
  }
}

/**
 * GET /doctor/list/search: a hospital's doctors, optionally in one department (a clinic group means all of its
 * departments) and matching a keyword on name or speciality.
 */
export async function searchDoctors(db: Db, input: { hospitalCode: string; deptId?: number; keyword?: string }): Promise<RegisterDoctor[]> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const where: (SQL | undefined)[] = [eq(doctors.hospitalId, hospital.id)]
  if (input.deptId !== undefined) where.push(await doctorsInDept(db, hospital.id, input.deptId))
  if (input.keyword) where.push(or(ilike(doctors.name, containing(input.keyword)), ilike(doctors.speciality, containing(input.keyword))))
  const rows = await db
    .select({ doctor: doctors, deptName: departments.name })
    .from(doctors)
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(and(...where))
    .orderBy(asc(departments.sort), asc(departments.id), asc(doctors.sort), asc(doctors.id))
  return rows.map((r) => toRegisterDoctor(r.doctor, r.deptName, hospital))
}

/** One doctor with department and hospital, or 404. */
export async function requireDoctor(db: Db | Tx, doctorId: number) {
  const [row] = await db
    .select({ doctor: doctors, deptName: departments.name, hospital: hospitals })
    .from(doctors)
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId))
    .where(eq(doctors.id, doctorId))
    .limit(1)
  if (!row) throw notFound('医生')
  return row
}

// ---- portraits --------------------------------------------------------------------------------------------------

const PORTRAIT_COLOURS = ['#3d8af7', '#13a89e', '#f28b30', '#8a63d2', '#e25a7a', '#2f9e5a', '#d9a21b', '#4b6fa8']
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A small portrait: a coloured circle with the doctor's surname; no photographs are stored or fetched. */
export function doctorPortraitSvg(id: number, name: string): string {
  const colour = PORTRAIT_COLOURS[id % PORTRAIT_COLOURS.length]!
  const surname = escapeXml(Array.from(name)[0] ?? '医')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">` +
    `<circle cx="60" cy="60" r="60" fill="${colour}"/>` +
    `<text x="60" y="60" dy="0.35em" text-anchor="middle" font-size="54" fill="#fff" ` +
    `font-family="PingFang SC,Microsoft YaHei,Noto Sans CJK SC,WenQuanYi Micro Hei,sans-serif">${surname}</text></svg>`
  )
}

/** The portrait of a doctor by id, or null when there is no such doctor. */
export async function doctorPortrait(db: Db, id: number): Promise<string | null> {
  const [row] = await db.select({ id: doctors.id, name: doctors.name }).from(doctors).where(eq(doctors.id, id)).limit(1)
  return row ? doctorPortraitSvg(row.id, row.name) : null
}
