import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, gt, inArray, isNull } from 'drizzle-orm'
import { FieldCipher } from '../../server/src/crypto'
import { openDatabase, rowsOf, scratchDatabase, type Database } from '../../server/src/db'
import { hospitals, orders, paymentNotifications, registrations, scheduleSlots, schedules } from '../../server/src/db/schema'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { DEMO, seedIfEmpty } from '../../server/src/seed'
import { encodeBase64 } from '../../src/utils/base64'
import { idCardCheckChar } from '../../src/utils/idCard'
import { freePort, startServerProcess, type ServerProcess } from './serverProcess'

/**
 * A crash on PostgreSQL: the real server process, under a bounded load of patients signing in, adding a patient,
 * booking registration places and paying them in the sandbox cashier, is killed with SIGKILL and started again on
 * the same database and data folder (twice, with new patients each time). Whatever it answered with success before
 * dying must still be there.
 *
 * The kill lands right after the cashier has answered a 确认支付 (the money is taken; the payment notification is on
 * its way inside the server), while the other patients' requests are in flight: the moment a provider that keeps
 * its trades or its owed notifications only in memory would lose a payment.
 */

/** Rounds of load, each ended by a kill and followed by a restart: each kill is another chance to lose something. */
const ROUNDS = 2
/** Patients per round (each round brings new ones). */
const PATIENTS = 20
/** Each patient books at most this many places (and pays each), so the load is bounded in count as well as time. */
const BOOKINGS_PER_PATIENT = 40
/** The kill lands right after the cashier answers this many confirmations (the load is counted, not timed)... */
const KILL_AFTER_CONFIRMED = 40
/** ...or when the round has run this long, whatever it did (a machine too busy fails the test's minimum of work). */
const LOAD_MAX_MS = 20_000
const REQUEST_TIMEOUT_MS = 5_000
const START_TIMEOUT_MS = 30_000
/** How long the restarted server has to settle the payments confirmed before the kill (the patient asks meanwhile). */
const SETTLE_MS = 5_000
/** The places booked: the first free time ranges of the demo hospital, few enough that patients compete for them. */
const PLACES = 120

const RETURN_URL = '/h5/pages/order/register/detail?source=register'
const SLOTS_FULL = '该时段号源已约满，请选择其他时段'
const ONE_PER_SEGMENT = '该就诊人在同一科室同一时段已有预约'
const SURNAMES = ['赵', '钱', '孙', '李', '周', '吴', '郑', '王', '冯', '陈']

interface Place {
  scheduleId: number
  timeRange: string
  /** One live booking per patient, department, day and segment. */
  group: string
}

interface Booked {
  registrationId: number
  regNo: string
  userId: number
  orderNo: string | null
  token: string
}

/** Everything the load saw: answers counted as they came back, successes recorded with what they named. */
interface Load {
  killed: boolean
  answered: number
  /** Requests that got no answer: cut by the kill. */
  unanswered: number
  bookings: Booked[]
  /** Payments the cashier answered 确认支付 for with success (303 back to the app). */
  confirmed: Booked[]
  refusals: Map<string, number>
  /** Answers no patient should ever get (a 5xx, a setup step refused): each fails the test. */
  unexpected: string[]
}

class Stopped extends Error {}

type Answer = { status: number; headers: Headers; text: string }

