import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes, randomInt } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq, inArray } from 'drizzle-orm'
import { auditLog, hisBills, hisExamAppointments, hisExamDevices, hisExamSlots, patients } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { hmacHex } from '../../server/src/crypto'
import { AppError } from '../../server/src/errors'
import { httpHis } from '../../server/src/plugins/providers/his'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import { SLOT_FULL, SLOT_OTHER_PLACE } from '../../server/src/plugins/providers/hisSandboxMedTech'
import { priceCatalogue } from '../../server/src/seed/his'
import type { ExamAppointmentDetail, ExamDate, ExamDevice, ExamToBook } from '../../types/api/medtech'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, newKey } from './fixtures'

const M = '/dld-palm/api/report/med-tech/appointment'
const P = '/dld-doctor/api'
const H = '10392'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }
interface Person {
  patientId: number
  idCard: string
  name: string
}

let t: TestApp
let owner: User
let stranger: User
let his: SandboxHis
let ownerPerson: Person
let strangerPerson: Person

const catalogue = priceCatalogue(H)
const code = (name: string, spec = '') => catalogue.find((c) => c.name === name && (!spec || c.spec === spec))!.code
const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())

function newIdCard() {
  const birth = `19${60 + randomInt(40)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  return idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
}

async function newPerson(user: User, name = '陈志强'): Promise<Person> {
  const idCard = newIdCard()
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}

let visitSerial = 0
/** A doctor's examination order for the person, paid at the window (paying bills has its own tests). */
async function paidExam(p: Person, name: string, spec = '') {
  visitSerial += 1
  const [bill] = await his.issueOrders({
    hospitalCode: H,
    patient: { cardNo: null, idCard: p.idCard, name: p.name },
    visitNo: `MZMT${Date.now()}${visitSerial}`,
    visitDate: today(),
    deptName: '消化内科',
    doctorName: '测试医生',
    items: [{ code: code(name, spec), quantity: 1 }],
  })
  await db().update(hisBills).set({ status: 'paid', orderNo: `WINDOW${bill!.billNo}`, paidAt: new Date() }).where(eq(hisBills.billNo, bill!.billNo))
  return bill!
}

const body = (p: Person, extra: Record<string, unknown> = {}) => ({ hospitalCode: H, patientId: p.patientId, ...extra })

/** The first day after today with places (a whole day of slots ahead), and a slot of it with places left, for a bill. */
async function freeSlot(caller: Caller, p: Person, billNo: string, skip = 0) {
  const dates = await call<ExamDate[]>('POST', `${M}/date`, { caller, body: body(p, { billNo }) })
  assert.equal(dates.code, 200, dates.msg)
  const date = dates.data.find((d) => d.date > today() && d.remaining > 0)!.date
  const devices = await call<ExamDevice[]>('POST', `${M}/list`, { caller, body: body(p, { billNo, date }) })
  assert.equal(devices.code, 200, devices.msg)
  const slots = devices.data.flatMap((d) => d.slots.filter((s) => s.remaining > 0).map((s) => ({ ...s, device: d })))
  return { date, slot: slots[skip]! }
}

const book = (caller: Caller, p: Person, billNo: string, slotId: number, key = newKey('exam')) =>
  call<ExamAppointmentDetail>('POST', `${M}/order`, { caller, body: body(p, { billNo, slotId, idempotencyKey: key }) })
const slotRow = async (id: number) => (await db().select().from(hisExamSlots).where(eq(hisExamSlots.id, id)))[0]!

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  his = t.app.ctx.providers.his as SandboxHis
  ownerPerson = await newPerson(owner, '陈志强')
  strangerPerson = await newPerson(stranger, '刘秀英')
})
after(() => t.close())

describe('POST /dld-palm/api/report/med-tech/appointment/orders', () => {
  const url = `${M}/orders`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: body(ownerPerson) })
  })

  it('refuses bad input', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: 'x' } }))
  })

  it('answers 2999 for someone else’s patient and reveals nothing', async () => {
    await paidExam(strangerPerson, '头颅CT', '平扫')
    assertForbidden(await call('POST', url, { caller: owner, body: body(strangerPerson) }))
  })

  it('lists the paid examinations that take an appointment, with their preparation, and not the others', async () => {
    const p = await newPerson(owner, '周建华')
    const ct = await paidExam(p, '上腹部CT', '平扫+增强')
    const us = await paidExam(p, '泌尿系彩色超声')
    await paidExam(p, '常规心电图')
    const env = await call<ExamToBook[]>('POST', url, { caller: owner, body: body(p) })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.map((e) => e.billNo).sort(), [ct.billNo, us.billNo].sort())
    const ctExam = env.data.find((e) => e.billNo === ct.billNo)!
    assert.equal(ctExam.place, '放射科CT室')
    assert.equal(ctExam.appointment, null)
    assert.ok(ctExam.preparation.some((n) => n.includes('金属')))
    assert.ok(ctExam.preparation.some((n) => n.includes('空腹')))
    assert.ok(env.data.find((e) => e.billNo === us.billNo)!.preparation.some((n) => n.includes('憋尿')))
  })

  it('finds the seeded paid CT of 王小明 at 10392', async () => {
    const user = await signInUser(t.app)
    const patientId = await addPatient(t, user.userId, { name: '王小明', sex: 1, birthday: '1985-11-03', mobile: '13600000001', idCard: '310104198511030034' })
    const env = await call<ExamToBook[]>('POST', url, { caller: user, body: { hospitalCode: H, patientId } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.length, 1)
    assert.deepEqual(env.data[0]!.items, ['上腹部CT（平扫）'])
    assert.ok(env.data[0]!.preparation.includes('腹部检查前空腹8小时'))
  })
})

describe('POST /dld-palm/api/report/med-tech/appointment/date and /list', () => {
  let bill: { billNo: string }
  before(async () => {
    bill = await paidExam(ownerPerson, '头颅磁共振', '平扫')
  })

  it('answer 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${M}/date`, { body: body(ownerPerson, { billNo: bill.billNo }) })
    await assertUnauthorisedCall(t.app, 'POST', `${M}/list`, { body: body(ownerPerson, { billNo: bill.billNo, date: today() }) })
  })

  it('refuse bad input: a malformed bill number or date, a day outside the week', async () => {
    assertBadInput(await call('POST', `${M}/date`, { caller: owner, body: body(ownerPerson, { billNo: 'B1;x' }) }))
    assertBadInput(await call('POST', `${M}/list`, { caller: owner, body: body(ownerPerson, { billNo: bill.billNo, date: '2026/1/1' }) }))
    assertBadInput(await call('POST', `${M}/list`, { caller: owner, body: body(ownerPerson, { billNo: bill.billNo, date: '2001-01-01' }) }), '只能预约今天起7天内的检查')
  })

  it('answer 2999 for someone else’s patient, and for another patient’s bill under one’s own', async () => {
    assertForbidden(await call('POST', `${M}/date`, { caller: stranger, body: body(ownerPerson, { billNo: bill.billNo }) }))
    assertForbidden(await call('POST', `${M}/date`, { caller: stranger, body: body(strangerPerson, { billNo: bill.billNo }) }))
    assertForbidden(await call('POST', `${M}/list`, { caller: stranger, body: body(strangerPerson, { billNo: bill.billNo, date: today() }) }))
  })

  it('answer the days with places and the MRI’s slots of a day', async () => {
    const dates = await call<ExamDate[]>('POST', `${M}/date`, { caller: owner, body: body(ownerPerson, { billNo: bill.billNo }) })
    assert.equal(dates.code, 200, dates.msg)
    assert.equal(dates.data.length, 7)
    assert.ok(dates.data.slice(1).every((d) => d.remaining > 0))
    const date = dates.data[1]!.date
    const devices = await call<ExamDevice[]>('POST', `${M}/list`, { caller: owner, body: body(ownerPerson, { billNo: bill.billNo, date }) })
    assert.equal(devices.code, 200, devices.msg)
    assert.deepEqual(devices.data.map((d) => d.deviceName), ['磁共振1号机（3.0T）'])
    const slots = devices.data[0]!.slots
    assert.equal(slots[0]!.startTime, '08:00')
    assert.ok(slots.every((s) => s.capacity === 2))
    assert.equal(slots.reduce((n, s) => n + s.remaining, 0), dates.data[1]!.remaining)
  })
})

