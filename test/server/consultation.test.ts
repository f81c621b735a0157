import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { departments, doctorFans, inquiries, onlineDoctors } from '../../server/src/db/schema'
import { acceptInquiry, finishInquiry } from '../../server/src/domain/inquiry'
import { sendMessage } from '../../server/src/domain/chat'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { ChatRecord, InquiryHistory, RecommendedDoctor } from '../../types/api/consultation'
import type { Page } from '../../types/api/hospital'
import type { Inquiry } from '../../types/api/inquiry'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, hospitalIdOf, newKey, payInquiry } from './fixtures'

const H = '/dld-hospital'
const QUICK = `${H}/inquiry/quickInquiry`
const CHRONIC = `${H}/inquiry/chronicInquiry`
const HISTORY = (id: number | string) => `${H}/im/trade/checkListRecord/${id}`
const RECOMMEND = `${H}/im/patient/recommend/doctor`
const CHAT_RECORD = (id: number | string) => `${H}/manage/order/chatRecord/${id}`
const OPEN_ORDER = `${H}/im/core/orderByDoctorAndUserId`
const PAST = `${H}/im/core/historyList`
const PAST_CHRONIC = `${H}/im/core/chronic/historyList`
const ADD = `${H}/inquiry/addInquiryInfo`
const CANCEL = `${H}/im/trade/service/im/cancel`
const HOSPITAL = '10392'

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
let hospitalId = 0
/** A clinic group of this file's own, with two departments, so the quick inquiry's choice is among known doctors. */
const dept = { group: 0, leaf: 0, empty: 0, priced: 0, otherHospital: 0 }
/** In `dept.leaf`: free and accepting (a, b), not accepting (offline); in a department of its own, a priced one (paid). */
const doc = { a: 0, b: 0, offline: 0, paid: 0 }
let patientId = 0
let strangerPatientId = 0

/** The patients this file makes up, each with an identity number of its own. */
const PATIENT = { name: '张桂兰', sex: 2, birthday: '1965-04-20', mobile: '13600004444', salt: 'consultation' } as const

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function addDept(hId: number, name: string, parentId: number | null) {
  const [row] = await db().insert(departments).values({ hospitalId: hId, parentId, name }).returning({ id: departments.id })
  return row!.id
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  hospitalId = await hospitalIdOf(t, HOSPITAL)
  const otherHospitalId = await hospitalIdOf(t, '10412')
  dept.group = await addDept(hospitalId, '慢病管理中心', null)
  dept.leaf = await addDept(hospitalId, '慢病门诊', dept.group)
  dept.empty = await addDept(hospitalId, '暂无医生门诊', dept.group)
  dept.priced = await addDept(hospitalId, '收费门诊', await addDept(hospitalId, '专家门诊中心', null))
  dept.otherHospital = await addDept(otherHospitalId, '他院门诊', null)
  doc.a = await addOnlineDoctor(t, { hospitalId, deptId: dept.leaf, name: '快问测试甲', priceFen: 0, title: '主任医师', goodRate: 99 })
  doc.b = await addOnlineDoctor(t, { hospitalId, deptId: dept.leaf, name: '快问测试乙', priceFen: 0, title: '主任医师', goodRate: 90 })
  doc.offline = await addOnlineDoctor(t, { hospitalId, deptId: dept.leaf, name: '快问测试丙', priceFen: 0, title: '主任医师', online: false, goodRate: 100 })
  doc.paid = await addOnlineDoctor(t, { hospitalId, deptId: dept.priced, name: '快问测试丁', priceFen: 1800, title: '主任医师', goodRate: 10 })
  patientId = await addPatient(t, owner.userId, PATIENT)
  strangerPatientId = await addPatient(t, stranger.userId, PATIENT)
})
after(() => t.close())

