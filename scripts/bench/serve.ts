// A seeded server for the benchmarks, with one bare route beside the real ones. Prints one JSON line: its port and,
// for the booking benchmark, signed-in bookers and the free places they can take; for the bill benchmark, patients
// with unpaid bills in the sandbox HIS; for the pharmacy benchmark, a shop medicine its pharmacy has plenty of.
//
// BENCH_PLAIN=1: a bare Fastify app with no plugins and only the bare route, the yardstick of the plugins benchmark.
// BENCH_WITHOUT=helmet,compress,...: the server with those parts switched off (app.ts BENCH_PARTS).
// BENCH_FIXTURES=0: no bookers, bills, reports or chat clients (the bare and config routes need none).
//
// With DATABASE_URL it works in a database of its own on that server, created here and dropped on exit, so a
// benchmark never leaves tables behind in a database someone uses.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import Fastify from 'fastify'
import { BENCH_PARTS, buildApp, type BenchPart } from '../../server/src/app'
import { loadConfig } from '../../server/src/config'
import { openDatabase, scratchDatabase, type Db } from '../../server/src/db'
import { FieldCipher } from '../../server/src/crypto'
import { seedIfEmpty, DEMO } from '../../server/src/seed'
import { bindMobile, createSmsCode, resolveToken, signIn } from '../../server/src/domain/auth'
import { bindPatient } from '../../server/src/domain/patient'
import { doctors, drugs, hospitals, inquiries, patients, pharmacyStores, scheduleSlots, schedules, storeStock, users } from '../../server/src/db/schema'
import { localSig } from '../../server/src/plugins/providers/im'
import { idCardCheckChar } from '../../src/utils/idCard'
import { sandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import { hospitalToday } from '../../server/src/domain/register'

const BOOKERS = Number(process.env.BENCH_BOOKERS ?? 100)
const PATIENTS_PER_BOOKER = 5
/** Catalogue items ordered for each bill payer (one bill per place they are dispensed or performed at). */
const BILLS_PER_PAYER = 3

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
    const auth = (await resolveToken(db, session.token))!
    const mobile = `137${String(i).padStart(8, '0')}`
    await bindMobile(db, cipher, auth, { mobile, code: await createSmsCode(db, cipher, mobile, 'bind'), sourceType: 0 })
    const userId = (await resolveToken(db, session.token))!.userId!
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
  const without = new Set((process.env.BENCH_WITHOUT ?? '').split(',').filter(Boolean) as BenchPart[])
  for (const part of without) if (!BENCH_PARTS.includes(part)) throw new Error(`BENCH_WITHOUT: no part ${part} (${BENCH_PARTS.join(', ')})`)
  const dataDir = mkdtempSync(join(tmpdir(), 'h5-bench-'))
  const own = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'h5bench') : null
  // production's code paths on the demo platform, with its sandboxes: DEMO=1, as a training server would run
  const config = loadConfig({ ...process.env, DATABASE_URL: own?.url ?? '', NODE_ENV: 'production', DEMO: '1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
  const database = await openDatabase({ url: config.databaseUrl, dataDir })
  const cipher = new FieldCipher(config.dataKey)
  await seedIfEmpty(database.db, cipher)
  const app = await buildApp(config, database, {}, undefined, { without })
  app.get('/bench/bare', bareAnswer)
  // where the embedded database's one connection spends its time (db/index.ts)
  app.get('/bench/db', async () => database.queueStats?.() ?? null)
  // the chat benchmark reads the server's memory before and after opening its idle connections
  app.get('/bench/memory', async () => {
    ;(globalThis as { gc?: () => void }).gc?.()
    return process.memoryUsage()
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const stop = async () => {
    await app.close()
    await database.close()
    await own?.drop()
    process.exit(0)
  }
  process.once('SIGTERM', () => void stop())
  process.once('SIGINT', () => void stop())
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  if (process.env.BENCH_FIXTURES === '0') return console.log(JSON.stringify({ port, database: database.kind }))
  const accounts = await bookers(database.db, cipher)
  console.log(
    JSON.stringify({
      port,
      database: database.kind,
      bookers: accounts,
      places: await freePlaces(database.db),
      billPayers: await billPayers(database.db, cipher, accounts),
      reportReaders: await reportReaders(database.db, cipher, accounts),
      chat: await chatClients(database.db, cipher, config.secret),
      pharmacy: await pharmacyShelf(database.db),
    }),
  )
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
