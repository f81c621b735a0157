import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { generateKeyPairSync, randomBytes, randomUUID, createVerify } from 'node:crypto'
import { Writable } from 'node:stream'
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { hospitals, identities, ledgerEntries, orderEvents, orders, paymentNotifications, refunds, sandboxPayOutbox } from '../../server/src/db/schema'
import { badInput } from '../../server/src/errors'
import {
  DUPLICATE_PAYMENT_REFUND_REASON,
  LATE_PAYMENT_REFUND_REASON,
  UNDELIVERED_REFUND_REASON,
  cancelOrder,
  closeExpiredOrders,
  createOrder,
  DUPLICATE_ACCOUNT,
  ledgerBalance,
  ledgerImbalance,
  refundOrder,
  registerBusiness,
  retryPendingRefunds,
  OWED_REFUND_ATTEMPTS,
  type OrderHandlers,
  type OrderRow,
} from '../../server/src/domain/payment'
import { yuanToFen } from '../../server/src/plugins/providers/pay'
import { sandboxPay, type SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { decryptWechatResource, encryptWechatResource, verifyWechatSignature, wechatAuthorization, wechatPay } from '../../server/src/plugins/providers/wechatPay'
import { alipayPay } from '../../server/src/plugins/providers/alipayPay'
import type { PayProviders } from '../../server/src/plugins/providers'
import { alipaySignContent, rawJsonValue } from '../../server/src/plugins/providers/alipay'
import { rsaSign } from '../../server/src/plugins/providers/rsa'
import { fenToYuan } from '../../src/utils/number'
import type { PayAction, PayOrder } from '../../types/api/payment'
import { startTestApp, signInUser, signInWechat, envelopeOf, randomIp, miniCodeThroughLoginPage, until, DEMO, type Envelope, type TestApp } from './harness'
import type { Db } from '../../server/src/db'
import { paidBody } from './fixtures'

class LogCapture extends Writable {
  lines: string[] = []
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(chunk.toString('utf8'))
    done()
  }
}

type Caller = { headers: Record<string, string>; userId: number }

// ---- the app, with a sandbox whose deliveries the tests can hold back ------------------------------------------

/** inject: delivered through the app; drop: lost on the way; fail-once: the first attempt of each event fails. */
let delivery: 'inject' | 'drop' | 'fail-once' = 'inject'
let attempts = 0
let appRef: FastifyInstance
const secret = randomBytes(32).toString('base64')
const failedOnce = new Set<string>()
let sandbox: SandboxPay
/** The sandbox on the test app's database, delivering as `delivery` says. */
const payOn = (db: Db): PayProviders => {
  sandbox = sandboxPay({
    secret,
    db,
    retryDelaysMs: [0, 30, 60],
    deliver: async (r) => {
      attempts += 1
      if (delivery === 'drop') return { statusCode: 503, body: '' }
      if (delivery === 'fail-once' && !failedOnce.has(r.payload)) {
        failedOnce.add(r.payload)
        return { statusCode: 503, body: '' }
      }
      const res = await appRef.inject({ method: 'POST', url: r.url, headers: r.headers, payload: r.payload })
      return { statusCode: res.statusCode, body: res.body }
    },
  })
  return { sandbox, wechat: null, alipay: null, close: () => sandbox.close() }
}

const log = new LogCapture()
let t: TestApp
let owner: Caller
let other: Caller
let hospitalId: number

// ---- a tiny business that pays through the core ---------------------------------------------------------------

const called = { paid: new Map<number, number>(), closed: new Map<number, number>(), refunded: new Map<number, number>() }
const bump = (m: Map<number, number>, id: number) => m.set(id, (m.get(id) ?? 0) + 1)
/** Orders whose business cannot deliver any more when the money arrives. */
const undeliverable = new Set<number>()
/** Orders whose business fails unexpectedly (a bug, a lost connection) the first time. */
const crashOnce = new Set<number>()
/** Orders whose business fails to release what it held. */
const closeFails = new Set<number>()

/** A stand-in for business 'gift', in place of the app's own (registered once, by the first app built). */
const standIn = {
  async onPaid(tx, order) {
    if (crashOnce.delete(order.id)) throw new Error('business crashed')
    if (undeliverable.has(order.id)) {
      // work done before refusing must be rolled back with it
      await tx.insert(orderEvents).values({ orderId: order.id, fromStatus: 'paid', toStatus: 'paid', reason: 'gift side effect' })
      throw badInput('礼物已下架')
    }
    bump(called.paid, order.id)
  },
  async onClosed(_tx, order) {
    if (closeFails.has(order.id)) throw new Error('release failed')
    bump(called.closed, order.id)
  },
  async onRefunded(_tx, order) {
    bump(called.refunded, order.id)
  },
} satisfies OrderHandlers

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info', secret }, providers: (database) => ({ pay: payOn(database.db) }), logStream: log })
  registerBusiness('gift', standIn)
  appRef = t.app
  owner = await signInUser(t.app)
  other = await signInUser(t.app)
  const [h] = await t.database.db.select().from(hospitals).where(eq(hospitals.code, DEMO.both.code))
  hospitalId = h!.id
})
after(() => t.close())

let keySerial = 0
async function newOrder(caller: Caller, opts: { amountFen?: number; insuranceFen?: number; expiresAt?: Date; key?: string; businessId?: number } = {}): Promise<OrderRow> {
  keySerial += 1
  return t.database.db.transaction((tx) =>
    createOrder(tx, {
      userId: caller.userId,
      hospitalId,
      business: 'gift',
      businessId: opts.businessId ?? keySerial,
      subject: '鲜花一束',
      amountFen: opts.amountFen ?? 1250,
      insuranceFen: opts.insuranceFen ?? 0,
      expiresAt: opts.expiresAt ?? new Date(Date.now() + 15 * 60_000),
      idempotencyKey: opts.key ?? `k-${keySerial}-${randomUUID()}`,
    }),
  )
}

async function call<T = any>(method: 'GET' | 'POST', url: string, caller?: Caller | null, body?: Record<string, unknown>) {
  const res = await t.app.inject({ method, url, headers: caller?.headers ?? {}, remoteAddress: randomIp(), ...(body ? { payload: body } : {}) })
  return envelopeOf<T>(res) as Envelope<T>
}

const RETURN = '/h5/pages/order/payment/detail'
const payFor = (orderNo: string, caller: Caller | null = owner, returnUrl = RETURN) => call<PayAction>('POST', '/dld-pay/pay', caller, { orderNo, returnUrl })
const getOrder = (orderNo: string, caller: Caller | null = owner) => call<PayOrder>('GET', `/dld-pay/order/${orderNo}`, caller)

async function row(id: number): Promise<OrderRow> {
  const [o] = await t.database.db.select().from(orders).where(eq(orders.id, id))
  return o!
}

/** Everything a notification could change about one order. */
async function footprint(order: OrderRow) {
  const db = t.database.db
  const o = await row(order.id)
  const count = async (table: 'order_events' | 'ledger_entries' | 'refunds') =>
    Number(((await db.execute(sql`select count(*) as n from ${sql.identifier(table)} where order_id = ${order.id}`)) as unknown as { rows: { n: string }[] }).rows[0]!.n)
  return {
    status: o.status,
    tradeNo: o.tradeNo,
    events: await count('order_events'),
    ledger: await count('ledger_entries'),
    refunds: await count('refunds'),
    notifications: Number((await db.select({ n: sql<string>`count(*)` }).from(paymentNotifications).where(eq(paymentNotifications.orderNo, order.orderNo)))[0]!.n),
    onPaid: called.paid.get(order.id) ?? 0,
  }
}

/** An order of `caller` moved to paying through the API. */
async function payingOrder(caller: Caller = owner, opts: Parameters<typeof newOrder>[1] = {}) {
  const order = await newOrder(caller, opts)
  const env = await payFor(order.orderNo, caller)
  assert.equal(env.code, 200, env.msg)
  assert.equal(env.data.kind, 'redirect')
  return { order: await row(order.id), url: (env.data as { url: string }).url }
}

const notify = (body: string, headers: Record<string, string> = sandbox.signNotification(body), channel = 'sandbox') =>
  t.app.inject({ method: 'POST', url: `/dld-pay/notify/${channel}`, headers, payload: body })

function cashierParams(url: string) {
  const u = new URL(url, 'http://localhost')
  return { path: u.pathname, orderNo: u.searchParams.get('orderNo')!, returnUrl: u.searchParams.get('returnUrl')!, sign: u.searchParams.get('sign')! }
}

const cashierPost = (url: string, action: 'confirm' | 'cancel', over: Record<string, string> = {}) => {
  const p = cashierParams(url)
  return t.app.inject({ method: 'POST', url: '/sandbox/pay/cashier', payload: { orderNo: p.orderNo, returnUrl: p.returnUrl, sign: p.sign, action, ...over } })
}

