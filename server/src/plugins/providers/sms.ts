import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config'

export interface SmsProvider {
  readonly kind: 'sandbox' | 'real'
  sendCode(mobile: string, code: string): Promise<void>
}

/** Writes the code to the server log, where a developer can read it; no message leaves the machine. */
export function sandboxSms(log: FastifyBaseLogger): SmsProvider {
  return {
    kind: 'sandbox',
    async sendCode(mobile, code) {
      log.info({ sandboxSms: `${mobile.slice(0, 3)}****${mobile.slice(-4)}`, sandboxSmsCode: code }, 'sandbox SMS sent')
    },
  }
}

/** A generic SMS gateway over HTTP: POST {mobile, template, params} with a bearer token. */
export function httpSms(cfg: Extract<Config['sms'], { provider: 'http' }>): SmsProvider {
  return {
    kind: 'real',
    async sendCode(mobile, code) {
      const res = await fetch(cfg.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.token}` },
        body: JSON.stringify({ mobile, template: 'verify_code', params: { code } }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) throw new Error(`SMS gateway answered HTTP ${res.status}`)
    },
  }
}
