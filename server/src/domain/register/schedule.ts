/**
 * Schedules as the registration pages show them: a department's next BOOK_DAYS days, a doctor's, or one schedule with
 * its time ranges (spec §2 deptSchedule, rowSchedule, confirm). Public.
 */
import { and, asc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm'
import type { DeptSchedule, DoctorSchedule, ScheduleItem, TimeRange } from '../../../../types/api/register'
import type { Db, Tx } from '../../db'
import { departments, doctors, scheduleSlots, schedules } from '../../db/schema'
import { notFound } from '../../errors'
import { requireHospitalByCode } from '../hospital'
import { doctorAvatarUrl, requireBookableDept, requireDoctor, toRegisterDoctor } from './catalogue'
import { BOOK_DAYS, SEGMENTS, addDays, bookableDates, bookingClosedReason, hospitalToday, weekOf } from './rules'

type ScheduleRow = typeof schedules.$inferSelect

/** What a department's general clinic (普通门诊, no named doctor) is called where a doctor's name would be. */
export const GENERAL_CLINIC_NAME = '普通门诊'

interface ScheduleWithNames {
  schedule: ScheduleRow
  deptName: string
  doctor: { id: number; name: string; title: string; avatar: string; sort: number } | null
}

/** Schedules with their department and doctor names, in display order. */
async function loadSchedules(db: Db | Tx, where: SQL | undefined): Promise<ScheduleWithNames[]> {
  const rows = await db
    .select({
      schedule: schedules,
      deptName: departments.name,
      doctor: { id: doctors.id, name: doctors.name, title: doctors.title, avatar: doctors.avatar, sort: doctors.sort },
    })
    .from(schedules)
    .innerJoin(departments, eq(departments.id, schedules.deptId))
    .leftJoin(doctors, eq(doctors.id, schedules.doctorId))
    .where(where)
    // by day and segment; the general clinic first, then doctors in the hospital's order
    .orderBy(asc(schedules.visitDate), asc(schedules.segment), sql`${schedules.doctorId} is not null`, asc(doctors.sort), asc(schedules.id))
  return rows
}

/** Free slots per schedule. */
async function freeSlots(db: Db | Tx, scheduleIds: number[]): Promise<Map<number, number>> {
  if (scheduleIds.length === 0) return new Map()
  const rows = await db
    .select({ scheduleId: scheduleSlots.scheduleId, free: sql<number>`(count(*) filter (where ${scheduleSlots.registrationId} is null))::int` })
    .from(scheduleSlots)
    .where(inArray(scheduleSlots.scheduleId, scheduleIds))
    .groupBy(scheduleSlots.scheduleId)
  return new Map(rows.map((r) => [r.scheduleId, r.free]))
}

/** The time ranges of each schedule, in order, with what is left in each. */
async function timeRangesOf(db: Db | Tx, scheduleIds: number[]): Promise<Map<number, TimeRange[]>> {
  const out = new Map<number, TimeRange[]>()
  if (scheduleIds.length === 0) return out
  const rows = await db
    .select({
      scheduleId: scheduleSlots.scheduleId,
      timeRange: scheduleSlots.timeRange,
      remaining: sql<number>`(count(*) filter (where ${scheduleSlots.registrationId} is null))::int`,
    })
    .from(scheduleSlots)
    .where(inArray(scheduleSlots.scheduleId, scheduleIds))
    .groupBy(scheduleSlots.scheduleId, scheduleSlots.timeRange)
    .orderBy(scheduleSlots.scheduleId, sql`min(${scheduleSlots.seq})`)
  for (const r of rows) {
    const list = out.get(r.scheduleId) ?? []
    list.push({ timeRange: r.timeRange, remaining: r.remaining })
    out.set(r.scheduleId, list)
  }
  return out
}

function toItem(row: ScheduleWithNames, remaining: number): ScheduleItem {
  const s = row.schedule
  return {
    scheduleId: s.id,
    deptId: s.deptId,
    deptName: row.deptName,
    doctorId: s.doctorId,
    doctorName: row.doctor?.name ?? GENERAL_CLINIC_NAME,
    title: row.doctor?.title ?? '',
    avatar: row.doctor ? row.doctor.avatar || doctorAvatarUrl(row.doctor.id) : '',
    visitDate: s.visitDate,
    week: weekOf(s.visitDate),
    segment: s.segment,
    segmentText: SEGMENTS[s.segment].text,
    registerType: s.registerType,
    feeFen: s.feeFen,
    total: s.totalSlots,
    remaining,
    stopped: s.stopped,
    state: s.stopped ? '停诊' : remaining > 0 ? '有号' : '约满',
  }
}

/** Schedules of the bookable window, without today's segments that no longer take bookings. */
async function upcoming(db: Db, where: SQL, now: Date) {
  const today = hospitalToday(now)
  const rows = await loadSchedules(db, and(where, gte(schedules.visitDate, today), lte(schedules.visitDate, addDays(today, BOOK_DAYS - 1))))
  return rows.filter((r) => bookingClosedReason(r.schedule.visitDate, r.schedule.segment, now) === null)
}

/**
 * POST /schedule-dept: the department's next BOOK_DAYS days. A day is available when any of its schedules is open
 * (not stopped) with a free slot; today's segments that no longer take bookings are left out.
 */
export async function deptSchedule(db: Db, input: { hospitalCode: string; deptId: number }, now: Date): Promise<DeptSchedule> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const dept = await requireBookableDept(db, hospital.id, input.deptId)
  const rows = await upcoming(db, eq(schedules.deptId, dept.id), now)
  const free = await freeSlots(db, rows.map((r) => r.schedule.id))
  const items = rows.map((r) => toItem(r, free.get(r.schedule.id) ?? 0))
  return {
    deptId: dept.id,
    deptName: dept.name,
    days: bookableDates(now).map((visitDate) => {
      const today = items.filter((i) => i.visitDate === visitDate)
      return { visitDate, week: weekOf(visitDate), available: today.some((i) => !i.stopped && i.remaining > 0), items: today }
    }),
  }
}

async function withTimeRanges(db: Db, rows: ScheduleWithNames[]) {
  const ids = rows.map((r) => r.schedule.id)
  const ranges = await timeRangesOf(db, ids)
  return rows.map((r) => {
    const timeRanges = ranges.get(r.schedule.id) ?? []
    return { ...toItem(r, timeRanges.reduce((n, t) => n + t.remaining, 0)), timeRanges }
  })
}

/**
 * POST /schedule-doctor: with `doctorId` the doctor's next BOOK_DAYS days; with `scheduleId` just that schedule (the
 * confirm page), doctor null for a general clinic. Each schedule comes with its time ranges.
 */
export async function doctorSchedule(db: Db, input: { doctorId?: number; scheduleId?: number }, now: Date): Promise<DoctorSchedule> {
  if (input.scheduleId !== undefined) {
    const rows = await loadSchedules(db, eq(schedules.id, input.scheduleId))
    const row = rows[0]
    if (!row) throw notFound('号源')
    const doctor = row.schedule.doctorId === null ? null : await requireDoctor(db, row.schedule.doctorId)
    return {
      doctor: doctor ? toRegisterDoctor(doctor.doctor, doctor.deptName, doctor.hospital) : null,
      items: await withTimeRanges(db, rows),
    }
  }
  const doctor = await requireDoctor(db, input.doctorId!)
  const rows = await upcoming(db, eq(schedules.doctorId, doctor.doctor.id), now)
  return { doctor: toRegisterDoctor(doctor.doctor, doctor.deptName, doctor.hospital), items: await withTimeRanges(db, rows) }
}
