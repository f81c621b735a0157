// A seeded server for the benchmarks, with one bare route beside the real ones. Prints one JSON line: its port and,
// for the booking benchmark, signed-in bookers and the free places they can take; for the bill benchmark, patients
// with unpaid bills in the sandbox HIS; for the pharmacy benchmark, a shop medicine its pharmacy has plenty of.
//
// With BENCH_LARGE_SCALE (and DATABASE_URL) it seeds the large hospital of scripts/seed-large.ts at that scale on top of
// the demo seed instead, and prints only its port, the seed's time and signed-in readers of the large seed's accounts.
// BENCH_PLAIN=1: a bare Fastify app with no plugins and only the bare route, the yardstick of the plugins benchmark.
// BENCH_WITHOUT=helmet,compress,...: the server with those parts switched off (app.ts BENCH_PARTS).
// BENCH_LOG_LEVEL: the server's log level, warn by default (info writes the access log, a line a request).
// BENCH_FIXTURES=0: no bookers, bills, reports or chat clients (the bare and config routes need none).
//
// With DATABASE_URL it works in a database of its own on that server, created here and dropped on exit, so a
// benchmark never leaves tables behind in a database someone uses. With BENCH_WORKERS=N (N > 1, DATABASE_URL only) N
// server processes answer on the port, as WORKERS runs them, while this process prepares the data.
import cluster from 'node:cluster'
import { mkdtempSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import Fastify from 'fastify'
import { BENCH_PARTS, buildApp, type BenchPart } from '../../server/src/app'
import { loadConfig, type Config } from '../../server/src/config'
import { openDatabase, rowsOf, scratchDatabase, type Database, type Db } from '../../server/src/db'
import { FieldCipher } from '../../server/src/crypto'
import { seedIfEmpty, DEMO } from '../../server/src/seed'
import { bindMobile, createSmsCode, resolveToken, signIn } from '../../server/src/domain/auth'
import { bindPatient } from '../../server/src/domain/patient'
import { seedLarge } from '../seed-large'
import { doctors, drugs, hospitals, identities, inquiries, patients, pharmacyStores, scheduleSlots, schedules, storeStock, users } from '../../server/src/db/schema'
import { localSig } from '../../server/src/plugins/providers/im'
import { idCardCheckChar } from '../../src/utils/idCard'
import { sandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import { hospitalToday } from '../../server/src/domain/register'

const BOOKERS = Number(process.env.BENCH_BOOKERS ?? 100)
/**
 * The free places of the booking benchmark are this many times the demo seed's (about 1,600): those ran out within
 * 5 s at 300 bookings a second, and the figure then covered only part of the run. A schedule of the seed has 8 to 16
 * slots; with these, 32 to 64, as a clinic's session has.
 */
const PLACES_FACTOR = 4
const PATIENTS_PER_BOOKER = 5
/** Catalogue items ordered for each bill payer (one bill per place they are dispensed or performed at). */
const BILLS_PER_PAYER = 3

/** A port nobody listens on now, for the workers to share. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Valid identity numbers (checksum right) for made-up people born in 1990. */
function idCard(n: number): string {
  const body = `11010119900101${String(n).padStart(3, '0')}`
  return body + idCardCheckChar(body)
}

/** Signed-in users, each with patients bound through the same domain calls the app's requests reach. */
async function bookers(db: Db, cipher: FieldCipher) {
  const out: { token: string; patientIds: number[]; people: { id: number; name: string; idCard: string }[] }[] = []
  let person = 0
  for (let i = 0; i < BOOKERS; i++) {
    const session = await signIn(db, 'wechat', DEMO.both.appId, { subject: `bench-${randomBytes(8).toString('hex')}`, scope: 'snsapi_base' })
    const { auth } = (await resolveToken(db, session.token))!
    const mobile = `137${String(i).padStart(8, '0')}`
    await bindMobile(db, cipher, auth, { mobile, code: await createSmsCode(db, cipher, mobile, 'bind'), sourceType: 0 })
    const userId = (await resolveToken(db, session.token))!.auth.userId!
    const patientIds: number[] = []
    const people: { id: number; name: string; idCard: string }[] = []
    for (let p = 0; p < PATIENTS_PER_BOOKER; p++, person++) {
      // the account holder (本人) has the account's own mobile: their reports need no relative's code
      const patientMobile = p === 0 ? mobile : `136${String(person).padStart(8, '0')}`
      const code = await createSmsCode(db, cipher, patientMobile, 'patient')
      const bound = await bindPatient(db, cipher, sandboxHis(db, cipher), userId, {
        name: `测试${person}`,
        idCard: idCard(person),
        mobile: patientMobile,
        code,
        relation: p === 0 ? '本人' : '其他',
        hospitalCode: DEMO.both.code,
      })
      patientIds.push(bound.id)
      people.push({ id: bound.id, name: `测试${person}`, idCard: idCard(person) })
    }
    out.push({ token: session.token, patientIds, people })
  }
  return out
}

/**
 * For the bill benchmark: each booker's first patient gets BILLS_PER_PAYER unpaid bills in the sandbox HIS (a doctor's
 * orders of today, as the workbench console issues them); answers who pays what.
 */
async function billPayers(db: Db, cipher: FieldCipher, accounts: Awaited<ReturnType<typeof bookers>>) {
  const his = sandboxHis(db, cipher)
  const catalogue = priceCatalogue(DEMO.both.code)
  const today = hospitalToday(new Date())
  const out: { token: string; patientId: number }[] = []
  for (const [i, a] of accounts.entries()) {
    const who = a.people[0]!
    await his.issueOrders({
      hospitalCode: DEMO.both.code,
      patient: { cardNo: null, idCard: who.idCard, name: who.name },
      visitNo: `MZBENCH${String(i).padStart(5, '0')}`,
      visitDate: today,
      deptName: '呼吸内科',
      doctorName: '门诊医生',
      items: Array.from({ length: BILLS_PER_PAYER }, (_, k) => ({ code: catalogue[k * 7]!.code, quantity: 1 })),
    })
    out.push({ token: a.token, patientId: who.id })
  }
  return out
}

/**
 * For the report benchmark: each payer (an account holder, 本人) gets three lab reports released by the sandbox HIS;
 * answers who reads them.
 */
async function reportReaders(db: Db, cipher: FieldCipher, accounts: Awaited<ReturnType<typeof bookers>>) {
  const his = sandboxHis(db, cipher)
  const out: { token: string; patientId: number }[] = []
  for (const [i, a] of accounts.entries()) {
    const who = a.people[0]!
    for (const template of ['cbc', 'cbc', 'cbc']) {
      await his.releaseReport({ hospitalCode: DEMO.both.code, patient: { cardNo: null, idCard: who.idCard, name: who.name }, template, doctorName: '门诊医生', abnormal: i % 2 === 0 })
    }
    out.push({ token: a.token, patientId: who.id })
  }
  return out
}

/**
 * For the pharmacy benchmark: an over-the-counter medicine of the demo hospital's shop, its pharmacy's stock raised so
 * that no order of the run finds it short. Answers the store and the drug.
 */
async function pharmacyShelf(db: Db) {
  const [row] = await db
    .select({ storeId: pharmacyStores.id, drugId: drugs.id })
    .from(drugs)
    .innerJoin(hospitals, eq(hospitals.id, drugs.hospitalId))
    .innerJoin(pharmacyStores, eq(pharmacyStores.hospitalId, hospitals.id))
    .where(and(eq(hospitals.code, DEMO.both.code), eq(drugs.onShelf, true), eq(drugs.rx, false)))
    .orderBy(drugs.id)
    .limit(1)
  await db
    .update(storeStock)
    .set({ quantity: 10_000_000 })
    .where(and(eq(storeStock.storeId, row!.storeId), eq(storeStock.drugId, row!.drugId)))
  return row!
}

/** Every free place of the demo hospital from tomorrow on: [scheduleId, timeRange, group], one entry per slot. */
async function freePlaces(db: Db) {
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
  // PLACES_FACTOR times the seed's slots in each of these schedules, each half hour as many more
  await db.transaction(async (tx) => {
    const later = sql`select s.id from ${schedules} s join ${hospitals} h on h.id = s.hospital_id
      where h.code = ${DEMO.both.code} and not s.stopped and s.visit_date > ${tomorrow}`
    await tx.execute(sql`
      insert into ${scheduleSlots} (schedule_id, seq, time_range)
      select x.schedule_id, x.seq + k.k * s.total_slots, x.time_range
        from ${scheduleSlots} x join ${schedules} s on s.id = x.schedule_id
        cross join generate_series(1, ${PLACES_FACTOR - 1}) as k(k)
       where x.schedule_id in (${later})`)
    await tx.execute(sql`update ${schedules} set total_slots = total_slots * ${PLACES_FACTOR} where id in (${later})`)
  })
  const rows = await db
    .select({ scheduleId: schedules.id, deptId: schedules.deptId, visitDate: schedules.visitDate, segment: schedules.segment, timeRange: scheduleSlots.timeRange })
    .from(scheduleSlots)
    .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
    .innerJoin(hospitals, eq(hospitals.id, schedules.hospitalId))
    .where(and(eq(hospitals.code, DEMO.both.code), eq(schedules.stopped, false), gt(schedules.visitDate, tomorrow), isNull(scheduleSlots.registrationId)))
  // one patient books once per department, day and segment: the booking rule the benchmark must respect
  return rows.map((r) => [r.scheduleId, r.timeRange, `${r.deptId}/${r.visitDate}/${r.segment}`] as const)
}

/**
 * Chat clients: doctors (up to a tenth of them) and patients writing to them, each with a signature of the chat service.
 * A patient writes to a doctor only within a consultation, so each patient is a user with a waiting inquiry (paid) with
 * the doctor they write to: patient i with doctor i mod the number of doctors.
 */
async function chatClients(db: Db, cipher: FieldCipher, secret: string) {
  const total = Number(process.env.BENCH_CHAT_CLIENTS ?? 1000)
  const expire = Math.floor(Date.now() / 1000) + 3600
  const ds = await db
    .select({ id: doctors.id, hospitalId: doctors.hospitalId })
    .from(doctors)
    .orderBy(doctors.id)
    .limit(Math.max(1, Math.floor(total / 10)))
  const sign = (account: string) => ({ account, sig: localSig(secret, account, expire) })
  const count = total - ds.length
  const people = await db
    .insert(users)
    .values(Array.from({ length: count }, (_, i) => ({ mobileEnc: cipher.encrypt(`1380000${String(i).padStart(4, '0')}`), mobileIndex: `bench-chat-${i}` })))
    .returning({ id: users.id })
  const cards = await db
    .insert(patients)
    .values(people.map((u, i) => ({ userId: u.id, nameEnc: cipher.encrypt('压测患者'), personIndex: `bench-chat-${i}`, sex: 1 as const, birthday: '1990-01-01', relation: '本人', source: 'idCard' as const })))
    .returning({ id: patients.id })
  await db.insert(inquiries).values(
    people.map((u, i) => {
      const d = ds[i % ds.length]!
      return {
        inquiryNo: `IBENCH${i}`,
        userId: u.id,
        patientId: cards[i]!.id,
        hospitalId: d.hospitalId,
        doctorId: d.id,
        serviceType: 'text' as const,
        descriptionEnc: cipher.encrypt('压测'),
        priceFen: 0,
        status: 'waiting' as const,
        idempotencyKey: `bench-chat-${i}`,
        paidAt: new Date(),
      }
    }),
  )
  return {
    doctors: ds.map((d) => sign(`d_${d.id}`)),
    patients: people.map((u) => sign(`0_${u.id}`)),
  }
}

const bareAnswer = async () => ({ code: 200, msg: 'success', data: null })

/** BENCH_WITHOUT: the server's parts switched off (app.ts BENCH_PARTS). */
function benchWithout() {
  const without = new Set((process.env.BENCH_WITHOUT ?? '').split(',').filter(Boolean) as BenchPart[])
  for (const part of without) if (!BENCH_PARTS.includes(part)) throw new Error(`BENCH_WITHOUT: no part ${part} (${BENCH_PARTS.join(', ')})`)
  return without
}

/** The app with the benchmark's own routes beside the real ones, listening on `port` (0: any). */
async function serveApp(config: Config, database: Database, port: number, without: Set<BenchPart>) {
  const app = await buildApp(config, database, {}, undefined, { without })
  app.get('/bench/bare', bareAnswer)
  // where the embedded database's one connection spends its time (db/index.ts)
  app.get('/bench/db', async () => database.queueStats?.() ?? null)
  // how late the event loop ran since the last call: while it is late the server reads no request and accepts no
  // connection, and a request waits unseen, out of the reach of the database's admission queue
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  app.get('/bench/loop', async () => {
    const ms = (ns: number) => Math.round(ns / 1e6)
    const delay = { meanMs: ms(loop.mean), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) }
    loop.reset()
    return delay
  })
  app.addHook('onClose', () => loop.disable())
  // the CPU time this process has spent so far (user and system, microseconds)
  app.get('/bench/cpu', async () => process.cpuUsage())
  // the chat benchmark reads the server's memory before and after opening its idle connections
  app.get('/bench/memory', async () => {
    // twice, a turn apart: buffers the first collection let go of are given back in between. After one collection
    // the figure before the connections sometimes still held 450 MB of the setup's buffers (external 668 MB against
    // 216 MB), and the heap per idle connection came out negative (one run in four); after two it is the same each run
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    await new Promise((resolve) => setImmediate(resolve))
    gc?.()
    return process.memoryUsage()
  })
  await app.listen({ host: '127.0.0.1', port })
  return app
}

/** BENCH_WORKERS > 1: each worker of the cluster serves the primary's database on the primary's port. */
async function worker() {
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', DEMO: '1', LOG_LEVEL: 'warn' })
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, ...config.database })
  const app = await serveApp(config, database, config.port, benchWithout())
  process.once('SIGTERM', () => void app.close().then(() => database.close()).then(() => process.exit(0)))
}

