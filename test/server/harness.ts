import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Writable } from 'node:stream'
import { dirname, join } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../server/src/app'
import type { Providers } from '../../server/src/plugins/providers'
import { loadConfig, type Config } from '../../server/src/config'
import { openDatabase, scratchDatabase, type Database } from '../../server/src/db'
import { idCardCheckChar } from '../../src/utils/idCard'
import { FieldCipher } from '../../server/src/crypto'
import { seedIfEmpty, DEMO } from '../../server/src/seed'
import { isStaleTemplate, removeStaleTemplates, seedTemplateKey as templateHash } from '../seedTemplate'

/**
 * One template per migrations, server code and day (test/seedTemplate.ts), shared by every test process:
 * a PGlite data directory (written atomically) or a PostgreSQL database. It is migrated and seeded, so a test app
 * only copies it: migrating and seeding cost about 3 s an app on PostgreSQL. Its encrypted seed rows are readable
 * with TEMPLATE_DATA_KEY, the key test apps use.
 */
const TEMPLATE_FILE = join(tmpdir(), 'hospital-h5-test', `pglite-template-${templateHash}.tar`)
/** A test-only key, the same in every process that shares the template. */
const TEMPLATE_DATA_KEY = createHash('sha256').update(`template-data-key:${templateHash}`).digest('base64')
let template: Buffer | null = null

/** Migrates one PGlite database per test process; each app starts from a copy (stack notes: ~0.7 s instead of ~4 s). */
async function pgliteTemplate(): Promise<Buffer> {
  if (template) return template
  if (!existsSync(TEMPLATE_FILE)) {
    const pglite = await PGlite.create()
    const { db } = await openDatabase({ url: null, dataDir: '', pglite })
    await seedIfEmpty(db, new FieldCipher(TEMPLATE_DATA_KEY))
    const dump = await pglite.dumpDataDir('none')
    await pglite.close()
    mkdirSync(dirname(TEMPLATE_FILE), { recursive: true })
    writeFileSync(`${TEMPLATE_FILE}.${process.pid}`, Buffer.from(await dump.arrayBuffer()))
    renameSync(`${TEMPLATE_FILE}.${process.pid}`, TEMPLATE_FILE)
    removeStaleTemplates(dirname(TEMPLATE_FILE), TEMPLATE_FILE, (name) => /^pglite-template-\w+\.tar$/.test(name))
  }
  template = readFileSync(TEMPLATE_FILE)
  return template
}

/** The advisory lock under which one test process builds the PostgreSQL template ("h5tp"). */
const TEMPLATE_LOCK_KEY = 0x68357470
const TEMPLATE_PREFIX = 'h5template_'

/**
 * The PostgreSQL template database (built once under an advisory lock, then renamed into place, so that no test
 * copies a half-built one). Each carries the time it was built as its comment. Templates of other keys are dropped
 * then, once out of use (isStaleTemplate): a younger one may belong to another checkout's tests that are running.
 */
let pgTemplate: Promise<string> | null = null
function postgresTemplate(serverUrl: string): Promise<string> {
  pgTemplate ??= buildPostgresTemplate(serverUrl).catch((e: unknown) => {
    pgTemplate = null
    throw e
  })
  return pgTemplate
}

async function buildPostgresTemplate(serverUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${templateHash}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY])
    const { rows } = await admin.query<{ datname: string; builtAt: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS "builtAt" FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%'`,
    )
    if (rows.some((r) => r.datname === name)) return name
    const building = await scratchDatabase(serverUrl, 'h5building')
    try {
      const database = await openDatabase({ url: building.url, dataDir: '' })
      try {
        await seedIfEmpty(database.db, new FieldCipher(TEMPLATE_DATA_KEY))
      } finally {
        await database.close()
      }
      // a connection on its way out still counts as one: PostgreSQL waits up to 5 s for it before renaming
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(new URL(building.url).pathname.slice(1))} RENAME TO ${pg.escapeIdentifier(name)}`)
      await admin.query(`COMMENT ON DATABASE ${pg.escapeIdentifier(name)} IS '${Date.now()}'`)
    } catch (e) {
      await building.drop()
      throw e
    }
    // one without a comment was built before templates had one
    for (const { datname, builtAt } of rows) {
      if (isStaleTemplate(Number(builtAt ?? 0))) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`)
    }
    return name
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]).catch(() => undefined)
    await admin.end().catch(() => undefined)
  }
}

export { DEMO }

export interface TestApp {
  app: FastifyInstance
  database: Database
  config: Config
  /** A second server app on the same database with the same keys, as a second server process would be. */
  twin(): Promise<{ app: FastifyInstance; close(): Promise<void> }>
  close(): Promise<void>
}

/**
 * A seeded app on its own database, a copy of the seeded template: in PGlite, or on the PostgreSQL server when
 * TEST_DATABASE_URL is set (the only place a race can show, stack notes).
 */