async function order(caller: Caller, pid: number, doctorId: number) {
  const env = await call<Inquiry>('POST', ADD, { caller, body: { doctorId, patientId: pid, description: '血压偏高', idempotencyKey: newKey('c') } })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

/** A consultation the doctor accepted and the patient ended (the doctor's side through the domain). */
async function finished(caller: Caller, pid: number, doctorId: number) {
  const inq = await order(caller, pid, doctorId)
  assert.equal(await acceptInquiry(db(), doctorId, inq.id, new Date()), true)
  await finishInquiry(db(), t.app.ctx.cipher, caller.userId, inq.id, new Date())
  return inq
}

const inquiriesOf = (userId: number) => db().select().from(inquiries).where(eq(inquiries.userId, userId))
const waitingOf = async (doctorId: number) => (await db().select().from(inquiries).where(and(eq(inquiries.doctorId, doctorId), eq(inquiries.status, 'waiting')))).length

describe('POST /dld-hospital/inquiry/quickInquiry', () => {
  const quick = (over: Record<string, unknown> = {}, caller: Caller = owner) =>
    call<Inquiry>('POST', QUICK, { caller, body: { hospitalCode: HOSPITAL, deptId: dept.leaf, patientId, description: '头晕乏力', idempotencyKey: newKey('c'), ...over } })

  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', QUICK, { body: { hospitalCode: HOSPITAL, patientId: 1, description: '头晕', idempotencyKey: newKey('c') } })
  })

  it('refuses an empty illness, another hospital’s department, and a department with no doctor accepting, creating nothing', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    assertBadInput(await quick({ patientId: pid, description: '  ' }, caller), /请描述您的病情/)
    assertBadInput(await quick({ patientId: pid, deptId: dept.otherHospital }, caller), '该医院没有这个科室')
    assertBadInput(await quick({ patientId: pid, deptId: dept.empty }, caller), '当前科室暂无可接诊的医生，请稍后再试或选择其他科室')
    assertBadInput(await quick({ patientId: pid, hospitalCode: '10388' }, caller), '该医院暂未开通互联网医院服务')
    assert.equal((await inquiriesOf(caller.userId)).length, 0)
  })

  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await quick({ patientId: strangerPatientId }))
    assert.equal((await inquiriesOf(owner.userId)).filter((i) => i.patientId === strangerPatientId).length, 0)
  })

  it('picks the accepting doctor with the fewest waiting inquiries, better rated on a tie; the same key answers the same inquiry', async () => {
    // a: one more waiting than b
    const base = Math.max(await waitingOf(doc.a), await waitingOf(doc.b))
    for (let i = await waitingOf(doc.a); i <= base; i++) await order(stranger, strangerPatientId, doc.a)
    for (let i = await waitingOf(doc.b); i < base; i++) await order(stranger, strangerPatientId, doc.b)
    assert.equal(await waitingOf(doc.a), (await waitingOf(doc.b)) + 1)
    const key = newKey('c')
    const env = await quick({ idempotencyKey: key })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.doctor.id, doc.b)
    assert.equal(env.data.kind, 'quick')
    assert.equal(env.data.serviceName, '快速问诊')
    assert.equal(env.data.status, 'waiting')
    // now a tie: a is better rated; through the clinic group too
    const tie = await quick({ deptId: dept.group })
    assert.equal(tie.data.doctor.id, doc.a)
    // the same attempt again answers the inquiry it made, whatever the doctors' queues are now
    const again = await quick({ idempotencyKey: key })
    assert.equal(again.data.id, env.data.id)
    assert.equal(again.data.doctor.id, doc.b)
    assert.equal((await db().select().from(inquiries).where(and(eq(inquiries.userId, owner.userId), eq(inquiries.idempotencyKey, key)))).length, 1)
    // a key used for another kind of inquiry is refused
    const used = await call('POST', ADD, { caller: owner, body: { doctorId: doc.a, patientId, description: '头晕', idempotencyKey: key } })
    assert.equal(used.code, 409)
  })

  it('picks among the hospital’s doctors without a department', async () => {
    const env = await quick({ deptId: undefined })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.hospitalCode, HOSPITAL)
    assert.equal(env.data.kind, 'quick')
  })
})

