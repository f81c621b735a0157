/**
 * The one Alipay open-platform gateway, used by sign-in (`alipay.system.oauth.token`, `alipay.user.info.share`) and
 * by payment (`alipay.trade.*`): the common parameters, RSA2 signatures over Alipay's string to sign, answers whose
 * signature is checked, and Beijing time, which Alipay expects in `timestamp` and every time field.
 */
import type { AlipaySettings } from '../../config'
import { rsaSign, rsaVerify } from './rsa'
import { hospitalClock, hospitalInstant } from '@/utils/hospitalClock'

const PRODUCTION_GATEWAY = 'https://openapi.alipay.com/gateway.do'

/** `yyyy-MM-dd HH:mm:ss` in Beijing time (UTC+8, no daylight saving), the format of Alipay's `timestamp`. */
export function alipayTime(d: Date): string {
  const { date, time } = hospitalClock(d)
  return `${date} ${time}`
}

/** Beijing time `yyyy-MM-dd HH:mm:ss` as a Date (now when it is missing or malformed). */
export function fromAlipayTime(s: string | undefined): Date {
  const m = s && /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(s)
  return m ? hospitalInstant(m[1]!, m[2]!) : new Date()
}

/** Alipay's string to sign: every non-empty parameter but `sign` (and `sign_type` for notifications), sorted, `k=v&...`. */
export function alipaySignContent(params: Record<string, string>, forNotification = false): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && !(forNotification && k === 'sign_type') && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
}

/** The raw text of `"key": {...}` in an Alipay answer: its signature covers exactly those characters. */
export function rawJsonValue(text: string, key: string): string | null {
  const at = text.indexOf(`"${key}"`)
  if (at < 0) return null
  const start = text.indexOf('{', at + key.length + 2)
  if (start < 0) return null
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return null
}

export interface AlipayGateway {
  /** The gateway's address (a signed page redirect goes there). */
  readonly url: string
  /** `params` (a method's own, and `biz_content` as JSON text) with the common parameters and their signature. */
  signed(method: string, params: Record<string, string>): Record<string, string>
  /**
   * Calls `method` and answers its `<method>_response` (or Alipay's `error_response`). A signed answer must verify
   * against the Alipay public key; an unsigned one is accepted only as an error (Alipay leaves some errors about the
   * request itself unsigned), so a forged success cannot pass.
   */
  call(method: string, params: Record<string, string>): Promise<Record<string, string>>
}

export function alipayGateway(cfg: AlipaySettings, fetchImpl: typeof fetch = fetch, now: () => Date = () => new Date()): AlipayGateway {
  const url = cfg.gateway ?? PRODUCTION_GATEWAY
  function signed(method: string, params: Record<string, string>): Record<string, string> {
    const all: Record<string, string> = {
      app_id: cfg.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: alipayTime(now()),
      version: '1.0',
      ...params,
    }
    return { ...all, sign: rsaSign(alipaySignContent(all), cfg.privateKey) }
  }
  return {
    url,
    signed,
    async call(method, params) {
      const res = await fetchImpl(`${url}?charset=utf-8`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
        body: new URLSearchParams(signed(method, params)).toString(),
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) throw new Error(`Alipay answered HTTP ${res.status}`)
      const text = await res.text()
      const body = JSON.parse(text) as { sign?: string } & Record<string, Record<string, string> | undefined>
      const key = [`${method.replace(/\./g, '_')}_response`, 'error_response'].find((k) => body[k])
      const raw = key ? rawJsonValue(text, key) : null
      const answer = key ? body[key] : undefined
      if (!key || !raw || !answer) throw new Error(`Alipay answer to ${method} has no response`)
      const isError = answer.code !== undefined && answer.code !== '10000'
      if (body.sign ? !rsaVerify(raw, body.sign, cfg.alipayPublicKey) : !isError) throw new Error('Alipay answer signature is not valid')
      return answer
    },
  }
}
