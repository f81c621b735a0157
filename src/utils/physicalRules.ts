/**
 * Rules of physical-exam booking (体检预约) that the app and the server both apply: who a package suits, which days
 * can be booked, and until when a paid exam can be cancelled online.
 */
import { ageOn } from './selfService'

/** Days ahead the centre takes bookings (tomorrow up to this many days). */
export const PHYSICAL_BOOKING_DAYS = 14
/** The centre's places a working day when it sets none of its own. */
export const PHYSICAL_DEFAULT_CAPACITY = 20

export interface PackageAudience {
  sex: 0 | 1 | 2
  minAge: number
  maxAge: number
}

/** Why the patient cannot take the package (仅限女性 / 仅限40岁及以上 ...), or null when it suits them. */
export function packageRefusal(pkg: PackageAudience, person: { sex: 1 | 2; birthday: string }, today: string): string | null {
  if (pkg.sex && pkg.sex !== person.sex) return pkg.sex === 1 ? '该套餐仅限男性' : '该套餐仅限女性'
  const age = ageOn(person.birthday, today)
  if (age < pkg.minAge || age > pkg.maxAge) return `该套餐适合${pkg.minAge}至${pkg.maxAge}岁`
  return null
}

/** YYYY-MM-DD plus n calendar days (no time zone involved). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

const WEEK = ['周日', '周一', '周二', '周三', '周四', '周五', '周六']
export const weekOf = (date: string) => WEEK[new Date(`${date}T00:00:00Z`).getUTCDay()]!

/** The days a patient may book on `today` (the hospital's date): tomorrow to PHYSICAL_BOOKING_DAYS ahead. */
export function bookableDays(today: string): string[] {
  return Array.from({ length: PHYSICAL_BOOKING_DAYS }, (_, i) => addDays(today, i + 1))
}

/** The centre works Monday to Saturday. */
export const isCentreOpen = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() !== 0

/** A paid exam is cancelled online (with a full refund) only before its day: never on the day or after. */
export const canCancelPaid = (examDate: string, today: string) => today < examDate

export const CANCEL_ON_DAY = '体检当日及之后不能线上取消，如需改期请联系体检中心'
