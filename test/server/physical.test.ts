import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomInt } from 'node:crypto'
import { and, count, eq, inArray } from 'drizzle-orm'
import { auditLog, hisPhysicalDays, hisPhysicalExams, orders, physicalAppointments } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { hmacHex } from '../../server/src/crypto'
import { AppError } from '../../server/src/errors'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { httpHis } from '../../server/src/plugins/providers/his'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { Page } from '../../types/api/hospital'
import type { PhysicalAppointment, PhysicalDay, PhysicalPackage, PhysicalReport, PhysicalReportEntry, PhysicalStart } from '../../types/api/physical'
import type { StaffSession } from '../../types/api/workbench'
import { bookableDays, isCentreOpen } from '../../src/utils/physicalRules'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const P = '/dld-doctor/api'
const H = '10392'
const RETURN_URL = '/h5/palm/reservePhysical/reserveList'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

let t: TestApp
let owner: User
let stranger: User
let sandbox: SandboxPay
let man: number
let woman: number
let strangerPatient: number

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
/** The n-th bookable day the centre works (0: the first). */
const openDay = (n: number) => bookableDays(today()).filter(isCentreOpen)[n]!

function newIdCard(birth: string) {
  return idCardFor(birth.replace(/-/g, ''), String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
}
async function newPatient(user: User, name: string, sex: 1 | 2, birthday: string) {
  // the 17th digit's parity is the sex (GB 11643): make up numbers until it matches
  let idCard = newIdCard(birthday)
  while (Number(idCard[16]) % 2 !== (sex === 1 ? 1 : 0)) idCard = newIdCard(birthday)
  return addPatient(t, user.userId, { name, sex, birthday, mobile: '13700000000', idCard })
}

const book = (caller: Caller, patientId: number, over: Record<string, unknown> = {}) =>
  call<PhysicalStart>('POST', `${A}/physical/physicalAppointment`, {
    caller,
    body: { hospitalCode: H, patientId, packageCode: 'TJ02', date: openDay(0), returnUrl: RETURN_URL, idempotencyKey: newKey('phy'), ...over },
  })

async function payAtCashier(start: PhysicalStart) {
  assert.ok(start.action && start.action.kind === 'redirect', 'a cashier to open')
  assert.equal((await confirmAtCashier(t, start.action.url)).statusCode, 303)
  await sandbox.settled()
}

const detail = (caller: Caller, id: number) => call<PhysicalAppointment>('GET', `${A}/physical/getPhysicalAppointment`, { caller, query: { id: String(id) } })
const booked = async (date: string) => (await db().select().from(hisPhysicalDays).where(and(eq(hisPhysicalDays.hospitalCode, H), eq(hisPhysicalDays.examDate, date))))[0]?.booked ?? 0
const auditRows = async (route: string, patientId: number) =>
  (await db().select({ n: count() }).from(auditLog).where(and(eq(auditLog.route, route), eq(auditLog.patientId, patientId))))[0]!.n

/** The exam day has come: the appointment and the centre's exam moved to today (the clock cannot be). */
async function examDayIsToday(examNo: string) {
  await db().update(physicalAppointments).set({ examDate: today() }).where(eq(physicalAppointments.examNo, examNo))
  await db().update(hisPhysicalExams).set({ examDate: today() }).where(eq(hisPhysicalExams.examNo, examNo))
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  assert.equal((t.app.ctx.providers.his as SandboxHis).kind, 'sandbox')
  man = await newPatient(owner, '陈志强', 1, '1980-05-12')
  woman = await newPatient(owner, '李秀英', 2, '1990-08-03')
  strangerPatient = await newPatient(stranger, '刘建国', 1, '1975-01-20')
})
after(() => t.close())

