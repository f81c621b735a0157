/** What the payment core asks of a payment channel, and what the channels share (the channels: paySandbox.ts, wechatPay.ts, alipayPay.ts). */
import type { PayAction, PayChannel } from '../../../../types/api/payment'
import { hospitalClock } from '@/utils/hospitalClock'

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
  /** Alipay in-app payment (my.tradePay in the Alipay mini-program): the payer's user id under the merchant's app. */
  alipayBuyer?: string
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


/** How the sandbox reaches this server's notify endpoint: through routing, parsing and verification, like a provider. */
export type Deliver = (req: { url: string; headers: Record<string, string>; payload: string }) => Promise<{ statusCode: number; body: string }>

export const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
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
export const NOTIFY_MAX_AGE_S = 5 * 60

export interface WechatEvent {
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

export function readWechatStyleEvent(ev: WechatEvent, payload: unknown, notifyId = ev.id): PayNotification | null {
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
export function shanghaiTime(d: Date): string {
  const { date, time } = hospitalClock(d)
  return `${date}T${time}+08:00`
}

/** Cuts text to at most `max` UTF-8 bytes without splitting a character (WeChat's description is 127 bytes). */
export function byteSlice(text: string, max: number): string {
  let out = ''
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > max) break
    out += ch
  }
  return out
}

export type FetchLike = typeof fetch