// ---- createOrder ---------------------------------------------------------------------------------------------

describe('createOrder', () => {
  it('answers the same order for the same idempotency key, and refuses the key with another amount', async () => {
    const key = `same-${randomUUID()}`
    const first = await newOrder(owner, { key, businessId: 7 })
    assert.match(first.orderNo, /^P\d{20}$/)
    assert.equal(first.status, 'created')
    const again = await newOrder(owner, { key, businessId: 7 })
    assert.equal(again.id, first.id)
    // the answer again adds no second created event
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, first.id))
    assert.deepEqual(events.map((e) => [e.fromStatus, e.toStatus, e.reason]), [[null, 'created', '创建订单']])
    const refused = (e: Error & { code?: number }) => e.code === 409 && e.message === '重复的请求'
    await assert.rejects(newOrder(owner, { key, businessId: 7, amountFen: 999 }), refused)
    await assert.rejects(newOrder(owner, { key, businessId: 8 }), refused)
    // another user's same key is another order
    const theirs = await newOrder(other, { key, businessId: 7 })
    assert.notEqual(theirs.id, first.id)
    const mine = await t.database.db.select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, key)))
    assert.equal(mine.length, 1)
  })

  it('refuses amounts that are not whole fen, and an insurance part as large as the order; nothing is created', async () => {
    const before = Number((await t.database.db.select({ n: sql<string>`count(*)` }).from(orders))[0]!.n)
    for (const bad of [{ amountFen: 0 }, { amountFen: 12.5 }, { amountFen: -100 }, { amountFen: 1000, insuranceFen: 1000 }, { amountFen: 1000, insuranceFen: -1 }]) {
      await assert.rejects(newOrder(owner, bad), (e: Error & { code?: number }) => e.code === 400, JSON.stringify(bad))
    }
    const afterCount = Number((await t.database.db.select({ n: sql<string>`count(*)` }).from(orders))[0]!.n)
    assert.equal(afterCount, before)
  })

  it('gives every order its own unguessable number and a created event', async () => {
    const a = await newOrder(owner)
    const b = await newOrder(owner)
    assert.notEqual(a.orderNo, b.orderNo)
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, a.id))
    assert.deepEqual(events.map((e) => [e.fromStatus, e.toStatus]), [[null, 'created']])
  })
})

// ---- POST /dld-pay/pay ---------------------------------------------------------------------------------------

describe('POST /dld-pay/pay', () => {
  it('needs a signed-in user', async () => {
    const order = await newOrder(owner)
    assert.equal((await payFor(order.orderNo, null)).code, 401)
    const identityOnly = await signInWechat(t.app)
    assert.equal((await call('POST', '/dld-pay/pay', { headers: identityOnly.headers, userId: 0 }, { orderNo: order.orderNo, returnUrl: RETURN })).code, 403)
    assert.equal((await row(order.id)).status, 'created')
  })

  it('refuses each bad field and changes nothing', async () => {
    const order = await newOrder(owner)
    const before = await footprint(order)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ returnUrl: RETURN }, /参数错误/],
      [{ orderNo: 'P123', returnUrl: RETURN }, /订单号不正确/],
      [{ orderNo: order.orderNo }, /参数错误/],
      [{ orderNo: order.orderNo, returnUrl: 'https://evil.example/h5/pages/x' }, /返回页面不正确/],
      [{ orderNo: order.orderNo, returnUrl: '//evil.example/h5/pages/x' }, /返回页面不正确/],
      [{ orderNo: order.orderNo, returnUrl: '/h5/../../evil' }, /返回页面不正确/],
      [{ orderNo: order.orderNo, returnUrl: '/docs' }, /返回页面不正确/],
      [{ orderNo: order.orderNo, returnUrl: '/h5/pages/x\\y' }, /返回页面不正确/],
    ]
    for (const [body, msg] of cases) {
      const env = await call('POST', '/dld-pay/pay', owner, body)
      assert.equal(env.code, 400, JSON.stringify(body))
      assert.match(env.msg, msg)
    }
    assert.deepEqual(await footprint(order), before)
  })

  it("answers 2999 for someone else's order, and for a number that does not exist, changing nothing", async () => {
    const theirs = await newOrder(other)
    const before = await footprint(theirs)
    const env = await payFor(theirs.orderNo, owner)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.deepEqual(await footprint(theirs), before)
    const unknown = await payFor(`P${'1'.repeat(20)}`, owner)
    assert.equal(unknown.code, 2999)
    assert.equal(unknown.msg, env.msg)
  })

  it('answers the signed sandbox cashier and moves the order to paying', async () => {
    const order = await newOrder(owner, { amountFen: 2000, insuranceFen: 500 })
    const env = await payFor(order.orderNo)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.kind, 'redirect')
    assert.equal(env.data.channel, 'sandbox')
    const p = cashierParams((env.data as { url: string }).url)
    assert.equal(p.path, '/sandbox/pay/cashier')
    assert.equal(p.orderNo, order.orderNo)
    assert.equal(p.returnUrl, RETURN)
    assert.ok(p.sign)
    const now = await row(order.id)
    assert.equal(now.status, 'paying')
    assert.equal(now.channel, 'sandbox')
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))
    assert.deepEqual(events.map((e) => [e.fromStatus, e.toStatus]), [[null, 'created'], ['created', 'paying']])
    // paying again (the patient came back and pressed pay) answers the cashier again without another transition
    const again = await payFor(order.orderNo)
    assert.equal(again.code, 200)
    assert.equal((await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).length, 2)
  })

  it('closes an expired order on the spot and says so', async () => {
    const order = await newOrder(owner, { expiresAt: new Date(Date.now() - 1000) })
    const env = await payFor(order.orderNo)
    assert.equal(env.code, 400)
    assert.equal(env.msg, '订单已超时关闭')
    assert.equal((await row(order.id)).status, 'closed')
    assert.equal(called.closed.get(order.id), 1)
    assert.equal((await payFor(order.orderNo)).msg, '订单已超时关闭')
    assert.equal(called.closed.get(order.id), 1)
  })

  it('asks the provider before closing an expired order it may have been paid for', async () => {
    const { order, url } = await payingOrder()
    delivery = 'drop'
    try {
      await cashierPost(url, 'confirm')
      await sandbox.settled()
    } finally {
      delivery = 'inject'
    }
    await t.database.db.update(orders).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, order.id))
    const env = await payFor(order.orderNo)
    assert.equal(env.code, 400)
    assert.equal(env.msg, '订单已支付')
    assert.equal((await row(order.id)).status, 'paid')
    assert.equal(called.paid.get(order.id), 1)
    assert.equal(called.closed.get(order.id), undefined)
  })

  it('refuses an order that is paid or cancelled', async () => {
    const cancelled = await newOrder(owner)
    await t.database.db.transaction((tx) => cancelOrder(tx, cancelled.id, '用户取消'))
    assert.equal((await payFor(cancelled.orderNo)).msg, '订单已取消')
    const { order, url } = await payingOrder()
    await cashierPost(url, 'confirm')
    await sandbox.settled()
    const env = await payFor(order.orderNo)
    assert.equal(env.code, 400)
    assert.equal(env.msg, '订单已支付')
  })
})

// ---- the sandbox cashier ---------------------------------------------------------------------------------------