describe('POST /dld-hospital/inquiry/chronicInquiry', () => {
  const chronic = (over: Record<string, unknown> = {}, caller: Caller = owner) =>
    call<Inquiry>('POST', CHRONIC, {
      caller,
      body: { doctorId: doc.a, patientId, description: '血压控制尚可，需续药', diagnosis: '原发性高血压', medicines: ['氨氯地平片', '厄贝沙坦片'], idempotencyKey: newKey('c'), ...over },
    })

  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', CHRONIC, { body: { doctorId: 1, patientId: 1, description: 'x', diagnosis: 'x', medicines: ['x'], idempotencyKey: newKey('c') } })
  })

  it('refuses no medicines, more than 10, no diagnosis, and a doctor neither followed nor seen before, creating nothing', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    assertBadInput(await chronic({ patientId: pid, medicines: [] }, caller), /请填写需要续方的药品/)
    assertBadInput(await chronic({ patientId: pid, medicines: Array.from({ length: 11 }, (_, i) => `药品${i}`) }, caller), /续方药品最多10种/)
    assertBadInput(await chronic({ patientId: pid, diagnosis: ' ' }, caller), /请填写诊断/)
    assertBadInput(await chronic({ patientId: pid }, caller), '复诊续方仅限您关注的医生或曾为该就诊人接诊的医生')
    // a consultation never accepted is not "seen before"
    await order(caller, pid, doc.b)
    assertBadInput(await chronic({ patientId: pid, doctorId: doc.b }, caller), '复诊续方仅限您关注的医生或曾为该就诊人接诊的医生')
    assert.equal((await inquiriesOf(caller.userId)).filter((i) => i.kind === 'chronic').length, 0)
  })

  it('answers 2999 for someone else’s patient', async () => {
    await db().insert(doctorFans).values({ userId: owner.userId, doctorId: doc.a }).onConflictDoNothing()
    assertForbidden(await chronic({ patientId: strangerPatientId }))
  })

  it('renews with a followed doctor or one who saw the patient before; diagnosis and medicines kept with the illness, encrypted', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    await db().insert(doctorFans).values({ userId: caller.userId, doctorId: doc.a })
    const env = await chronic({ patientId: pid }, caller)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.kind, 'chronic')
    assert.equal(env.data.serviceName, '复诊续方')
    assert.equal(env.data.doctor.id, doc.a)
    assert.equal(env.data.description, '血压控制尚可，需续药\n诊断：原发性高血压\n续方药品：氨氯地平片、厄贝沙坦片')
    const [row] = await db().select().from(inquiries).where(eq(inquiries.id, env.data.id))
    assert.ok(!row!.descriptionEnc.includes('高血压'))
    await finished(caller, pid, doc.b)
    const seen = await chronic({ patientId: pid, doctorId: doc.b }, caller)
    assert.equal(seen.code, 200, seen.msg)
    assert.equal(seen.data.doctor.id, doc.b)
  })
})

describe('GET /dld-hospital/im/trade/checkListRecord/{id}', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', HISTORY(1))
  })

  it('refuses a bad id', async () => {
    assertBadInput(await call('GET', HISTORY('abc'), { caller: owner }))
  })

  it('answers 2999 for someone else’s inquiry and one that does not exist', async () => {
    const inq = await order(owner, patientId, doc.a)
    assertForbidden(await call('GET', HISTORY(inq.id), { caller: stranger }))
    assertForbidden(await call('GET', HISTORY(999999), { caller: owner }))
  })

  it('answers the steps of a served consultation and of one cancelled and refunded, oldest first', async () => {
    const served = await finished(owner, patientId, doc.a)
    const env = await call<InquiryHistory>('GET', HISTORY(served.id), { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.statusText, '已结束')
    assert.deepEqual(
      env.data.steps.map((s) => [s.step, s.text]),
      [
        ['created', '提交问诊'],
        ['paid', '免费问诊，无需支付'],
        ['accepted', '医生接诊'],
        ['finished', '问诊结束'],
      ],
    )
    const refunded = await order(owner, patientId, doc.paid)
    assert.deepEqual(
      (await call<InquiryHistory>('GET', HISTORY(refunded.id), { caller: owner })).data.steps.map((s) => s.step),
      ['created'],
    )
    await payInquiry(t, owner, refunded.id)
    assert.equal((await call('GET', CANCEL, { caller: owner, query: { id: String(refunded.id) } })).code, 200)
    await sandbox.settled()
    const after = await call<InquiryHistory>('GET', HISTORY(refunded.id), { caller: owner })
    assert.equal(after.data.statusText, '已退款')
    assert.deepEqual(
      after.data.steps.map((s) => [s.step, s.text]),
      [
        ['created', '提交问诊'],
        ['paid', '支付成功'],
        ['cancelled', '取消问诊'],
        ['refunding', '发起退款'],
        ['refunded', '退款成功'],
      ],
    )
    const times = after.data.steps.map((s) => new Date(s.time).getTime())
    assert.deepEqual(times, [...times].sort((a, b) => a - b))
  })
})

