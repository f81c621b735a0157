import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { FieldCipher } from '../../server/src/crypto'
import { SWEEP_LOCK_KEY, openDatabase, rowsOf, scratchDatabase, type Database } from '../../server/src/db'
import { HOSPITAL_CHANNEL } from '../../server/src/domain/hospitalCache'
import { CONFIG_HOLD_MINUTES } from '../../server/src/domain/register/rules'
import { doctors, hospitalConfigs, hospitals, inquiries, ledgerEntries, orders, patients, scheduleSlots, schedules } from '../../server/src/db/schema'
import { SMS_CODE_EXPIRED } from '../../server/src/domain/auth'
import { doctorImAccount } from '../../server/src/domain/internetDoctors'
import { createStaffAccount } from '../../server/src/domain/staff'
import { localSig } from '../../server/src/plugins/providers/im'
import { DEMO, seedIfEmpty } from '../../server/src/seed'
import { encodeBase64 } from '../../src/utils/base64'
import { idCardCheckChar } from '../../src/utils/idCard'
import type { ChatServerFrame } from '../../types/api/chat'
import { until } from './harness'
import { freePort, startServerProcess, type ServerProcess } from './serverProcess'

/**
 * Two real server processes, A and B, on one PostgreSQL database, as `WORKERS=2` or two hosts behind a load balancer
 * run them: whatever one process was told, the other answers by. Listed only in the PostgreSQL step of `npm test`
 * (scripts/test.mjs): PGlite opens in one process only.
 */

const serverUrl = process.env.TEST_DATABASE_URL
if (!serverUrl) throw new Error('test/server/processes.test.ts runs two server processes on one PostgreSQL database: set TEST_DATABASE_URL')

const SMS_PER_ADDRESS = 4
const LOCKED_OUT = '登录失败次数过多，请15分钟后再试'
const PASSWORD = 'processes-test-1'
const RETURN_URL = '/h5/pages/order/register/detail?source=register'

type Envelope<T = any> = { code: number; msg: string; data: T }

let scratch: { url: string; drop(): Promise<void> }
let database: Database
let cipher: FieldCipher
let dataDir: string
let secret: string
let a: ServerProcess
let b: ServerProcess

/** A client address of its own, behind the proxy both processes trust: each per-address limit counts it. */
let addresses = 0
const newAddress = () => `10.91.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`

/** One phone: its address and, once signed in, its token; each call goes to the process it names. */
function phone(address = newAddress()) {
  let token = ''
  const send = (server: ServerProcess, method: 'GET' | 'POST', path: string, body?: { json?: unknown; form?: Record<string, string> }) => {
    const headers: Record<string, string> = { 'x-forwarded-for': address }
    if (token) headers.authorization = `Bearer ${token}`
    if (body?.json !== undefined) headers['content-type'] = 'application/json'
    if (body?.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    return fetch(`${server.origin}${path}`, {
      method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      ...(body?.json !== undefined ? { body: JSON.stringify(body.json) } : body?.form ? { body: new URLSearchParams(body.form).toString() } : {}),
    })
  }
  const call = async <T = any>(server: ServerProcess, method: 'GET' | 'POST', path: string, json?: unknown): Promise<Envelope<T>> =>
    (await (await send(server, method, path, json === undefined ? undefined : { json })).json()) as Envelope<T>
  const must = async <T = any>(server: ServerProcess, method: 'GET' | 'POST', path: string, json?: unknown): Promise<T> => {
    const env = await call<T>(server, method, path, json)
    assert.equal(env.code, 200, `${method} ${path}: ${env.msg}`)
    return env.data
  }
  return {
    address,
    get token() {
      return token
    },
    set token(value: string) {
      token = value
    },
    send,
    call,
    must,
    /** Signs in with WeChat through the sandbox authorisation on `server`, as the app does. */
    async signIn(server: ServerProcess) {
      const q = new URLSearchParams({ appid: DEMO.both.appId, redirect_uri: '/h5/pages/login/login', scope: 'snsapi_base', state: 's1' })
      const authorize = await send(server, 'GET', `/sandbox/wechat/authorize?${q}`)
      const code = new URL(authorize.headers.get('location') ?? 'http://x/', 'http://x').searchParams.get('code')
      assert.ok(code, `the sandbox authorisation answered ${authorize.status} without a code`)
      token = (await must<{ token: string }>(server, 'POST', '/dld-auth/token/wxH5', { code, appId: DEMO.both.appId })).token
    },
  }
}

let mobiles = 0
const run = String(Date.now() % 10_000).padStart(4, '0')
const newMobile = () => `135${run}${String(++mobiles).padStart(4, '0')}`

/** Waits until the current minute has `seconds` left at least: the per-address limits count in fixed minutes. */
async function clearOfTheMinute(seconds: number) {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 100))
}