describe('GET /dld-palm/api/physical/physicalAppointment/list', () => {
  const url = `${A}/physical/physicalAppointment/list`
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', url, { query: { hospitalCode: H } })
  })
  it('refuses bad input', async () => {
    assertBadInput(await call('GET', url, { caller: owner, query: {} }))
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: 'x' } }))
  })
  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(strangerPatient) } }))
  })
  it('offers the packages that suit the patient’s sex and age, with items and prices', async () => {
    const all = await call<PhysicalPackage[]>('GET', url, { caller: owner, query: { hospitalCode: H } })
    assert.equal(all.code, 200, all.msg)
    assert.ok(all.data.length >= 6)
    const forMan = await call<PhysicalPackage[]>('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(man) } })
    const names = forMan.data.map((p) => p.name)
    // 46 years old: 中老年体检 (45 and over) suits him too
    assert.ok(names.includes('基础体检（男）') && names.includes('入职体检') && names.includes('中老年体检'))
    assert.ok(!names.some((n) => n.includes('女')), 'no package for women offered to a man')
    const forWoman = await call<PhysicalPackage[]>('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(woman) } })
    assert.ok(forWoman.data.some((p) => p.name === '女性专项体检'))
    // 36 years old: not yet 中老年体检
    assert.ok(!forWoman.data.some((p) => p.name === '中老年体检'))
    assert.ok(!forWoman.data.some((p) => p.name === '基础体检（男）'))
    const basic = forMan.data.find((p) => p.code === 'TJ02')!
    assert.equal(basic.priceFen, 38000)
    assert.ok(basic.items.some((i) => i.name === '十二导联心电图' && i.dept === '心电图室'))
  })
})

describe('GET /dld-palm/api/physical/getPhysical/detail and /physical/appointment/date', () => {
  it('answers 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/physical/getPhysical/detail`, { query: { hospitalCode: H, packageCode: 'TJ01' } })
    await assertUnauthorisedCall(t.app, 'GET', `${A}/physical/appointment/date`, { query: { hospitalCode: H } })
  })
  it('refuses an unknown package and bad input', async () => {
    assertBadInput(await call('GET', `${A}/physical/getPhysical/detail`, { caller: owner, query: { hospitalCode: H, packageCode: 'NOPE' } }), '体检套餐不存在')
    assertBadInput(await call('GET', `${A}/physical/getPhysical/detail`, { caller: owner, query: { hospitalCode: H, packageCode: '<x>' } }))
    assertBadInput(await call('GET', `${A}/physical/appointment/date`, { caller: owner, query: {} }))
  })
  it('shows a package with its preparation notes, and two weeks of days with their places (Sundays closed)', async () => {
    const pkg = await call<PhysicalPackage>('GET', `${A}/physical/getPhysical/detail`, { caller: owner, query: { hospitalCode: H, packageCode: 'TJ06' } })
    assert.equal(pkg.code, 200, pkg.msg)
    assert.equal(pkg.data.name, '女性专项体检')
    assert.match(pkg.data.notice, /空腹/)
    const days = await call<PhysicalDay[]>('GET', `${A}/physical/appointment/date`, { caller: owner, query: { hospitalCode: H } })
    assert.equal(days.data.length, 14)
    assert.deepEqual(days.data.map((d) => d.date), bookableDays(today()))
    for (const d of days.data) {
      if (d.week === '周日') assert.deepEqual([d.open, d.remaining], [false, 0])
      else assert.equal(d.capacity, 20)
    }
  })
})

