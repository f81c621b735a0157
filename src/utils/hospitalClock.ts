/**
 * The hospital's wall clock (Asia/Shanghai): the one place an instant becomes the date and time on the hospital's
 * walls, for the app and the server alike (bookable days, order numbers, payment providers' time fields). China has
 * kept UTC+8 without daylight saving since 1991, so it is the instant moved eight hours.
 */
export const HOSPITAL_TIME_ZONE = 'Asia/Shanghai'
const OFFSET_MS = 8 * 3600_000

export interface WallClock {
  /** YYYY-MM-DD */
  date: string
  /** HH:mm:ss */
  time: string
  /** Minutes since midnight. */
  minutes: number
}

export function hospitalClock(now: Date): WallClock {
  const iso = new Date(now.getTime() + OFFSET_MS).toISOString()
  const time = iso.slice(11, 19)
  return { date: iso.slice(0, 10), time, minutes: Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) }
}

export const hospitalToday = (now: Date) => hospitalClock(now).date

/** The instant of a wall-clock date and time (`HH:mm` or `HH:mm:ss`) at the hospital. */
export const hospitalInstant = (date: string, time: string) => new Date(`${date}T${time.length === 5 ? `${time}:00` : time}+08:00`)
