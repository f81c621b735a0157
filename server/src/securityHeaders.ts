/**
 * The security headers of every answer: helmet's set with our content security policy, worked out once when the
 * server starts. @fastify/helmet built helmet's middleware again for every request (two hooks, one async), which
 * was the largest single cost of the bare route in `npm run bench` (issue 21); the headers never vary by request.
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
export function securityHeaders(): Readonly<Record<string, string>> {
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
  return Object.freeze(headers)
}