describe('POST /dld-palm/api/report/med-tech/appointment/order', () => {
  it('answers 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${M}/order`, { body: body(ownerPerson, { billNo: 'B1', slotId: 1, idempotencyKey: newKey('exam') }) })
  })

  it('refuses bad input and a slot of another examination, booking nothing', async () => {
    const ct = await paidExam(ownerPerson, '胸部CT', '平扫')
    const mri = await paidExam(ownerPerson, '腰椎磁共振', '平扫')
    assertBadInput(await call('POST', `${M}/order`, { caller: owner, body: body(ownerPerson, { billNo: ct.billNo, slotId: 'x', idempotencyKey: newKey('exam') }) }))
    assertBadInput(await call('POST', `${M}/order`, { caller: owner, body: body(ownerPerson, { billNo: ct.billNo, slotId: 1, idempotencyKey: 'short' }) }))
    const { slot } = await freeSlot(owner, ownerPerson, mri.billNo)
    const before = await slotRow(slot.slotId)
    assertBadInput(await book(owner, ownerPerson, ct.billNo, slot.slotId), SLOT_OTHER_PLACE)
    assert.equal((await slotRow(slot.slotId)).booked, before.booked)
  })

  it('answers 2999 for someone else’s patient or bill', async () => {
    const ct = await paidExam(ownerPerson, '头颅CT', '平扫')
    const { slot } = await freeSlot(owner, ownerPerson, ct.billNo)
    assertForbidden(await book(stranger, ownerPerson, ct.billNo, slot.slotId))
    assertForbidden(await book(stranger, strangerPerson, ct.billNo, slot.slotId))
    assert.equal((await db().select().from(hisExamAppointments).where(eq(hisExamAppointments.billNo, ct.billNo))).length, 0)
  })

  it('books a CT slot with its preparation; the same key answers the same; a full slot is refused', async () => {
    const p = await newPerson(owner, '孙丽')
    const ct = await paidExam(p, '全腹部CT', '平扫')
    const { date, slot } = await freeSlot(owner, p, ct.billNo)
    const key = newKey('exam')
    const env = await book(owner, p, ct.billNo, slot.slotId, key)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'booked')
    assert.equal(env.data.statusText, '已预约')
    assert.equal(env.data.date, date)
    assert.equal(env.data.startTime, slot.startTime)
    assert.equal(env.data.deviceName, slot.device.deviceName)
    assert.equal(env.data.patientName, '孙*')
    assert.ok(env.data.preparation.includes('腹部检查前空腹8小时'))
    assert.equal((await book(owner, p, ct.billNo, slot.slotId, key)).data.appointmentNo, env.data.appointmentNo)
    assert.equal((await slotRow(slot.slotId)).booked, slot.capacity - slot.remaining + 1)
    // the slot filled up by others: nobody else gets in
    await db().update(hisExamSlots).set({ booked: slot.capacity }).where(eq(hisExamSlots.id, slot.slotId))
    const other = await paidExam(p, '头颅CT', '平扫')
    assertBadInput(await book(owner, p, other.billNo, slot.slotId), SLOT_FULL)
    const listed = await call<ExamToBook[]>('POST', `${M}/orders`, { caller: owner, body: body(p) })
    assert.equal(listed.data.find((e) => e.billNo === ct.billNo)!.appointment!.appointmentNo, env.data.appointmentNo)
    assert.equal(listed.data.find((e) => e.billNo === other.billNo)!.appointment, null)
  })

  it('reschedules atomically: the new place taken and the old freed together; a full new slot changes nothing', async () => {
    const p = await newPerson(owner, '郑伟')
    const ct = await paidExam(p, '胸部CT', '平扫')
    const first = await freeSlot(owner, p, ct.billNo)
    const booked = await book(owner, p, ct.billNo, first.slot.slotId)
    assert.equal(booked.code, 200, booked.msg)
    const oldBefore = (await slotRow(first.slot.slotId)).booked
    const second = await freeSlot(owner, p, ct.billNo, 3)
    const newBefore = (await slotRow(second.slot.slotId)).booked
    const moved = await book(owner, p, ct.billNo, second.slot.slotId)
    assert.equal(moved.code, 200, moved.msg)
    assert.equal(moved.data.appointmentNo, booked.data.appointmentNo)
    assert.equal(moved.data.startTime, second.slot.startTime)
    assert.equal(moved.data.rescheduled, 1)
    assert.equal((await slotRow(first.slot.slotId)).booked, oldBefore - 1)
    assert.equal((await slotRow(second.slot.slotId)).booked, newBefore + 1)
    // moving to a full slot fails whole: the appointment stays where it was and no place moves
    const third = await freeSlot(owner, p, ct.billNo, 6)
    await db().update(hisExamSlots).set({ booked: third.slot.capacity }).where(eq(hisExamSlots.id, third.slot.slotId))
    assertBadInput(await book(owner, p, ct.billNo, third.slot.slotId), SLOT_FULL)
    assert.equal((await slotRow(second.slot.slotId)).booked, newBefore + 1)
    const [row] = await db().select().from(hisExamAppointments).where(eq(hisExamAppointments.appointmentNo, booked.data.appointmentNo))
    assert.equal(row!.slotId, second.slot.slotId)
    assert.equal((await db().select().from(hisExamAppointments).where(and(eq(hisExamAppointments.billNo, ct.billNo), eq(hisExamAppointments.status, 'booked')))).length, 1)
  })
})

