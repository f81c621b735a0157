/**
 * Exact decimal arithmetic for prices (spec §9: price precision 12 significant digits;
 * spec §8: the number helper warns 超出了精度限制，结果可能不正确 beyond the safe integer
 * range). Inputs are scaled to integers by their decimal digit length, as number-precision
 * does, so plus(0.1, 0.2) === 0.3 and times(0.1, 3) === 0.3.
 */

/** Warning text when a value leaves the safe integer range (spec §8). */
export const PRECISION_WARNING = '超出了精度限制，结果可能不正确';

/**
 * Rounds to `precision` significant digits, removing float noise (spec §9):
 * `parseFloat(n.toPrecision(12))`, e.g. strip(0.30000000000000004) === 0.3.
 * `precision` is clamped to 1..100 so the call never throws.
 */
export function strip(n: number, precision = 12): number {
  const p = Math.min(100, Math.max(1, Math.floor(Number.isFinite(precision) ? precision : 12)));
  return parseFloat(Number(n).toPrecision(p));
}

/**
 * Warns (console.warn, spec §8) when `n` is above Number.MAX_SAFE_INTEGER or below
 * Number.MIN_SAFE_INTEGER.
 */
export function checkBoundary(n: number): void {
  if (n > Number.MAX_SAFE_INTEGER || n < Number.MIN_SAFE_INTEGER) {
    console.warn(PRECISION_WARNING);
  }
}

/** A number as an integer over a power of ten: value = int / 10 ** scale. */
interface Scaled {
  int: number;
  scale: number;
}

/** Decimal digit length of `n` (digits after the point, exponent notation included). */
function scaled(n: number): Scaled {
  if (!Number.isFinite(n)) return { int: n, scale: 0 };
  const [mantissa, exp = '0'] = String(n).split(/e/i);
  const frac = mantissa.split('.')[1] ?? '';
  const scale = frac.length - Number(exp);
  if (scale <= 0) return { int: n, scale: 0 };
  // value = digits-of-mantissa × 10^-(scale), exactly.
  return { int: Number(mantissa.replace('.', '')), scale };
}

/** Result of one binary step plus the largest magnitude seen on the way. */
interface Step {
  value: number;
  peak: number;
}

const pow10 = (k: number): number => Math.pow(10, k);
const isSafe = (n: number): boolean => !(Math.abs(n) > Number.MAX_SAFE_INTEGER);
const absOr0 = (n: number): number => (Number.isNaN(n) ? 0 : Math.abs(n));

/**
 * Runs one exact step; if an intermediate integer is not safe the plain float result is
 * used instead and the intermediate is reported as the peak (so a warning follows).
 */
function step(intermediates: number[], exact: () => number, fallback: number): Step {
  const peak = Math.max(0, ...intermediates.map(absOr0));
  const value = intermediates.every(isSafe) ? exact() : fallback;
  return { value, peak };
}

function plus2(a: number, b: number): Step {
  const x = scaled(a);
  const y = scaled(b);
  const s = Math.max(x.scale, y.scale);
  const xi = x.int * pow10(s - x.scale);
  const yi = y.int * pow10(s - y.scale);
  const sum = xi + yi;
  return step([xi, yi, sum], () => sum / pow10(s), a + b);
}

function times2(a: number, b: number): Step {
  const x = scaled(a);
  const y = scaled(b);
  const product = x.int * y.int;
  return step([x.int, y.int, product], () => product / pow10(x.scale + y.scale), a * b);
}

function divide2(a: number, b: number): Step {
  const x = scaled(a);
  const y = scaled(b);
  const k = y.scale - x.scale;
  const num = k >= 0 ? x.int * pow10(k) : x.int;
  const den = k >= 0 ? y.int : y.int * pow10(-k);
  return step([num, den], () => num / den, a / b);
}

/** Folds a binary step over the arguments and checks the boundary once. */
function fold(op: (a: number, b: number) => Step, first: number, rest: number[]): number {
  let value = first;
  let peak = absOr0(first);
  for (const n of rest) {
    const r = op(value, n);
    value = r.value;
    peak = Math.max(peak, r.peak);
  }
  // One check: warns if the result or any scaled intermediate left the safe range.
  checkBoundary(Math.max(peak, absOr0(value)));
  return value;
}

/** Exact addition, left to right: plus(0.1, 0.2) === 0.3 (spec §9). */
export function plus(first: number, ...rest: number[]): number {
  return fold(plus2, first, rest);
}

/** Exact subtraction, left to right: minus(1, 0.9) === 0.1 (spec §9). */
export function minus(first: number, ...rest: number[]): number {
  return fold((a, b) => plus2(a, -b), first, rest);
}

/** Exact multiplication by digit-length scaling: times(0.1, 3) === 0.3 (spec §9). */
export function times(first: number, ...rest: number[]): number {
  return fold(times2, first, rest);
}

/** Exact division, left to right: divide(0.3, 0.1) === 3 (spec §9). */
export function divide(first: number, ...rest: number[]): number {
  return fold(divide2, first, rest);
}

/**
 * Amount in fen (cents) as yuan with two decimals: 1230 → '12.30', -5 → '-0.05'.
 * Fractional fen are rounded; non-finite input gives '0.00'.
 */
export function fenToYuan(fen: number): string {
  if (typeof fen !== 'number' || !Number.isFinite(fen)) return '0.00';
  const abs = Math.round(Math.abs(fen));
  const yuan = Math.floor(abs / 100);
  const cents = abs % 100;
  const sign = fen < 0 && abs !== 0 ? '-' : '';
  return `${sign}${yuan}.${cents < 10 ? '0' : ''}${cents}`;
}