describe('the sandbox cashier', () => {
  it('shows the hospital, the subject and the amount in yuan, with a form and no script', async () => {
    const { url } = await payingOrder(owner, { amountFen: 2050, insuranceFen: 1000 })
    const res = await t.app.inject({ method: 'GET', url })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
    const html = res.body
    assert.ok(html.includes('10.50'), 'the self-paid part, two decimals')
    assert.ok(html.includes('鲜花一束'))
    const [h] = await t.database.db.select().from(hospitals).where(eq(hospitals.id, hospitalId))
    assert.ok(html.includes(h!.name))
    assert.ok(html.includes('确认支付') && html.includes('取消支付'))
    assert.match(html, /<form method="post" action="\/sandbox\/pay\/cashier">/)
    assert.ok(!/<script/i.test(html))
    assert.ok(!/https?:\/\//.test(html.replace(/<meta[^>]*>/g, '')), 'no external assets')
  })

  it('refuses a tampered link: another order, another return page, another signature', async () => {
    const { order, url } = await payingOrder()
    const { order: second } = await payingOrder()
    const p = cashierParams(url)
    const tampered = [
      { ...p, orderNo: second.orderNo },
      { ...p, returnUrl: '/h5/pages/sys/user/index' },
      { ...p, sign: p.sign.slice(0, -2) + (p.sign.endsWith('AA') ? 'BB' : 'AA') },
    ]
    for (const q of tampered) {
      const res = await t.app.inject({ method: 'GET', url: '/sandbox/pay/cashier', query: { orderNo: q.orderNo, returnUrl: q.returnUrl, sign: q.sign } })
      assert.equal(res.statusCode, 400)
      assert.ok(res.body.includes('支付链接无效'))
    }
    const post = await cashierPost(url, 'confirm', { orderNo: second.orderNo })
    assert.equal(post.statusCode, 400)
    await sandbox.settled()
    assert.equal((await row(order.id)).status, 'paying')
    assert.equal((await row(second.id)).status, 'paying')
  })

  it('取消支付 goes back to the app and takes nothing', async () => {
    const { order, url } = await payingOrder()
    const res = await cashierPost(url, 'cancel')
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, `${RETURN}?orderNo=${order.orderNo}`)
    await sandbox.settled()
    assert.equal((await row(order.id)).status, 'paying')
    assert.equal(await sandbox.query(order.orderNo), null)
  })

  it('确认支付 returns to the app and the signed notification marks the order paid once, with a balanced ledger', async () => {
    const { order, url } = await payingOrder(owner, { amountFen: 3000, insuranceFen: 1200 })
    const res = await cashierPost(url, 'confirm')
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, `${RETURN}?orderNo=${order.orderNo}`)
    await sandbox.settled()
    const paid = await row(order.id)
    assert.equal(paid.status, 'paid')
    assert.ok(paid.tradeNo?.startsWith('SBX'))
    assert.ok(paid.paidAt)
    assert.equal(called.paid.get(order.id), 1)
    const ledger = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))
    assert.deepEqual(
      ledger.map((l) => [l.account, l.amountFen]).sort(),
      [
        ['channel:sandbox', 1800],
        [`hospital:${DEMO.both.code}`, -3000],
        ['insurance', 1200],
      ],
    )
    assert.equal(await ledgerImbalance(t.database.db), 0)
    const view = await getOrder(order.orderNo)
    assert.equal(view.data.status, 'paid')
    assert.equal(view.data.selfPayFen, 1800)
    // confirming again (the back button) takes nothing more
    await cashierPost(url, 'confirm')
    await sandbox.settled()
    assert.equal(called.paid.get(order.id), 1)
    assert.equal((await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))).length, 3)
  })

  it('refuses to take money after the order’s time, like a provider told time_expire', async () => {
    const order = await newOrder(owner, { expiresAt: new Date(Date.now() + 1500) })
    const env = await payFor(order.orderNo)
    const url = (env.data as { url: string }).url
    await new Promise((r) => setTimeout(r, 1600))
    const res = await cashierPost(url, 'confirm')
    assert.equal(res.statusCode, 400)
    assert.ok(res.body.includes('订单已超时'))
    await sandbox.settled()
    assert.equal(await sandbox.query(order.orderNo), null)
  })
})

// ---- GET /dld-pay/order/:orderNo -----------------------------------------------------------------------------

describe('GET /dld-pay/order/:orderNo', () => {
  it('needs a signed-in user', async () => {
    const order = await newOrder(owner)
    assert.equal((await getOrder(order.orderNo, null)).code, 401)
  })

  it('refuses a malformed order number', async () => {
    const env = await call('GET', '/dld-pay/order/abc', owner)
    assert.equal(env.code, 400)
  })

  it("answers 2999 for someone else's order and tells nothing about it", async () => {
    const theirs = await newOrder(other)
    const env = await getOrder(theirs.orderNo, owner)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
  })

  it('answers the order as the payer sees it', async () => {
    const order = await newOrder(owner, { amountFen: 5000, insuranceFen: 2000 })
    const env = await getOrder(order.orderNo)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, {
      orderNo: order.orderNo,
      business: 'gift',
      subject: '鲜花一束',
      amountFen: 5000,
      insuranceFen: 2000,
      selfPayFen: 3000,
      status: 'created',
      channel: null,
      expiresAt: order.expiresAt.toISOString(),
      paidAt: null,
      refundedFen: 0,
      createdAt: order.createdAt.toISOString(),
    })
  })

  it('asks the provider when the notification has not come, and applies the payment exactly once', async () => {
    const { order, url } = await payingOrder()
    delivery = 'drop'
    try {
      await cashierPost(url, 'confirm')
      await sandbox.settled() // every attempt lost
    } finally {
      delivery = 'inject'
    }
    assert.equal((await row(order.id)).status, 'paying')
    const env = await getOrder(order.orderNo)
    assert.equal(env.data.status, 'paid')
    assert.ok(env.data.paidAt)
    assert.equal(called.paid.get(order.id), 1)
    // the provider's notification, arriving late after all, is a copy that changes nothing
    const tradeNo = (await row(order.id)).tradeNo!
    const before = await footprint(order)
    const res = await notify(paidBody(order, { transaction_id: tradeNo }))
    assert.deepEqual(res.json(), { code: 'SUCCESS' })
    const afterNotify = await footprint(order)
    assert.equal(afterNotify.onPaid, 1)
    assert.equal(afterNotify.ledger, before.ledger)
    assert.equal(afterNotify.events, before.events)
    assert.equal(afterNotify.status, 'paid')
  })

  it('a payment the cashier took survives a crash before its notification: a server starting on the database delivers it', async () => {
    const { order, url } = await payingOrder()
    delivery = 'drop'
    try {
      await cashierPost(url, 'confirm')
      await sandbox.settled() // every attempt lost, as if the process died
    } finally {
      delivery = 'inject'
    }
    assert.equal((await row(order.id)).status, 'paying')
    const [owed] = await t.database.db.select().from(sandboxPayOutbox).where(sql`${sandboxPayOutbox.body}::jsonb ->> 'out_trade_no' = ${order.orderNo}`)
    assert.equal(owed?.deliveredAt, null)
    // another process starting on the same database (the same cashier's books) sends what is owed
    await t.twin()
    // the delivery marks the notification delivered last, after the server's answer (the order is paid a moment before)
    const delivered = async () => {
      const [outbox] = await t.database.db.select().from(sandboxPayOutbox).where(eq(sandboxPayOutbox.id, owed!.id))
      return outbox?.deliveredAt != null
    }
    assert.ok(await until(delivered, 10_000), 'the starting server delivers what the cashier owes')
    assert.equal((await row(order.id)).status, 'paid')
    assert.equal(called.paid.get(order.id), 1)
    // closed with the test app (it shares the test's sandbox, which closing it would stop)
  })

  it('shows an unpaid order past its time as closed', async () => {
    const order = await newOrder(owner, { expiresAt: new Date(Date.now() - 1000) })
    const env = await getOrder(order.orderNo)
    assert.equal(env.data.status, 'closed')
    assert.equal(called.closed.get(order.id), 1)
  })
})

// ---- POST /dld-pay/notify/:channel ---------------------------------------------------------------------------

