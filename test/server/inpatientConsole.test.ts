import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes, randomInt } from 'node:crypto'
import { and, asc, count, eq, isNull } from 'drizzle-orm'
import { hisAdmissions, hisDailyCharges, registrations, scheduleSlots, schedules } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { ALREADY_IN } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue, seedHis } from '../../server/src/seed/his'
import type { DailyCharges, InpatientView, RechargeStart } from '../../types/api/palm'
import type { HisAdmitResult, HisConsoleAdmission, StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, hospitalIdOf, newKey } from './fixtures'

const A = '/dld-palm/api'
const P = '/dld-doctor/api'
const H = '10392'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }
interface Person {
  user: User
  patientId: number
  name: string
}

let t: TestApp
let desk: Caller
let farDesk: Caller

const catalogue = priceCatalogue(H)
const item = (name: string, spec = '') => {
  const found = catalogue.find((c) => c.name === name && (!spec || c.spec === spec))
  if (!found) throw new Error(`no catalogue item ${name} ${spec}`)
  return found
}
const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
const countOf = async (table: typeof hisAdmissions | typeof hisDailyCharges) => (await db().select({ n: count() }).from(table))[0]!.n

async function signInDesk(login: string): Promise<Caller> {
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: DEMO_STAFF_PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

async function newPerson(name: string): Promise<Person> {
  const user = await signInUser(t.app)
  const birth = `19${60 + randomInt(40)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  const idCard = idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { user, patientId, name }
}

/** A booking of the person at 10392 tomorrow, written directly (booking has its own tests). */
async function booked(p: Person): Promise<number> {
  const hospitalId = await hospitalIdOf(t, H)
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
  const [free] = await db()
    .select({ slot: scheduleSlots, schedule: schedules })
    .from(scheduleSlots)
    .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
    .where(and(eq(schedules.hospitalId, hospitalId), eq(schedules.visitDate, tomorrow), isNull(scheduleSlots.registrationId), eq(schedules.stopped, false)))
    .orderBy(asc(scheduleSlots.id))
    .limit(1)
  const { slot, schedule } = free!
  const [reg] = await db()
    .insert(registrations)
    .values({
      regNo: `GHTEST${randomBytes(6).toString('hex')}`,
      userId: p.user.userId,
      patientId: p.patientId,
      hospitalId,
      deptId: schedule.deptId,
      doctorId: schedule.doctorId,
      scheduleId: schedule.id,
      slotId: slot.id,
      registerType: schedule.registerType,
      visitDate: schedule.visitDate,
      segment: schedule.segment,
      seq: slot.seq,
      timeRange: slot.timeRange,
      feeFen: schedule.feeFen,
      status: 'booked',
      idempotencyKey: newKey('reg'),
    })
    .returning()
  await db().update(scheduleSlots).set({ registrationId: reg!.id }).where(eq(scheduleSlots.id, slot.id))
  return reg!.id
}

const admit = (caller: Caller | undefined, body: unknown) => call<HisAdmitResult>('POST', `${P}/his/admissions`, { caller, body })
const charge = (caller: Caller | undefined, admissionNo: string, body: unknown) => call<HisConsoleAdmission>('POST', `${P}/his/admissions/${admissionNo}/charges`, { caller, body })
const discharge = (caller: Caller | undefined, admissionNo: string) => call<HisConsoleAdmission>('POST', `${P}/his/admissions/${admissionNo}/discharge`, { caller })
const stayOf = (p: Person) => call<InpatientView | null>('POST', `${A}/recharge/inpatient`, { caller: p.user, body: { hospitalCode: H, patientId: p.patientId } })

/** A person booked at 10392 and admitted through the console. */
async function admitted(name: string, bed = '8床'): Promise<{ person: Person; stay: HisAdmitResult }> {
  const person = await newPerson(name)
  const env = await admit(desk, { registrationId: await booked(person), ward: '心内科一病区', bed })
  assert.equal(env.code, 200, env.msg)
  return { person, stay: env.data }
}

before(async () => {
  t = await startTestApp()
  desk = await signInDesk('10392001')
  farDesk = await signInDesk('10412001')
})
after(() => t.close())

describe('the sandbox HIS inpatient console (/dld-doctor/api/his/admissions)', () => {
  it('answers 401 without a workbench token (a patient’s token is no workbench token)', async () => {
    const patient = await signInUser(t.app)
    for (const [method, path, body] of [
      ['GET', '/his/admissions', undefined],
      ['POST', '/his/admissions', { registrationId: 1, ward: '一病区', bed: '1床' }],
      ['POST', '/his/admissions/ZY2026010100000001/charges', { date: today(), items: [{ code: item('尿常规').code, quantity: 1 }] }],
      ['POST', '/his/admissions/ZY2026010100000001/discharge', undefined],
    ] as const) {
      assert.equal((await call(method, `${P}${path}`, { body })).code, 401, path)
      assert.equal((await call(method, `${P}${path}`, { caller: patient, body })).code, 401, path)
    }
  })

  it('refuses bad input with a clear reason, and changes nothing', async () => {
    const { person, stay } = await admitted('吴海燕')
    const registrationId = await booked(await newPerson('郑大伟'))
    const stays = await countOf(hisAdmissions)
    const charges = await countOf(hisDailyCharges)
    assertBadInput(await admit(desk, { registrationId, ward: '', bed: '1床' }), /请填写病区/)
    assertBadInput(await admit(desk, { registrationId, ward: '一病区', bed: '1'.repeat(17) }), /床号不能超过16个字/)
    assertBadInput(await admit(desk, { registrationId: 'abc', ward: '一病区', bed: '1床' }))
    // the same patient again while in hospital
    const [reg] = await db().select().from(registrations).where(eq(registrations.patientId, person.patientId))
    assertBadInput(await admit(desk, { registrationId: reg!.id, ward: '心内科二病区', bed: '3床' }), ALREADY_IN)
    const line = { code: item('血常规（五分类）').code, quantity: 1 }
    assertBadInput(await charge(desk, stay.admissionNo, { date: today(), items: [] }), /请选择收费项目/)
    assertBadInput(await charge(desk, stay.admissionNo, { date: today(), items: [{ ...line, quantity: 0 }] }), /数量至少为1/)
    assertBadInput(await charge(desk, stay.admissionNo, { date: today(), items: [{ code: 'XX9999', quantity: 1 }] }), '收费项目不存在：XX9999')
    assertBadInput(await charge(desk, stay.admissionNo, { date: '2026/01/01', items: [line] }), /日期应为YYYY-MM-DD/)
    assertBadInput(await charge(desk, stay.admissionNo, { date: '2026-02-30', items: [line] }), /日期不正确/)
    assertBadInput(await charge(desk, stay.admissionNo, { date: '2000-01-01', items: [line] }), '记账日期应在入院日期与今天之间')
    assertBadInput(await charge(desk, 'ZY<1>', { date: today(), items: [line] }), /住院号不正确/)
    assert.equal(await countOf(hisAdmissions), stays)
    assert.equal(await countOf(hisDailyCharges), charges)
    assert.equal((await stayOf(person)).data!.costFen, 0)
  })

  it('answers 2999 for another hospital’s booking or stay, and lists none of them', async () => {
    const { person, stay } = await admitted('冯晓东')
    const registrationId = await booked(await newPerson('褚文静'))
    const stays = await countOf(hisAdmissions)
    assertForbidden(await admit(farDesk, { registrationId, ward: '一病区', bed: '1床' }))
    assertForbidden(await charge(farDesk, stay.admissionNo, { date: today(), items: [{ code: item('尿常规').code, quantity: 1 }] }))
    assertForbidden(await discharge(farDesk, stay.admissionNo))
    assertForbidden(await discharge(desk, 'ZY2000010100000000'))
    const theirs = await call<HisConsoleAdmission[]>('GET', `${P}/his/admissions`, { caller: farDesk })
    assert.equal(theirs.code, 200, theirs.msg)
    assert.ok(theirs.data.every((a) => a.admissionNo !== stay.admissionNo))
    assert.equal(await countOf(hisAdmissions), stays)
    const seen = (await stayOf(person)).data!
    assert.equal(seen.status, 'in')
    assert.equal(seen.costFen, 0)
  })

  it('admits, charges and discharges with the deposit returned: the patient’s pages show each step', async () => {
    const { person, stay } = await admitted('卫志明', '15床')
    assert.equal(stay.patientId, person.patientId)
    assert.equal(stay.patientName, '卫*明')
    assert.equal(stay.status, 'in')
    assert.equal(stay.doctorName, '姚秀英')
    const listed = await call<HisConsoleAdmission[]>('GET', `${P}/his/admissions`, { caller: desk })
    assert.deepEqual(
      listed.data.filter((a) => a.admissionNo === stay.admissionNo).map((a) => [a.patientName, a.ward, a.bed, a.status]),
      [['卫*明', '心内科一病区', '15床', 'in']],
    )
    const before = (await stayOf(person)).data!
    assert.deepEqual([before.admissionNo, before.ward, before.bed, before.costFen, before.balanceFen], [stay.admissionNo, '心内科一病区', '15床', 0, 0])

    const drip = item('0.9%氯化钠注射液', '250ml')
    const lab = item('血常规（五分类）')
    const posted = await charge(desk, stay.admissionNo, { date: today(), items: [{ code: drip.code, quantity: 2 }, { code: lab.code, quantity: 1 }] })
    assert.equal(posted.code, 200, posted.msg)
    const dayFen = 2 * drip.priceFen + lab.priceFen
    assert.equal(posted.data.costFen, dayFen)
    assert.deepEqual(posted.data.days, [{ date: today(), amountFen: dayFen }])
    const seen = (await stayOf(person)).data!
    assert.equal(seen.costFen, dayFen)
    assert.equal(seen.balanceFen, -dayFen)
    assert.equal(seen.lowDeposit, true)
    const daily = await call<DailyCharges>('POST', `${A}/recharge/daily`, { caller: person.user, body: { hospitalCode: H, patientId: person.patientId, admissionNo: stay.admissionNo, date: today() } })
    assert.equal(daily.code, 200, daily.msg)
    assert.equal(daily.data.totalFen, dayFen)
    assert.deepEqual(daily.data.items.map((i) => [i.code, i.quantity]).sort(), [[drip.code, 2], [lab.code, 1]].sort())

    // the patient pays a deposit through the app; the console sees it
    const start = await call<RechargeStart>('POST', `${A}/recharge`, {
      caller: person.user,
      body: { hospitalCode: H, patientId: person.patientId, admissionNo: stay.admissionNo, amountFen: 200000, returnUrl: '/h5/palm/hospitalization/index', idempotencyKey: newKey('dep') },
    })
    assert.equal(start.code, 200, start.msg)
    assert.equal((await confirmAtCashier(t, (start.data.action as { url: string }).url)).statusCode, 303)
    await (t.app.ctx.providers.pay.sandbox as SandboxPay).settled()

    const out = await discharge(desk, stay.admissionNo)
    assert.equal(out.code, 200, out.msg)
    assert.equal(out.data.status, 'discharged')
    assert.equal(out.data.depositFen, 200000)
    assert.deepEqual(out.data.settlement, { returnedFen: 200000 - dayFen, owedFen: 0 })
    assert.equal(out.data.balanceFen, 0)
    // again: the same settlement, nothing returned twice
    assert.deepEqual((await discharge(desk, stay.admissionNo)).data, out.data)
    const settled = (await stayOf(person)).data!
    assert.equal(settled.status, 'discharged')
    assert.deepEqual(settled.settlement, out.data.settlement)
    assert.equal(settled.lowDeposit, false)
    assertBadInput(await charge(desk, stay.admissionNo, { date: today(), items: [{ code: lab.code, quantity: 1 }] }), '该患者已出院，不能再记账')
    assert.equal(await ledgerImbalance(db()), 0)
  })

  it('discharges a stay the deposits did not cover with the rest owed, and admits the patient again afterwards', async () => {
    const { person, stay } = await admitted('蒋红梅')
    const ct = item('胸部CT', '平扫')
    await charge(desk, stay.admissionNo, { date: today(), items: [{ code: ct.code, quantity: 1 }] })
    const out = await discharge(desk, stay.admissionNo)
    assert.equal(out.code, 200, out.msg)
    assert.deepEqual(out.data.settlement, { returnedFen: 0, owedFen: ct.priceFen })
    assert.equal(out.data.balanceFen, -ct.priceFen)
    assert.deepEqual((await stayOf(person)).data!.settlement, { returnedFen: 0, owedFen: ct.priceFen })
    const [reg] = await db().select().from(registrations).where(eq(registrations.patientId, person.patientId))
    const again = await admit(desk, { registrationId: reg!.id, ward: '心内科二病区', bed: '2床' })
    assert.equal(again.code, 200, again.msg)
    assert.notEqual(again.data.admissionNo, stay.admissionNo)
    assert.equal((await stayOf(person)).data!.admissionNo, again.data.admissionNo)
  })
})

describe('the demo stay (王小明 at 10392)', () => {
  it('is in hospital with three days of charges and a deposit low enough to warn, seeded once', async () => {
    const user = await signInUser(t.app)
    const patientId = await addPatient(t, user.userId, { name: '王小明', sex: 1, birthday: '1985-11-03', mobile: '13600000001', idCard: '310104198511030034' })
    const env = await call<InpatientView | null>('POST', `${A}/recharge/inpatient`, { caller: user, body: { hospitalCode: H, patientId } })
    assert.equal(env.code, 200, env.msg)
    const stay = env.data!
    assert.deepEqual([stay.status, stay.deptName, stay.ward, stay.bed], ['in', '心血管内科', '心内科一病区', '12床'])
    assert.equal(Math.round((Date.now() - Date.parse(stay.admittedAt)) / 86_400_000), 4)
    assert.equal(stay.days.length, 3)
    assert.equal(stay.days.at(-1)!.date, new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() - 86_400_000)))
    assert.equal(stay.costFen, stay.days.reduce((sum, d) => sum + d.amountFen, 0))
    assert.ok(stay.depositFen > 0 && stay.balanceFen > 0 && stay.balanceFen < stay.averageDailyFen, JSON.stringify(stay))
    assert.equal(stay.lowDeposit, true)
    assert.match(stay.warning!, /住院预交金余额不足/)
    const first = await call<DailyCharges>('POST', `${A}/recharge/daily`, { caller: user, body: { hospitalCode: H, patientId, admissionNo: stay.admissionNo, date: stay.days[0]!.date } })
    assert.equal(first.data.totalFen, stay.days[0]!.amountFen)
    assert.ok(first.data.items.some((i) => i.name === '心脏彩色超声'))
    const listed = await call<HisConsoleAdmission[]>('GET', `${P}/his/admissions`, { caller: desk })
    assert.ok(listed.data.some((a) => a.admissionNo === stay.admissionNo && a.patientName === '王*明'))
    // the seed runs at every start: the stay is not made twice
    const stays = await countOf(hisAdmissions)
    await seedHis(db(), t.app.ctx.cipher)
    assert.equal(await countOf(hisAdmissions), stays)
  })
})