describe('GET /dld-hospital/im/patient/recommend/doctor', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', RECOMMEND, { query: { hospitalCode: HOSPITAL } })
  })

  it('refuses a missing hospital', async () => {
    assertBadInput(await call('GET', RECOMMEND, { caller: owner }))
  })

  it('suggests the doctors the caller consulted first (even one not accepting now), then the best rated accepting ones, at most 10', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    const seen = await addOnlineDoctor(t, { hospitalId, deptId: dept.leaf, name: '推荐测试甲', priceFen: 0, title: '主任医师', goodRate: 20 })
    await order(caller, pid, seen)
    await db().update(onlineDoctors).set({ online: false }).where(eq(onlineDoctors.doctorId, seen))
    const env = await call<RecommendedDoctor[]>('GET', RECOMMEND, { caller, query: { hospitalCode: HOSPITAL } })
    assert.equal(env.code, 200, env.msg)
    assert.ok(env.data.length <= 10 && env.data.length > 1)
    assert.equal(env.data[0]!.id, seen)
    assert.equal(env.data[0]!.consulted, true)
    const rest = env.data.slice(1)
    assert.ok(rest.every((d) => !d.consulted && d.online && d.hospitalCode === HOSPITAL))
    assert.deepEqual(
      rest.map((d) => d.goodRate),
      [...rest.map((d) => d.goodRate)].sort((a, b) => b - a),
    )
    // someone else is not told whom this caller consulted
    const theirs = await call<RecommendedDoctor[]>('GET', RECOMMEND, { caller: stranger, query: { hospitalCode: HOSPITAL } })
    assert.ok(!theirs.data.some((d) => d.id === seen))
  })
})

describe('GET /dld-hospital/manage/order/chatRecord/{id}', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', CHAT_RECORD(1))
  })

  it('refuses a bad id', async () => {
    assertBadInput(await call('GET', CHAT_RECORD('x'), { caller: owner }))
  })

  it('answers 2999 for someone else’s consultation', async () => {
    const inq = await order(owner, patientId, doc.b)
    assertForbidden(await call('GET', CHAT_RECORD(inq.id), { caller: stranger }))
    assertForbidden(await call('GET', CHAT_RECORD(999999), { caller: owner }))
  })

  it('answers the consultation’s messages, decrypted, oldest first, and none of another consultation', async () => {
    const inq = await order(owner, patientId, doc.b)
    const patient = `0_${owner.userId}`
    const doctor = `d_${doc.b}`
    const cipher = t.app.ctx.cipher
    // the server files each message under the consultation open between the two
    const send = (from: string, to: string, payload: string) => sendMessage(db(), cipher, from, { clientId: `cr-${randomBytes(6).toString('hex')}`, to, type: 'text', payload })
    await send(patient, doctor, '医生您好，我头晕')
    await send(doctor, patient, '请量一下血压')
    await db().update(inquiries).set({ status: 'finished' }).where(eq(inquiries.id, inq.id))
    await order(owner, patientId, doc.b)
    await send(patient, doctor, '另一次问诊的话')
    const env = await call<ChatRecord>('GET', CHAT_RECORD(inq.id), { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.inquiryNo, inq.inquiryNo)
    assert.equal(env.data.doctor.imAccount, doctor)
    assert.deepEqual(
      env.data.messages.map((m) => [m.from, m.payload]),
      [
        [patient, '医生您好，我头晕'],
        [doctor, '请量一下血压'],
      ],
    )
  })
})

