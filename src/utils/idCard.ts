/**
 * Mainland China resident identity-card helpers (GB 11643).
 * spec §3 (identity-card parsing) and §5 (recognised only with 15 or 18 characters).
 */

/** Result of {@link parseIdCard}. `sex`: 1 male, 2 female. */
export interface IdCardInfo {
  /** Birth date as YYYY-MM-DD. */
  birthday: string;
  /** Full years at the reference date (never negative). */
  age: number;
  sex: 1 | 2;
  sexText: '男' | '女';
}

const ID15_RE = /^\d{15}$/;
const ID18_RE = /^\d{17}[\dXx]$/;
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const CHECK_CHARS = '10X98765432';
/** Earliest birth year accepted as plausible. */
const MIN_BIRTH_YEAR = 1800;

interface BirthDate {
  year: number;
  month: number;
  day: number;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** A real calendar date (proleptic Gregorian), checked without time-zone effects. */
function isCalendarDate({ year, month, day }: BirthDate): boolean {
  if (year < MIN_BIRTH_YEAR || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Birth date and sex digit of a well-formed 15/18 character number, else null. */
function extract(id: string): { birth: BirthDate; sexDigit: number } | null {
  if (typeof id !== 'string') return null;
  if (id.length === 18 && ID18_RE.test(id)) {
    return {
      birth: {
        year: Number(id.slice(6, 10)),
        month: Number(id.slice(10, 12)),
        day: Number(id.slice(12, 14)),
      },
      sexDigit: Number(id.charAt(16)),
    };
  }
  if (id.length === 15 && ID15_RE.test(id)) {
    return {
      birth: {
        year: 1900 + Number(id.slice(6, 8)),
        month: Number(id.slice(8, 10)),
        day: Number(id.slice(10, 12)),
      },
      sexDigit: Number(id.charAt(14)),
    };
  }
  return null;
}

/** Full years between a birth date and the local calendar date of `now`. */
function fullYears(birth: BirthDate, now: Date): number {
  let age = now.getFullYear() - birth.year;
  const m = now.getMonth() + 1;
  const d = now.getDate();
  if (m < birth.month || (m === birth.month && d < birth.day)) age -= 1;
  return age < 0 ? 0 : age;
}

/** GB 11643 check character for the first 17 digits (the seed and benchmarks make valid numbers with it). */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += Number(first17.charAt(i)) * (WEIGHTS[i] ?? 0);
  return CHECK_CHARS.charAt(sum % 11);
}

/**
 * Parses birth date, age and sex from a 15- or 18-character identity number (spec §3, §5).
 * 18 characters: birth from characters 7-14, sex from the parity of the 17th digit.
 * 15 characters: birth from characters 7-12 read as 19YYMMDD, sex from the parity of the 15th digit.
 * Odd means male (1), even female (2). Returns null for any other length, non-digits or
 * a birth date that is not a real calendar date. The checksum is not checked here; use
 * {@link isValidIdCard} for that.
 */
export function parseIdCard(id: string, now: Date = new Date()): IdCardInfo | null {
  const parts = extract(id);
  if (!parts || !isCalendarDate(parts.birth)) return null;
  const { birth, sexDigit } = parts;
  const male = sexDigit % 2 === 1;
  return {
    birthday: `${birth.year}-${pad2(birth.month)}-${pad2(birth.day)}`,
    age: fullYears(birth, now),
    sex: male ? 1 : 2,
    sexText: male ? '男' : '女',
  };
}

/**
 * True for a well-formed identity number (spec §5): 15 digits or 17 digits plus a check
 * character (X accepted in either case), a real birth date not after `now`, and for
 * 18 characters a correct GB 11643 checksum.
 */
export function isValidIdCard(id: string, now: Date = new Date()): boolean {
  const parts = extract(id);
  if (!parts || !isCalendarDate(parts.birth)) return false;
  const { year, month, day } = parts.birth;
  const birthKey = year * 10000 + month * 100 + day;
  const todayKey = now.getFullYear() * 10000 + (now.getMonth() + 1) * 100 + now.getDate();
  if (birthKey > todayKey) return false;
  if (id.length === 18) return idCardCheckChar(id.slice(0, 17)) === id.charAt(17).toUpperCase();
  return true;
}

/**
 * What a form fills from a number the patient typed: the facts of a valid number only, so that a mistyped number
 * never fills sex and birth date with something plausible.
 */
export function factsOfValidIdCard(id: string, now: Date = new Date()): IdCardInfo | null {
  return isValidIdCard(id, now) ? parseIdCard(id, now) : null;
}