export async function startTestApp(
  opts: {
    config?: Partial<Config>
    /** Providers instead of the configured ones; a function gets the test database (the sandbox cashier keeps its books there). */
    providers?: Partial<Providers> | ((database: Database) => Partial<Providers>)
    logStream?: NodeJS.WritableStream
    /** Record the statements of work run inside `queriesOf` (server/src/db). */
    countQueries?: boolean
  } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'hospital-h5-'))
  const config = loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dir },
    {
      secret: randomBytes(32).toString('base64'),
      // apps start from the seeded template, whose encrypted rows need its key
      dataKey: TEMPLATE_DATA_KEY,
      ...opts.config,
    },
  )
  let dropDb: (() => Promise<void>) | null = null
  let database: Database
  let reopen: () => Promise<Database>
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl) {
    const scratch = await scratchDatabase(serverUrl, 'h5test', await postgresTemplate(serverUrl))
    reopen = () => openDatabase({ url: scratch.url, dataDir: dir, countQueries: opts.countQueries })
    database = await reopen()
    dropDb = scratch.drop
  } else {
    const pglite = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(await pgliteTemplate())]) })
    // one PGlite serves both apps (it is in-process), each with its own connection object and LISTEN
    // requests wait for their turn as long as they must: tests fire bursts of 100 on a shared machine, and the
    // bound on the wait has its own test (pgliteBusy.test.ts)
    reopen = () => openDatabase({ url: null, dataDir: dir, pglite, countQueries: opts.countQueries, queueWaitMs: 600_000 })
    const inner = await reopen()
    database = { ...inner, close: async () => pglite.close() }
  }
  await seedIfEmpty(database.db, new FieldCipher(config.dataKey))
  const providers = typeof opts.providers === 'function' ? opts.providers(database) : opts.providers
  const app = await buildApp(config, database, providers, opts.logStream)
  await app.ready()
  const twins: { close(): Promise<void> }[] = []
  return {
    app,
    database,
    config,
    async twin() {
      const second = await reopen()
      const other = await buildApp(config, second, providers, opts.logStream)
      await other.ready()
      const twin = {
        app: other,
        async close() {
          await other.close()
          await second.close()
        },
      }
      twins.push(twin)
      return twin
    },
    async close() {
      for (const twin of twins) await twin.close().catch(() => undefined)
      await app.close()
      await database.close()
      if (dropDb) await dropDb()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Envelope<T = unknown> {
  code: number
  msg: string
  data: T
}

export function envelopeOf<T = any>(res: LightMyRequestResponse): Envelope<T> {
  return res.json() as Envelope<T>
}

/**
 * A client address of its own: sign-in and SMS calls are rate-limited per address, and each simulated
 * visitor is a different phone. Tests of the limits pass one address on purpose.
 */
export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`

/** Walks the sandbox authorisation like a browser: authorize → redirect with code → wxH5. Returns the session. */
export async function signInWechat(app: FastifyInstance, opts: { appId?: string; browser?: string; ip?: string } = {}) {
  const appId = opts.appId ?? DEMO.both.appId
  const browser = opts.browser ?? randomBytes(16).toString('base64url')
  const ip = opts.ip ?? randomIp()
  const res = await app.inject({
    remoteAddress: ip,
    method: 'GET',
    url: '/sandbox/wechat/authorize',
    query: { appid: appId, redirect_uri: 'http://localhost/h5/pages/login/login', scope: 'snsapi_base', state: 's1' },
    headers: { cookie: `sandbox_wx_browser=${browser}`, host: 'localhost' },
  })
  const location = new URL(String(res.headers.location))
  const code = location.searchParams.get('code')!
  const login = await app.inject({ remoteAddress: ip, method: 'POST', url: '/dld-auth/token/wxH5', payload: { code, appId } })
  const env = envelopeOf<{ token: string; refreshToken: string; userId: number; expireTime: number }>(login)
  if (env.code !== 200) throw new Error(`signInWechat: sign-in failed: ${JSON.stringify(env)}`)
  const data = env.data
  return { ...data, browser, appId, code, ip, headers: { authorization: `Bearer ${data.token}` } }
}

/** The sandbox login page a mini-program opens in its web-view, as that web-view loads it: the form's fields and its cookie. */
export async function openMiniLoginPage(app: FastifyInstance, provider: 'wechat' | 'alipay', query: { appId: string; device: string; nonce: string; fresh?: '1' }) {
  const res = await app.inject({ method: 'GET', url: `/sandbox/${provider}/mini-login`, query })
  assert.equal(res.statusCode, 200, res.body)
  const field = (name: string) => res.body.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? ''
  const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0]!
  return { html: res.body, cookie, form: { appId: field('appId'), device: field('device'), nonce: field('nonce'), account: field('account'), token: field('token') } }
}

/**
 * A mini-program's sign-in code on a sandbox server the first time its phone signs in: the login page opened with a
 * nonce, 确认登录 as the tester taps it, then the code collected with that nonce.
 */
export async function miniCodeThroughLoginPage(app: FastifyInstance, provider: 'wechat' | 'alipay', appId: string, device: string): Promise<string> {
  const nonce = randomBytes(16).toString('base64url')
  const opened = await openMiniLoginPage(app, provider, { appId, device, nonce })
  const confirmed = await app.inject({ method: 'POST', url: `/sandbox/${provider}/mini-login`, payload: new URLSearchParams(opened.form).toString(), headers: { cookie: opened.cookie, 'content-type': 'application/x-www-form-urlencoded' } })
  assert.equal(confirmed.statusCode, 200, confirmed.body)
  const collected = await app.inject({ method: 'POST', url: `/sandbox/${provider}/mini-code`, payload: { appId, device, nonce } })
  const code = (collected.json() as { code: string | null }).code
  assert.ok(code, collected.body)
  return code
}

/** Signs in and binds a mobile through the SMS code, giving a user with a non-zero id. */
export async function signInUser(app: FastifyInstance, mobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`) {
  const s = await signInWechat(app)
  const auth = s.headers
  const sms = envelopeOf<{ devCode: string }>(
    await app.inject({ remoteAddress: s.ip, method: 'POST', url: '/dld-auth/token/smsBindCode', headers: auth, payload: { mobile } }),
  )
  const bind = envelopeOf<{ userId: number }>(
    await app.inject({
      remoteAddress: s.ip,
      method: 'POST',
      url: '/dld-hospital/bind',
      headers: auth,
      payload: { mobile, code: sms.data.devCode, sourceType: 8 },
    }),
  )
  if (!bind.data?.userId) throw new Error(`signInUser: bind failed: ${JSON.stringify(bind)}`)
  return { ...s, userId: bind.data.userId, mobile, headers: auth }
}

/** Collects what the server logs, to show identity numbers never reach it. */
export class LogCapture extends Writable {
  text = ''
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.text += chunk.toString('utf8')
    done()
  }
}

