import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto'
import { safeEqual } from '../../crypto'
import { eq, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db'
import { sandboxPayOutbox, sandboxPayRefunds, sandboxPayTrades } from '../../db/schema'
import { NOTIFY_MAX_AGE_S, header, readWechatStyleEvent, type Deliver, type PayProvider, type RefundAnswer, type WechatEvent } from './pay'

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