describe('POST /dld-palm/api/physical/physicalAppointment', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/physical/physicalAppointment`, {
      body: { hospitalCode: H, patientId: man, packageCode: 'TJ02', date: openDay(0), returnUrl: RETURN_URL, idempotencyKey: newKey('phy') },
    })
  })
  it('refuses bad input and changes nothing', async () => {
    const before = await booked(openDay(0))
    assertBadInput(await book(owner, man, { date: '2026-13-40x' }))
    assertBadInput(await book(owner, man, { idempotencyKey: 'short' }))
    assertBadInput(await book(owner, man, { returnUrl: 'https://evil.example/' }), '返回页面不正确')
    assertBadInput(await book(owner, man, { packageCode: 'TJ06' }), '该套餐仅限女性')
    assertBadInput(await book(owner, man, { date: today() }), '请选择明天起两周内的日期')
    const sunday = bookableDays(today()).find((d) => !isCentreOpen(d))!
    assertBadInput(await book(owner, man, { date: sunday }), '体检中心该日不接受预约')
    assert.equal(await booked(openDay(0)), before)
  })
  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await book(owner, strangerPatient))
  })
  it('holds a place and answers the cashier; the same key answers the same appointment; paying books it', async () => {
    const key = newKey('phy')
    const date = openDay(1)
    const before = await booked(date)
    const first = await book(owner, man, { idempotencyKey: key, date })
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.appointment.status, 'holding')
    assert.equal(first.data.appointment.statusText, '待支付')
    assert.equal(first.data.appointment.amountFen, 38000)
    assert.equal(await booked(date), before + 1)
    const again = await book(owner, man, { idempotencyKey: key, date })
    assert.equal(again.data.appointment.id, first.data.appointment.id)
    assert.equal(await booked(date), before + 1)
    // a second booking of the same day for the same patient is refused
    assertBadInput(await book(owner, man, { date }), '该就诊人当天已有体检预约')
    await payAtCashier(first.data)
    const paid = await detail(owner, first.data.appointment.id)
    assert.equal(paid.data.status, 'booked')
    assert.equal(paid.data.statusText, '已预约')
    assert.equal(paid.data.order.status, 'paid')
    assert.equal(paid.data.cancellable, true)
    const [exam] = await db().select().from(hisPhysicalExams).where(eq(hisPhysicalExams.examNo, paid.data.examNo))
    assert.equal(exam!.status, 'paid')
    assert.equal(await ledgerImbalance(db()), 0)
  })
  it('gives the place back when the unpaid order closes (the order sweep)', async () => {
    const date = openDay(2)
    const start = await book(owner, woman, { packageCode: 'TJ03', date })
    assert.equal(start.code, 200, start.msg)
    const before = await booked(date)
    const { closeExpiredOrders } = await import('../../server/src/domain/payment')
    await closeExpiredOrders(db(), new Date(Date.now() + 31 * 60_000))
    assert.equal(await booked(date), before - 1)
    const closed = await detail(owner, start.data.appointment.id)
    assert.equal(closed.data.status, 'expired')
    assert.equal(closed.data.payable, false)
  })
})

describe('GET /dld-palm/api/physical/getPhysicalAppointment, /getPhysicalPaymentBill and /paid/physical/list', () => {
  it('answers 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/physical/getPhysicalAppointment`, { query: { id: '1' } })
    await assertUnauthorisedCall(t.app, 'GET', `${A}/physical/getPhysicalPaymentBill`)
    await assertUnauthorisedCall(t.app, 'GET', `${A}/paid/physical/list`)
  })
  it('refuses bad input', async () => {
    assertBadInput(await call('GET', `${A}/physical/getPhysicalAppointment`, { caller: owner, query: { id: 'x' } }))
    assertBadInput(await call('GET', `${A}/physical/getPhysicalPaymentBill`, { caller: owner, query: { size: '500' } }))
  })
  it('answers 2999 for someone else’s appointment or patient', async () => {
    const theirs = await book(stranger, strangerPatient, { date: openDay(3) })
    assert.equal(theirs.code, 200, theirs.msg)
    assertForbidden(await detail(owner, theirs.data.appointment.id))
    assertForbidden(await call('GET', `${A}/paid/physical/list`, { caller: owner, query: { patientId: String(strangerPatient) } }))
    const mine = await call<Page<PhysicalAppointment>>('GET', `${A}/physical/getPhysicalPaymentBill`, { caller: owner })
    assert.ok(!mine.data.records.some((r) => r.id === theirs.data.appointment.id))
  })
  it('lists the caller’s appointments newest first; the paid list only the paid ones', async () => {
    const all = await call<Page<PhysicalAppointment>>('GET', `${A}/physical/getPhysicalPaymentBill`, { caller: owner })
    assert.equal(all.code, 200, all.msg)
    assert.ok(all.data.records.some((r) => r.status === 'expired'))
    const paid = await call<Page<PhysicalAppointment>>('GET', `${A}/paid/physical/list`, { caller: owner })
    assert.ok(paid.data.records.length >= 1)
    assert.ok(paid.data.records.every((r) => ['paid', 'refunding', 'refunded'].includes(r.order.status)))
    assert.ok(paid.data.total < all.data.total)
    assert.ok((await auditRows(`GET ${A}/physical/getPhysicalPaymentBill`, man)) >= 1)
  })
})

