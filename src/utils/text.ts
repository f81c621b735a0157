/**
 * Display length of a string (spec §5): characters whose code is up to 128 count 1,
 * all others count 2. Iterates by code point, so an emoji counts 2, not 4.
 */
export function textLength(s: string): number {
  if (typeof s !== 'string' || s.length === 0) return 0;
  let len = 0;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    len += code <= 128 ? 1 : 2;
  }
  return len;
}
