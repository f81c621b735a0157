import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto'
import type { PayAction, PayChannel } from '../../../../types/api/payment'
import type { AlipaySettings, Config, WechatPaySettings } from '../../config'
import { rsaSign, rsaVerify } from './rsa'
import { fenToYuan } from '@/utils/number'
import { hospitalClock } from '@/utils/hospitalClock'
import { alipayGateway, alipaySignContent, alipayTime, fromAlipayTime } from './alipay'
import { safeEqual } from '../../crypto'
import { eq, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db'
import { sandboxPayOutbox, sandboxPayRefunds, sandboxPayTrades } from '../../db/schema'

/** What the payment core asks a provider to collect: the self-paid part of one order. */
export interface PayRequest {
  orderNo: string
  subject: string
  hospitalName: string
  /** What the patient pays through the channel, in fen. */
  amountFen: number
  /** The provider refuses to take the money after this time (WeChat `time_expire`, Alipay `time_expire`). */
  expiresAt: Date
  /** A path under /h5/ the cashier returns to (the provider adds nothing; the core adds `orderNo`). */
  returnUrl: string
  /** WeChat JSAPI: the payer's openid under the merchant's app id. */
  openId?: string
}

/** A payment the provider reports as done (by notification or by query). */
export interface PaidReport {
  orderNo: string
  /** The provider's transaction id. */
  tradeNo: string
  amountFen: number
  currency: string
  paidAt: Date
}

/** The outcome of a refund the provider reports. */
export interface RefundReport {
  refundNo: string
  orderNo: string
  providerRefundNo: string | null
  amountFen: number
  succeeded: boolean
}

/** A notification whose signature checked out, read into what it says. */
export type PayNotification =
  | ({ kind: 'paid'; notifyId: string; payload: unknown } & PaidReport)
  | ({ kind: 'refund'; notifyId: string; payload: unknown } & RefundReport)
  /** Signed and well-formed, but nothing to act on (e.g. Alipay's WAIT_BUYER_PAY). */
  | { kind: 'ignored'; notifyId: string; payload: unknown }

export interface RefundRequest {
  orderNo: string
  refundNo: string
  /** The transaction to return, when the order was paid more than once; else the order's payment. */
  tradeNo?: string
  /** Refunded now, and the total the order was paid with, in fen. */
  amountFen: number
  totalFen: number
  reason: string
}

/** succeeded/failed: the provider's final word; pending: its notification will tell. */
export interface RefundAnswer {
  status: 'succeeded' | 'pending' | 'failed'
  providerRefundNo: string | null
}

/** What the notify endpoint answers the provider. */
export interface NotifyAnswer {
  status: number
  contentType: string
  body: string
}

/**
 * One payment channel. Every method that reaches the provider may throw on a network failure; the core treats a
 * throw as "unknown" (it never moves money on it) and asks again later.
 */
export interface PayProvider {
  readonly channel: PayChannel
  pay(req: PayRequest): Promise<PayAction>
  /** Verifies the signature over the raw body and reads the notification; null when it is not genuine. */
  verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): PayNotification | null
  /** The payment as the provider knows it; null while unpaid. */
  query(orderNo: string): Promise<PaidReport | null>
  refund(req: RefundRequest): Promise<RefundAnswer>
  ack(ok: boolean): NotifyAnswer
}

/** The sandbox (the embedded default) and the real channels the configuration turns on. */
export interface PayProviders {
  sandbox: SandboxPay | null
  wechat: (PayProvider & { readonly appId: string }) | null
  alipay: PayProvider | null
  /** Stops the sandbox's pending deliveries (the app is closing). */
  close(): void
}

/** How the sandbox reaches this server's notify endpoint: through routing, parsing and verification, like a provider. */
export type Deliver = (req: { url: string; headers: Record<string, string>; payload: string }) => Promise<{ statusCode: number; body: string }>

const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '')
}

