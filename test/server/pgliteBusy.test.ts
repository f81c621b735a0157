import { after, before, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { eq, like } from 'drizzle-orm'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { buildApp } from '../../server/src/app'
import { loadConfig } from '../../server/src/config'
import { openDatabase, type Database } from '../../server/src/db'
import { hospitals } from '../../server/src/db/schema'
import { BUSY, Code } from '../../server/src/errors'
import { localSig } from '../../server/src/plugins/providers/im'

/**
 * The embedded database has one connection: requests take turns on it. While the bound of requests wait their turn, a
 * new request is answered busy at once instead of joining the wait; what was already waiting still runs and commits.
 * (Always on PGlite: the bound is PGlite's; a PostgreSQL server has a pool.)
 */
const ACTIVE = 1
const QUEUE_MAX = 1
const WRITES = 3
/** The longest wait for a turn, in the test of that bound; the other tests' requests wait as long as they must. */
const QUEUE_WAIT_MS = 300
let dir: string
let pglite: PGlite
let database: Database
let app: FastifyInstance
let config: ReturnType<typeof loadConfig>

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hospital-h5-busy-'))
  pglite = await PGlite.create()
  database = await openDatabase({ url: null, dataDir: dir, pglite, activeRequests: ACTIVE, queueMax: QUEUE_MAX, queueWaitMs: 600_000 })
  config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir })
  app = await buildApp(config, database)
  await app.ready()
})
after(async () => {
  await app.close()
  await pglite.close()
  rmSync(dir, { recursive: true, force: true })
})

const list = async () => (await app.inject({ method: 'GET', url: '/dld-hospital/hospital/list' })).json() as { code: number; msg: string; data: unknown }

/** Until the server's turns stand as wanted (requests run in the background meanwhile). */
async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setImmediate(resolve))
}

it('answers busy at once while the bound of requests wait their turn, and every write that waited is committed', async () => {
  const db = database.db
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let holding!: () => void
  const started = new Promise<void>((resolve) => (holding = resolve))
  // a transaction that keeps the connection until released, writing one row
  const transaction = db.transaction(async (tx) => {
    await tx.insert(hospitals).values({ code: 'BUSY-T', name: '占用连接', homePageConfig: { menus: [] } })
    holding()
    await held
  })
  await started
  // writes that queue behind it for the connection
  const waiting = Array.from({ length: WRITES }, (_, i) => db.insert(hospitals).values({ code: `BUSY-${i}`, name: `排队${i}`, homePageConfig: { menus: [] } }).execute())
  // one request at work (waiting for the connection), the bound of others waiting their turn
  const first = list()
  await until(() => database.queueStats!().requests === ACTIVE)
  const second = list()
  await until(() => database.queueStats!().waitingRequests === QUEUE_MAX)

  // answered while the connection is still held: at once, not after the wait
  // (without the bound the request would wait behind the held transaction: the guard turns that hang into a failure)
  let guard: NodeJS.Timeout | undefined
  const refused = await Promise.race([
    list(),
    new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error('the request waited for the connection instead of answering busy')), 10_000))),
  ])
  clearTimeout(guard)
  assert.deepEqual(refused, { code: Code.TOO_MANY, msg: BUSY, data: null })

  release()
  await transaction
  await Promise.all(waiting)
  // the requests that had their turn or waited for it are served
  for (const served of await Promise.all([first, second])) assert.equal(served.code, Code.OK, served.msg)
  const rows = await db.select({ code: hospitals.code }).from(hospitals).where(like(hospitals.code, 'BUSY-%'))
  assert.deepEqual(rows.map((r) => r.code).sort(), ['BUSY-0', 'BUSY-1', 'BUSY-2', 'BUSY-T'])

  // the queue gone, the same request is served
  const served = await list()
  assert.equal(served.code, Code.OK, served.msg)
  assert.ok((served.data as { hospitalCode: string }[]).some((h) => h.hospitalCode === 'BUSY-T'))
  // every answered request gave its turn back
  assert.deepEqual({ requests: database.queueStats!().requests, waitingRequests: database.queueStats!().waitingRequests }, { requests: 0, waitingRequests: 0 })
  assert.equal((await db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, 'BUSY-2'))).length, 1)
})