describe('POST /dld-pay/notify/:channel', () => {
  it('refuses a bad signature, a tampered body or an old notification, and changes nothing', async () => {
    const { order } = await payingOrder()
    const before = await footprint(order)
    const body = paidBody(order)
    const headers = sandbox.signNotification(body)
    const refused = [
      await notify(body, { ...headers, 'sandbox-signature': Buffer.alloc(32).toString('base64') }),
      await notify(body.replace('"CNY"', '"CNY" '), headers),
      await notify(body, { 'content-type': 'application/json' }),
      await notify(body, sandbox.signNotification(body, Math.floor(Date.now() / 1000) - 600)),
      await notify(body, sandboxPay({ secret: randomBytes(32).toString('base64'), db: t.database.db, deliver: async () => ({ statusCode: 200, body: '' }) }).signNotification(body)),
    ]
    for (const res of refused) {
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), { code: 'FAIL', message: '失败' })
    }
    assert.deepEqual(await footprint(order), before)
  })

  it('refuses a wrong amount, a wrong currency and an unknown order, and changes nothing', async () => {
    const { order } = await payingOrder(owner, { amountFen: 1000 })
    const before = await footprint(order)
    for (const body of [
      paidBody(order, { amount: { total: 999, currency: 'CNY' } }),
      paidBody(order, { amount: { total: 1000, currency: 'USD' } }),
      paidBody(order, { amount: { total: '1000', currency: 'CNY' } }),
    ]) {
      const res = await notify(body)
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().code, 'FAIL')
    }
    assert.deepEqual(await footprint(order), before)
    const unknown = await notify(paidBody({ ...order, orderNo: `P${'9'.repeat(20)}` }))
    assert.equal(unknown.json().code, 'FAIL')
    const recorded = await t.database.db.select().from(paymentNotifications).where(eq(paymentNotifications.orderNo, `P${'9'.repeat(20)}`))
    assert.equal(recorded.length, 0)
  })

  it('applies a genuine notification once; its copies change nothing', async () => {
    const { order } = await payingOrder()
    const body = paidBody(order)
    const first = await notify(body)
    assert.equal(first.statusCode, 200)
    assert.deepEqual(first.json(), { code: 'SUCCESS' })
    const once = await footprint(order)
    assert.equal(once.status, 'paid')
    assert.equal(once.onPaid, 1)
    assert.equal(once.notifications, 1)
    for (let i = 0; i < 3; i++) assert.deepEqual((await notify(body)).json(), { code: 'SUCCESS' })
    assert.deepEqual(await footprint(order), once)
  })

  it('answers a failure while the business fails unexpectedly, and applies the retry', async () => {
    const { order, url } = await payingOrder()
    crashOnce.add(order.id)
    await cashierPost(url, 'confirm')
    await sandbox.settled()
    const f = await footprint(order)
    assert.equal(f.status, 'paid')
    assert.equal(f.onPaid, 1)
    assert.equal(f.notifications, 1)
    assert.ok(log.lines.some((l) => l.includes('payment notification failed')))
  })

  it('is delivered again when the first attempt fails (the sandbox retries with backoff)', async () => {
    const { order, url } = await payingOrder()
    delivery = 'fail-once'
    try {
      const before = attempts
      await cashierPost(url, 'confirm')
      await sandbox.settled()
      assert.equal(attempts - before, 2)
    } finally {
      delivery = 'inject'
    }
    assert.equal((await row(order.id)).status, 'paid')
    assert.equal(called.paid.get(order.id), 1)
  })

  it('refunds at once a payment that arrives for an order already cancelled', async () => {
    const { order, url } = await payingOrder(owner, { amountFen: 1500, insuranceFen: 300 })
    await t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消'))
    assert.equal(called.closed.get(order.id), 1)
    // the patient had the cashier open and pays anyway
    await cashierPost(url, 'confirm')
    await sandbox.settled()
    const late = await row(order.id)
    assert.equal(late.status, 'refunded')
    assert.equal(called.paid.get(order.id), undefined, 'nothing is delivered for a closed order')
    assert.equal(called.refunded.get(order.id), undefined)
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.equal(refund!.reason, LATE_PAYMENT_REFUND_REASON)
    assert.equal(refund!.status, 'succeeded')
    assert.equal(refund!.amountFen, 1200)
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(orderEvents.id)
    assert.deepEqual(
      events.map((e) => e.toStatus),
      ['created', 'paying', 'cancelled', 'paid', 'refunding', 'refunded'],
    )
    const ledger = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))
    assert.equal(ledger.reduce((s, l) => s + l.amountFen, 0), 0)
    const byAccount = new Map<string, number>()
    for (const l of ledger) byAccount.set(l.account, (byAccount.get(l.account) ?? 0) + l.amountFen)
    assert.deepEqual([...byAccount.values()], [0, 0, 0], 'every account back where it was')
    const view = await getOrder(order.orderNo)
    assert.equal(view.data.status, 'refunded')
    assert.equal(view.data.refundedFen, 1200)
  })

  it('keeps asking, with growing waits, for a late payment’s refund the provider refuses; the order never reads paid', async () => {
    const { order, url } = await payingOrder(owner, { amountFen: 900 })
    await t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消'))
    const refund = sandbox.refund
    sandbox.refund = async () => ({ status: 'failed', providerRefundNo: null })
    try {
      await cashierPost(url, 'confirm')
      await sandbox.settled()
      const refundsOf = () => t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(refunds.id)
      assert.equal((await row(order.id)).status, 'refunding')
      let rows = await refundsOf()
      assert.deepEqual(rows.map((r) => [r.status, r.reason, r.amountFen]), [
        ['failed', LATE_PAYMENT_REFUND_REASON, 900],
        ['pending', LATE_PAYMENT_REFUND_REASON, 900],
      ])
      const waited = (r: (typeof rows)[number]) => Math.round((r.retryAt!.getTime() - r.createdAt.getTime()) / 60_000)
      assert.equal(waited(rows[1]!), 2)
      // not asked again before its time; asked (and refused) after it, waiting twice as long next
      await retryPendingRefunds(t.database.db, t.app.ctx.providers, new Date(Date.now() + 60_000))
      assert.equal((await refundsOf()).length, 2)
      await retryPendingRefunds(t.database.db, t.app.ctx.providers, new Date(Date.now() + 3 * 60_000))
      rows = await refundsOf()
      assert.deepEqual(rows.map((r) => r.status), ['failed', 'failed', 'pending'])
      assert.equal(waited(rows[2]!), 4)
      assert.equal((await getOrder(order.orderNo)).data.status, 'refunding')
      // the provider takes it at last
      sandbox.refund = refund
      await retryPendingRefunds(t.database.db, t.app.ctx.providers, new Date(Date.now() + 10 * 60_000))
      await sandbox.settled()
      assert.equal((await row(order.id)).status, 'refunded')
      assert.equal((await getOrder(order.orderNo)).data.refundedFen, 900)
    } finally {
      sandbox.refund = refund
    }
  })

  it(`tells staff of an owed refund the provider refused ${OWED_REFUND_ATTEMPTS} times, and stops asking`, async () => {
    const { order, url } = await payingOrder(owner, { amountFen: 700 })
    await t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消'))
    const refund = sandbox.refund
    sandbox.refund = async () => ({ status: 'failed', providerRefundNo: null })
    const stuck: number[] = []
    try {
      await cashierPost(url, 'confirm')
      await sandbox.settled()
      for (let i = 1; i <= OWED_REFUND_ATTEMPTS + 1; i++) {
        await retryPendingRefunds(t.database.db, t.app.ctx.providers, new Date(Date.now() + 2 ** i * 61_000), 60_000, (id) => stuck.push(id))
      }
    } finally {
      sandbox.refund = refund
    }
    assert.deepEqual(stuck, [order.id])
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.equal(rows.filter((r) => r.status === 'failed').length, OWED_REFUND_ATTEMPTS)
    assert.equal(rows.filter((r) => r.status === 'pending').length, 0)
    assert.equal((await row(order.id)).status, 'refunding')
  })

  it('gives the money back when the business can no longer deliver, and keeps none of its work', async () => {
    const { order, url } = await payingOrder()
    undeliverable.add(order.id)
    await cashierPost(url, 'confirm')
    await sandbox.settled()
    assert.equal((await row(order.id)).status, 'refunded')
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.equal(refund!.reason, UNDELIVERED_REFUND_REASON)
    const sideEffects = await t.database.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.reason, 'gift side effect')))
    assert.equal(sideEffects.length, 0)
  })

  it('answers 404 for a channel that is not configured', async () => {
    const { order } = await payingOrder()
    const res = await notify(paidBody(order), sandbox.signNotification(paidBody(order)), 'wechat')
    assert.equal(res.statusCode, 404)
    assert.equal((await row(order.id)).status, 'paying')
  })
})

// ---- refunds -------------------------------------------------------------------------------------------------

async function paidOrder(opts: Parameters<typeof newOrder>[1] = {}) {
  const { order, url } = await payingOrder(owner, opts)
  await cashierPost(url, 'confirm')
  await sandbox.settled()
  const o = await row(order.id)
  assert.equal(o.status, 'paid')
  return o
}

