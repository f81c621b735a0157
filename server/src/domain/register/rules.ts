/**
 * The rules of appointment registration (预约挂号), written down once. Pure: no database here; every function that
 * depends on the time takes `now`, so tests can set the clock (spec §7 "Registration").
 */
import { randomInt } from 'node:crypto'
import type { Segment } from '../../../../types/api/register'
import { hospitalClock, hospitalInstant, hospitalToday } from '@/utils/hospitalClock'

/** The hospitals' own time zone: "today", week days and deadlines are read on a Shanghai wall clock. */
/** Days that can be booked, today included. */
export const BOOK_DAYS = 14
/** Minutes a slot is held while the patient pays (hospital config `register.holdMinutes` overrides). */
export const DEFAULT_HOLD_MINUTES = 15
/** Cancelling a paid booking is allowed until this time on the day before the visit (config `register.cancelDeadline`). */
export const DEFAULT_CANCEL_DEADLINE = '17:00'
/** Age from which the elderly activity applies (hospital config `register.freeForElderly` = 'true' turns it on). */
export const ELDERLY_AGE = 65
/** The register type the elderly activity covers. */
export const GENERAL_TYPE = '普通号'
export const ELDERLY_ACTIVITY = `${ELDERLY_AGE}周岁及以上老年人${GENERAL_TYPE}免挂号费`
/** spec §6 chsRegisterList: the hospitals that settle registration fees with health insurance. */
export const CHS_REGISTER_HOSPITALS: readonly string[] = ['10388', '10403', '10412', '10404', '10392']
/** Page size limit of the records list. */
export const MAX_PAGE_SIZE = 50
/** Days counted by the "hot" department order. */
export const HOT_DAYS = 30

export const CONFIG_HOLD_MINUTES = 'register.holdMinutes'
export const CONFIG_CANCEL_DEADLINE = 'register.cancelDeadline'
export const CONFIG_FREE_FOR_ELDERLY = 'register.freeForElderly'

/** Clinic hours of each segment and the half-hour time ranges patients choose from. */
export const SEGMENTS: Record<Segment, { text: string; start: string; end: string; closesAt: string }> = {
  // today's morning stops taking bookings at 11:30 and the afternoon at 17:00: the last patients still need time to
  // register at the desk and be seen before the clinic ends
  am: { text: '上午', start: '08:00', end: '12:00', closesAt: '11:30' },
  pm: { text: '下午', start: '14:00', end: '17:30', closesAt: '17:00' },
}

// ---- wall clock -------------------------------------------------------------------------------------------------

export { hospitalClock, hospitalToday, hospitalInstant }

const utcDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d!))
}

/** Calendar arithmetic on YYYY-MM-DD strings (no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = utcDay(date)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

const WEEK = ['周日', '周一', '周二', '周三', '周四', '周五', '周六']
export const weekOf = (date: string) => WEEK[utcDay(date).getUTCDay()]!

/** 0 (Sunday) .. 6 of a date. */
export const weekdayOf = (date: string) => utcDay(date).getUTCDay()

/** `HH:mm` as minutes since midnight; null when it is not a time of day. */
export function minutesOf(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm.trim())
  return m ? Number(m[1]) * 60 + Number(m[2]) : null
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`


/** The half-hour time ranges of a segment, e.g. 08:00-08:30 … 11:30-12:00. */
export function timeRangesOf(segment: Segment): string[] {
  const { start, end } = SEGMENTS[segment]
  const ranges: string[] = []
  for (let m = minutesOf(start)!; m < minutesOf(end)!; m += 30) ranges.push(`${hhmm(m)}-${hhmm(m + 30)}`)
  return ranges
}

// ---- booking window ---------------------------------------------------------------------------------------------

/** The dates that can be booked: today and the next BOOK_DAYS - 1 days. */
export function bookableDates(now: Date): string[] {
  const today = hospitalToday(now)
  return Array.from({ length: BOOK_DAYS }, (_, i) => addDays(today, i))
}

/**
 * Why a segment cannot be booked at `now`, or null when it can: not in the past, within BOOK_DAYS, and on the day
 * itself not after the segment's closing time (11:30 for the morning, 17:00 for the afternoon).
 */
export function bookingClosedReason(visitDate: string, segment: Segment, now: Date): string | null {
  const { date: today, minutes } = hospitalClock(now)
  if (visitDate < today) return '该号源就诊日期已过，请选择其他日期'
  if (visitDate > addDays(today, BOOK_DAYS - 1)) return `仅可预约${BOOK_DAYS}天内的号源`
  if (visitDate === today && minutes >= minutesOf(SEGMENTS[segment].closesAt)!) return `今日${SEGMENTS[segment].text}号源已停止预约`
  return null
}

// ---- cancelling -------------------------------------------------------------------------------------------------

/** A configured `HH:mm` deadline, or the default when unset or unreadable. */
export const cancelDeadlineTime = (configured: string | null | undefined) =>
  configured && minutesOf(configured) !== null ? configured.trim() : DEFAULT_CANCEL_DEADLINE

/** A paid booking may be cancelled (and refunded) until the deadline time on the day before the visit. */
export const cancelDeadline = (visitDate: string, time: string) => hospitalInstant(addDays(visitDate, -1), time)

export const cancelRuleText = (time: string) => `就诊前一日${time}前可取消，逾期不可退号`
export const cancelTooLateText = (time: string) => `已超过取消时限（就诊前一日${time}），不可取消`

/** Hold minutes from the hospital's config: a whole number from 1 to 120, else the default. */
export function holdMinutesOf(configured: string | null | undefined): number {
  const n = Number(configured)
  return Number.isInteger(n) && n >= 1 && n <= 120 ? n : DEFAULT_HOLD_MINUTES
}

// ---- price ------------------------------------------------------------------------------------------------------

/** Full years on a date (both YYYY-MM-DD). */
export function ageOnDate(birthday: string, date: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number)
  const [y, m, d] = date.split('-').map(Number)
  if (!by || !y) return 0
  const age = y - by - (m! * 100 + d! < bm! * 100 + bd! ? 1 : 0)
  return Math.max(0, age)
}

/**
 * The fee after the hospital's activities. One activity so far: at a hospital that turns it on, a patient aged
 * ELDERLY_AGE or over on the day of the visit pays no fee for a 普通号 (many cities waive the general registration fee
 * for the elderly). No activity otherwise.
 */
export function activityPrice(input: { feeFen: number; registerType: string; birthday: string; visitDate: string; freeForElderly: boolean }) {
  const elderly = input.freeForElderly && input.registerType === GENERAL_TYPE && ageOnDate(input.birthday, input.visitDate) >= ELDERLY_AGE
  const discountFen = elderly ? input.feeFen : 0
  return { feeFen: input.feeFen, discountFen, payFen: input.feeFen - discountFen, activity: elderly ? ELDERLY_ACTIVITY : null }
}

/**
 * A registration number: GH, the Shanghai date it was made, then 12 random digits, so that even 100,000 bookings a day
 * collide less than once in 200 days (and the unique index refuses the one that would).
 */
export const newRegNo = (now: Date) =>
  `GH${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1_000_000)).padStart(6, '0')}${String(randomInt(1_000_000)).padStart(6, '0')}`

/** A seeded window booking's number: GW (window), the date, then the schedule and slot, unique by construction. */
export const windowRegNo = (now: Date, scheduleId: number, seq: number) =>
  `GW${hospitalToday(now).replace(/-/g, '')}${String(scheduleId).padStart(8, '0')}${String(seq).padStart(3, '0')}`