/** One phone: its own client address (the server trusts 127.0.0.1 as its proxy) and, once signed in, its token. */
function phone(server: () => ServerProcess, load: Load, index: number) {
  const address = `10.77.${Math.floor(index / 200)}.${(index % 200) + 1}`
  let token = ''
  const send = async (method: 'GET' | 'POST', path: string, body?: { json?: unknown; form?: Record<string, string> }): Promise<Answer> => {
    if (load.killed) throw new Stopped()
    const headers: Record<string, string> = { 'x-forwarded-for': address }
    if (token) headers.authorization = `Bearer ${token}`
    if (body?.json !== undefined) headers['content-type'] = 'application/json'
    if (body?.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    let res: Response
    let text: string
    try {
      res = await fetch(`${server().origin}${path}`, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        ...(body?.json !== undefined ? { body: JSON.stringify(body.json) } : body?.form ? { body: new URLSearchParams(body.form).toString() } : {}),
      })
      text = await res.text()
    } catch (err) {
      load.unanswered += 1
      if (load.killed) throw new Stopped()
      throw err
    }
    load.answered += 1
    if (res.status >= 500) load.unexpected.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`)
    return { status: res.status, headers: res.headers, text }
  }
  const call = async <T>(method: 'GET' | 'POST', path: string, json?: unknown) => {
    const answer = await send(method, path, json === undefined ? undefined : { json })
    return JSON.parse(answer.text) as { code: number; msg: string; data: T }
  }
  /** A call that must succeed: anything else is a broken journey, not load. */
  const must = async <T>(method: 'GET' | 'POST', path: string, json?: unknown) => {
    const env = await call<T>(method, path, json)
    if (env.code !== 200) {
      load.unexpected.push(`patient ${index}: ${method} ${path} answered ${env.code} ${env.msg}`)
      throw new Stopped()
    }
    return env.data
  }
  return {
    send,
    call,
    must,
    get token() {
      return token
    },
    set token(value: string) {
      token = value
    },
  }
}

/** A made-up adult (not 65, so every 普通号 is paid): a valid identity number and two mobiles of its own. */
function person(index: number, run: string) {
  const birth = `19${80 + (index % 15)}0${1 + (index % 9)}1${index % 9}`
  const first17 = `330102${birth}${String(index).padStart(3, '0')}`
  return {
    name: `${SURNAMES[index % SURNAMES.length]}测试`,
    idCard: first17 + idCardCheckChar(first17),
    mobile: `135${run}${String(index).padStart(4, '0')}`,
    patientMobile: `136${run}${String(index).padStart(4, '0')}`,
  }
}

/** One patient's visit: signs in through the sandbox, binds a mobile, adds a patient, then books and pays places. */
async function journey(server: () => ServerProcess, load: Load, places: Place[], index: number, run: string, maybeKill: () => void) {
  const p = phone(server, load, index)
  const who = person(index, run)
  const authorize = await p.send(
    'GET',
    `/sandbox/wechat/authorize?${new URLSearchParams({ appid: DEMO.both.appId, redirect_uri: '/h5/pages/login/login', scope: 'snsapi_base', state: 's1' })}`,
  )
  const code = new URL(authorize.headers.get('location') ?? 'http://x/', 'http://x').searchParams.get('code')
  if (!code) {
    load.unexpected.push(`patient ${index}: the sandbox authorisation answered ${authorize.status} without a code`)
    throw new Stopped()
  }
  const session = await p.must<{ token: string }>('POST', '/dld-auth/token/wxH5', { code, appId: DEMO.both.appId })
  p.token = session.token
  const bindCode = await p.must<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { mobile: who.mobile })
  const user = await p.must<{ userId: number }>('POST', '/dld-hospital/bind', { mobile: who.mobile, code: bindCode.devCode, sourceType: 8 })
  const patientCode = await p.must<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { mobile: who.patientMobile, purpose: 'patient' })
  const patient = await p.must<{ id: number }>('POST', '/dld-palm/api/patient/bind', {
    name: who.name,
    idCard: encodeBase64(who.idCard),
    mobile: who.patientMobile,
    code: patientCode.devCode,
    relation: '本人',
    hospitalCode: DEMO.both.code,
  })

  const groupsHeld = new Set<string>()
  // every patient walks the same places from its own starting point: neighbours compete for the same time ranges
  let next = (index * 3) % places.length
  for (let made = 0, tried = 0; made < BOOKINGS_PER_PATIENT && tried < places.length && !load.killed; tried++) {
    const place = places[next]!
    next = (next + 1) % places.length
    if (groupsHeld.has(place.group)) continue
    const booking = await p.call<{ id: number; regNo: string; status: string; order: { orderNo: string } | null }>('POST', '/dld-palm/api/register', {
      scheduleId: place.scheduleId,
      patientId: patient.id,
      timeRange: place.timeRange,
      idempotencyKey: `crash-${index}-${tried}-${randomBytes(4).toString('hex')}`,
    })
    if (booking.code !== 200) {
      load.refusals.set(booking.msg, (load.refusals.get(booking.msg) ?? 0) + 1)
      if (booking.msg !== SLOTS_FULL && booking.msg !== ONE_PER_SEGMENT) load.unexpected.push(`patient ${index}: booking answered ${booking.code} ${booking.msg}`)
      continue
    }
    made += 1
    groupsHeld.add(place.group)
    const booked: Booked = {
      registrationId: booking.data.id,
      regNo: booking.data.regNo,
      userId: user.userId,
      orderNo: booking.data.order?.orderNo ?? null,
      token: p.token,
    }
    load.bookings.push(booked)
    if (!booked.orderNo) continue
    const action = await p.must<{ kind: string; url: string }>('POST', '/dld-palm/api/register/pay', { id: booked.registrationId, returnUrl: RETURN_URL })
    const q = new URL(action.url, 'http://x').searchParams
    const cashier = await p.send('POST', '/sandbox/pay/cashier', {
      form: { orderNo: q.get('orderNo')!, returnUrl: q.get('returnUrl')!, sign: q.get('sign')!, action: 'confirm' },
    })
    if (cashier.status !== 303) {
      load.unexpected.push(`patient ${index}: the cashier answered ${cashier.status} for ${booked.orderNo}`)
      continue
    }
    load.confirmed.push(booked)
    maybeKill()
    // back in the app, as the cashier's redirect leads: the registration is asked about
    await p.must('POST', `/dld-palm/api/confirm/${booked.registrationId}`)
  }
}

/** The first `PLACES` free time ranges of the demo hospital from the day after tomorrow (booking is open for them). */
async function freePlaces(database: Database): Promise<Place[]> {
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
  const rows = await database.db
    .selectDistinct({ scheduleId: schedules.id, timeRange: scheduleSlots.timeRange, deptId: schedules.deptId, visitDate: schedules.visitDate, segment: schedules.segment })
    .from(scheduleSlots)
    .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
    .innerJoin(hospitals, eq(hospitals.id, schedules.hospitalId))
    .where(and(eq(hospitals.code, DEMO.both.code), eq(schedules.stopped, false), gt(schedules.visitDate, tomorrow), isNull(scheduleSlots.registrationId)))
    .orderBy(schedules.visitDate, schedules.id, scheduleSlots.timeRange)
    .limit(PLACES)
  return rows.map((r) => ({ scheduleId: r.scheduleId, timeRange: r.timeRange, group: `${r.deptId}/${r.visitDate}/${r.segment}` }))
}

interface Round {
  load: Load
  answeredBeforeKill: number
  killedBy: 'confirmations' | 'time' | 'the end of the load'
  /** Journeys that failed for another reason than the kill. */
  broken: string[]
}

/** New patients load the server until the cashier has answered enough confirmations, and it is killed at once. */
async function crashRound(server: ServerProcess, places: Place[], round: number, run: string): Promise<Round> {
  const load: Load = { killed: false, answered: 0, unanswered: 0, bookings: [], confirmed: [], refusals: new Map(), unexpected: [] }
  let answeredBeforeKill = 0
  let killedBy: Round['killedBy'] = 'the end of the load'
  const kill = (by: Round['killedBy']) => {
    if (load.killed) return
    load.killed = true
    killedBy = by
    answeredBeforeKill = load.answered
    server.child.kill('SIGKILL')
  }
  const timeUp = setTimeout(() => kill('time'), LOAD_MAX_MS)
  const journeys = await Promise.allSettled(
    Array.from({ length: PATIENTS }, (_, i) =>
      journey(() => server, load, places, round * PATIENTS + i, run, () => load.confirmed.length >= KILL_AFTER_CONFIRMED && kill('confirmations')),
    ),
  )
  clearTimeout(timeUp)
  kill('the end of the load') // every journey ended before the kill: the server dies all the same, and the test fails
  await server.kill('SIGKILL')
  const broken = journeys.flatMap((j) => (j.status === 'rejected' && !(j.reason instanceof Stopped) ? [String(j.reason)] : []))
  return { load, answeredBeforeKill, killedBy, broken }
}

if (process.env.TEST_DATABASE_URL) {
  describe('a crash under booking and payment load (PostgreSQL)', () => {
    const serverUrl = process.env.TEST_DATABASE_URL!
    let scratch: { url: string; drop(): Promise<void> }
    let database: Database
    let dataDir: string
    let server: ServerProcess | null = null
    let env: Record<string, string>
    let port: number

    before(async () => {
      scratch = await scratchDatabase(serverUrl, 'h5crash')
      dataDir = mkdtempSync(join(tmpdir(), 'hospital-h5-crash-'))
      const dataKey = randomBytes(32).toString('base64')
      database = await openDatabase({ url: scratch.url, dataDir })
      await seedIfEmpty(database.db, new FieldCipher(dataKey))
      // the same keys for both lives of the server: the second reads what the first encrypted and signed
      env = {
        NODE_ENV: 'test',
        DATABASE_URL: scratch.url,
        DATA_DIR: dataDir,
        APP_SECRET: randomBytes(32).toString('base64'),
        DATA_KEY: dataKey,
        LOG_LEVEL: 'error',
        // each phone is a client address of its own behind the hospital's proxy (the per-address limits count it)
        TRUST_PROXY: '127.0.0.1',
        // the sandbox cashier and sign-in, whatever the surrounding environment configures
        PAY_SANDBOX: '1',
        WECHAT_PAY: '',
        ALIPAY_PAY: '',
        WECHAT_APPS: '',
        ALIPAY: '',
        // the sweep a hospital's server runs (off by default under NODE_ENV=test)
        ORDER_SWEEP_SECONDS: '2',
      }
      port = await freePort()
    })

    after(async () => {
      await server?.kill('SIGKILL')
      await database?.close()
      await scratch?.drop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('keeps every booking and payment answered before SIGKILL, takes no place twice, and every balance equals its ledger', async () => {
      const places = await freePlaces(database)
      assert.ok(places.length >= 20, `free places to book: ${places.length}`)
      const start = () => startServerProcess({ env, port, probe: `/dld-palm/api/department/${DEMO.both.code}`, timeoutMs: START_TIMEOUT_MS })
      const run = String(Date.now() % 10_000).padStart(4, '0')
      const rounds: Round[] = []
      for (let round = 0; round < ROUNDS; round++) {
        server = await start()
        rounds.push(await crashRound(server, places, round, run))
      }
      const bookings = rounds.flatMap((r) => r.load.bookings)
      const confirmed = rounds.flatMap((r) => r.load.confirmed)

      // ---- the last life, on the same database and data folder ----
      server = await start()
      const last = server
      const orderNos = confirmed.map((b) => b.orderNo!)
      const orderStatus = async () =>
        new Map(
          (orderNos.length ? await database.db.select({ orderNo: orders.orderNo, status: orders.status }).from(orders).where(inArray(orders.orderNo, orderNos)) : []).map((o) => [
            o.orderNo,
            o.status,
          ]),
        )
      // the patients come back to their orders (the app asks on return) while the server settles what it owes
      const deadline = Date.now() + SETTLE_MS
      for (let statuses = await orderStatus(); Date.now() < deadline; statuses = await orderStatus()) {
        const unpaid = confirmed.filter((b) => statuses.get(b.orderNo!) !== 'paid')
        if (!unpaid.length) break
        await Promise.all(
          unpaid.map((b) =>
            fetch(`${last.origin}/dld-palm/api/confirm/${b.registrationId}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': '10.78.0.1' },
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            })
              .then((r) => r.text())
              .catch(() => ''),
          ),
        )
        await new Promise((resolve) => setTimeout(resolve, 250))
      }

      // ---- what is there now ----
      const db = database.db
      const ids = bookings.map((b) => b.registrationId)
      const found = new Map((ids.length ? await db.select().from(registrations).where(inArray(registrations.id, ids)) : []).map((r) => [r.id, r]))
      const lostBookings = bookings.filter((b) => {
        const r = found.get(b.registrationId)
        return !r || r.regNo !== b.regNo || r.userId !== b.userId || !['holding', 'booked'].includes(r.status)
      })
      const statuses = await orderStatus()
      const lostPayments = confirmed.filter((b) => statuses.get(b.orderNo!) !== 'paid' || found.get(b.registrationId)?.status !== 'booked')
      const notified = new Set(
        (lostPayments.length
          ? await db.select({ orderNo: paymentNotifications.orderNo }).from(paymentNotifications).where(inArray(paymentNotifications.orderNo, lostPayments.map((b) => b.orderNo!)))
          : []
        ).map((n) => n.orderNo),
      )
      const describeLost = (b: Booked) =>
        `${b.orderNo} (registration ${b.registrationId}: ${found.get(b.registrationId)?.status ?? 'missing'}; order: ${statuses.get(b.orderNo!) ?? 'missing'}; ` +
        `payment notification ${notified.has(b.orderNo!) ? 'received' : 'never received'})`

      console.log(
        [
          ...rounds.map(
            (r, i) =>
              `crash ${i + 1}: ${r.answeredBeforeKill} requests answered before the kill (by ${r.killedBy}), ${r.load.unanswered} in flight and never answered; ` +
              `${r.load.bookings.length} bookings and ${r.load.confirmed.length} payments answered with success; refusals ${JSON.stringify(Object.fromEntries(r.load.refusals))}`,
          ),
          `after ${ROUNDS} kills and restarts (${ROUNDS * PATIENTS} patients):`,
          `  bookings answered with success: ${bookings.length}; found after restart: ${bookings.length - lostBookings.length}; lost: ${lostBookings.length}`,
          `  payments confirmed at the cashier: ${confirmed.length}; paid after restart: ${confirmed.length - lostPayments.length}; lost: ${lostPayments.length}`,
          ...lostBookings.map((b) => `  lost booking: registration ${b.registrationId} ${b.regNo} (${found.get(b.registrationId)?.status ?? 'missing'})`),
          ...lostPayments.map((b) => `  lost payment: ${describeLost(b)}`),
        ].join('\n'),
      )

      for (const [i, r] of rounds.entries()) {
        assert.deepEqual(r.broken, [], `round ${i + 1}: journeys that failed for another reason than the kill`)
        assert.deepEqual(r.load.unexpected, [], `round ${i + 1}: answers no patient should get`)
        const why = `round ${i + 1}: the kill came by ${r.killedBy} after ${r.load.confirmed.length} of ${KILL_AFTER_CONFIRMED} confirmations, not in the middle of the load`
        assert.equal(r.killedBy, 'confirmations', why)
      }
      assert.deepEqual(
        lostBookings.map((b) => b.regNo),
        [],
        'bookings answered with success before the kill and missing (or no longer live) after the restart',
      )
      assert.deepEqual(lostPayments.map(describeLost), [], 'payments confirmed at the cashier before the kill and not paid after the restart')

      // ---- no place taken twice ----
      const twice = rowsOf<{ slot_id: number; n: number }>(
        await db.execute(`select slot_id, count(*)::int as n from registrations where status in ('holding', 'booked') group by slot_id having count(*) > 1`),
      )
      assert.deepEqual(twice, [], 'places held by two live bookings')
      const astray = rowsOf<{ id: number; status: string; slot_holder: number | null }>(
        await db.execute(`
          select r.id, r.status, s.registration_id as slot_holder from registrations r join schedule_slots s on s.id = r.slot_id
          where r.status in ('holding', 'booked') and s.registration_id is distinct from r.id`),
      )
      assert.deepEqual(astray, [], 'live bookings whose place names another booking (or none)')
      const orphaned = rowsOf<{ id: number; registration_id: number; status: string | null }>(
        await db.execute(`
          select s.id, s.registration_id, r.status from schedule_slots s left join registrations r on r.id = s.registration_id
          where s.registration_id is not null and (r.id is null or r.status not in ('holding', 'booked'))`),
      )
      assert.deepEqual(orphaned, [], 'places taken by no live booking')

      // ---- a booking and its order agree: paid is booked, unpaid is held ----
      const disagreeing = rowsOf<{ id: number; status: string; order_status: string }>(
        await db.execute(`
          select r.id, r.status, o.status as order_status from registrations r join orders o on o.id = r.order_id
          where (r.status = 'booked' and o.status not in ('paid', 'refunding'))
             or (r.status = 'holding' and o.status not in ('created', 'paying'))
             or (o.status = 'paid' and r.status <> 'booked')`),
      )
      assert.deepEqual(disagreeing, [], 'bookings whose order says otherwise')

      // ---- every balance equals its ledger ----
      assert.equal(await ledgerImbalance(db), 0, 'all ledger rows sum to zero')
      const ledger = rowsOf<{ account: string; balance: string }>(
        await db.execute(`select account, sum(amount_fen)::text as balance from ledger_entries group by account`),
      )
      // what each account holds according to the orders: money taken for orders paid and not (yet) refunded
      const held = rowsOf<{ account: string; balance: string }>(
        await db.execute(`
          select account, sum(fen)::text as balance from (
            select 'channel:' || o.channel as account, o.amount_fen - o.insurance_fen as fen from orders o where o.status in ('paid', 'refunding')
            union all select 'insurance', o.insurance_fen from orders o where o.status in ('paid', 'refunding')
            union all select 'hospital:' || h.code, -o.amount_fen from orders o join hospitals h on h.id = o.hospital_id where o.status in ('paid', 'refunding')
          ) held group by account`),
      )
      const balances = (rows: { account: string; balance: string }[]) =>
        Object.fromEntries(rows.filter((r) => Number(r.balance) !== 0).map((r) => [r.account, Number(r.balance)]).sort(([a], [b]) => String(a).localeCompare(String(b))))
      assert.deepEqual(balances(ledger), balances(held), 'account balances from the ledger against the orders they hold money for')
      const unbalancedOrders = rowsOf<{ order_id: number; rows: number; total: string }>(
        await db.execute(`
          select l.order_id, count(*)::int as rows, sum(l.amount_fen)::text as total from ledger_entries l join orders o on o.id = l.order_id
          group by l.order_id, o.status having sum(l.amount_fen) <> 0 or (o.status in ('paid', 'refunding') and count(*) filter (where l.refund_id is null) not in (2, 3))`),
      )
      assert.deepEqual(unbalancedOrders, [], 'orders whose ledger rows do not balance, or paid orders credited other than once')
      assert.ok(held.length > 0, 'money was taken before the kill')
    })
  })
}