/**
 * For the large benchmark: BENCH_READERS (100) accounts of the large seed, picked at random, each signed in with a new
 * identity of its own, with its holder (本人), one registration and one consultation of theirs: accounts with the
 * history a typical account of that seed has.
 */
async function largeReaders(db: Db) {
  const count = Number(process.env.BENCH_READERS ?? 100)
  type Row = { user_id: number; patient_id: number; registration_id: number | null; inquiry_id: number | null }
  const picked = rowsOf<Row>(await db.execute(sql`
    select u.id as user_id,
           (select p.id from patients p where p.user_id = u.id and p.relation = '本人') as patient_id,
           (select r.id from registrations r where r.user_id = u.id order by r.id desc limit 1) as registration_id,
           (select i.id from inquiries i where i.user_id = u.id order by i.id desc limit 1) as inquiry_id
      from users u
     where u.nickname like 'large:%'
     order by md5(u.id::text)
     limit ${count}`))
  const out: { token: string; userId: number; patientId: number; registrationId: number | null; inquiryId: number | null }[] = []
  for (const r of picked) {
    const session = await signIn(db, 'wechat', DEMO.both.appId, { subject: `bench-${randomBytes(8).toString('hex')}`, scope: 'snsapi_base' })
    const { auth } = (await resolveToken(db, session.token))!
    await db.update(identities).set({ userId: r.user_id }).where(eq(identities.id, auth.identityId))
    out.push({ token: session.token, userId: r.user_id, patientId: r.patient_id, registrationId: r.registration_id, inquiryId: r.inquiry_id })
  }
  return out
}