describe('POST /dld-palm/api/report/med-tech/appointment/detail, /cancel and /records', () => {
  let p: Person
  let appointment: ExamAppointmentDetail
  let slotId = 0
  before(async () => {
    p = await newPerson(owner, '冯敏')
    const bill = await paidExam(p, '电子胃镜检查', '普通')
    const { slot } = await freeSlot(owner, p, bill.billNo)
    slotId = slot.slotId
    appointment = (await book(owner, p, bill.billNo, slot.slotId)).data
  })

  it('answer 401 without a sign-in', async () => {
    for (const u of ['detail', 'cancel', 'records']) await assertUnauthorisedCall(t.app, 'POST', `${M}/${u}`, { body: body(p, { appointmentNo: appointment.appointmentNo }) })
  })

  it('refuse a malformed appointment number', async () => {
    assertBadInput(await call('POST', `${M}/detail`, { caller: owner, body: body(p, { appointmentNo: 'a b' }) }))
    assertBadInput(await call('POST', `${M}/cancel`, { caller: owner, body: body(p) }))
  })

  it('answer 2999 for someone else’s appointment, whichever patient is named', async () => {
    assertForbidden(await call('POST', `${M}/detail`, { caller: stranger, body: body(p, { appointmentNo: appointment.appointmentNo }) }))
    assertForbidden(await call('POST', `${M}/detail`, { caller: stranger, body: body(strangerPerson, { appointmentNo: appointment.appointmentNo }) }))
    assertForbidden(await call('POST', `${M}/cancel`, { caller: stranger, body: body(strangerPerson, { appointmentNo: appointment.appointmentNo }) }))
    assertForbidden(await call('POST', `${M}/records`, { caller: stranger, body: body(p) }))
    assert.equal((await call<ExamAppointmentDetail>('POST', `${M}/detail`, { caller: owner, body: body(p, { appointmentNo: appointment.appointmentNo }) })).data.status, 'booked')
  })

  it('show the appointment with its preparation notes, list it, and cancel it, freeing the place', async () => {
    const detail = await call<ExamAppointmentDetail>('POST', `${M}/detail`, { caller: owner, body: body(p, { appointmentNo: appointment.appointmentNo }) })
    assert.equal(detail.code, 200, detail.msg)
    assert.equal(detail.data.place, '内镜中心')
    assert.ok(detail.data.preparation.includes('检查前空腹8小时（禁食禁水）'))
    assert.deepEqual(detail.data.items, ['电子胃镜检查（普通）'])
    const records = await call<ExamAppointmentDetail[]>('POST', `${M}/records`, { caller: owner, body: body(p) })
    assert.deepEqual(records.data.map((r) => r.appointmentNo), [appointment.appointmentNo])
    const booked = (await slotRow(slotId)).booked
    const cancelled = await call<ExamAppointmentDetail>('POST', `${M}/cancel`, { caller: owner, body: body(p, { appointmentNo: appointment.appointmentNo }) })
    assert.equal(cancelled.code, 200, cancelled.msg)
    assert.equal(cancelled.data.statusText, '已取消')
    assert.equal(cancelled.data.changeable, false)
    assert.equal((await slotRow(slotId)).booked, booked - 1)
    // again: answered as it is, the place not freed twice
    assert.equal((await call<ExamAppointmentDetail>('POST', `${M}/cancel`, { caller: owner, body: body(p, { appointmentNo: appointment.appointmentNo }) })).data.status, 'cancelled')
    assert.equal((await slotRow(slotId)).booked, booked - 1)
  })

  it('records every read and change in the audit log with the patient', async () => {
    const rows = await db().select().from(auditLog).where(and(eq(auditLog.subject, 'medtech'), eq(auditLog.patientId, p.patientId)))
    // the spec's POST reads are recorded as reads, the cancel as a change
    assert.ok(rows.some((r) => r.route === `POST ${M}/detail` && r.actorId === owner.userId && r.action === 'read'))
    assert.ok(rows.some((r) => r.route === `POST ${M}/cancel` && r.action === 'change'))
    assert.ok(!rows.some((r) => r.actorId === stranger.userId))
  })
})