describe('a second payment for an order already paid', () => {
  it('is returned at once by its own transaction; the order, its business and its refunds stay as they are', async () => {
    const order = await paidOrder({ amountFen: 2600 })
    const asked: Parameters<SandboxPay['refund']>[0][] = []
    const refund = sandbox.refund
    sandbox.refund = async (req) => {
      asked.push(req)
      return { status: 'succeeded', providerRefundNo: 'SBXR-DUP-1' }
    }
    try {
      const second = paidBody(order, { transaction_id: 'SBXDUPLICATE000001' })
      assert.deepEqual((await notify(second)).json(), { code: 'SUCCESS' })
      // the same second payment reported again (another notification id) is not returned twice
      assert.deepEqual((await notify(paidBody(order, { transaction_id: 'SBXDUPLICATE000001' }))).json(), { code: 'SUCCESS' })
    } finally {
      sandbox.refund = refund
    }
    assert.deepEqual(
      asked.map((r) => [r.orderNo, r.tradeNo, r.amountFen, r.reason]),
      [[order.orderNo, 'SBXDUPLICATE000001', 2600, DUPLICATE_PAYMENT_REFUND_REASON]],
    )
    const after = await row(order.id)
    assert.deepEqual([after.status, after.tradeNo], ['paid', order.tradeNo])
    assert.equal(called.paid.get(order.id), 1)
    const [returned, ...more] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.deepEqual(more, [])
    assert.deepEqual([returned!.status, returned!.tradeNo, returned!.amountFen], ['succeeded', 'SBXDUPLICATE000001', 2600])
    const view = await getOrder(order.orderNo)
    assert.deepEqual([view.data.status, view.data.refundedFen], ['paid', 0])
    const ledger = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))
    const byAccount = new Map<string, number>()
    for (const l of ledger) byAccount.set(l.account, (byAccount.get(l.account) ?? 0) + l.amountFen)
    assert.equal(byAccount.get(DUPLICATE_ACCOUNT), 0, 'the second payment was held for the payer and given back')
    assert.equal(byAccount.get('channel:sandbox'), 2600, 'the channel holds the order’s payment only')
  })

  it('is asked again when the provider refuses to return it', async () => {
    const order = await paidOrder({ amountFen: 1300 })
    // the sandbox refuses a transaction it did not take
    assert.deepEqual((await notify(paidBody(order, { transaction_id: 'SBXDUPLICATE000002' }))).json(), { code: 'SUCCESS' })
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(refunds.id)
    assert.deepEqual(
      rows.map((r) => [r.status, r.tradeNo]),
      [
        ['failed', 'SBXDUPLICATE000002'],
        ['pending', 'SBXDUPLICATE000002'],
      ],
    )
    assert.ok(rows[1]!.retryAt! > new Date())
    assert.equal((await row(order.id)).status, 'paid')
  })
})

describe('refundOrder', () => {
  it('refuses an order that is not paid', async () => {
    const order = await newOrder(owner)
    await assert.rejects(refundOrder(t.database.db, t.app.ctx.providers, order.id, '退号'), (e: Error & { code?: number }) => e.code === 400)
    assert.equal((await row(order.id)).status, 'created')
  })

  it('moves paid -> refunding, and the signed refund notification -> refunded with the ledger reversed', async () => {
    const order = await paidOrder({ amountFen: 2500, insuranceFen: 500 })
    const refunding = await refundOrder(t.database.db, t.app.ctx.providers, order.id, '患者退号')
    assert.equal(refunding.status, 'refunding')
    await sandbox.settled()
    assert.equal((await row(order.id)).status, 'refunded')
    assert.equal(called.refunded.get(order.id), 1)
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.equal(refund!.status, 'succeeded')
    assert.equal(refund!.amountFen, 2000)
    const reversal = await t.database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.refundId, refund!.id)))
    assert.deepEqual(
      reversal.map((l) => [l.account, l.amountFen]).sort(),
      [
        ['channel:sandbox', -2000],
        [`hospital:${DEMO.both.code}`, 2500],
        ['insurance', -500],
      ],
    )
    assert.equal((await getOrder(order.orderNo)).data.refundedFen, 2000)
    // asked again: no second refund
    const again = await refundOrder(t.database.db, t.app.ctx.providers, order.id, '患者退号')
    assert.equal(again.status, 'refunded')
    await sandbox.settled()
    assert.equal((await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))).length, 1)
    assert.equal(called.refunded.get(order.id), 1)
  })

  it('asks the provider again about a refund whose notification never came', async () => {
    const order = await paidOrder({ amountFen: 600 })
    delivery = 'drop'
    try {
      await refundOrder(t.database.db, t.app.ctx.providers, order.id, '患者退号')
      await sandbox.settled()
    } finally {
      delivery = 'inject'
    }
    assert.equal((await row(order.id)).status, 'refunding')
    // too recent to ask again yet
    await retryPendingRefunds(t.database.db, t.app.ctx.providers)
    assert.equal((await row(order.id)).status, 'refunding')
    await retryPendingRefunds(t.database.db, t.app.ctx.providers, new Date(Date.now() + 120_000))
    assert.equal((await row(order.id)).status, 'refunded')
    assert.equal(called.refunded.get(order.id), 1)
    assert.equal((await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))).length, 4)
  })

  it('goes back to paid when the provider refuses the refund', async () => {
    // paid through a notification the sandbox never took money for: the sandbox refuses to refund it
    const { order } = await payingOrder()
    assert.deepEqual((await notify(paidBody(order))).json(), { code: 'SUCCESS' })
    const after = await refundOrder(t.database.db, t.app.ctx.providers, order.id, '患者退号')
    assert.equal(after.status, 'paid')
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    assert.equal(refund!.status, 'failed')
    const last = (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(orderEvents.id)).slice(-2)
    assert.deepEqual(last.map((e) => [e.fromStatus, e.toStatus]), [['paid', 'refunding'], ['refunding', 'paid']])
    assert.equal(called.refunded.get(order.id), undefined)
  })

  it('refuses a refund notification with a wrong amount or an unknown refund, and applies a genuine one once', async () => {
    const order = await paidOrder({ amountFen: 800 })
    delivery = 'drop'
    try {
      await refundOrder(t.database.db, t.app.ctx.providers, order.id, '患者退号')
      await sandbox.settled()
    } finally {
      delivery = 'inject'
    }
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    const body = (over: Record<string, unknown>) =>
      JSON.stringify({
        id: randomUUID(),
        event_type: 'REFUND.SUCCESS',
        out_trade_no: order.orderNo,
        out_refund_no: refund!.refundNo,
        refund_id: 'SBXR1',
        refund_status: 'SUCCESS',
        amount: { refund: 800, total: 800, currency: 'CNY' },
        ...over,
      })
    const before = await footprint(order)
    assert.equal((await notify(body({ amount: { refund: 700, total: 800, currency: 'CNY' } }))).json().code, 'FAIL')
    assert.equal((await notify(body({ out_refund_no: 'R000' }))).json().code, 'FAIL')
    assert.deepEqual(await footprint(order), before)
    assert.equal((await row(order.id)).status, 'refunding')
    const genuine = body({})
    assert.equal((await notify(genuine)).json().code, 'SUCCESS')
    assert.equal((await row(order.id)).status, 'refunded')
    const once = await footprint(order)
    assert.equal((await notify(genuine)).json().code, 'SUCCESS')
    // another notification id for the same refund is kept as received, and changes nothing else
    assert.equal((await notify(body({}))).json().code, 'SUCCESS')
    assert.deepEqual(await footprint(order), { ...once, notifications: once.notifications + 1 })
    assert.equal(called.refunded.get(order.id), 1)
  })
})

// ---- closing expired orders ----------------------------------------------------------------------------------

describe('closeExpiredOrders', () => {
  it('closes every unpaid order past its time once, and leaves the others', async () => {
    await closeExpiredOrders(t.database.db) // whatever earlier tests left behind
    const past = new Date(Date.now() - 60_000)
    const created = await newOrder(owner, { expiresAt: past })
    const paying = await newOrder(owner, { expiresAt: new Date(Date.now() + 60_000) })
    assert.equal((await payFor(paying.orderNo)).code, 200)
    await t.database.db.update(orders).set({ expiresAt: past }).where(eq(orders.id, paying.id))
    const fresh = await newOrder(owner)
    const paid = await paidOrder()
    await t.database.db.update(orders).set({ expiresAt: past }).where(eq(orders.id, paid.id))

    const counts = await Promise.all([closeExpiredOrders(t.database.db), closeExpiredOrders(t.database.db), closeExpiredOrders(t.database.db)])
    assert.equal(counts.reduce((a, b) => a + b, 0), 2)
    assert.equal(await closeExpiredOrders(t.database.db), 0)
    assert.equal((await row(created.id)).status, 'closed')
    assert.equal((await row(paying.id)).status, 'closed')
    assert.equal((await row(fresh.id)).status, 'created')
    assert.equal((await row(paid.id)).status, 'paid')
    assert.equal(called.closed.get(created.id), 1)
    assert.equal(called.closed.get(paying.id), 1)
    assert.equal(called.closed.get(fresh.id), undefined)
    const ev = await t.database.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, paying.id), eq(orderEvents.toStatus, 'closed')))
    assert.deepEqual(ev.map((e) => e.fromStatus), ['paying'])
  })

  it('closes the others when one business fails, and leaves that one unpaid for the next run', async () => {
    await closeExpiredOrders(t.database.db)
    const past = new Date(Date.now() - 60_000)
    const stuck = await newOrder(owner, { expiresAt: past })
    const fine = await newOrder(owner, { expiresAt: past })
    closeFails.add(stuck.id)
    const failures: number[] = []
    assert.equal(await closeExpiredOrders(t.database.db, new Date(), (id) => failures.push(id)), 1)
    assert.deepEqual(failures, [stuck.id])
    assert.equal((await row(stuck.id)).status, 'created')
    assert.equal((await row(fine.id)).status, 'closed')
    await assert.rejects(closeExpiredOrders(t.database.db), AggregateError)
    closeFails.delete(stuck.id)
    assert.equal(await closeExpiredOrders(t.database.db), 1)
    assert.equal((await row(stuck.id)).status, 'closed')
  })

  it('cancelOrder refuses a paid order and does nothing twice', async () => {
    const order = await newOrder(owner)
    const first = await t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消'))
    const second = await t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消'))
    assert.equal(first.status, 'cancelled')
    assert.equal(second.status, 'cancelled')
    assert.equal(called.closed.get(order.id), 1)
    const paid = await paidOrder()
    await assert.rejects(
      t.database.db.transaction((tx) => cancelOrder(tx, paid.id, '用户取消')),
      (e: Error & { code?: number }) => e.code === 409,
    )
    assert.equal((await row(paid.id)).status, 'paid')
  })
})