it('a request that waits too long for its turn is answered busy then, having done nothing, and the queue moves on', async () => {
  // a second server on the same PGlite (as the harness's twin), whose requests wait at most QUEUE_WAIT_MS
  const second = await openDatabase({ url: null, dataDir: dir, pglite, activeRequests: ACTIVE, queueMax: 10, queueWaitMs: QUEUE_WAIT_MS })
  const other = await buildApp(config, second)
  await other.ready()
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  try {
    const listOnSecond = async () => (await other.inject({ method: 'GET', url: '/dld-hospital/hospital/list' })).json() as { code: number; msg: string }
    let holding!: () => void
    const started = new Promise<void>((resolve) => (holding = resolve))
    const transaction = database.db.transaction(async (tx) => {
      await tx.select({ id: hospitals.id }).from(hospitals).limit(1)
      holding()
      await held
    })
    await started
    // one request has the turn (it waits for the held connection); the next waits for the turn
    const first = listOnSecond()
    await until(() => second.queueStats!().requests === ACTIVE)
    const queued = Date.now()
    // answered while the connection is still held: it ran nothing (without the bound it would wait for the held
    // transaction: the guard turns that hang into a failure)
    let guard: NodeJS.Timeout | undefined
    const late = await Promise.race([
      listOnSecond(),
      new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error('the request waited on past the bound')), 10_000))),
    ])
    clearTimeout(guard)
    const waited = Date.now() - queued
    assert.deepEqual(late, { code: Code.TOO_MANY, msg: BUSY, data: null })
    assert.ok(waited >= QUEUE_WAIT_MS, `answered after ${waited} ms, not before the bound`)
    assert.equal(second.queueStats!().waitingRequests, 0, 'the refused request left the queue')

    release()
    await transaction
    assert.equal((await first).code, Code.OK)
    assert.equal((await listOnSecond()).code, Code.OK, 'the turn went round again')
    assert.deepEqual({ requests: second.queueStats!().requests, waitingRequests: second.queueStats!().waitingRequests }, { requests: 0, waitingRequests: 0 })
  } finally {
    release()
    await other.close()
  }
})

it('a mistyped bound is refused at start, naming the setting (a NaN would refuse every request that waits); good ones are taken', () => {
  for (const [name, value] of [
    ['DB_QUEUE_WAIT_MS', '1s'],
    ['DB_ACTIVE_REQUESTS', '0'],
    ['DB_QUEUE_MAX', '-1'],
    ['DB_POOL_SIZE', 'ten'],
    ['DB_NAMED_STATEMENTS', '-5'],
  ] as const) {
    assert.throws(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, [name]: value }), new RegExp(`^Error: ${name} must be a whole number from [01], not "${value}"$`))
  }
  assert.deepEqual(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, DB_POOL_SIZE: '20', DB_NAMED_STATEMENTS: '0', DB_ACTIVE_REQUESTS: '4', DB_QUEUE_MAX: '0', DB_QUEUE_WAIT_MS: '250' }).database, {
    poolSize: 20,
    namedStatements: 0,
    activeRequests: 4,
    queueMax: 0,
    queueWaitMs: 250,
  })
  assert.deepEqual(config.database, { poolSize: 10, namedStatements: 500, activeRequests: 8, queueMax: 1000, queueWaitMs: 1000 })
})

it('an open chat socket takes no turn: with one turn, calls are served while patients are connected', async () => {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  const expire = Math.floor(Date.now() / 1000) + 3600
  const sockets = await Promise.all(
    [1, 2, 3].map(
      (n) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/dld-im/ws?sig=${encodeURIComponent(localSig(config.secret, `0_${900 + n}`, expire))}`)
          ws.once('open', () => resolve(ws))
          ws.once('error', reject)
        }),
    ),
  )
  try {
    let guard: NodeJS.Timeout | undefined
    const answered = await Promise.race([
      list(),
      new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error('the call waited behind the open chat sockets')), 10_000))),
    ])
    clearTimeout(guard)
    assert.equal(answered.code, Code.OK, answered.msg)
    assert.equal(database.queueStats!().requests, 0)
  } finally {
    for (const ws of sockets) ws.close()
  }
})

it('lets the event loop turn while statements keep coming, so requests are read and timers run meanwhile', async () => {
  // PGlite answers in this thread with resolved promises: without the gate's pauses this chain would hold the loop
  // for all of its 300 ms and the timer would not run once
  let turns = 0
  const timer = setInterval(() => turns++, 1)
  try {
    const started = performance.now()
    while (performance.now() - started < 300) await database.db.select({ id: hospitals.id }).from(hospitals).limit(1)
  } finally {
    clearInterval(timer)
  }
  assert.ok(turns >= 10, `the loop had ${turns} turns in 300 ms of statements`)
})
