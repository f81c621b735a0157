import type { PatientField } from '../../../types/api/patient'

/** Rules about the people behind an account, written down once (issue 3). Pure: no database here. */

/** At most 5 patients per account, the electronic health card's own limit in WeChat. */
export const MAX_PATIENTS = 5
/**
 * A child may be bound without an identity card (bind/neonate) until 6: children commonly get their first card when
 * they start school; older children are bound with their own card.
 */
export const NEONATE_MAX_AGE = 6
/** A guardian must be an adult by their own identity card. */
export const GUARDIAN_MIN_AGE = 18
/** Two escorts per patient: wards issue passes to at most two named accompanying persons. */
export const MAX_ESCORTS = 2
/** Delivery addresses per account. */
export const MAX_ADDRESSES = 20

export interface PatientFacts {
  name: string | null
  idCard: string | null
  mobile: string | null
  neonate: boolean
  guardianName: string | null
  guardianIdCard: string | null
}

/**
 * What a patient still lacks before a flow that needs a complete patient (registration, payment, escorts) may go on
 * (spec §5 incomplete-information modal): a name and a mobile always; an identity number, or for a child bound
 * without one, a guardian's name and identity number.
 */
export function missingPatientFields(p: PatientFacts): PatientField[] {
  const missing: PatientField[] = []
  if (!p.name?.trim()) missing.push('name')
  if (p.neonate) {
    if (!p.guardianName?.trim()) missing.push('guardianName')
    if (!p.guardianIdCard?.trim()) missing.push('guardianIdCard')
  } else if (!p.idCard?.trim()) missing.push('idCard')
  if (!p.mobile?.trim()) missing.push('mobile')
  return missing
}

/** The relation of the account holder to themself; an account has at most one such patient. */
export const RELATION_SELF = '本人'
/** What a child bound without an identity card is to the account holder unless said otherwise. */
export const NEONATE_DEFAULT_RELATION = '子女'
/** A patient's name as printed on the identity card: Chinese characters, with '·' between parts of minority names. */
export const PATIENT_NAME_MAX = 20
/** Digits of the running number in a hospital card number (`${hospitalCode}${sequence}`): room for 10^8 patients. */
export const HOSPITAL_CARD_DIGITS = 8
/** App pages a redirect may name (spec §2 route families); never a scheme or another host. */
export const APP_PAGE_ROOTS = ['pages', 'palm', 'internet', 'custom'] as const

const NAME_RE = /^\p{Script=Han}+(·\p{Script=Han}+)*$/u

/** Chinese characters and '·' between them, 1 to PATIENT_NAME_MAX characters. */
export function isValidPatientName(name: string): boolean {
  const length = Array.from(name).length
  return length >= 1 && length <= PATIENT_NAME_MAX && NAME_RE.test(name)
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The calendar date of a YYYY-MM-DD string, or null when it is not a real date. */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const m = DATE_RE.exec(value)
  if (!m) return null
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const d = new Date(Date.UTC(year, month - 1, day))
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null
  return { year, month, day }
}

const dateKey = (y: number, m: number, d: number) => y * 10000 + m * 100 + d

/** Full years from a YYYY-MM-DD birthday to the local date of `now`; 0 for an unreadable or future date. */
export function ageOn(birthday: string, now: Date = new Date()): number {
  const b = parseDate(birthday)
  if (!b) return 0
  let age = now.getFullYear() - b.year
  if (dateKey(0, now.getMonth() + 1, now.getDate()) < dateKey(0, b.month, b.day)) age -= 1
  return Math.max(0, age)
}

/**
 * Why a child's birthday cannot be bound without an identity card (bind/neonate), or null when it can:
 * a real date, not after today, and the child younger than NEONATE_MAX_AGE.
 */
export function neonateBirthdayProblem(birthday: string, now: Date = new Date()): string | null {
  const b = parseDate(birthday)
  if (!b) return '出生日期不正确'
  if (dateKey(b.year, b.month, b.day) > dateKey(now.getFullYear(), now.getMonth() + 1, now.getDate())) return '出生日期不能晚于今天'
  if (ageOn(birthday, now) >= NEONATE_MAX_AGE) return `${NEONATE_MAX_AGE}岁及以上儿童请使用身份证绑定`
  return null
}

/** A card number at a hospital: its code followed by a zero-padded running number, e.g. 1039200000001. */
export function hospitalCardNo(hospitalCode: string, sequence: number): string {
  return `${hospitalCode}${String(sequence).padStart(HOSPITAL_CARD_DIGITS, '0')}`
}

/**
 * A path inside the app to come back to after an outside authorisation, e.g. '/pages/addPatient/index?id=3'.
 * No scheme, no host ('//'), no backslash or '..': the provider must not be able to send the browser elsewhere.
 */
export function isAppPagePath(path: string): boolean {
  if (path.length > 500 || path.includes('//') || path.includes('\\') || path.includes('..')) return false
  const m = /^\/([a-zA-Z]+)\/[A-Za-z0-9_\-/.]+(\?[A-Za-z0-9_\-.~%&=+,]*)?$/.exec(path)
  return !!m && (APP_PAGE_ROOTS as readonly string[]).includes(m[1]!)
}
