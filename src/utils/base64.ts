const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function utf8Bytes(s: string): number[] {
  const out: number[] = []
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (c < 0x80) out.push(c)
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63))
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
  }
  return out
}

/** UTF-8 base64 that also runs in the mini-programs (no btoa there); spec §9 sensitive-field encoding. */
export function encodeBase64(s: string): string {
  const b = utf8Bytes(s)
  let out = ''
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0)
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!
    out += i + 1 < b.length ? ALPHABET[(n >> 6) & 63]! : '='
    out += i + 2 < b.length ? ALPHABET[n & 63]! : '='
  }
  return out
}

export function decodeBase64(s: string): string {
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '')
  const bytes: number[] = []
  for (let i = 0; i < clean.length; i += 4) {
    const n = [0, 1, 2, 3].reduce((acc, k) => (acc << 6) | Math.max(0, ALPHABET.indexOf(clean[i + k] ?? 'A')), 0)
    bytes.push((n >> 16) & 255)
    if (i + 2 < clean.length) bytes.push((n >> 8) & 255)
    if (i + 3 < clean.length) bytes.push(n & 255)
  }
  let out = ''
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i++]!
    let c = b0
    if (b0 >= 0xf0) c = ((b0 & 7) << 18) | ((bytes[i++]! & 63) << 12) | ((bytes[i++]! & 63) << 6) | (bytes[i++]! & 63)
    else if (b0 >= 0xe0) c = ((b0 & 15) << 12) | ((bytes[i++]! & 63) << 6) | (bytes[i++]! & 63)
    else if (b0 >= 0xc0) c = ((b0 & 31) << 6) | (bytes[i++]! & 63)
    out += String.fromCodePoint(c)
  }
  return out
}

/**
 * Fields base64-encoded on requests and decoded on responses (spec §3), shared with the server.
 * guardianIdCard is ours: a child's guardian's identity number (bind/neonate) deserves the same treatment.
 */
export const SENSITIVE_FIELDS = ['doctorIdCard', 'idCard', 'patientIdCard', 'patientMedicalCardNo', 'hisMedCardNo', 'idCardNo', 'accompanyIdCard', 'guardianIdCard']

const SENSITIVE = new Set(SENSITIVE_FIELDS)

/**
 * Applies `fn` to every non-empty sensitive field, at any depth of arrays and objects. A Date or binary data (a
 * Buffer) is a value; any other object is walked, whatever its prototype (a parsed form body has its own).
 *
 * What holds no sensitive field comes back as it is, not copied: most answers hold none, and a server's answer kept
 * for every caller (route.ts `reuse`) keeps its identity. Only the objects and arrays on the way to a changed field are
 * new; nothing given is changed.
 */
export function mapSensitive<T>(value: T, fn: (s: string) => string): T {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const mapped = mapSensitive(value[i], fn)
      if (!out && mapped !== value[i]) out = value.slice(0, i)
      out?.push(mapped)
    }
    return (out ?? value) as T
  }
  if (value && typeof value === 'object' && !(value instanceof Date) && !ArrayBuffer.isView(value)) {
    const from = value as Record<string, unknown>
    const keys = Object.keys(from)
    let out: Record<string, unknown> | null = null
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      const v = from[k]
      const mapped = SENSITIVE.has(k) && typeof v === 'string' && v !== '' ? fn(v) : mapSensitive(v, fn)
      if (!out && mapped !== v) {
        out = {}
        for (let j = 0; j < i; j++) out[keys[j]!] = from[keys[j]!]
      }
      if (out) out[k] = mapped
    }
    return (out ?? value) as T
  }
  return value
}
