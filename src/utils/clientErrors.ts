/**
 * The app's own error reports (POST /dld-hospital/common/debugLog): the script errors, promise rejections and chunk
 * load failures a patient's phone meets, so that staff learn of them. Rules shared by the app (which sends at most a
 * few per session, each once) and the server (which trusts nothing and scrubs again before it logs).
 */

export type ClientErrorKind = 'error' | 'rejection' | 'chunk'

export interface ClientErrorReport {
  kind: ClientErrorKind
  message: string
  stack: string
  /** The page's path (its query left out: codes and ids travel there). */
  page: string
}

export const MESSAGE_MAX = 500
export const STACK_MAX = 2000
export const PAGE_MAX = 200
/** Reports one session sends at most: a page that fails in a loop must not flood the server. */
export const REPORTS_PER_SESSION = 10

/**
 * Takes out of a text what may name a person or open an account: query values, runs of six digits or more (mobiles,
 * identity numbers, card numbers, codes) and long token-like strings. What is left says where the code broke.
 */
export function scrubClientText(text: string, max: number): string {
  return text
    .replace(/([?&][^=&#\s]+)=[^&#\s]*/g, '$1=~')
    .replace(/\d{6,}[\dXx]?/g, '~')
    .replace(/[A-Za-z0-9_\-.+/]{32,}={0,2}/g, (s) => (s.includes('/') && !/[=+]/.test(s) ? s : '~'))
    .slice(0, max)
}

/** A chunk that did not load (webpack's ChunkLoadError, or its CSS chunk's) is reported as such (spec §8). */
const isChunkFailure = (name: string, message: string) => name === 'ChunkLoadError' || /Loading (CSS )?chunk \S+ failed/i.test(message)

/** What a thrown value or a rejection reason says, as a report of `kind`. */
export function reportOf(kind: 'error' | 'rejection', reason: unknown, page: string): ClientErrorReport {
  const e = reason as { name?: unknown; message?: unknown; stack?: unknown } | null
  const name = typeof e?.name === 'string' ? e.name : ''
  const message = typeof e?.message === 'string' ? e.message : typeof reason === 'string' ? reason : String(reason)
  return {
    kind: isChunkFailure(name, message) ? 'chunk' : kind,
    message: scrubClientText(name && !message.startsWith(name) ? `${name}: ${message}` : message, MESSAGE_MAX),
    stack: scrubClientText(typeof e?.stack === 'string' ? e.stack : '', STACK_MAX),
    page: scrubClientText(page.split('?')[0]!, PAGE_MAX),
  }
}

/**
 * The app's reporter: each distinct report once, at most REPORTS_PER_SESSION, and never one about the reporting
 * itself (a report that cannot be sent is dropped).
 */
export function errorReporter(send: (report: ClientErrorReport) => Promise<unknown>) {
  const sent = new Set<string>()
  return (report: ClientErrorReport) => {
    const key = `${report.kind}|${report.message}`
    if (sent.has(key) || sent.size >= REPORTS_PER_SESSION) return
    sent.add(key)
    void send(report).catch(() => undefined)
  }
}
