/**
 * Rules of lab results both sides use: whether a value is above or below its reference range, how that is said in
 * words (never by colour alone: ↑ 偏高 / ↓ 偏低), and the UCUM code of a unit as a laboratory writes it.
 */
import type { ResultFlag } from '../../types/api/report'

/** A value written as a number (阴性, 阳性, >1000 are not). */
export function numericValue(value: string): number | null {
  const v = value.trim()
  if (!/^[-+]?\d+(\.\d+)?$/.test(v)) return null
  return Number(v)
}

/** H above `high`, L below `low`, N within; '' for a value that is not a number or an item without a range. */
export function labFlag(value: string, low: number | null, high: number | null): ResultFlag {
  const n = numericValue(value)
  if (n === null || (low === null && high === null)) return ''
  if (high !== null && n > high) return 'H'
  if (low !== null && n < low) return 'L'
  return 'N'
}

/** What the report says beside an abnormal value, in text for a screen reader and a colour-blind eye alike. */
export function flagText(flag: ResultFlag): string {
  if (flag === 'H') return '↑ 偏高'
  if (flag === 'L') return '↓ 偏低'
  return ''
}

const UCUM: Readonly<Record<string, string>> = {
  '10^9/L': '10*9/L',
  '10^12/L': '10*12/L',
  '×10^9/L': '10*9/L',
  '×10^12/L': '10*12/L',
  'μmol/L': 'umol/L',
  'µmol/L': 'umol/L',
  'mmol/L': 'mmol/L',
  'g/L': 'g/L',
  'mg/L': 'mg/L',
  'U/L': 'U/L',
  'IU/L': '[IU]/L',
  '%': '%',
  'fL': 'fL',
  'pg': 'pg',
  'ng/mL': 'ng/mL',
}

/** The UCUM code of a unit as written (10^9/L -> 10*9/L, μmol/L -> umol/L); null when it has none known. */
export function ucumOf(unit: string): string | null {
  return UCUM[unit.trim()] ?? null
}


/** The date a trend point is labelled with, in the hospital's time zone: 11-20 (with the year when it is not this one). */
export function trendLabel(iso: string, now: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(iso))
  const thisYear = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric' }).format(now)
  return day.startsWith(thisYear) ? day.slice(5) : day
}

/** The y axis of a trend: the values and the range's ends, with a margin, so the normal band is always in view. */
export function trendAxis(values: number[], low: number | null, high: number | null): { min: number; max: number } {
  const all = [...values, ...(low !== null ? [low] : []), ...(high !== null ? [high] : [])]
  if (!all.length) return { min: 0, max: 1 }
  const lo = Math.min(...all)
  const hi = Math.max(...all)
  const margin = (hi - lo || Math.abs(hi) || 1) * 0.15
  const min = lo - margin < 0 && lo >= 0 ? 0 : lo - margin
  return { min: Number(min.toPrecision(3)), max: Number((hi + margin).toPrecision(3)) }
}