/** A valid 18-character identity number (GB 11643 check character) for a birth date. */
export const idCardFor = (birth: string, seq: string, area = '110101') => `${area}${birth}${seq}` + idCardCheckChar(`${area}${birth}${seq}`)

/** One whose check character is X, which patients may type in lower case. */
export function idCardEndingInX(birth: string, area = '110101'): string {
  for (let n = 0; n < 1000; n++) {
    const id = idCardFor(birth, String(n).padStart(3, '0'), area)
    if (id.endsWith('X')) return id
  }
  throw new Error('no X check character')
}

/** The app sends and receives identity numbers base64-encoded (spec §3 sensitive fields). */
export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
export const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type CallOptions = { caller?: { headers: Record<string, string> }; body?: unknown; query?: Record<string, string> }

/** One call as the app makes it (its own client address, so the per-address limits stay out of the way), answered as the envelope. */
export async function callApi<T = any>(app: FastifyInstance, method: Method, url: string, opts: CallOptions = {}): Promise<Envelope<T>> {
  const res = await app.inject({
    method,
    url,
    headers: opts.caller?.headers ?? {},
    remoteAddress: randomIp(),
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.body !== undefined ? { payload: opts.body as Record<string, unknown> } : {}),
  })
  return envelopeOf<T>(res)
}

/** 401 without a token, 403 for a WeChat identity that has not bound a mobile yet; nothing answered in either. */
export async function assertUnauthorisedCall(app: FastifyInstance, method: Method, url: string, opts: Omit<CallOptions, 'caller'> = {}) {
  const anonymous = await callApi(app, method, url, opts)
  assert.equal(anonymous.code, 401)
  assert.equal(anonymous.data, null)
  const unbound = await callApi(app, method, url, { ...opts, caller: await signInWechat(app) })
  assert.equal(unbound.code, 403)
  assert.equal(unbound.msg, '请先绑定手机号')
  assert.equal(unbound.data, null)
}

/** A refusal of bad input: 400 with the reason (exactly, or matching), and nothing answered. */
export function assertBadInput(env: Envelope, message?: RegExp | string) {
  assert.equal(env.code, 400, `expected 400, got ${env.code} ${env.msg}`)
  assert.equal(env.data, null)
  if (typeof message === 'string') assert.equal(env.msg, message)
  else if (message) assert.match(env.msg, message)
}

/** 2999 for someone else's id: the same answer whether or not it exists. */
export function assertForbidden(env: Envelope) {
  assert.equal(env.code, 2999, env.msg)
  assert.equal(env.msg, '暂无权限')
  assert.equal(env.data, null)
}

/**
 * Asks `check` again every 20 ms until it answers true or `ms` pass; answers whether it did. For what one server
 * process hears from the database a moment after a write (a NOTIFY), never for time itself.
 */
export async function until(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
