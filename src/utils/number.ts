import NP from 'number-precision'

/**
 * Decimal arithmetic for prices with number-precision (spec §9: 12 significant digits), warning in the app's
 * own words (spec §8) when a result leaves the safe integer range.
 */
NP.enableBoundaryChecking(false)

/** Warning text when a value leaves the safe integer range (spec §8). */
export const PRECISION_WARNING = '超出了精度限制，结果可能不正确'

/** Rounds to `precision` significant digits, removing float noise: strip(0.30000000000000004) === 0.3. */
export const strip = (n: number, precision = 12): number => NP.strip(n, precision)

/** console.warn (spec §8) when `n` is beyond Number.MAX_SAFE_INTEGER / MIN_SAFE_INTEGER. */
export function checkBoundary(n: number): void {
  if (n > Number.MAX_SAFE_INTEGER || n < Number.MIN_SAFE_INTEGER) console.warn(PRECISION_WARNING)
}

const checked =
  (op: (...nums: number[]) => number) =>
  (first: number, ...rest: number[]): number => {
    const result = op(first, ...rest)
    checkBoundary(result)
    return result
  }

export const plus = checked(NP.plus)
export const minus = checked(NP.minus)
export const times = checked(NP.times)
export const divide = checked(NP.divide)

/**
 * Amount in fen (cents) as yuan with two decimals: 1230 → '12.30', -5 → '-0.05'.
 * Fractional fen are rounded; non-finite input gives '0.00'.
 */
export function fenToYuan(fen: number): string {
  if (typeof fen !== 'number' || !Number.isFinite(fen)) return '0.00'
  const abs = Math.round(Math.abs(fen))
  const yuan = Math.floor(abs / 100)
  const cents = abs % 100
  const sign = fen < 0 && abs !== 0 ? '-' : ''
  return `${sign}${yuan}.${cents < 10 ? '0' : ''}${cents}`
}