// ---- concurrency (PostgreSQL only: PGlite runs one transaction at a time) ------------------------------------

if (process.env.TEST_DATABASE_URL) {
  describe('races on PostgreSQL', () => {
    it('50 concurrent copies of one notification credit once (PostgreSQL)', async () => {
      const { order } = await payingOrder(owner, { amountFen: 4200, insuranceFen: 200 })
      const body = paidBody(order)
      const answers = await Promise.all(Array.from({ length: 50 }, () => notify(body)))
      assert.ok(answers.every((r) => r.json().code === 'SUCCESS'))
      const f = await footprint(order)
      assert.equal(f.status, 'paid')
      assert.equal(f.onPaid, 1)
      assert.equal(f.ledger, 3)
      assert.equal(f.notifications, 1)
    })

    it('50 concurrent reports of one payment under different notification ids credit once (PostgreSQL)', async () => {
      const { order } = await payingOrder()
      const tradeNo = `SBXRACE${randomBytes(4).toString('hex')}`
      const answers = await Promise.all(Array.from({ length: 50 }, () => notify(paidBody(order, { transaction_id: tradeNo }))))
      assert.ok(answers.every((r) => r.json().code === 'SUCCESS'))
      const f = await footprint(order)
      assert.equal(f.onPaid, 1)
      assert.equal(f.ledger, 2)
    })

    it('50 concurrent createOrder calls with one idempotency key create one order (PostgreSQL)', async () => {
      const key = `race-${randomUUID()}`
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => newOrder(owner, { key, businessId: 7 })))
      const ids = new Set(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<OrderRow>).value.id))
      assert.equal(ids.size, 1)
      assert.ok(results.every((r) => r.status === 'fulfilled'))
      const rows = await t.database.db.select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, key)))
      assert.equal(rows.length, 1)
    })

    it('a payment racing a cancellation is either delivered or refunded, never both (PostgreSQL)', async () => {
      for (let i = 0; i < 10; i++) {
        const { order } = await payingOrder()
        await Promise.all([notify(paidBody(order)), t.database.db.transaction((tx) => cancelOrder(tx, order.id, '用户取消')).catch(() => null)])
        await sandbox.settled()
        const o = await row(order.id)
        const delivered = called.paid.get(order.id) ?? 0
        const closed = called.closed.get(order.id) ?? 0
        assert.equal(delivered + closed, 1, `order ${order.orderNo}: onPaid ${delivered}, onClosed ${closed}`)
        assert.ok(delivered ? o.status === 'paid' : ['refunding', 'refunded', 'paid'].includes(o.status))
      }
    })

    it('concurrent sweeps close each expired order once (PostgreSQL)', async () => {
      await closeExpiredOrders(t.database.db)
      const past = new Date(Date.now() - 1000)
      const made = await Promise.all(Array.from({ length: 20 }, () => newOrder(owner, { expiresAt: past })))
      const counts = await Promise.all(Array.from({ length: 5 }, () => closeExpiredOrders(t.database.db)))
      assert.equal(counts.reduce((a, b) => a + b, 0), 20)
      for (const o of made) assert.equal(called.closed.get(o.id), 1)
    })
  })
}

// ---- the ledger against the orders ---------------------------------------------------------------------------

describe('the ledger', () => {
  it('balances recomputed from the ledger match the orders, and all rows sum to zero', async () => {
    await sandbox.settled()
    const db = t.database.db
    assert.equal(await ledgerImbalance(db), 0)
    // money held is that of orders paid and not yet refunded (refunding orders still hold it)
    const holding = await db.select().from(orders).where(inArray(orders.status, ['paid', 'refunding']))
    const selfPay = holding.reduce((s, o) => s + o.amountFen - o.insuranceFen, 0)
    const insurance = holding.reduce((s, o) => s + o.insuranceFen, 0)
    const total = holding.reduce((s, o) => s + o.amountFen, 0)
    assert.ok(holding.length > 5, 'earlier tests paid orders')
    // and second payments not given back yet, owed to those who paid them (their refunds are still pending)
    const owedBack = await db.select().from(refunds).where(and(isNotNull(refunds.tradeNo), eq(refunds.status, 'pending')))
    assert.equal(-(await ledgerBalance(db, DUPLICATE_ACCOUNT)), owedBack.reduce((sum, r) => sum + r.amountFen, 0))
    assert.equal(await ledgerBalance(db, 'channel:sandbox'), selfPay - (await ledgerBalance(db, DUPLICATE_ACCOUNT)))
    assert.equal(await ledgerBalance(db, 'insurance'), insurance)
    assert.equal(await ledgerBalance(db, `hospital:${DEMO.both.code}`), -total)
    // refunded orders net to zero on every account
    const refunded = await db.select({ id: orders.id }).from(orders).where(eq(orders.status, 'refunded'))
    for (const { id } of refunded) {
      const rows = await db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, id))
      assert.equal(rows.reduce((s, l) => s + l.amountFen, 0), 0)
      assert.equal(rows.filter((l) => l.refundId).length, rows.length / 2)
    }
  })
})

// ---- the real providers, with keys made here -------------------------------------------------------------------

const rsa = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() }
}

