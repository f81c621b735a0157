import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { WechatPaySettings } from '../../config'
import { rsaSign, rsaVerify } from './rsa'
import { NOTIFY_MAX_AGE_S, byteSlice, header, readWechatStyleEvent, shanghaiTime, type FetchLike, type PayProvider, type WechatEvent } from './pay'

/** WeChat Pay API v3 (JSAPI) for patients inside WeChat. */
const WECHAT_API = 'https://api.mch.weixin.qq.com'

/** The `Authorization` header of a v3 request: the merchant signs `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n`. */
export function wechatAuthorization(
  cfg: Pick<WechatPaySettings, 'mchId' | 'serialNo' | 'privateKey'>,
  method: string,
  pathWithQuery: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  nonce = randomBytes(16).toString('hex'),
): string {
  const signature = rsaSign(`${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`, cfg.privateKey)
  return `WECHATPAY2-SHA256-RSA2048 mchid="${cfg.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${cfg.serialNo}"`
}

/** Checks a message WeChat Pay signed (notification or answer): `TIMESTAMP\nNONCE\nBODY\n` with its platform key. */
export function verifyWechatSignature(
  headers: Record<string, string | string[] | undefined>,
  body: string,
  platformPublicKey: string,
  now = Date.now(),
): boolean {
  const timestamp = header(headers, 'wechatpay-timestamp')
  const nonce = header(headers, 'wechatpay-nonce')
  const signature = header(headers, 'wechatpay-signature')
  if (!/^\d{1,12}$/.test(timestamp) || !nonce || !signature) return false
  if (Math.abs(now / 1000 - Number(timestamp)) > NOTIFY_MAX_AGE_S) return false
  return rsaVerify(`${timestamp}\n${nonce}\n${body}\n`, signature, platformPublicKey)
}

export interface WechatResource {
  algorithm: string
  ciphertext: string
  associated_data?: string
  nonce: string
}