async function plain() {
  const app = Fastify()
  app.get('/bench/bare', bareAnswer)
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))
  const address = app.server.address()
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }))
}

async function main() {
  if (process.env.BENCH_PLAIN === '1') return plain()
  const without = benchWithout()
  const dataDir = mkdtempSync(join(tmpdir(), 'h5-bench-'))
  const own = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'h5bench') : null
  // production's code paths on the demo platform, with its sandboxes: DEMO=1, as a training server would run
  const config = loadConfig({ ...process.env, DATABASE_URL: own?.url ?? '', NODE_ENV: 'production', DEMO: '1', DATA_DIR: dataDir, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' })
  const database = await openDatabase({ url: config.databaseUrl, dataDir, ...config.database })
  const cipher = new FieldCipher(config.dataKey)
  await seedIfEmpty(database.db, cipher)
  const largeScale = process.env.BENCH_LARGE_SCALE ? Number(process.env.BENCH_LARGE_SCALE) : null
  if (largeScale !== null && !own) throw new Error('BENCH_LARGE_SCALE needs DATABASE_URL: the large seed is for PostgreSQL')
  const seedSeconds = largeScale !== null ? await seedLarge(own!.url, cipher, { scale: largeScale }) : null
  const workers = Number(process.env.BENCH_WORKERS ?? 1)
  let port: number
  let close: () => Promise<unknown>
  if (workers > 1) {
    if (!own) throw new Error('BENCH_WORKERS > 1 needs DATABASE_URL: PGlite opens in one process only')
    // as WORKERS does (server/src/server.ts): the workers share one port through node:cluster, and the keys through DATA_DIR
    port = await freePort()
    const env = { DATABASE_URL: own.url, DATA_DIR: dataDir, PORT: String(port) }
    const forked = Array.from({ length: workers }, () => cluster.fork(env))
    await Promise.all(forked.map((w) => new Promise((resolve, reject) => w.once('listening', resolve).once('exit', reject))))
    close = () => Promise.all(forked.map((w) => new Promise((resolve) => w.once('exit', resolve).process.kill('SIGTERM'))))
  } else {
    const app = await serveApp(config, database, 0, without)
    const address = app.server.address()
    port = typeof address === 'object' && address ? address.port : 0
    close = () => app.close()
  }
  const stop = async () => {
    await close()
    await database.close()
    await own?.drop()
    process.exit(0)
  }
  process.once('SIGTERM', () => void stop())
  process.once('SIGINT', () => void stop())
  if (largeScale !== null) {
    console.log(JSON.stringify({ port, database: database.kind, seedSeconds, readers: await largeReaders(database.db) }))
    return
  }
  if (process.env.BENCH_FIXTURES === '0') return console.log(JSON.stringify({ port, database: database.kind }))
  const accounts = await bookers(database.db, cipher)
  console.log(
    JSON.stringify({
      port,
      database: database.kind,
      workers,
      bookers: accounts,
      places: await freePlaces(database.db),
      billPayers: await billPayers(database.db, cipher, accounts),
      reportReaders: await reportReaders(database.db, cipher, accounts),
      chat: await chatClients(database.db, cipher, config.secret),
      pharmacy: await pharmacyShelf(database.db),
    }),
  )
}

(cluster.isPrimary ? main() : worker()).catch((err) => {
  console.error(err)
  process.exit(1)
})