before(async () => {
  scratch = await scratchDatabase(serverUrl, 'h5procs')
  dataDir = mkdtempSync(join(tmpdir(), 'hospital-h5-procs-'))
  const dataKey = randomBytes(32).toString('base64')
  secret = randomBytes(32).toString('base64')
  cipher = new FieldCipher(dataKey)
  database = await openDatabase({ url: scratch.url, dataDir })
  await seedIfEmpty(database.db, cipher)
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    APP_SECRET: secret,
    DATA_KEY: dataKey,
    LOG_LEVEL: 'error',
    TRUST_PROXY: '127.0.0.1',
    SMS_PER_ADDRESS_PER_MINUTE: String(SMS_PER_ADDRESS),
    // the sandboxes, whatever the surrounding environment configures
    PAY_SANDBOX: '1',
    WECHAT_PAY: '',
    ALIPAY_PAY: '',
    WECHAT_APPS: '',
    ALIPAY: '',
    TIM_SDK_APP_ID: '',
    WORKERS: '',
  }
  const start = async () =>
    startServerProcess({ env, port: await freePort(), probe: `/dld-palm/api/department/${DEMO.both.code}`, timeoutMs: 30_000 })
  ;[a, b] = await Promise.all([start(), start()])
})

after(async () => {
  await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')])
  await database?.close()
  await scratch?.drop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('two server processes on one database', () => {
  it('an SMS code sent through A is redeemed once through B; the same code again through A is refused', async () => {
    const mobile = newMobile()
    const first = phone()
    await first.signIn(a)
    const sent = await first.must<{ devCode: string }>(a, 'POST', '/dld-auth/token/smsBindCode', { mobile })
    const bound = await first.must<{ userId: number }>(b, 'POST', '/dld-hospital/bind', { mobile, code: sent.devCode, sourceType: 8 })
    assert.ok(bound.userId > 0)
    const second = phone()
    await second.signIn(a)
    const again = await second.call(a, 'POST', '/dld-hospital/bind', { mobile, code: sent.devCode, sourceType: 8 })
    assert.equal(again.code, 400)
    assert.equal(again.msg, SMS_CODE_EXPIRED)
  })

  it(`SMS codes per address (${SMS_PER_ADDRESS} a minute): the same total whether the calls go to A, to B or alternate`, async () => {
    const routes = { 'all to A': () => a, 'all to B': () => b, alternating: (i: number) => (i % 2 ? b : a) }
    await clearOfTheMinute(15)
    for (const [how, server] of Object.entries(routes)) {
      // each walk is an account of its own (SMS codes are limited per account too), signed in from another address
      // (sign-in has a per-address limit of its own)
      const signedIn = phone()
      await signedIn.signIn(a)
      const p = phone()
      p.token = signedIn.token
      const codes: number[] = []
      for (let i = 0; i <= SMS_PER_ADDRESS; i++) codes.push((await p.call(server(i), 'POST', '/dld-auth/token/smsBindCode', { mobile: newMobile() })).code)
      assert.deepEqual(codes, [...Array<number>(SMS_PER_ADDRESS).fill(200), 429], how)
    }
  })

  it('workbench sign-in: 5 wrong passwords split across A and B lock the login at that address on both', async () => {
    const [doctor] = await database.db
      .select({ id: doctors.id })
      .from(doctors)
      .innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId))
      .where(eq(hospitals.code, DEMO.internet.code))
      .limit(1)
    const login = `WB-PROC-${run}`
    await createStaffAccount(database.db, { kind: 'doctor', doctorId: doctor!.id, login, password: PASSWORD })
    const attacker = phone()
    const signIn = (server: ServerProcess, password: string, from = attacker) => from.call(server, 'POST', '/dld-doctor/api/login', { login, password })
    for (let i = 0; i < 5; i++) assert.equal((await signIn(i % 2 ? b : a, `wrong-${i}`)).code, 401, `wrong password ${i + 1}`)
    for (const server of [a, b]) {
      const locked = await signIn(server, PASSWORD)
      assert.equal(locked.code, 429)
      assert.equal(locked.msg, LOCKED_OUT)
    }
    assert.equal((await signIn(b, PASSWORD, phone())).code, 200, 'the doctor at another address is not locked out')
  })

  it('a payment started on A and confirmed at the sandbox cashier on B reads paid on A, paid once', async () => {
    const p = phone()
    await p.signIn(a)
    const mobile = newMobile()
    const bindCode = await p.must<{ devCode: string }>(a, 'POST', '/dld-auth/token/smsBindCode', { mobile })
    await p.must(a, 'POST', '/dld-hospital/bind', { mobile, code: bindCode.devCode, sourceType: 8 })
    const patientMobile = newMobile()
    const patientCode = await p.must<{ devCode: string }>(a, 'POST', '/dld-auth/token/smsBindCode', { mobile: patientMobile, purpose: 'patient' })
    const first17 = `33010219850312${String(mobiles).padStart(3, '0')}`
    const patient = await p.must<{ id: number }>(a, 'POST', '/dld-palm/api/patient/bind', {
      name: '钱多进',
      idCard: encodeBase64(first17 + idCardCheckChar(first17)),
      mobile: patientMobile,
      code: patientCode.devCode,
      relation: '本人',
      hospitalCode: DEMO.both.code,
    })
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
    const [place] = await database.db
      .select({ scheduleId: schedules.id, timeRange: scheduleSlots.timeRange })
      .from(scheduleSlots)
      .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
      .innerJoin(hospitals, eq(hospitals.id, schedules.hospitalId))
      .where(and(eq(hospitals.code, DEMO.both.code), eq(schedules.stopped, false), gt(schedules.visitDate, tomorrow), gt(schedules.feeFen, 0), isNull(scheduleSlots.registrationId)))
      .orderBy(schedules.visitDate, schedules.id, scheduleSlots.timeRange)
      .limit(1)
    assert.ok(place, 'a free paid place to book')
    const booking = await p.must<{ id: number; order: { orderNo: string; amountFen: number } | null }>(a, 'POST', '/dld-palm/api/register', {
      scheduleId: place.scheduleId,
      patientId: patient.id,
      timeRange: place.timeRange,
      idempotencyKey: `procs-${run}`,
    })
    assert.ok(booking.order, 'the booking is held for payment')
    const action = await p.must<{ url: string }>(a, 'POST', '/dld-palm/api/register/pay', { id: booking.id, returnUrl: RETURN_URL })
    const q = new URL(action.url, 'http://x').searchParams
    const form = { orderNo: q.get('orderNo')!, returnUrl: q.get('returnUrl')!, sign: q.get('sign')!, action: 'confirm' }
    // the patient presses 确认支付 twice, and the second reaches the other process
    assert.equal((await p.send(b, 'POST', '/sandbox/pay/cashier', { form })).status, 303)
    assert.equal((await p.send(a, 'POST', '/sandbox/pay/cashier', { form })).status, 303)

    let seen = null as { status: string; order: { status: string } | null } | null
    await until(async () => {
      seen = await p.must(a, 'POST', `/dld-palm/api/confirm/${booking.id}`)
      return seen?.order?.status === 'paid'
    }, 10_000)
    assert.equal(seen?.status, 'booked')
    assert.equal(seen?.order?.status, 'paid')
    const [order] = await database.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, booking.order.orderNo))
    const taken = await database.db.select({ fen: ledgerEntries.amountFen }).from(ledgerEntries).where(and(eq(ledgerEntries.orderId, order!.id), gt(ledgerEntries.amountFen, 0)))
    assert.deepEqual(
      taken.map((e) => e.fen),
      [booking.order.amountFen],
      'the money is booked once',
    )
  })

  it('a chat message sent through a socket on A arrives on a socket connected to B', async () => {
    const p = phone()
    await p.signIn(a)
    const mobile = newMobile()
    const code = await p.must<{ devCode: string }>(a, 'POST', '/dld-auth/token/smsBindCode', { mobile })
    const { userId } = await p.must<{ userId: number }>(a, 'POST', '/dld-hospital/bind', { mobile, code: code.devCode, sourceType: 8 })
    // a doctor writes only with a patient who paid for an inquiry with them: one, as the payment core leaves it
    const [doctor] = await database.db
      .select({ id: doctors.id, hospitalId: doctors.hospitalId })
      .from(doctors)
      .innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId))
      .where(eq(hospitals.code, DEMO.internet.code))
      .limit(1)
    const key = randomBytes(8).toString('hex')
    const [sick] = await database.db
      .insert(patients)
      .values({ userId, nameEnc: cipher.encrypt('聊天测试'), personIndex: key, sex: 1, birthday: '1990-01-01', relation: '本人', source: 'idCard' })
      .returning({ id: patients.id })
    await database.db.insert(inquiries).values({
      inquiryNo: `I${key}`,
      userId,
      patientId: sick!.id,
      hospitalId: doctor!.hospitalId,
      doctorId: doctor!.id,
      serviceType: 'text',
      descriptionEnc: cipher.encrypt('咳嗽'),
      priceFen: 0,
      status: 'waiting',
      idempotencyKey: key,
      paidAt: new Date(),
    })
    const sig = await p.must<{ userSig: string }>(a, 'GET', '/dld-im/im/user-sig')
    const account = doctorImAccount(doctor!.id)
    const open = (server: ServerProcess, s: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(s)}`)
        ws.once('open', () => resolve(ws))
        ws.once('error', reject)
      })
    const patientSocket = await open(a, sig.userSig)
    const doctorSocket = await open(b, localSig(secret, account, Math.floor(Date.now() / 1000) + 3600))
    /** The next frame of `op` on a socket; fails the test instead of waiting for ever. */
    const next = (ws: WebSocket, op: ChatServerFrame['op']) =>
      new Promise<ChatServerFrame>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${op} frame within 10 s`)), 10_000)
        ws.on('message', (raw) => {
          const f = JSON.parse(String(raw)) as ChatServerFrame
          if (f.op === op) {
            clearTimeout(timer)
            resolve(f)
          }
        })
      })
    try {
      // a connection is admitted once its signature is checked: a reply to its first request says it has been
      const admitted = next(doctorSocket, 'reply')
      doctorSocket.send(JSON.stringify({ op: 'conversations', id: 'c1' }))
      await admitted
      const arrived = next(doctorSocket, 'message')
      const replied = next(patientSocket, 'reply')
      const words = `另一个进程上的医生 ${key}`
      patientSocket.send(JSON.stringify({ op: 'send', id: 'r1', message: { clientId: key, to: account, type: 'text', payload: words } }))
      const reply = await replied
      assert.equal(reply.op === 'reply' && reply.ok, true, JSON.stringify(reply))
      const message = await arrived
      assert.equal(message.op === 'message' && message.message.payload, words)
    } finally {
      patientSocket.close()
      doctorSocket.close()
    }
  })
})