describe('WeChat Pay v3', () => {
  const merchant = rsa()
  const platform = rsa()
  const cfg = {
    mchId: '1900000001',
    appId: DEMO.both.appId,
    serialNo: 'SERIAL01',
    privateKey: merchant.privateKey,
    apiV3Key: randomBytes(16).toString('hex'),
    platformPublicKey: platform.publicKey,
  }
  /** What WeChat Pay sends: the resource encrypted with the APIv3 key, the body signed with its platform key. */
  function wechatNotification(resource: Record<string, unknown>, opts: { key?: string; signer?: string; ts?: number } = {}) {
    const body = JSON.stringify({
      id: randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      resource: encryptWechatResource(JSON.stringify(resource), opts.key ?? cfg.apiV3Key),
    })
    const ts = String(opts.ts ?? Math.floor(Date.now() / 1000))
    const nonce = randomBytes(8).toString('hex')
    const headers = {
      'wechatpay-timestamp': ts,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': 'PLATFORM01',
      'wechatpay-signature': rsaSign(`${ts}\n${nonce}\n${body}\n`, opts.signer ?? platform.privateKey),
    }
    return { body, headers }
  }
  const tx = (over: Record<string, unknown> = {}) => ({
    mchid: cfg.mchId,
    appid: cfg.appId,
    out_trade_no: 'P2026112300000000001',
    transaction_id: '4200000000000000001',
    trade_state: 'SUCCESS',
    success_time: '2026-11-23T10:00:00+08:00',
    amount: { total: 1250, payer_total: 1250, currency: 'CNY', payer_currency: 'CNY' },
    payer: { openid: 'o-secret-openid' },
    ...over,
  })

  it('accepts a notification signed with the platform key and reads the decrypted payment', () => {
    const provider = wechatPay(cfg, 'https://h.example')
    const n = wechatNotification(tx())
    const read = provider.verifyNotification(n.headers, n.body)
    assert.ok(read && read.kind === 'paid')
    assert.equal(read.orderNo, 'P2026112300000000001')
    assert.equal(read.tradeNo, '4200000000000000001')
    assert.equal(read.amountFen, 1250)
    assert.equal(read.currency, 'CNY')
    assert.ok(!JSON.stringify(read.payload).includes('o-secret-openid'), 'the openid is not kept')
  })

  it('rejects a tampered body, another signer, a wrong APIv3 key, an old timestamp and another merchant', () => {
    const provider = wechatPay(cfg, 'https://h.example')
    const n = wechatNotification(tx())
    assert.equal(provider.verifyNotification(n.headers, n.body.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS ')), null)
    const forged = wechatNotification(tx(), { signer: rsa().privateKey })
    assert.equal(provider.verifyNotification(forged.headers, forged.body), null)
    const wrongKey = wechatNotification(tx(), { key: randomBytes(16).toString('hex') })
    assert.equal(provider.verifyNotification(wrongKey.headers, wrongKey.body), null)
    const old = wechatNotification(tx(), { ts: Math.floor(Date.now() / 1000) - 3600 })
    assert.equal(provider.verifyNotification(old.headers, old.body), null)
    const otherMch = wechatNotification(tx({ mchid: '1900000002' }))
    assert.equal(provider.verifyNotification(otherMch.headers, otherMch.body), null)
  })

  it('decrypts AEAD_AES_256_GCM resources and refuses a changed ciphertext', () => {
    const r = encryptWechatResource('{"a":1}', cfg.apiV3Key)
    assert.equal(decryptWechatResource(r, cfg.apiV3Key), '{"a":1}')
    const bytes = Buffer.from(r.ciphertext, 'base64')
    bytes[0] = bytes[0]! ^ 1
    assert.throws(() => decryptWechatResource({ ...r, ciphertext: bytes.toString('base64') }, cfg.apiV3Key))
  })

  it('reads refund notifications', () => {
    const provider = wechatPay(cfg, 'https://h.example')
    const n = wechatNotification({ mchid: cfg.mchId, out_trade_no: 'P1', out_refund_no: 'R1', refund_id: '5000', refund_status: 'SUCCESS', amount: { total: 100, refund: 100 } })
    assert.deepEqual(
      (({ kind, refundNo, orderNo, amountFen, succeeded }) => ({ kind, refundNo, orderNo, amountFen, succeeded }))(provider.verifyNotification(n.headers, n.body) as never),
      { kind: 'refund', refundNo: 'R1', orderNo: 'P1', amountFen: 100, succeeded: true },
    )
    const abnormal = wechatNotification({ mchid: cfg.mchId, out_trade_no: 'P1', out_refund_no: 'R1', refund_status: 'ABNORMAL', amount: { total: 100, refund: 100 } })
    assert.equal((provider.verifyNotification(abnormal.headers, abnormal.body) as { succeeded: boolean }).succeeded, false)
  })

  it('signs its requests with the merchant key, checks the answer, and signs the JSAPI parameters', async () => {
    const seen: { url: string; auth: string; body: string }[] = []
    const signedAnswer = (json: unknown, signer = platform.privateKey) => {
      const body = JSON.stringify(json)
      const ts = String(Math.floor(Date.now() / 1000))
      const nonce = 'n1'
      return new Response(body, {
        status: 200,
        headers: { 'content-type': 'application/json', 'wechatpay-timestamp': ts, 'wechatpay-nonce': nonce, 'wechatpay-signature': rsaSign(`${ts}\n${nonce}\n${body}\n`, signer) },
      })
    }
    let signer = platform.privateKey
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: String((init.headers as Record<string, string>).authorization), body: String(init.body ?? '') })
      return signedAnswer({ prepay_id: 'wx201410272009395522657a690389285100' }, signer)
    }) as unknown as typeof fetch
    const provider = wechatPay(cfg, 'https://h.example', fakeFetch)
    const action = await provider.pay({
      orderNo: 'P2026112300000000001',
      subject: '挂号费',
      hospitalName: '演示医院',
      amountFen: 1250,
      expiresAt: new Date('2026-11-23T02:15:00Z'),
      returnUrl: RETURN,
      openId: 'o-1',
    })
    assert.equal(seen[0]!.url, 'https://api.mch.weixin.qq.com/v3/pay/transactions/jsapi')
    const sent = JSON.parse(seen[0]!.body)
    assert.equal(sent.time_expire, '2026-11-23T10:15:00+08:00')
    assert.equal(sent.notify_url, 'https://h.example/dld-pay/notify/wechat')
    assert.deepEqual(sent.amount, { total: 1250, currency: 'CNY' })
    const m = /mchid="(.*?)",nonce_str="(.*?)",signature="(.*?)",timestamp="(.*?)",serial_no="(.*?)"/.exec(seen[0]!.auth)!
    const message = `POST\n/v3/pay/transactions/jsapi\n${m[4]}\n${m[2]}\n${seen[0]!.body}\n`
    assert.ok(createVerify('RSA-SHA256').update(message).verify(merchant.publicKey, m[3]!, 'base64'))
    assert.equal(action.kind, 'jsapi')
    const p = (action as Extract<PayAction, { kind: 'jsapi' }>).params
    assert.equal(p.package, 'prepay_id=wx201410272009395522657a690389285100')
    assert.ok(createVerify('RSA-SHA256').update(`${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`).verify(merchant.publicKey, p.paySign, 'base64'))
    // an answer not signed by the platform is not believed
    signer = rsa().privateKey
    await assert.rejects(provider.query('P2026112300000000001'))
    assert.match(wechatAuthorization(cfg, 'GET', '/v3/x', ''), /^WECHATPAY2-SHA256-RSA2048 mchid="1900000001"/)
    assert.equal(verifyWechatSignature({}, '', platform.publicKey), false)
  })
})