describe('GET /dld-palm/api/physical/cancelAppointment', () => {
  it('answers 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/physical/cancelAppointment`, { query: { id: '1' } })
  })
  it('refuses bad input, and someone else’s appointment with 2999', async () => {
    assertBadInput(await call('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: {} }))
    const theirs = await book(stranger, strangerPatient, { date: openDay(4) })
    assertForbidden(await call('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(theirs.data.appointment.id) } }))
    assert.equal((await call<PhysicalAppointment>('GET', `${A}/physical/getPhysicalAppointment`, { caller: stranger, query: { id: String(theirs.data.appointment.id) } })).data.status, 'holding')
  })
  it('cancels a paid exam before its day with a full refund and gives the place back', async () => {
    const date = openDay(5)
    const start = await book(owner, man, { date, packageCode: 'TJ01' })
    await payAtCashier(start.data)
    const before = await booked(date)
    const cancelled = await call<PhysicalAppointment>('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(start.data.appointment.id) } })
    assert.equal(cancelled.code, 200, cancelled.msg)
    assert.equal(cancelled.data.status, 'cancelled')
    assert.equal(cancelled.data.cancellable, false)
    assert.equal(await booked(date), before - 1)
    // a GET by the spec, but a change: the audit log says so
    const [logged] = await db().select().from(auditLog).where(and(eq(auditLog.route, `GET ${A}/physical/cancelAppointment`), eq(auditLog.actorId, owner.userId)))
    assert.equal(logged?.action, 'change')
    // the provider's refund notification arrives: the money is back
    await sandbox.settled()
    const refunded = await detail(owner, start.data.appointment.id)
    assert.equal(refunded.data.refundText, '已退款')
    assert.equal(refunded.data.order.status, 'refunded')
    assert.equal(refunded.data.order.refundedFen, 15000)
    // again: answered as it is, nothing refunded twice
    const again = await call<PhysicalAppointment>('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(start.data.appointment.id) } })
    assert.equal(again.data.order.refundedFen, 15000)
    assert.equal(await ledgerImbalance(db()), 0)
  })
  it('refuses to cancel a paid exam on its day, and changes nothing', async () => {
    const start = await book(owner, woman, { date: openDay(6), packageCode: 'TJ03' })
    await payAtCashier(start.data)
    await examDayIsToday(start.data.appointment.examNo)
    const seen = await detail(owner, start.data.appointment.id)
    assert.equal(seen.data.cancellable, false)
    assert.match(seen.data.cancelNote ?? '', /体检当日/)
    assertBadInput(await call('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(start.data.appointment.id) } }), /体检当日及之后不能线上取消/)
    const after = await detail(owner, start.data.appointment.id)
    assert.equal(after.data.status, 'booked')
    assert.equal(after.data.order.status, 'paid')
  })
  it('cancels an unpaid hold at once, its place back', async () => {
    const date = openDay(7)
    const start = await book(owner, man, { date })
    const before = await booked(date)
    const cancelled = await call<PhysicalAppointment>('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(start.data.appointment.id) } })
    assert.equal(cancelled.data.status, 'cancelled')
    assert.equal(cancelled.data.refundText, null)
    assert.equal(await booked(date), before - 1)
  })
})

// ---- the centre's desk and the reports ------------------------------------------------------------------------------

describe('the physical-exam desk on the workbench and the reports', () => {
  let desk: Caller
  let farDesk: Caller
  let examNo = ''
  let appointmentId = 0

  async function signInDesk(login: string): Promise<Caller> {
    const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: DEMO_STAFF_PASSWORD } })
    assert.equal(env.code, 200, env.msg)
    return { headers: { authorization: `Bearer ${env.data.token}` } }
  }

  before(async () => {
    desk = await signInDesk('10392001')
    farDesk = await signInDesk('10412001')
    const start = await book(owner, man, { date: openDay(8), packageCode: 'TJ02' })
    await payAtCashier(start.data)
    examNo = start.data.appointment.examNo
    appointmentId = start.data.appointment.id
    await examDayIsToday(examNo)
  })

  it('answers 401 without a workbench token', async () => {
    assert.equal((await call('GET', `${P}/his/physical`)).code, 401)
    assert.equal((await call('POST', `${P}/his/physical/${examNo}/check-in`, { caller: owner })).code, 401)
    assert.equal((await call('POST', `${P}/his/physical/${examNo}/finish`)).code, 401)
  })

  it('refuses bad input, and another hospital’s exam with 2999', async () => {
    assertBadInput(await call('GET', `${P}/his/physical`, { caller: desk, query: { date: 'tomorrow' } }))
    assertBadInput(await call('POST', `${P}/his/physical/${encodeURIComponent('a b')}/check-in`, { caller: desk }))
    assertForbidden(await call('POST', `${P}/his/physical/${examNo}/check-in`, { caller: farDesk }))
    // finishing before the check-in is refused
    assertBadInput(await call('POST', `${P}/his/physical/${examNo}/finish`, { caller: desk }), '请先登记到检')
  })

  it('lists the day’s exams, checks the patient in and finishes the exam, which releases the report', async () => {
    const day = await call<{ examNo: string; patientName: string; status: string; patientId: number | null }[]>('GET', `${P}/his/physical`, { caller: desk })
    assert.equal(day.code, 200, day.msg)
    const row = day.data.find((r) => r.examNo === examNo)!
    assert.equal(row.patientName, '陈*强')
    assert.equal(row.status, 'paid')
    assert.equal(row.patientId, man)
    const checked = await call('POST', `${P}/his/physical/${examNo}/check-in`, { caller: desk })
    assert.equal(checked.data.status, 'checkedIn')
    assert.equal((await detail(owner, appointmentId)).data.statusText, '体检中')
    // checked in: no cancelling any more
    assertBadInput(await call('GET', `${A}/physical/cancelAppointment`, { caller: owner, query: { id: String(appointmentId) } }))
    const finished = await call('POST', `${P}/his/physical/${examNo}/finish`, { caller: desk })
    assert.equal(finished.data.status, 'finished')
    const seen = await detail(owner, appointmentId)
    assert.equal(seen.data.status, 'finished')
    assert.equal(seen.data.reportReady, true)
    assert.ok((await auditRows(`POST ${P}/his/physical/:examNo/finish`, man)) >= 1)
  })

  it('GET /report/physical/list: 401, bad input, 2999 for someone else’s patient, the released reports', async () => {
    const url = `${A}/report/physical/list`
    await assertUnauthorisedCall(t.app, 'GET', url, { query: { hospitalCode: H, patientId: String(man) } })
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H } }))
    assertForbidden(await call('GET', url, { caller: stranger, query: { hospitalCode: H, patientId: String(man) } }))
    const list = await call<PhysicalReportEntry[]>('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(man) } })
    assert.equal(list.code, 200, list.msg)
    assert.deepEqual(list.data.map((r) => r.examNo), [examNo])
    assert.equal(list.data[0]!.packageName, '基础体检（男）')
    assert.ok((await auditRows(`GET ${url}`, man)) >= 1)
  })

  it('GET /physical/info/{examNo}: 401, bad input, 2999 for someone else’s, the report with findings and conclusion, audited', async () => {
    const url = `${A}/physical/info/${examNo}`
    await assertUnauthorisedCall(t.app, 'GET', url, { query: { hospitalCode: H, patientId: String(man) } })
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: 'x' } }))
    // the stranger's own patient, someone else's exam number: nothing said
    assertForbidden(await call('GET', url, { caller: stranger, query: { hospitalCode: H, patientId: String(strangerPatient) } }))
    assertForbidden(await call('GET', url, { caller: stranger, query: { hospitalCode: H, patientId: String(man) } }))
    // the owner's other patient does not reach this exam either
    assertForbidden(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(woman) } }))
    const before = await auditRows(`GET ${A}/physical/info/:examNo`, man)
    const report = await call<PhysicalReport>('GET', url, { caller: owner, query: { hospitalCode: H, patientId: String(man) } })
    assert.equal(report.code, 200, report.msg)
    assert.equal(report.data.patientName, '陈*强')
    assert.equal(report.data.sexText, '男')
    assert.ok(report.data.findings.some((f) => f.dept === '心电图室'))
    assert.match(report.data.conclusion, /本次体检/)
    assert.equal(await auditRows(`GET ${A}/physical/info/:examNo`, man), before + 1)
  })

  it('GET /report/physical: 401, bad input, 2999 for someone else’s; a real PDF with the patient’s name, audited', async () => {
    const url = `${A}/report/physical`
    const query = { hospitalCode: H, patientId: String(man), examNo }
    assert.equal((await call('GET', url, { query })).code, 401)
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H, examNo } }))
    assertForbidden(await call('GET', url, { caller: stranger, query: { ...query, patientId: String(strangerPatient) } }))
    assertForbidden(await call('GET', url, { caller: stranger, query }))
    const before = await auditRows(`GET ${url}`, man)
    const res = await t.app.inject({ method: 'GET', url, query, headers: owner.headers })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/pdf')
    assert.match(String(res.headers['cache-control']), /no-store/)
    assert.equal(await auditRows(`GET ${url}`, man), before + 1)
    const bytes = new Uint8Array(res.rawPayload)
    assert.equal(Buffer.from(bytes.slice(0, 5)).toString(), '%PDF-')
    const text = await pdfText(bytes)
    assert.match(text, /健康体检报告/)
    assert.match(text, /陈志强/)
    assert.match(text, /基础体检（男）/)
    assert.match(text, /主检结论/)
    assert.match(text, new RegExp(examNo))
  })
})

