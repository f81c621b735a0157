/**
 * Checks every request body, query and path passes before any schema or handler looks at it, so that hostile input
 * answers 400 in the envelope instead of costing time or reaching the database: bodies nested deeper than any call of
 * ours needs (a recursive walk over them took ~160 ms each and then overflowed the stack), and NUL characters, which a
 * PostgreSQL text column refuses (the query failed with 500).
 */

/** Our calls' bodies nest a few levels at most; 32 leaves room for every call to come and costs nothing. */
export const MAX_JSON_DEPTH = 32

export const TOO_DEEP = '参数错误：请求内容嵌套过深'
export const NUL_CHARACTER = '参数错误：内容含有不可见的空字符'

/** Whether JSON text opens more than `max` arrays or objects inside each other: one pass, before parsing. */
export function jsonDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

/**
 * Whether a parsed value holds a NUL character in any string or key. Values reach here already parsed, so their
 * depth is bounded by jsonDeeperThan (JSON) or by the flat form and query parsers.
 */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(holdsNul)
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v))
  }
  return false
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22: a number out of range, a malformed value, a bad character) are
 * caused by what the caller sent when a schema let it through: a backstop that answers 400 for any the schemas miss.
 */
export function isDataException(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true
  }
  return false
}