/** AEAD_AES_256_GCM with the APIv3 key: the ciphertext is base64 of encrypted bytes followed by the 16-byte tag. */
export function decryptWechatResource(resource: WechatResource, apiV3Key: string): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unknown algorithm ${resource.algorithm}`)
  const data = Buffer.from(resource.ciphertext, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
}

/** The inverse of decryptWechatResource (what WeChat Pay does; tests build notifications with it). */
export function encryptWechatResource(plain: string, apiV3Key: string, associatedData = 'transaction'): WechatResource {
  const nonce = randomBytes(6).toString('hex') // 12 characters, as WeChat's
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'))
  cipher.setAAD(Buffer.from(associatedData, 'utf8'))
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return { algorithm: 'AEAD_AES_256_GCM', ciphertext: body.toString('base64'), associated_data: associatedData, nonce }
}

interface WechatTransaction extends WechatEvent {
  mchid?: string
  appid?: string
  payer?: unknown
}

/**
 * WeChat Pay v3 JSAPI for patients inside WeChat: `/v3/pay/transactions/jsapi` for a prepay id, the
 * `chooseWXPay` parameters signed with the merchant key, notifications checked with the platform key and decrypted
 * with the APIv3 key, `/v3/pay/transactions/out-trade-no/{no}` and `/v3/refund/domestic/refunds`.
 */
export function wechatPay(cfg: WechatPaySettings, publicUrl: string, fetchImpl: FetchLike = fetch): PayProvider & { readonly appId: string } {
  if (Buffer.byteLength(cfg.apiV3Key) !== 32) throw new Error('WECHAT_PAY apiV3Key must be 32 characters')
  const notifyUrl = `${publicUrl.replace(/\/$/, '')}/dld-pay/notify/wechat`

  async function call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    const res = await fetchImpl(`${WECHAT_API}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: wechatAuthorization(cfg, method, path, body),
      },
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(10_000),
    })
    const text = await res.text()
    if (res.status >= 500 || res.status === 429) throw new Error(`WeChat Pay answered HTTP ${res.status}`)
    // an answer that moves state (query, refund) must be WeChat's own: check its signature like a notification's
    if (res.status < 300 && !verifyWechatSignature(Object.fromEntries(res.headers.entries()), text, cfg.platformPublicKey)) {
      throw new Error('WeChat Pay answer signature is not valid')
    }
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
  }

  return {
    channel: 'wechat',
    appId: cfg.appId,
    async pay(req) {
      if (!req.openId) throw new Error('WeChat JSAPI payment needs the payer openid')
      const { status, json } = await call('POST', '/v3/pay/transactions/jsapi', {
        appid: cfg.appId,
        mchid: cfg.mchId,
        description: byteSlice(`${req.hospitalName}-${req.subject}`, 127),
        out_trade_no: req.orderNo,
        time_expire: shanghaiTime(req.expiresAt),
        notify_url: notifyUrl,
        amount: { total: req.amountFen, currency: 'CNY' },
        payer: { openid: req.openId },
      })
      if (status >= 300 || typeof json.prepay_id !== 'string') throw new Error(`WeChat Pay refused the order: ${String(json.code ?? status)}`)
      const timeStamp = String(Math.floor(Date.now() / 1000))
      const nonceStr = randomBytes(16).toString('hex')
      const pkg = `prepay_id=${json.prepay_id}`
      const paySign = rsaSign(`${cfg.appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`, cfg.privateKey)
      return { kind: 'jsapi', channel: 'wechat', params: { appId: cfg.appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign } }
    },
    verifyNotification(headers, rawBody) {
      if (!verifyWechatSignature(headers, rawBody, cfg.platformPublicKey)) return null
      try {
        const envelope = JSON.parse(rawBody) as { id?: string; event_type?: string; create_time?: string; resource?: WechatResource }
        if (!envelope.resource) return null
        const ev = JSON.parse(decryptWechatResource(envelope.resource, cfg.apiV3Key)) as WechatTransaction
        if (ev.mchid && ev.mchid !== cfg.mchId) return null
        // the payer's openid is not kept with the notification
        const { payer: _payer, ...kept } = ev
        return readWechatStyleEvent(ev, { id: envelope.id, event_type: envelope.event_type, create_time: envelope.create_time, resource: kept }, envelope.id)
      } catch {
        return null
      }
    },
    async query(orderNo) {
      const { status, json } = await call('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(cfg.mchId)}`)
      if (status === 404) return null
      if (status >= 300) throw new Error(`WeChat Pay query failed: ${String(json.code ?? status)}`)
      const t = json as WechatTransaction
      // REFUND: paid, then (partly) refunded; still a payment that happened
      if (t.out_trade_no !== orderNo || !t.transaction_id || (t.trade_state !== 'SUCCESS' && t.trade_state !== 'REFUND')) return null
      return {
        orderNo,
        tradeNo: t.transaction_id,
        amountFen: Number(t.amount?.total),
        currency: t.amount?.currency ?? '',
        paidAt: t.success_time ? new Date(t.success_time) : new Date(),
      }
    },
    async refund(req) {
      const { status, json } = await call('POST', '/v3/refund/domestic/refunds', {
        ...(req.tradeNo ? { transaction_id: req.tradeNo } : { out_trade_no: req.orderNo }),
        out_refund_no: req.refundNo,
        reason: byteSlice(req.reason, 80),
        notify_url: notifyUrl,
        amount: { refund: req.amountFen, total: req.totalFen, currency: 'CNY' },
      })
      // 4xx: WeChat refused this refund for good (wrong amount, no such payment...)
      if (status >= 300) return { status: 'failed', providerRefundNo: null }
      const providerRefundNo = typeof json.refund_id === 'string' ? json.refund_id : null
      const s = json.status
      return { status: s === 'SUCCESS' ? 'succeeded' : s === 'PROCESSING' ? 'pending' : 'failed', providerRefundNo }
    },
    ack: (ok) =>
      ok
        ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS' }) }
        : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: '失败' }) },
  }
}