describe('the hospitals each process keeps (domain/hospitalCache.ts)', () => {
  const code = DEMO.both.code
  const LISTENING = `LISTEN "${HOSPITAL_CHANNEL}"`
  const notice = (server: ServerProcess) => phone().must<{ notice: string }>(server, 'GET', `/dld-hospital/common/homePageConfig?hospitalCode=${code}`)
  const both = async (text: string) => (await notice(a)).notice === text && (await notice(b)).notice === text
  const setNotice = async (text: string) => {
    const [h] = await database.db.select().from(hospitals).where(eq(hospitals.code, code))
    await database.db.update(hospitals).set({ homePageConfig: { ...h!.homePageConfig, notice: text } }).where(eq(hospitals.id, h!.id))
  }

  it('a hospital changed by an operator’s SQL shows on A and on B, which had both kept it', async () => {
    const was = (await notice(a)).notice
    assert.equal((await notice(b)).notice, was)
    try {
      await setNotice(`${was} 两个进程都看到`)
      assert.ok(await until(() => both(`${was} 两个进程都看到`)), 'A or B still answers the old notice')
    } finally {
      await setNotice(was)
    }
    assert.ok(await until(() => both(was)))
  })

  it('a registration setting changed by an operator’s SQL shows on A and on B, which had both kept the old one', async () => {
    const holdMinutes = async (server: ServerProcess) =>
      (await phone().must<{ holdMinutes: number }>(server, 'POST', '/dld-palm/api/hospital/register', { hospitalCode: code })).holdMinutes
    const was = await holdMinutes(a)
    assert.equal(await holdMinutes(b), was)
    const [h] = await database.db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, code))
    const mine = and(eq(hospitalConfigs.hospitalId, h!.id), eq(hospitalConfigs.key, CONFIG_HOLD_MINUTES))
    const [before] = await database.db.select().from(hospitalConfigs).where(mine)
    try {
      await database.db
        .insert(hospitalConfigs)
        .values({ hospitalId: h!.id, key: CONFIG_HOLD_MINUTES, value: String(was + 5) })
        .onConflictDoUpdate({ target: [hospitalConfigs.hospitalId, hospitalConfigs.key], set: { value: String(was + 5) } })
      assert.ok(await until(async () => (await holdMinutes(a)) === was + 5 && (await holdMinutes(b)) === was + 5), 'A or B still answers the old hold')
    } finally {
      if (before) await database.db.update(hospitalConfigs).set({ value: before.value }).where(mine)
      else await database.db.delete(hospitalConfigs).where(mine)
    }
    assert.ok(await until(async () => (await holdMinutes(a)) === was && (await holdMinutes(b)) === was))
  })

  it('a change made while A’s listening connection is down still shows on A: what it kept then is not trusted', async () => {
    const was = (await notice(a)).notice
    try {
      const [ended] = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = ${LISTENING}) x`,
        ),
      )
      assert.equal(ended!.n, 2, 'each process listens on its own connection')
      await setNotice(`${was} 断线期间的修改`)
      assert.ok(await until(() => both(`${was} 断线期间的修改`)), 'a process answers what it kept before its connection dropped')
    } finally {
      await setNotice(was)
    }
    // the connections are back (every second until they are) and hear changes again
    const listening = async () =>
      rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = ${LISTENING}`))[0]!.n
    assert.ok(await until(async () => (await listening()) === 2))
    await setNotice(`${was} 重新连上后`)
    try {
      assert.ok(await until(() => both(`${was} 重新连上后`)))
    } finally {
      await setNotice(was)
    }
  })
})

describe('timers every process runs (jobs.ts)', () => {
  it('a round of work under a key runs in one process at a time: the other skips it, then runs the next', async () => {
    const other = await openDatabase({ url: scratch.url, dataDir })
    try {
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let started!: () => void
      const running = new Promise<void>((resolve) => (started = resolve))
      const first = database.unlessRunningElsewhere(SWEEP_LOCK_KEY, async () => {
        started()
        await held
        return 'first'
      })
      await running
      let ranMeanwhile = false
      assert.equal(await other.unlessRunningElsewhere(SWEEP_LOCK_KEY, async () => (ranMeanwhile = true)), null)
      assert.equal(ranMeanwhile, false)
      release()
      assert.equal(await first, 'first')
      assert.equal(await other.unlessRunningElsewhere(SWEEP_LOCK_KEY, async () => 'next'), 'next')
    } finally {
      await other.close()
    }
  })
})
