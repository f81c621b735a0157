/**
 * The security headers of every answer, worked out once when the server starts: helmet's set with our content
 * security policy on pages and files, a short strict set on JSON answers. @fastify/helmet built helmet's middleware
 * again for every request (two hooks, one async), which was the largest single cost of the bare route in
 * `npm run bench` (issue 21); the headers never vary by request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet, { type HelmetOptions } from 'helmet'

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      // blob: Taro's H5 uploadFile reads the chosen picture (a blob URL) with XHR before posting it
      connectSrc: ["'self'", 'blob:', 'https:', 'wss:', 'ws:'],
      formAction: ["'self'", 'https:', 'http:'],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
}

/** The headers helmet sets with HELMET_OPTIONS, by lower-case name (its directives are no per-request functions). */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  helmet(HELMET_OPTIONS)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}

export interface SecurityHeaders {
  /** Pages, scripts, styles, pictures: helmet's set with our content security policy. */
  readonly page: Readonly<Record<string, string>>
  /**
   * JSON answers (the API, its refusals and errors): what a browser heeds on data it never renders (OWASP's REST
   * cheat sheet): nothing may load or frame it, no sniffing it into something else, no referrer, no other origin
   * reading it, and HTTPS only. Helmet's whole set is 12 headers and about 900 bytes, the policy of a page most of
   * it, on every answer; a patient's phone on HTTP/1.1 (no header compression) fetched it with each of its calls.
   */
  readonly api: Readonly<Record<string, string>>
}

export function securityHeaders(): SecurityHeaders {
  const page = helmetHeaders()
  const api = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': page['strict-transport-security']!,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  }
  return { page: Object.freeze(page), api: Object.freeze(api) }
}

/** Whether an answer of this content type is JSON (the API's set of headers), not a page or a file. */
export const isJsonType = (type: unknown) => typeof type === 'string' && type.startsWith('application/json')