describe('the demo centre’s seeded reports', () => {
  it('shows 张三丰’s past 中老年体检 to the account that bound him, and its PDF opens', async () => {
    const user = (await signInUser(t.app)) as User
    const zhang = await addPatient(t, user.userId, { name: '张三丰', sex: 1, birthday: '1980-05-12', mobile: '13700000001', idCard: '11010519800512001X' })
    const list = await call<PhysicalReportEntry[]>('GET', `${A}/report/physical/list`, { caller: user, query: { hospitalCode: H, patientId: String(zhang) } })
    assert.equal(list.code, 200, list.msg)
    assert.deepEqual(list.data.map((r) => r.packageName), ['中老年体检'])
    const res = await t.app.inject({ method: 'GET', url: `${A}/report/physical`, query: { hospitalCode: H, patientId: String(zhang), examNo: list.data[0]!.examNo }, headers: user.headers })
    assert.equal(res.statusCode, 200)
    assert.match(await pdfText(new Uint8Array(res.rawPayload)), /张三丰/)
  })
})

/** The text of every page, read back with pdf.js. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false }).promise
  const parts: string[] = []
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(''))
  }
  await doc.destroy()
  return parts.join('\n')
}

// ---- capacity under concurrency --------------------------------------------------------------------------------------

describe('capacity: concurrent bookings for one day', () => {
  it('books exactly the day’s 20 places of 200 bookings at once (each a different patient)', async () => {
    const date = openDay(9)
    // ten families of twenty (an account may make 100 orders an hour)
    const users: User[] = []
    for (let u = 0; u < 10; u++) users.push((await signInUser(t.app)) as User)
    const bookings: [User, number][] = []
    for (let i = 0; i < 200; i++) bookings.push([users[i % 10]!, await newPatient(users[i % 10]!, `测试${i}`, 1, '1985-03-03')])
    const answers = await Promise.all(bookings.map(([u, p]) => book(u, p, { date, packageCode: 'TJ01' })))
    const ok = answers.filter((a) => a.code === 200)
    const full = answers.filter((a) => a.code === 400 && a.msg === '该日体检名额已约满，请选择其他日期')
    assert.equal(ok.length, 20, answers.filter((a) => a.code !== 200 && a.code !== 400).map((a) => a.msg).join(','))
    assert.equal(full.length, 180)
    assert.equal(await booked(date), 20)
    const rows = await db().select({ n: count() }).from(physicalAppointments).where(eq(physicalAppointments.examDate, date))
    assert.equal(rows[0]!.n, 20)
    // a refused booking made no order
    const made = await db().select({ n: count() }).from(orders).where(and(eq(orders.business, 'physical'), inArray(orders.userId, users.map((u) => u.userId))))
    assert.equal(made[0]!.n, 20)
  })
})

// ---- the HIS adapter -----------------------------------------------------------------------------------------------

describe('the HIS adapter’s physical-exam calls (httpHis) against a stand-in of the documented contract', () => {
  const cfg = { appId: 'app-h5', secret: 'his-secret-0123456789' }
  const calls: { path: string; body: Record<string, unknown> }[] = []
  let server: Server
  let url = ''
  const patient = { cardNo: null, idCard: '110101199003074514', name: '陈志强' }
  const exam = { examNo: 'T1', packageCode: 'TJ01', packageName: '入职体检', examDate: '2026-12-01', status: 'held', reportedAt: null }

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = ''
      req.setEncoding('utf8')
      req.on('data', (c: string) => (raw += c))
      req.on('end', () => {
        const reply = (body: unknown) => {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(body))
        }
        if (req.headers['x-signature'] !== hmacHex(cfg.secret, raw)) return reply({ code: 401, msg: 'bad signature' })
        const body = JSON.parse(raw) as Record<string, unknown>
        const path = (req.url ?? '').replace(/^\/his/, '')
        calls.push({ path, body })
        const ok = (data: unknown) => reply({ code: 0, data })
        switch (path) {
          case '/physical/packages':
            return ok({ packages: [{ code: 'TJ01', name: '入职体检', sex: 0, minAge: 16, maxAge: 65, priceFen: 15000, suits: '', notice: '', items: [{ dept: '内科', name: '内科检查', meaning: '' }] }] })
          case '/physical/days':
            return ok({ days: [{ date: '2026-12-01', capacity: 30, booked: 30, open: true }] })
          case '/physical/hold':
            return body.date === '2026-12-02' ? reply({ code: 1, msg: '该日体检名额已约满，请选择其他日期' }) : ok({ exam })
          case '/physical/report':
            return body.examNo === 'T1' ? reply({ code: 1, msg: 'not yours' }) : ok({ report: { bad: true } })
          case '/physical/report/pdf':
            return ok({ pdfBase64: Buffer.from('%PDF-1.7 test').toString('base64') })
          default:
            return ok({})
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('asks with signed bodies and reads the answers; a refusal reaches the patient, someone else’s report is null', async () => {
    const adapter = httpHis({ url, ...cfg })
    const pkgs = await adapter.physicalPackages({ hospitalCode: H })
    assert.equal(pkgs[0]!.priceFen, 15000)
    const days = await adapter.physicalDays({ hospitalCode: H, from: '2026-12-01', to: '2026-12-14' })
    assert.deepEqual(days[0], { date: '2026-12-01', capacity: 30, booked: 30, open: true })
    const held = await adapter.physicalHold(db(), { hospitalCode: H, patient, sex: 1, birthday: '1990-03-07', examNo: 'T1', packageCode: 'TJ01', date: '2026-12-01' })
    assert.equal(held.status, 'held')
    assert.deepEqual(calls.at(-1), { path: '/physical/hold', body: { hospitalCode: H, patient, sex: 1, birthday: '1990-03-07', examNo: 'T1', packageCode: 'TJ01', date: '2026-12-01' } })
    await assert.rejects(
      adapter.physicalHold(db(), { hospitalCode: H, patient, sex: 1, birthday: '1990-03-07', examNo: 'T2', packageCode: 'TJ01', date: '2026-12-02' }),
      (err: unknown) => err instanceof AppError && err.code === 400 && err.message === '该日体检名额已约满，请选择其他日期',
    )
    const paidAt = new Date('2026-11-30T02:00:00Z')
    await adapter.physicalRelease(db(), { hospitalCode: H, examNo: 'T1', reason: '患者取消' })
    assert.deepEqual(calls.at(-1), { path: '/physical/release', body: { hospitalCode: H, examNo: 'T1', reason: '患者取消' } })
    await assert.rejects(adapter.physicalPaid(db(), { hospitalCode: H, examNo: 'T1', orderNo: 'P1', amountFen: 15000, paidAt, channel: 'sandbox', tradeNo: 'X' }))
    assert.equal(calls.at(-1)!.body.paidAt, paidAt.toISOString())
    assert.equal(await adapter.physicalReport({ hospitalCode: H, patient, examNo: 'T1' }), null)
    // an answer without its fields is a failure, not a report
    await assert.rejects(adapter.physicalReport({ hospitalCode: H, patient, examNo: 'T9' }), (err: unknown) => !(err instanceof AppError))
    const pdf = await adapter.physicalReportPdf({ hospitalCode: H, patient, examNo: 'T1' })
    assert.equal(Buffer.from(pdf!).toString(), '%PDF-1.7 test')
    await assert.rejects(httpHis({ url, appId: cfg.appId, secret: 'wrong' }).physicalPackages({ hospitalCode: H }), (err: unknown) => err instanceof AppError)
  })
})
