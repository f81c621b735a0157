import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type AddressInfo } from 'node:net'
import { readdirSync } from 'node:fs'
import WebSocket from 'ws'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { migrationsFolder, openDatabase, rowsOf, scratchDatabase, type Database } from '../../server/src/db'
import { drain, drainOnSignals } from '../../server/src/drain'
import { USER_SIG_TTL_S, localSig } from '../../server/src/plugins/providers/im'
import type { SmsProvider } from '../../server/src/plugins/providers/sms'
import { LogCapture, randomIp, signInUser, signInWechat, startTestApp, type TestApp } from './harness'

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'
const migrationCount = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length

/** A load balancer's probe: one client address, no token, the HTTP status and the plain JSON body. */
async function probe(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers, remoteAddress: '10.0.0.2' })
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body }
}

describe('GET /health/live and GET /health/ready', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('live answers 200 without a token, however often the load balancer asks', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => probe(t.app, '/health/live')))
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]))
    assert.deepEqual(JSON.parse(answers[0]!.body), { status: 'live' })
  })

  it('ready answers 200 on a migrated database, as plain JSON rather than the API envelope', async () => {
    const ready = await probe(t.app, '/health/ready')
    assert.equal(ready.status, 200)
    assert.match(ready.type, /^application\/json/)
    assert.deepEqual(JSON.parse(ready.body), { status: 'ready' })
  })

  it('ready answers 503 naming the migration the database lacks', async () => {
    const table = sql`drizzle.__drizzle_migrations`
    const [last] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await t.database.db.execute(sql`SELECT id, hash, created_at FROM ${table} ORDER BY created_at DESC LIMIT 1`),
    )
    await t.database.db.execute(sql`DELETE FROM ${table} WHERE id = ${last!.id}`)
    try {
      const ready = await probe(t.app, '/health/ready')
      assert.equal(ready.status, 503)
      const lastTag = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort().at(-1)!.replace(/\.sql$/, '')
      assert.deepEqual(JSON.parse(ready.body), { status: 'unavailable', reason: `migrations not applied: ${lastTag}` })
    } finally {
      await t.database.db.execute(sql`INSERT INTO ${table} (id, hash, created_at) VALUES (${last!.id}, ${last!.hash}, ${last!.created_at})`)
    }
    assert.equal((await probe(t.app, '/health/ready')).status, 200)
  })

  it('ready answers 503 once the server drains, before it closes anything', async () => {
    t.app.ctx.lifecycle.draining = true
    try {
      const ready = await probe(t.app, '/health/ready')
      assert.equal(ready.status, 503)
      assert.deepEqual(JSON.parse(ready.body), { status: 'unavailable', reason: 'draining' })
      assert.equal((await probe(t.app, '/health/live')).status, 200)
    } finally {
      t.app.ctx.lifecycle.draining = false
    }
  })

  it('stays out of the API description', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths)
    assert.ok(paths.length > 20)
    assert.deepEqual(
      paths.filter((p) => p.startsWith('/health') || p === '/metrics'),
      [],
    )
  })

  it('GET /metrics does not exist without METRICS_TOKEN', async () => {
    assert.equal((await probe(t.app, '/metrics')).status, 404)
    assert.equal((await probe(t.app, '/metrics', { authorization: 'Bearer anything' })).status, 404)
  })
})