/** "12.3" / "12.30" / "12" -> 1230; anything else -> NaN. */
export function yuanToFen(yuan: string): number {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(String(yuan).trim())
  if (!m) return Number.NaN
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/** Notifications older than this are refused (a captured one cannot be replayed later; copies change nothing anyway). */
const NOTIFY_MAX_AGE_S = 5 * 60

// ---- sandbox ----------------------------------------------------------------------------------------------------

export type SandboxTrade = typeof sandboxPayTrades.$inferSelect

export interface SandboxPay extends PayProvider {
  readonly channel: 'sandbox'
  /** The signature the cashier URL carries (so the page cannot be pointed at another order or return address). */
  cashierSign(orderNo: string, returnUrl: string): string
  verifyCashier(orderNo: string, returnUrl: string, sign: string): boolean
  /** The payment the cashier shows, as the sandbox was told it by `pay`. */
  trade(orderNo: string): Promise<SandboxTrade | null>
  /** The patient pressed 确认支付: the sandbox takes the money and notifies the server in the background. */
  confirm(orderNo: string, now?: Date): Promise<{ ok: true; tradeNo: string } | { ok: false; message: string }>
  /** Sends every notification still owed (after a restart, or one whose retries ran out); answers how many it sent. */
  deliverOwed(): Promise<number>
  /** Signs a notification body the way the sandbox does (tests build their own notifications with it). */
  signNotification(body: string, timestamp?: number): Record<string, string>
  /** Resolves when every delivery started so far has finished (tests wait on it instead of sleeping). */
  settled(): Promise<void>
  close(): void
}

const SANDBOX_HEADERS = { timestamp: 'sandbox-timestamp', nonce: 'sandbox-nonce', signature: 'sandbox-signature' } as const

/**
 * A payment provider that lives beside this server and behaves like the real ones: it is told each payment by `pay`,
 * takes the money on its cashier page, notifies the server with a signed body (HMAC-SHA256 over
 * `timestamp\nnonce\nbody\n`, WeChat's message layout, in `Sandbox-Signature`), retries until the server answers
 * success, and answers `query` and `refund` from its books. Its books and the notifications it owes are in the
 * database (sandbox_pay_*), each written in one transaction with the money it tells of, like a provider's own
 * ledger: a crash forgets nothing, and every server process on the database sees the same cashier.
 */
export function sandboxPay(opts: { secret: string; db: Db; deliver: Deliver; retryDelaysMs?: readonly number[] }): SandboxPay {
  const { db } = opts
  const notifyKey = createHmac('sha256', opts.secret).update('sandbox-pay-notify').digest()
  const cashierKey = createHmac('sha256', opts.secret).update('sandbox-pay-cashier').digest()
  // first attempt right after the browser was answered, then backoff (WeChat retries over hours; this is a sandbox);
  // a notification whose retries ran out stays owed, for deliverOwed (the app's sweep, and every start)
  const delays = opts.retryDelaysMs ?? [0, 1_000, 4_000, 15_000, 60_000]
  /** Each delivery under way, with what ends it (closing the app ends them all). */
  const inFlight = new Map<Promise<void>, () => void>()
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  const sign = (timestamp: string, nonce: string, body: string) =>
    createHmac('sha256', notifyKey).update(`${timestamp}\n${nonce}\n${body}\n`).digest('base64')

  function signNotification(body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
    const nonce = randomBytes(16).toString('hex')
    return {
      'content-type': 'application/json',
      [SANDBOX_HEADERS.timestamp]: String(timestamp),
      [SANDBOX_HEADERS.nonce]: nonce,
      [SANDBOX_HEADERS.signature]: sign(String(timestamp), nonce, body),
    }
  }

  /** Records a notification the sandbox owes, inside the transaction that makes the change it tells of. */
  async function owe(tx: Tx, event: Record<string, unknown>): Promise<{ id: number; body: string }> {
    const body = JSON.stringify({ id: randomUUID(), create_time: new Date().toISOString(), ...event })
    const [row] = await tx.insert(sandboxPayOutbox).values({ body }).returning({ id: sandboxPayOutbox.id })
    return { id: row!.id, body }
  }

  /** One attempt; marks the notification delivered when the server answered success. */
  async function attemptDelivery(owed: { id: number; body: string }): Promise<boolean> {
    let ok = false
    try {
      // signed afresh each time, as a provider does, so a retry is never refused as too old
      const res = await opts.deliver({ url: '/dld-pay/notify/sandbox', headers: signNotification(owed.body), payload: owed.body })
      ok = res.statusCode >= 200 && res.statusCode < 300 && (JSON.parse(res.body) as { code?: string }).code === 'SUCCESS'
    } catch {
      ok = false
    }
    if (ok) await db.update(sandboxPayOutbox).set({ deliveredAt: new Date() }).where(eq(sandboxPayOutbox.id, owed.id))
    return ok
  }

  /** Sends one owed notification until the server answers success, waiting longer between attempts. */
  function notify(owed: { id: number; body: string }) {
    let resolveDone!: () => void
    const done = new Promise<void>((r) => (resolveDone = r))
    const finish = () => {
      inFlight.delete(done)
      resolveDone()
    }
    inFlight.set(done, finish)
    const attempt = (i: number) => {
      if (closed || i >= delays.length) return finish()
      const timer = setTimeout(async () => {
        timers.delete(timer)
        if (closed) return finish()
        if (await attemptDelivery(owed).catch(() => false)) finish()
        else attempt(i + 1)
      }, delays[i])
      timer.unref()
      timers.add(timer)
    }
    attempt(0)
  }

  const provider: SandboxPay = {
    channel: 'sandbox',
    async pay(req) {
      const trade = { subject: req.subject, hospitalName: req.hospitalName, amountFen: req.amountFen, expiresAt: req.expiresAt }
      // told again (a second 去支付): the terms are refreshed while nothing was taken
      await db
        .insert(sandboxPayTrades)
        .values({ orderNo: req.orderNo, ...trade })
        .onConflictDoUpdate({ target: sandboxPayTrades.orderNo, set: trade, setWhere: isNull(sandboxPayTrades.tradeNo) })
      const q = new URLSearchParams({ orderNo: req.orderNo, returnUrl: req.returnUrl, sign: provider.cashierSign(req.orderNo, req.returnUrl) })
      return { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?${q.toString()}` }
    },
    cashierSign: (orderNo, returnUrl) => createHmac('sha256', cashierKey).update(`${orderNo}\n${returnUrl}`).digest('base64url'),
    verifyCashier: (orderNo, returnUrl, s) => safeEqual(provider.cashierSign(orderNo, returnUrl), s),
    async trade(orderNo) {
      const [row] = await db.select().from(sandboxPayTrades).where(eq(sandboxPayTrades.orderNo, orderNo))
      return row ?? null
    },
    async confirm(orderNo, now = new Date()) {
      const answer = await db.transaction(async (tx) => {
        const [trade] = await tx.select().from(sandboxPayTrades).where(eq(sandboxPayTrades.orderNo, orderNo)).for('update')
        if (!trade) return { ok: false as const, message: '支付单不存在或已失效，请返回重新发起支付' }
        if (trade.tradeNo) return { ok: true as const, tradeNo: trade.tradeNo, owed: null }
        // like WeChat's time_expire: the provider itself refuses to take money for an order past its time
        if (now.getTime() >= trade.expiresAt.getTime()) return { ok: false as const, message: '订单已超时，请返回重新下单' }
        const tradeNo = `SBX${now.toISOString().slice(0, 10).replace(/-/g, '')}${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e9)).padStart(9, '0')}`
        await tx.update(sandboxPayTrades).set({ tradeNo, paidAt: now }).where(eq(sandboxPayTrades.orderNo, orderNo))
        const owed = await owe(tx, {
          event_type: 'TRANSACTION.SUCCESS',
          out_trade_no: orderNo,
          transaction_id: tradeNo,
          trade_state: 'SUCCESS',
          success_time: now.toISOString(),
          amount: { total: trade.amountFen, currency: 'CNY' },
        })
        return { ok: true as const, tradeNo, owed }
      })
      if (!answer.ok) return answer
      if (answer.owed) notify(answer.owed)
      return { ok: true, tradeNo: answer.tradeNo }
    },
    async deliverOwed() {
      const owed = await db.select({ id: sandboxPayOutbox.id, body: sandboxPayOutbox.body }).from(sandboxPayOutbox).where(isNull(sandboxPayOutbox.deliveredAt)).orderBy(sandboxPayOutbox.id).limit(100)
      let sent = 0
      for (const o of owed) if (!closed && (await attemptDelivery(o))) sent++
      return sent
    },
    signNotification,
    verifyNotification(headers, rawBody) {
      const timestamp = header(headers, SANDBOX_HEADERS.timestamp)
      const nonce = header(headers, SANDBOX_HEADERS.nonce)
      const signature = header(headers, SANDBOX_HEADERS.signature)
      if (!/^\d{1,12}$/.test(timestamp) || !nonce || !signature) return null
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > NOTIFY_MAX_AGE_S) return null
      if (!safeEqual(sign(timestamp, nonce, rawBody), signature)) return null
      try {
        const event = JSON.parse(rawBody) as WechatEvent
        return readWechatStyleEvent(event, event)
      } catch {
        return null
      }
    },
    async query(orderNo) {
      const t = await provider.trade(orderNo)
      if (!t?.tradeNo || !t.paidAt) return null
      return { orderNo, tradeNo: t.tradeNo, amountFen: t.amountFen, currency: 'CNY', paidAt: t.paidAt }
    },
    async refund(req) {
      const answer = await db.transaction(async (tx): Promise<{ answer: RefundAnswer; owed: { id: number; body: string } | null }> => {
        const [t] = await tx.select().from(sandboxPayTrades).where(eq(sandboxPayTrades.orderNo, req.orderNo)).for('update')
        const [existing] = await tx.select().from(sandboxPayRefunds).where(eq(sandboxPayRefunds.refundNo, req.refundNo))
        // the same refund number asked again is the same refund, answered with its outcome (as WeChat answers SUCCESS)
        if (existing) return { answer: { status: 'succeeded', providerRefundNo: existing.providerRefundNo }, owed: null }
        // the sandbox takes one payment per order: another transaction is not one of its own
        if (!t?.tradeNo || (req.tradeNo && req.tradeNo !== t.tradeNo)) return { answer: { status: 'failed', providerRefundNo: null }, owed: null }
        const [sum] = await tx
          .select({ fen: sql<number>`coalesce(sum(${sandboxPayRefunds.amountFen}), 0)`.mapWith(Number) })
          .from(sandboxPayRefunds)
          .where(eq(sandboxPayRefunds.orderNo, req.orderNo))
        if (req.amountFen <= 0 || (sum?.fen ?? 0) + req.amountFen > t.amountFen) return { answer: { status: 'failed', providerRefundNo: null }, owed: null }
        const providerRefundNo = `SBXR${Date.now()}${String(randomInt(1e9)).padStart(9, '0')}`
        await tx.insert(sandboxPayRefunds).values({ refundNo: req.refundNo, orderNo: req.orderNo, amountFen: req.amountFen, providerRefundNo })
        const owed = await owe(tx, {
          event_type: 'REFUND.SUCCESS',
          out_trade_no: req.orderNo,
          transaction_id: t.tradeNo,
          out_refund_no: req.refundNo,
          refund_id: providerRefundNo,
          refund_status: 'SUCCESS',
          success_time: new Date().toISOString(),
          amount: { refund: req.amountFen, total: t.amountFen, currency: 'CNY' },
        })
        return { answer: { status: 'pending', providerRefundNo }, owed }
      })
      if (answer.owed) notify(answer.owed)
      return answer.answer
    },
    ack: (ok) =>
      ok
        ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS' }) }
        : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: '失败' }) },
    async settled() {
      while (inFlight.size) await Promise.all([...inFlight.keys()])
    },
    close() {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
      for (const finish of [...inFlight.values()]) finish()
    },
  }
  return provider
}

/** The decrypted body of a WeChat v3 payment or refund notification (the sandbox sends it in the clear). */
interface WechatEvent {
  id?: string
  event_type?: string
  out_trade_no?: string
  transaction_id?: string
  trade_state?: string
  success_time?: string
  out_refund_no?: string
  refund_id?: string
  refund_status?: string
  amount?: { total?: number; refund?: number; currency?: string; payer_currency?: string }
}

function readWechatStyleEvent(ev: WechatEvent, payload: unknown, notifyId = ev.id): PayNotification | null {
  if (!notifyId || !ev.out_trade_no) return null
  if (ev.out_refund_no) {
    const amountFen = ev.amount?.refund
    if (!Number.isSafeInteger(amountFen)) return null
    return {
      kind: 'refund',
      notifyId,
      payload,
      refundNo: ev.out_refund_no,
      orderNo: ev.out_trade_no,
      providerRefundNo: ev.refund_id ?? null,
      amountFen: amountFen!,
      succeeded: ev.refund_status === 'SUCCESS',
    }
  }
  if (ev.trade_state !== 'SUCCESS') return { kind: 'ignored', notifyId, payload }
  const amountFen = ev.amount?.total
  if (!ev.transaction_id || !Number.isSafeInteger(amountFen)) return null
  return {
    kind: 'paid',
    notifyId,
    payload,
    orderNo: ev.out_trade_no,
    tradeNo: ev.transaction_id,
    amountFen: amountFen!,
    currency: ev.amount?.currency ?? '',
    paidAt: ev.success_time ? new Date(ev.success_time) : new Date(),
  }
}

/** The page the cashier sends the browser back to, with the order number the app asks about. */
export function returnWithOrderNo(returnUrl: string, orderNo: string): string {
  return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}orderNo=${encodeURIComponent(orderNo)}`
}

/** RFC 3339 in Beijing time, e.g. `2026-11-23T10:15:00+08:00` (WeChat Pay's `time_expire`). */
function shanghaiTime(d: Date): string {
  const { date, time } = hospitalClock(d)
  return `${date}T${time}+08:00`
}

/** Cuts text to at most `max` UTF-8 bytes without splitting a character (WeChat's description is 127 bytes). */
function byteSlice(text: string, max: number): string {
  let out = ''
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > max) break
    out += ch
  }
  return out
}