describe('POST /dld-hospital/im/core/orderByDoctorAndUserId', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', OPEN_ORDER, { body: { doctorId: doc.a } })
  })

  it('refuses a bad doctor id or order type', async () => {
    assertBadInput(await call('POST', OPEN_ORDER, { caller: owner, body: { doctorId: 'x' } }))
    assertBadInput(await call('POST', OPEN_ORDER, { caller: owner, body: { doctorId: doc.a, orderType: 'video' } }))
  })

  it('answers 2999 for another user’s id', async () => {
    assertForbidden(await call('POST', OPEN_ORDER, { caller: owner, body: { doctorId: doc.a, userId: stranger.userId } }))
  })

  it('answers the caller’s latest open inquiry with the doctor, of the kind asked, or null', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    const none = await call<Inquiry | null>('POST', OPEN_ORDER, { caller, body: { doctorId: doc.paid } })
    assert.equal(none.code, 200, none.msg)
    assert.equal(none.data, null)
    await finished(caller, pid, doc.a)
    assert.equal((await call<Inquiry | null>('POST', OPEN_ORDER, { caller, body: { doctorId: doc.a } })).data, null)
    const open = await order(caller, pid, doc.paid)
    const env = await call<Inquiry | null>('POST', OPEN_ORDER, { caller, body: { doctorId: doc.paid, orderType: 'inquiry', userId: caller.userId } })
    assert.equal(env.data?.id, open.id)
    assert.equal(env.data?.status, 'unpaid')
    assert.equal((await call<Inquiry | null>('POST', OPEN_ORDER, { caller, body: { doctorId: doc.paid, orderType: 'chronic' } })).data, null)
    // the stranger has no open inquiry with this doctor of theirs to see
    const theirs = await call<Inquiry | null>('POST', OPEN_ORDER, { caller: stranger, body: { doctorId: doc.paid } })
    assert.notEqual(theirs.data?.id, open.id)
  })
})

describe('GET /dld-hospital/im/core/historyList and /im/core/chronic/historyList', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', PAST)
    await assertUnauthorisedCall(t.app, 'GET', PAST_CHRONIC)
  })

  it('refuses a bad page', async () => {
    assertBadInput(await call('GET', PAST, { caller: owner, query: { page: '0' } }))
    assertBadInput(await call('GET', PAST_CHRONIC, { caller: owner, query: { size: '999' } }))
  })

  it('answers the caller’s past consultations newest first, and the renewals alone; never someone else’s', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    const first = await finished(caller, pid, doc.a)
    await db().insert(doctorFans).values({ userId: caller.userId, doctorId: doc.b })
    const renewal = await call<Inquiry>('POST', CHRONIC, {
      caller,
      body: { doctorId: doc.b, patientId: pid, description: '续药', diagnosis: '2型糖尿病', medicines: ['二甲双胍片'], idempotencyKey: newKey('c') },
    })
    assert.equal(renewal.code, 200, renewal.msg)
    await acceptInquiry(db(), doc.b, renewal.data.id, new Date())
    await finishInquiry(db(), t.app.ctx.cipher, caller.userId, renewal.data.id, new Date())
    // still open, and never paid: not past consultations
    await order(caller, pid, doc.a)
    await order(caller, pid, doc.paid)
    const all = await call<Page<Inquiry>>('GET', PAST, { caller })
    assert.equal(all.code, 200, all.msg)
    assert.equal(all.data.total, 2)
    assert.deepEqual(
      all.data.records.map((r) => r.id),
      [renewal.data.id, first.id],
    )
    const chronic = await call<Page<Inquiry>>('GET', PAST_CHRONIC, { caller })
    assert.deepEqual(
      chronic.data.records.map((r) => [r.id, r.kind]),
      [[renewal.data.id, 'chronic']],
    )
    const theirs = await call<Page<Inquiry>>('GET', PAST, { caller: stranger })
    assert.ok(!theirs.data.records.some((r) => r.id === first.id || r.id === renewal.data.id))
  })
})