describe('GET /metrics with METRICS_TOKEN set', () => {
  let t: TestApp
  before(async () => {
    // a sweep every 50 ms, so that its counter moves while the test looks
    t = await startTestApp({ config: { metricsToken: METRICS_TOKEN, orderSweepMs: 50 } })
  })
  after(() => t.close())

  const scrape = () => probe(t.app, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })

  it('answers 401 without the token or with a wrong one, and shows nothing', async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, 'Bearer wrong', `Basic ${METRICS_TOKEN}`, METRICS_TOKEN]) {
      const res = await probe(t.app, '/metrics', authorization ? { authorization } : {})
      assert.equal(res.status, 401, String(authorization))
      assert.doesNotMatch(res.body, /http_requests_total/)
    }
  })

  it('counts requests by route pattern, never by the URL with its id', async () => {
    const orderNo = 'P20260101123456789012'
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: `/dld-pay/order/${orderNo}`, remoteAddress: randomIp() })
    const res = await scrape()
    assert.equal(res.status, 200)
    assert.match(res.type, /^text\/plain; version=0\.0\.4/)
    assert.match(res.body, /^http_requests_total\{method="GET",route="\/dld-pay\/order\/:orderNo",status_class="2xx"\} 3$/m)
    assert.match(res.body, /^http_request_duration_seconds_count\{method="GET",route="\/dld-pay\/order\/:orderNo",status_class="2xx"\} 3$/m)
    assert.doesNotMatch(res.body, new RegExp(orderNo))
  })

  it('counts the paths no route knows under one name, whatever a scanner tries', async () => {
    for (const path of ['/wp-login.php', '/.env', `/dld-pay/nothing/${randomIp()}`]) await t.app.inject({ method: 'GET', url: path })
    const body = (await scrape()).body
    assert.match(body, /^http_requests_total\{method="GET",route="unmatched",status_class="4xx"\} 3$/m)
    assert.doesNotMatch(body, /wp-login|\.env|nothing/)
  })

  it('shows the database, the chat connections, the order sweep and the payment notifications', async () => {
    const notify = await t.app.inject({ method: 'POST', url: '/dld-pay/notify/sandbox', payload: 'not a notification', headers: { 'content-type': 'text/plain' } })
    assert.notEqual(notify.statusCode, 500)
    const until = Date.now() + 5000
    let body = ''
    while (Date.now() < until) {
      body = (await scrape()).body
      if (/^order_sweeps_total\{outcome="ok"\} [1-9]/m.test(body)) break
      await new Promise((r) => setTimeout(r, 50))
    }
    assert.match(body, /^order_sweeps_total\{outcome="ok"\} [1-9]\d*$/m)
    assert.match(body, /^orders_closed_total \d+$/m)
    assert.match(body, /^refunds_retried_total \d+$/m)
    assert.match(body, /^payment_notifications_total\{provider="sandbox",outcome="invalid"\} 1$/m)
    assert.match(body, /^chat_connections_open 0$/m)
    assert.match(body, new RegExp(`^db_info\\{kind="${t.database.kind}"\\} 1$`, 'm'))
    if (t.database.kind === 'postgres') assert.match(body, /^db_pool_connections\{state="total"\} [1-9]\d*$/m)
    else assert.doesNotMatch(body, /db_pool_connections/)
    assert.match(body, /^process_resident_memory_bytes \d+/m)
  })
})

/** An SMS gateway that holds each code until the test lets it go: a request in flight for as long as the test wants. */
function heldSms() {
  let arrived: () => void = () => undefined
  let release: () => void = () => undefined
  let holding = false
  const reached = () => new Promise<void>((resolve) => (arrived = resolve))
  const provider: SmsProvider = {
    kind: 'sandbox',
    async sendCode() {
      if (!holding) return
      arrived()
      await new Promise<void>((resolve) => (release = resolve))
    },
  }
  return {
    provider,
    /** From now on codes are held; resolves once one has arrived. */
    hold: () => {
      holding = true
      return reached()
    },
    release: () => release(),
  }
}

/** A chat connection as the app opens it, with how it ended. */
function openChat(origin: string, sig: string): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.once('close', (code, reason) => r({ code, reason: String(reason) })))
    ws.once('open', () => resolve({ ws, closed }))
    ws.once('error', reject)
  })
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'))
  })
}

async function listening(app: FastifyInstance): Promise<{ origin: string; port: number }> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, port }
}

