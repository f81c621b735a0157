import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config'
import { badInput } from '../../errors'

export interface SmsProvider {
  readonly kind: 'sandbox' | 'real' | 'disabled'
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

export const SMS_OFF = '短信服务暂未开通'

/**
 * No gateway on a server that is not a demo: a code only written to the log would leave the patient waiting for a
 * message that never comes. (A production server does not start without SMS_URL; this covers an app built without that check.)
 */
export function disabledSms(): SmsProvider {
  return {
    kind: 'disabled',
    async sendCode() {
      throw badInput(SMS_OFF)
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