describe('the sandbox HIS console: a device’s bookings of a day', () => {
  it('shows staff the appointments of their hospital’s device, names masked; another hospital’s device is 2999', async () => {
    const p = await newPerson(owner, '韩梅梅')
    const ct = await paidExam(p, '鼻窦CT', '平扫')
    const { date, slot } = await freeSlot(owner, p, ct.billNo)
    assert.equal((await book(owner, p, ct.billNo, slot.slotId)).code, 200)
    const login = await call<StaffSession>('POST', `${P}/login`, { body: { login: '10392001', password: DEMO_STAFF_PASSWORD } })
    const desk = { headers: { authorization: `Bearer ${login.data.token}` } }
    assert.equal((await call('GET', `${P}/his/exam/devices`)).code, 401)
    const devices = await call<{ deviceId: number; deviceName: string }[]>('GET', `${P}/his/exam/devices`, { caller: desk })
    assert.ok(devices.data.some((d) => d.deviceId === slot.device.deviceId))
    const url = `${P}/his/exam/devices/${slot.device.deviceId}/bookings`
    assertBadInput(await call('GET', url, { caller: desk, query: { date: 'tomorrow' } }))
    const bookings = await call<{ patientName: string; billNo: string; startTime: string }[]>('GET', url, { caller: desk, query: { date } })
    assert.equal(bookings.code, 200, bookings.msg)
    const mine = bookings.data.find((b) => b.billNo === ct.billNo)!
    assert.equal(mine.patientName, '韩*梅')
    assert.equal(mine.startTime, slot.startTime)
    const far = await call<StaffSession>('POST', `${P}/login`, { body: { login: '10412001', password: DEMO_STAFF_PASSWORD } })
    assertForbidden(await call('GET', url, { caller: { headers: { authorization: `Bearer ${far.data.token}` } }, query: { date } }))
  })
})