describe('SIGTERM drain', () => {
  const sms = heldSms()
  const log = new LogCapture()
  let t: TestApp
  before(async () => {
    t = await startTestApp({ providers: { sms: sms.provider }, config: { logLevel: 'info', metricsToken: METRICS_TOKEN }, logStream: log })
  })
  after(async () => {
    sms.release()
    await t.close()
  })

  it('finishes the request in flight, sends chat clients away with 1001, refuses new connections, and exits 0 within the grace', async () => {
    const { origin, port } = await listening(t.app)
    const patient = await signInUser(t.app)
    const chat = await openChat(origin, localSig(t.config.secret, `0_${patient.userId}`, Math.floor(Date.now() / 1000) + USER_SIG_TTL_S))
    // the socket counts once its signature is checked
    const until = Date.now() + 3000
    let open = ''
    while (Date.now() < until && !/^chat_connections_open 1$/m.test(open)) {
      await new Promise((r) => setTimeout(r, 20))
      open = (await probe(t.app, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).body
    }
    assert.match(open, /^chat_connections_open 1$/m)
    const caller = await signInWechat(t.app)

    const held = sms.hold()
    const inFlight = fetch(`${origin}/dld-auth/token/smsBindCode`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '13900001234' }),
    })
    await held

    let databaseClosed = 0
    const database: Database = { ...t.database, close: async () => void (databaseClosed += 1) } // the test closes the real one
    let exitCode: number | null = null
    const exited = new Promise<void>((resolve) => {
      const stop = drainOnSignals(t.app, database, {
        graceMs: 10_000,
        exit: (code) => {
          exitCode = code
          stop()
          resolve()
        },
      })
    })
    process.emit('SIGTERM', 'SIGTERM')

    const gone = await chat.closed
    assert.deepEqual(gone, { code: 1001, reason: 'server restarting' })
    while (t.app.server.listening) await new Promise((r) => setTimeout(r, 10))
    assert.equal(await refused(port), true)
    assert.equal(exitCode, null, 'the drain waits for the request in flight')
    assert.equal(databaseClosed, 0, 'the database stays open while a request needs it')

    sms.release()
    const answer = await inFlight
    assert.equal(answer.status, 200)
    assert.equal(((await answer.json()) as { code: number }).code, 200)
    await exited
    assert.equal(exitCode, 0)
    assert.equal(databaseClosed, 1)
    assert.match(log.text, /"msg":"draining: no new connections/)
    assert.match(log.text, /"msg":"drained: exiting"/)
    assert.doesNotMatch(log.text, /exiting anyway/)
  })
})

describe('a drain past its grace', () => {
  const sms = heldSms()
  const log = new LogCapture()
  let t: TestApp
  before(async () => {
    t = await startTestApp({ providers: { sms: sms.provider }, config: { logLevel: 'info' }, logStream: log })
  })
  after(async () => {
    sms.release()
    await t.close()
  })

  it('exits anyway, with 1 and a line saying so, while a request still hangs', async () => {
    const { origin } = await listening(t.app)
    const caller = await signInWechat(t.app)
    const held = sms.hold()
    const hanging = fetch(`${origin}/dld-auth/token/smsBindCode`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '13900005678' }),
    }).catch(() => null)
    await held
    const codes: number[] = []
    const outcome = await drain(t.app, { ...t.database, close: async () => undefined }, { graceMs: 300, exit: (code) => codes.push(code) })
    assert.equal(outcome, 'timed out')
    assert.deepEqual(codes, [1])
    assert.match(log.text, /shutdown grace of 0\.3 s passed with work unfinished: exiting anyway/)
    sms.release()
    await hanging
  })
})

if (process.env.TEST_DATABASE_URL) {
  describe('migrations at start on PostgreSQL', () => {
    it('four processes starting together on one empty database all start, and each migration is applied once', async () => {
      const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'h5lock')
      const opened: Database[] = []
      try {
        const starts = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ url: scratch.url, dataDir: '' })))
        for (const s of starts) if (s.status === 'fulfilled') opened.push(s.value)
        assert.deepEqual(
          starts.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason))),
          ['started', 'started', 'started', 'started'],
        )
        const rows = rowsOf<{ hash: string; n: number }>(
          await opened[0]!.db.execute(sql`SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash`),
        )
        assert.equal(rows.length, migrationCount)
        assert.deepEqual(new Set(rows.map((r) => r.n)), new Set([1]))
      } finally {
        for (const d of opened) await d.close()
        await scratch.drop()
      }
    })
  })
}