describe('Alipay', () => {
  const app = rsa()
  const alipay = rsa()
  const cfg = { appId: '2021000000000001', privateKey: app.privateKey, alipayPublicKey: alipay.publicKey }
  function alipayNotification(fields: Record<string, string>, signer = alipay.privateKey) {
    const params: Record<string, string> = { app_id: cfg.appId, notify_id: randomUUID(), notify_type: 'trade_status_sync', charset: 'utf-8', version: '1.0', sign_type: 'RSA2', ...fields }
    params.sign = rsaSign(alipaySignContent(params, true), signer)
    return new URLSearchParams(params).toString()
  }

  it('verifies a notification signed with the Alipay key and reads the payment', () => {
    const provider = alipayPay(cfg, 'https://h.example')
    const body = alipayNotification({ out_trade_no: 'P1', trade_no: '2026112322001', trade_status: 'TRADE_SUCCESS', total_amount: '12.50', gmt_payment: '2026-11-23 10:00:00', subject: '挂号 费&=' })
    const read = provider.verifyNotification({}, body)
    assert.ok(read && read.kind === 'paid')
    assert.equal(read.amountFen, 1250)
    assert.equal(read.paidAt.toISOString(), '2026-11-23T02:00:00.000Z')
    assert.equal(provider.verifyNotification({}, body.replace('12.50', '12.51')), null)
    assert.equal(provider.verifyNotification({}, alipayNotification({ out_trade_no: 'P1', trade_no: 'x', trade_status: 'TRADE_SUCCESS', total_amount: '1.00' }, rsa().privateKey)), null)
    assert.equal(provider.verifyNotification({}, alipayNotification({ app_id: '2021999', out_trade_no: 'P1', trade_no: 'x', trade_status: 'TRADE_SUCCESS', total_amount: '1.00' })), null)
    assert.equal(provider.verifyNotification({}, alipayNotification({ out_trade_no: 'P1', trade_status: 'WAIT_BUYER_PAY', total_amount: '1.00' }))!.kind, 'ignored')
    assert.equal(provider.ack(true).body, 'success')
    assert.equal(provider.ack(false).body, 'fail')
  })

  it('signs the wap pay redirect and checks signed answers', async () => {
    let answer = ''
    const sent: string[] = []
    const fakeFetch = (async (_url: string, init?: { body?: unknown }) => {
      sent.push(String(init?.body ?? ''))
      return new Response(answer, { status: 200 })
    }) as unknown as typeof fetch
    const provider = alipayPay(cfg, 'https://h.example', fakeFetch)
    const action = await provider.pay({ orderNo: 'P1', subject: '挂号费', hospitalName: '演示医院', amountFen: 1205, expiresAt: new Date('2026-11-23T02:15:00Z'), returnUrl: RETURN })
    assert.equal(action.kind, 'redirect')
    const u = new URL((action as { url: string }).url)
    const params = Object.fromEntries(u.searchParams.entries())
    assert.equal(params.method, 'alipay.trade.wap.pay')
    assert.equal(params.return_url, `https://h.example${RETURN}?orderNo=P1`)
    assert.equal(JSON.parse(params.biz_content!).total_amount, '12.05')
    assert.equal(JSON.parse(params.biz_content!).time_expire, '2026-11-23 10:15:00')
    assert.ok(createVerify('RSA-SHA256').update(alipaySignContent(params)).verify(app.publicKey, params.sign!, 'base64'))

    const inner = JSON.stringify({ code: '10000', msg: 'Success', out_trade_no: 'P1', trade_no: 'T9', trade_status: 'TRADE_SUCCESS', total_amount: '12.05', send_pay_date: '2026-11-23 10:01:00' })
    answer = `{"alipay_trade_query_response":${inner},"sign":"${rsaSign(inner, alipay.privateKey)}"}`
    assert.deepEqual(await provider.query('P1'), { orderNo: 'P1', tradeNo: 'T9', amountFen: 1205, currency: 'CNY', paidAt: new Date('2026-11-23T02:01:00Z') })
    answer = `{"alipay_trade_query_response":${inner},"sign":"${rsaSign(inner, rsa().privateKey)}"}`
    await assert.rejects(provider.query('P1'))
    const refundInner = JSON.stringify({ code: '10000', msg: 'Success', trade_no: 'T9', fund_change: 'Y', refund_fee: '12.05' })
    answer = `{"alipay_trade_refund_response":${refundInner},"sign":"${rsaSign(refundInner, alipay.privateKey)}"}`
    assert.equal((await provider.refund({ orderNo: 'P1', refundNo: 'R1', amountFen: 1205, totalFen: 1205, reason: '退号' })).status, 'succeeded')
    const bizOf = (body: string) => JSON.parse(new URLSearchParams(body).get('biz_content')!) as Record<string, string>
    assert.equal(bizOf(sent.at(-1)!).out_trade_no, 'P1')
    // a second payment of the order is returned by its own transaction number
    await provider.refund({ orderNo: 'P1', refundNo: 'R2', tradeNo: 'T10', amountFen: 1205, totalFen: 1205, reason: '重复支付，自动退款' })
    assert.deepEqual([bizOf(sent.at(-1)!).trade_no, bizOf(sent.at(-1)!).out_trade_no], ['T10', undefined])
  })

  it('a buyer in the Alipay mini-program (the merchant\'s own app) pays a trade made for them with my.tradePay; the web app keeps the wap cashier', async () => {
    const created: Record<string, string>[] = []
    const fakeFetch = (async (_url: string, init?: { body?: unknown }) => {
      const params = Object.fromEntries(new URLSearchParams(String(init?.body ?? '')).entries())
      created.push(params)
      const inner = JSON.stringify({ code: '10000', msg: 'Success', out_trade_no: JSON.parse(params.biz_content!).out_trade_no, trade_no: '2026112522001400001' })
      return new Response(`{"alipay_trade_create_response":${inner},"sign":"${rsaSign(inner, alipay.privateKey)}"}`, { status: 200 })
    }) as unknown as typeof fetch
    const provider = alipayPay(cfg, 'https://h.example', fakeFetch)
    const d = await startTestApp({ providers: { pay: { sandbox: null, wechat: null, alipay: provider, close: () => undefined } } })
    try {
      /** An Alipay user signed in under `appId` (the sandbox's stand-in for my.getAuthCode) with a bound mobile. */
      const alipayUser = async (appId: string) => {
        const device = randomBytes(16).toString('base64url')
        const authCode = await miniCodeThroughLoginPage(d.app, 'alipay', appId, device)
        const signed = envelopeOf<{ token: string }>(
          await d.app.inject({ method: 'POST', url: '/dld-auth/token/alipay/mini', payload: { authCode, appId }, remoteAddress: randomIp() }),
        )
        const headers = { authorization: `Bearer ${signed.data.token}` }
        const mobile = `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
        const sms = envelopeOf<{ devCode: string }>(await d.app.inject({ method: 'POST', url: '/dld-auth/token/smsBindCode', headers, payload: { mobile }, remoteAddress: randomIp() }))
        const bound = envelopeOf<{ userId: number }>(
          await d.app.inject({ method: 'POST', url: '/dld-hospital/bind', headers, payload: { mobile, code: sms.data.devCode }, remoteAddress: randomIp() }),
        )
        return { headers, userId: bound.data.userId }
      }
      const [h] = await d.database.db.select().from(hospitals).where(eq(hospitals.code, DEMO.both.code))
      const orderFor = (userId: number) =>
        d.database.db.transaction((tx) =>
          createOrder(tx, { userId, hospitalId: h!.id, business: 'gift', businessId: 1, subject: '鲜花一束', amountFen: 1250, insuranceFen: 0, expiresAt: new Date(Date.now() + 15 * 60_000), idempotencyKey: randomUUID() }),
        )
      const pay = async (caller: { headers: Record<string, string> }, orderNo: string) =>
        envelopeOf<PayAction>(await d.app.inject({ method: 'POST', url: '/dld-pay/pay', headers: caller.headers, payload: { orderNo, returnUrl: RETURN }, remoteAddress: randomIp() }))

      const buyer = await alipayUser(cfg.appId)
      const order = await orderFor(buyer.userId)
      const answer = await pay(buyer, order.orderNo)
      assert.deepEqual(answer.data, { kind: 'tradePay', channel: 'alipay', tradeNo: '2026112522001400001' })
      const sent = created.at(-1)!
      assert.equal(sent.method, 'alipay.trade.create')
      assert.equal(sent.notify_url, 'https://h.example/dld-pay/notify/alipay')
      const biz = JSON.parse(sent.biz_content!)
      assert.equal(biz.out_trade_no, order.orderNo)
      assert.equal(biz.total_amount, '12.50')
      assert.equal(biz.product_code, 'JSAPI_PAY')
      // the buyer is the one signed in: the sandbox's ids are open ids, not 2088 user ids
      const [identity] = await d.database.db.select().from(identities).where(eq(identities.appId, cfg.appId)).orderBy(desc(identities.id)).limit(1)
      assert.equal(biz.buyer_open_id, identity!.subject)
      assert.ok(createVerify('RSA-SHA256').update(alipaySignContent(sent)).verify(app.publicKey, sent.sign!, 'base64'))

      // signed in with another Alipay app (the web one): the wap cashier, no trade made here
      const webUser = await alipayUser('2021000000009999')
      const before = created.length
      const web = await pay(webUser, (await orderFor(webUser.userId)).orderNo)
      assert.equal(web.data.kind, 'redirect')
      assert.equal(created.length, before)
    } finally {
      await d.close()
    }
  })

  it('reads amounts without floating point', () => {
    assert.equal(yuanToFen('0.1'), 10)
    assert.equal(yuanToFen('19.99'), 1999)
    assert.ok(Number.isNaN(yuanToFen('1.234')))
    assert.equal(fenToYuan(1999), '19.99')
    assert.equal(fenToYuan(5), '0.05')
    assert.equal(rawJsonValue('{"a_response":{"x":"}{\\""},"sign":"s"}', 'a_response'), '{"x":"}{\\""}')
  })
})

// ---- the app as it is built by default -----------------------------------------------------------------------

describe('default wiring', () => {
  it('pays through the sandbox the app builds itself, delivered through its own notify route, and sweeps expired orders', async () => {
    const d = await startTestApp({ config: { orderSweepMs: 50 } })
    try {
      const user = await signInUser(d.app)
      const [h] = await d.database.db.select().from(hospitals).where(eq(hospitals.code, DEMO.both.code))
      const order = await d.database.db.transaction((tx) =>
        createOrder(tx, { userId: user.userId, hospitalId: h!.id, business: 'gift', businessId: 1, subject: '鲜花', amountFen: 100, expiresAt: new Date(Date.now() + 60_000), idempotencyKey: 'd1' }),
      )
      const env = envelopeOf<PayAction>(await d.app.inject({ method: 'POST', url: '/dld-pay/pay', headers: user.headers, payload: { orderNo: order.orderNo, returnUrl: RETURN } }))
      assert.equal(env.code, 200, env.msg)
      const p = cashierParams((env.data as { url: string }).url)
      const res = await d.app.inject({ method: 'POST', url: '/sandbox/pay/cashier', payload: { ...p, action: 'confirm' } })
      assert.equal(res.statusCode, 303)
      await d.app.ctx.providers.pay.sandbox!.settled()
      const view = envelopeOf<PayOrder>(await d.app.inject({ method: 'GET', url: `/dld-pay/order/${order.orderNo}`, headers: user.headers }))
      assert.equal(view.data.status, 'paid')
      const doc = (await d.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> }
      assert.ok(doc.paths['/dld-pay/pay']?.post && doc.paths['/dld-pay/order/{orderNo}']?.get && doc.paths['/dld-pay/notify/{channel}']?.post)
      assert.ok(!Object.keys(doc.paths).some((k) => k.startsWith('/sandbox')))
      // nobody looks at this one: the app's own timer closes it
      const forgotten = await d.database.db.transaction((tx) =>
        createOrder(tx, { userId: user.userId, hospitalId: h!.id, business: 'gift', businessId: 2, subject: '鲜花', amountFen: 100, expiresAt: new Date(Date.now() - 1), idempotencyKey: 'd2' }),
      )
      let status = forgotten.status
      for (let i = 0; i < 40 && status !== 'closed'; i++) {
        await new Promise((r) => setTimeout(r, 50))
        status = (await d.database.db.select().from(orders).where(eq(orders.id, forgotten.id)))[0]!.status
      }
      assert.equal(status, 'closed')
    } finally {
      await d.close()
    }
  })
})