// ---- races (PostgreSQL only: PGlite runs one transaction at a time) -------------------------------------------------

describe('POST /dld-palm/api/report/med-tech/appointment/order under concurrency', () => {
  it('(PostgreSQL) 500 concurrent bookings for a slot with 5 places book exactly 5', async () => {
    if (!process.env.TEST_DATABASE_URL) return
    const cipher = t.app.ctx.cipher
    const [device] = await db()
      .insert(hisExamDevices)
      .values({ hospitalCode: H, place: '放射科CT室', name: `CT并发测试机${randomBytes(3).toString('hex')}`, location: '医技楼1楼', times: '08:00-08:30', perSlot: 5, weekdays: '1234567', sort: 99 })
      .returning()
    const date = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
    const [slot] = await db().insert(hisExamSlots).values({ deviceId: device!.id, date, startTime: '08:00', endTime: '08:30', capacity: 5 }).returning()
    // 500 patients of 10 accounts (an account's hour allows 100 orders), each with a paid CT, written directly
    const accounts = await Promise.all(Array.from({ length: 10 }, () => signInUser(t.app)))
    const people = await db()
      .insert(patients)
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          userId: accounts[i % 10]!.userId,
          nameEnc: cipher.encrypt(`并发${i}`),
          idCardEnc: cipher.encrypt(newIdCard()),
          personIndex: `exam-race-${i}-${randomBytes(4).toString('hex')}`,
          mobileEnc: cipher.encrypt('13700000000'),
          sex: 1 as const,
          birthday: '1985-01-01',
          relation: '其他',
          source: 'idCard' as const,
        })),
      )
      .returning({ id: patients.id, idCardEnc: patients.idCardEnc })
    const billNos = people.map((_, i) => `BRACE${Date.now()}${String(i).padStart(4, '0')}`)
    await db()
      .insert(hisBills)
      .values(
        people.map((p, i) => ({
          hospitalCode: H,
          billNo: billNos[i]!,
          patientKey: cipher.blindIndex(`his:id:${cipher.decrypt(p.idCardEnc!)}`),
          patientNameEnc: cipher.encrypt(`并发${i}`),
          visitNo: `MZRACE${i}`,
          visitDate: today(),
          deptName: '消化内科',
          doctorName: '测试医生',
          title: 'CT检查',
          category: 'exam',
          place: '放射科CT室',
          amountFen: 18000,
          status: 'paid' as const,
          orderNo: `WINDOW${billNos[i]}`,
          paidAt: new Date(),
          orderedAt: new Date(),
        })),
      )
    const answers = await Promise.all(
      people.map((p, i) =>
        call('POST', `${M}/order`, { caller: accounts[i % 10]!, body: { hospitalCode: H, patientId: p.id, billNo: billNos[i], slotId: slot!.id, idempotencyKey: newKey('race') } }),
      ),
    )
    const ok = answers.filter((a) => a.code === 200)
    assert.equal(ok.length, 5)
    for (const a of answers.filter((x) => x.code !== 200)) assertBadInput(a, SLOT_FULL)
    assert.equal((await slotRow(slot!.id)).booked, 5)
    const booked = await db().select().from(hisExamAppointments).where(and(eq(hisExamAppointments.slotId, slot!.id), inArray(hisExamAppointments.billNo, billNos)))
    assert.equal(booked.length, 5)
  })
})