type FetchLike = typeof fetch

// ---- WeChat Pay API v3 --------------------------------------------------------------------------------------------

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

// ---- Alipay -------------------------------------------------------------------------------------------------------

/**
 * Alipay for patients inside Alipay: `alipay.trade.wap.pay` as a signed page redirect, RSA2 notifications,
 * `alipay.trade.query` and `alipay.trade.refund` (synchronous: its answer is final).
 */
export function alipayPay(cfg: AlipaySettings, publicUrl: string, fetchImpl: FetchLike = fetch): PayProvider {
  const gateway = alipayGateway(cfg, fetchImpl)
  const base = publicUrl.replace(/\/$/, '')
  const notifyUrl = `${base}/dld-pay/notify/alipay`
  const call = (method: string, biz: Record<string, unknown>) => gateway.call(method, { biz_content: JSON.stringify(biz) })

  return {
    channel: 'alipay',
    async pay(req) {
      const back = `${base}${returnWithOrderNo(req.returnUrl, req.orderNo)}`
      const params = gateway.signed('alipay.trade.wap.pay', {
        notify_url: notifyUrl,
        return_url: back,
        biz_content: JSON.stringify({
          out_trade_no: req.orderNo,
          total_amount: fenToYuan(req.amountFen),
          subject: `${req.hospitalName}-${req.subject}`.slice(0, 128),
          product_code: 'QUICK_WAP_WAY',
          time_expire: alipayTime(req.expiresAt),
          quit_url: back,
        }),
      })
      return { kind: 'redirect', channel: 'alipay', url: `${gateway.url}?${new URLSearchParams(params).toString()}` }
    },
    verifyNotification(_headers, rawBody) {
      const form = Object.fromEntries(new URLSearchParams(rawBody).entries())
      if (form.sign_type !== 'RSA2' || !form.sign || !rsaVerify(alipaySignContent(form, true), form.sign, cfg.alipayPublicKey)) return null
      if (form.app_id !== cfg.appId || !form.notify_id || !form.out_trade_no) return null
      const { sign: _sign, ...payload } = form
      if (form.out_biz_no && form.refund_fee) {
        return {
          kind: 'refund',
          notifyId: form.notify_id,
          payload,
          refundNo: form.out_biz_no,
          orderNo: form.out_trade_no,
          providerRefundNo: form.trade_no ?? null,
          amountFen: yuanToFen(form.refund_fee),
          succeeded: true,
        }
      }
      if (form.trade_status !== 'TRADE_SUCCESS' && form.trade_status !== 'TRADE_FINISHED') return { kind: 'ignored', notifyId: form.notify_id, payload }
      const amountFen = yuanToFen(form.total_amount ?? '')
      if (!form.trade_no || Number.isNaN(amountFen)) return null
      return { kind: 'paid', notifyId: form.notify_id, payload, orderNo: form.out_trade_no, tradeNo: form.trade_no, amountFen, currency: 'CNY', paidAt: fromAlipayTime(form.gmt_payment) }
    },
    async query(orderNo) {
      const a = await call('alipay.trade.query', { out_trade_no: orderNo })
      if (a.code !== '10000' || a.out_trade_no !== orderNo || !a.trade_no) return null
      if (a.trade_status !== 'TRADE_SUCCESS' && a.trade_status !== 'TRADE_FINISHED') return null
      return { orderNo, tradeNo: a.trade_no, amountFen: yuanToFen(a.total_amount ?? ''), currency: 'CNY', paidAt: fromAlipayTime(a.send_pay_date) }
    },
    async refund(req) {
      const a = await call('alipay.trade.refund', {
        ...(req.tradeNo ? { trade_no: req.tradeNo } : { out_trade_no: req.orderNo }),
        refund_amount: fenToYuan(req.amountFen),
        refund_reason: req.reason,
        out_request_no: req.refundNo,
      })
      // 10000 is final (asked again with the same out_request_no it answers the same refund); 40004 is a refusal
      if (a.code === '10000') return { status: 'succeeded', providerRefundNo: a.trade_no ?? null }
      if (a.code === '40004') return { status: 'failed', providerRefundNo: null }
      throw new Error(`Alipay refund answered ${a.code ?? '?'}`)
    },
    ack: (ok) => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' }),
  }
}

// ---- selection ----------------------------------------------------------------------------------------------------

/** The sandbox while no real channel is configured (or PAY_SANDBOX asks for it), and each configured real channel. */
export function buildPayProviders(
  config: Pick<Config, 'secret' | 'publicUrl' | 'wechatPay' | 'alipayPay' | 'paySandbox'>,
  db: Db,
  deliver: Deliver,
): PayProviders {
  if ((config.wechatPay || config.alipayPay) && !config.publicUrl) {
    throw new Error('PUBLIC_URL must be set for WeChat Pay or Alipay to reach the notify URL')
  }
  const sandbox = config.paySandbox ? sandboxPay({ secret: config.secret, db, deliver }) : null
  return {
    sandbox,
    wechat: config.wechatPay ? wechatPay(config.wechatPay, config.publicUrl!) : null,
    alipay: config.alipayPay ? alipayPay(config.alipayPay, config.publicUrl!) : null,
    close: () => sandbox?.close(),
  }
}
