/**
 * Schedules as the registration pages show them: a department's next BOOK_DAYS days, a doctor's, or one schedule with
 * its time ranges (spec §2 deptSchedule, rowSchedule, confirm). Public. The schedules and their places are the HIS's;
 * the doctors' titles and portraits are the app's catalogue.
 */
import { inArray } from 'drizzle-orm'
import type { DeptSchedule, DoctorSchedule, ScheduleItem } from '../../../../types/api/register'
import type { Db } from '../../db'
import { doctors } from '../../db/schema'
import { notFound } from '../../errors'
import type { HisProvider, HisSchedule } from '../../plugins/providers/his'
import { requireHospitalByCode } from '../hospital'
import { doctorAvatarUrl, requireBookableDept, requireDoctor, toRegisterDoctor } from './catalogue'
import { BOOK_DAYS, SEGMENTS, addDays, bookableDates, bookingClosedReason, hospitalToday, weekOf } from './rules'

/** What a department's general clinic (普通门诊, no named doctor) is called where a doctor's name would be. */
export const GENERAL_CLINIC_NAME = '普通门诊'

type CatalogueDoctor = { id: number; name: string; title: string; avatar: string }

/** The catalogue's doctors of these schedules (title and portrait), by id. */
async function doctorsOf(db: Db, list: HisSchedule[]): Promise<Map<number, CatalogueDoctor>> {
  const ids = [...new Set(list.flatMap((s) => (s.doctorId === null ? [] : [s.doctorId])))]
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: doctors.id, name: doctors.name, title: doctors.title, avatar: doctors.avatar })
    .from(doctors)
    .where(inArray(doctors.id, ids))
  return new Map(rows.map((d) => [d.id, d]))
}

function toItem(s: HisSchedule, doctor: CatalogueDoctor | null): ScheduleItem {
  return {
    scheduleId: s.scheduleId,
    deptId: s.deptId,
    deptName: s.deptName,
    doctorId: s.doctorId,
    doctorName: s.doctorId === null ? GENERAL_CLINIC_NAME : (s.doctorName ?? doctor?.name ?? ''),
    title: doctor?.title ?? '',
    avatar: doctor ? doctor.avatar || doctorAvatarUrl(doctor.id) : '',
    visitDate: s.visitDate,
    week: weekOf(s.visitDate),
    segment: s.segment,
    segmentText: SEGMENTS[s.segment].text,
    registerType: s.registerType,
    feeFen: s.feeFen,
    total: s.total,
    remaining: s.remaining,
    stopped: s.stopped,
    state: s.stopped ? '停诊' : s.remaining > 0 ? '有号' : '约满',
  }
}

/** The HIS's schedules of the bookable window, without today's segments that no longer take bookings. */
async function upcoming(his: HisProvider, query: { hospitalCode: string; deptId?: number; doctorId?: number }, now: Date) {
  const today = hospitalToday(now)
  const list = await his.schedules({ ...query, from: today, to: addDays(today, BOOK_DAYS - 1) })
  return list.filter((s) => bookingClosedReason(s.visitDate, s.segment, now) === null)
}

/**
 * POST /schedule-dept: the department's next BOOK_DAYS days. A day is available when any of its schedules is open
 * (not stopped) with a free slot; today's segments that no longer take bookings are left out.
 */
export async function deptSchedule(db: Db, his: HisProvider, input: { hospitalCode: string; deptId: number }, now: Date): Promise<DeptSchedule> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const dept = await requireBookableDept(db, hospital.id, input.deptId)
  const list = await upcoming(his, { hospitalCode: hospital.code, deptId: dept.id }, now)
  const named = await doctorsOf(db, list)
  const items = list.map((s) => toItem(s, s.doctorId === null ? null : (named.get(s.doctorId) ?? null)))
  return {
    deptId: dept.id,
    deptName: dept.name,
    days: bookableDates(now).map((visitDate) => {
      const today = items.filter((i) => i.visitDate === visitDate)
      return { visitDate, week: weekOf(visitDate), available: today.some((i) => !i.stopped && i.remaining > 0), items: today }
    }),
  }
}

/**
 * POST /schedule-doctor: with `doctorId` the doctor's next BOOK_DAYS days; with `scheduleId` just that schedule (the
 * confirm page), doctor null for a general clinic. Each schedule comes with its time ranges.
 */
export async function doctorSchedule(db: Db, his: HisProvider, input: { doctorId?: number; scheduleId?: number }, now: Date): Promise<DoctorSchedule> {
  if (input.scheduleId !== undefined) {
    const [schedule] = await his.schedules({ hospitalCode: null, scheduleIds: [input.scheduleId] })
    if (!schedule) throw notFound('号源')
    const doctor = schedule.doctorId === null ? null : await requireDoctor(db, schedule.doctorId)
    return {
      doctor: doctor ? toRegisterDoctor(doctor.doctor, doctor.deptName, doctor.hospital) : null,
      items: [{ ...toItem(schedule, doctor?.doctor ?? null), timeRanges: schedule.timeRanges }],
    }
  }
  const doctor = await requireDoctor(db, input.doctorId!)
  const list = await upcoming(his, { hospitalCode: doctor.hospital.code, doctorId: doctor.doctor.id }, now)
  const items = list.map((s) => ({ ...toItem(s, doctor.doctor), timeRanges: s.timeRanges }))
  return { doctor: toRegisterDoctor(doctor.doctor, doctor.deptName, doctor.hospital), items }
}