// ---- the HTTP adapter of a real HIS, against a stand-in that follows the documented contract --------------------------

describe('httpHis: examination appointments and nucleic tests over the documented contract', () => {
  const appId = 'his-app'
  const secret = 'his-secret-for-tests'
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const appointmentAnswer = {
    appointmentNo: 'YJ1',
    billNo: 'B1',
    place: '放射科CT室',
    slotId: 7,
    deviceId: 3,
    deviceName: 'CT1号机',
    location: '医技楼1楼',
    date: '2026-11-30',
    startTime: '09:00',
    endTime: '09:30',
    status: 'booked',
    rescheduled: 0,
    createdAt: '2026-11-27T02:00:00.000Z',
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      const reply = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.headers['x-app-id'] !== appId || req.headers['x-signature'] !== hmacHex(secret, raw)) return reply({ code: 401, msg: 'bad signature' })
      const body = JSON.parse(raw) as Record<string, unknown>
      const path = (req.url ?? '').replace(/^\/his/, '')
      calls.push({ path, body })
      if (path === '/exams/book') return body.slotId === 8 ? reply({ code: 1, msg: '该时段已约满' }) : reply({ code: 0, data: { appointment: appointmentAnswer } })
      if (path === '/exams/slots') return reply({ code: 0, data: { devices: [{ deviceId: 3, deviceName: 'CT1号机', location: '医技楼1楼', slots: [{ slotId: 7, startTime: '09:00', endTime: '09:30', capacity: 5, remaining: 2 }] }] } })
      if (path === '/nucleic/kinds') return reply({ code: 0, data: { kinds: [{ code: 'HS01', name: '单检', priceFen: 1600, description: '一人一管', place: '采样点' }] } })
      // a malformed answer: the test without its fields
      if (path === '/nucleic/settle') return reply({ code: 0, data: { test: { sampleNo: 'HS1' } } })
      return reply({ code: 404, msg: 'unknown' })
    })
  })
  let his: ReturnType<typeof httpHis>
  const who = { cardNo: null, idCard: '11010519800512001X', name: '张三丰' }

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    his = httpHis({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`, appId, secret })
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('signs each body, sends the contract’s fields and reads the answers', async () => {
    const made = await his.bookExam({ hospitalCode: H, patient: who, billNo: 'B1', slotId: 7, requestNo: 'k1' })
    assert.equal(made.appointmentNo, 'YJ1')
    assert.deepEqual(calls.at(-1), { path: '/exams/book', body: { hospitalCode: H, patient: who, billNo: 'B1', slotId: 7, requestNo: 'k1' } })
    const devices = await his.examSlots({ hospitalCode: H, place: '放射科CT室', date: '2026-11-30' })
    assert.equal(devices[0]!.slots[0]!.remaining, 2)
    assert.equal((await his.nucleicKinds({ hospitalCode: H }))[0]!.priceFen, 1600)
  })

  it('passes the HIS’s refusal to the patient, and takes a malformed answer for a failure that changes nothing', async () => {
    await assert.rejects(his.bookExam({ hospitalCode: H, patient: who, billNo: 'B1', slotId: 8, requestNo: 'k2' }), (e: unknown) => e instanceof AppError && e.message === '该时段已约满')
    await assert.rejects(
      t.database.db.transaction((tx) => his.nucleicSettle(tx, { hospitalCode: H, orderNo: 'P1', amountFen: 1600, paidAt: new Date(), channel: 'sandbox', tradeNo: 'T1' })),
      (e: unknown) => !(e instanceof AppError) && /without its fields/.test(String(e)),
    )
  })
})
