import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { chatMessages, diseases, doctors, hospitals, inquiries, onlineDoctorServices, onlineDoctors, patients, physicianAssistants } from '../../server/src/db/schema'
import { sendMessage } from '../../server/src/domain/chat'
import { createStaffAccount } from '../../server/src/domain/staff'
import type { ChatMessage } from '../../types/api/chat'
import type { Inquiry } from '../../types/api/inquiry'
import type { ServiceMessageResult } from '../../types/api/medical'
import type { DeskInquiryDetail, StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type TestApp } from './harness'

const H = '/dld-hospital'
const P = '/dld-doctor/api'
const INTAKE = `${H}/im/trade/medicalRecord`
const SHARE = `${H}/im/medical/send/record`
const PRES = `${H}/im/medical/send/pres`
const KF = `${H}/im/medical/send/kf/msg`
const DETAIL = `${H}/inquiry/order/detail`
const PASSWORD = 'intake-pass-2718'
const INTAKE_CLOSED = '问诊已结束，无法修改问诊单'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

let t: TestApp
let owner: User
let stranger: User
let doctor: Caller
let doctorId = 0
let paidDoctorId = 0
let hospitalId = 0
let pneumonia = ''
let patientId = 0
let otherPatientId = 0
let strangerPatientId = 0
/** The owner's consultations with the free doctor, and one unpaid with the paid doctor. */
const inq = {
  earlier: null as unknown as Inquiry,
  bare: null as unknown as Inquiry,
  otherPatient: null as unknown as Inquiry,
  open: null as unknown as Inquiry,
  unpaid: null as unknown as Inquiry,
}
let strangers: Inquiry
let strangersOpen: Inquiry

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST' | 'PUT', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function addPatient(userId: number, name: string) {
  const cipher = t.app.ctx.cipher
  const idCard = idCardFor('19850301', String(100 + Math.floor(Math.random() * 800)))
  const [row] = await db()
    .insert(patients)
    .values({
      userId,
      nameEnc: cipher.encrypt(name),
      idCardEnc: cipher.encrypt(idCard),
      personIndex: cipher.blindIndex(`${idCard}:${randomBytes(4).toString('hex')}`),
      mobileEnc: cipher.encrypt('13600005555'),
      sex: 2,
      birthday: '1985-03-01',
      relation: '本人',
      source: 'idCard',
    })
    .returning({ id: patients.id })
  return row!.id
}

async function addOnlineDoctor(deptId: number, name: string, priceFen: number) {
  const [d] = await db().insert(doctors).values({ hospitalId, deptId, name, title: '主治医师' }).returning({ id: doctors.id })
  await db().insert(onlineDoctors).values({ doctorId: d!.id, hospitalId, level: 4, online: true })
  await db().insert(onlineDoctorServices).values({ doctorId: d!.id, type: 'text', priceFen })
  return d!.id
}

/** An inquiry ordered by `caller`; with the free doctor it waits at once, then optionally accepted, recorded, finished. */
async function consultation(caller: User, patient: number, opts: { doctor?: number; accept?: boolean; diagnosis?: string; finish?: boolean } = {}) {
  const env = await call<Inquiry>('POST', `${H}/inquiry/addInquiryInfo`, {
    caller,
    body: { doctorId: opts.doctor ?? doctorId, patientId: patient, description: '头痛两天', idempotencyKey: `i${randomBytes(8).toString('hex')}` },
  })
  assert.equal(env.code, 200, env.msg)
  const id = env.data.id
  if (opts.accept || opts.diagnosis || opts.finish) assert.equal((await call('POST', `${P}/inquiries/${id}/accept`, { caller: doctor })).code, 200)
  if (opts.diagnosis) {
    const record = {
      chiefComplaint: '头痛两天',
      presentIllness: '两天前起头痛，无发热',
      pastHistory: '',
      allergyHistory: '青霉素过敏',
      diagnosis: opts.diagnosis,
      advice: '注意休息，规律作息',
      diseaseCodes: [pneumonia],
    }
    assert.equal((await call('PUT', `${P}/inquiries/${id}/record`, { caller: doctor, body: record })).code, 200)
  }
  if (opts.finish) assert.equal((await call('POST', `${P}/inquiries/${id}/finish`, { caller: doctor })).code, 200)
  return (await call<Inquiry>('GET', DETAIL, { caller, query: { id: String(id) } })).data
}

const rawIntake = async (id: number) => (await db().select({ intakeEnc: inquiries.intakeEnc }).from(inquiries).where(eq(inquiries.id, id)))[0]!.intakeEnc
const messagesFrom = (userId: number) => db().select().from(chatMessages).where(eq(chatMessages.fromAccount, `0_${userId}`)).orderBy(asc(chatMessages.id))

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  const [h] = await db().select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, '10392'))
  hospitalId = h!.id
  const [disease] = await db()
    .select({ id: diseases.id, deptId: diseases.deptId })
    .from(diseases)
    .where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '肺炎')))
  pneumonia = String(disease!.id)
  doctorId = await addOnlineDoctor(disease!.deptId, '问诊单医生', 0)
  paidDoctorId = await addOnlineDoctor(disease!.deptId, '问诊单收费医生', 2000)
  await createStaffAccount(db(), { kind: 'doctor', doctorId, login: 'INTAKE-DOCTOR', password: PASSWORD })
  const session = await call<StaffSession>('POST', `${P}/login`, { body: { login: 'INTAKE-DOCTOR', password: PASSWORD } })
  doctor = { headers: { authorization: `Bearer ${session.data.token}` } }
  patientId = await addPatient(owner.userId, '赵雅琴')
  otherPatientId = await addPatient(owner.userId, '赵小宝')
  strangerPatientId = await addPatient(stranger.userId, '李四海')
  inq.earlier = await consultation(owner, patientId, { diagnosis: '紧张性头痛', finish: true })
  inq.bare = await consultation(owner, patientId, { finish: true })
  inq.otherPatient = await consultation(owner, otherPatientId, { diagnosis: '偏头痛', finish: true })
  strangers = await consultation(stranger, strangerPatientId, { diagnosis: '陌生人的诊断', finish: true })
  strangersOpen = await consultation(stranger, strangerPatientId)
  inq.unpaid = await consultation(owner, patientId, { doctor: paidDoctorId })
  inq.open = await consultation(owner, patientId)
  assert.equal(inq.open.status, 'waiting')
  assert.equal(inq.unpaid.status, 'unpaid')
})
after(() => t.close())

const intake = (over: Record<string, unknown> = {}) => ({
  inquiryId: inq.open.id,
  visitedOffline: true,
  offlineDiagnosis: '偏头痛',
  pastHistory: '高血压五年',
  allergyHistory: '青霉素过敏',
  currentMedication: '硝苯地平缓释片',
  ...over,
})

describe('POST /dld-hospital/im/trade/medicalRecord', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', INTAKE, { body: intake() })
    assert.equal(await rawIntake(inq.open.id), null)
  })

  it('refuses a missing answer to 线下是否就诊, an over-long field and a bad id, changing nothing', async () => {
    const { visitedOffline: _, ...noVisit } = intake()
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: noVisit }), /请选择线下是否就诊/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ visitedOffline: 'yes' }) }), /请选择线下是否就诊/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ offlineDiagnosis: '偏'.repeat(101) }) }), /线下诊断不能超过100个字/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ pastHistory: '高'.repeat(201) }) }), /既往史不能超过200个字/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ allergyHistory: '敏'.repeat(201) }) }), /过敏史不能超过200个字/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ currentMedication: '药'.repeat(201) }) }), /正在使用的药物不能超过200个字/)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ inquiryId: 'abc' }) }), /inquiryId/)
    assert.equal(await rawIntake(inq.open.id), null)
  })

  it('answers 2999 for someone else’s inquiry and one that does not exist, changing nothing', async () => {
    assertForbidden(await call('POST', INTAKE, { caller: owner, body: intake({ inquiryId: strangersOpen.id }) }))
    assertForbidden(await call('POST', INTAKE, { caller: stranger, body: intake() }))
    assertForbidden(await call('POST', INTAKE, { caller: owner, body: intake({ inquiryId: 99_999_999 }) }))
    assert.equal(await rawIntake(strangersOpen.id), null)
    assert.equal(await rawIntake(inq.open.id), null)
  })

  it('saves the 问诊单 encrypted at rest and shows it to the patient and the doctor; saving again replaces it', async () => {
    const before = await call<DeskInquiryDetail>('GET', `${P}/inquiries/${inq.open.id}`, { caller: doctor })
    assert.equal(before.data.intake, null)

    const env = await call<Inquiry>('POST', INTAKE, { caller: owner, body: intake({ pastHistory: '  高血压五年  ' }) })
    assert.equal(env.code, 200, env.msg)
    const { updatedAt, ...shown } = env.data.intake!
    assert.deepEqual(shown, { visitedOffline: true, offlineDiagnosis: '偏头痛', pastHistory: '高血压五年', allergyHistory: '青霉素过敏', currentMedication: '硝苯地平缓释片' })
    assert.ok(!Number.isNaN(Date.parse(updatedAt)))

    const raw = await rawIntake(inq.open.id)
    assert.ok(raw)
    for (const text of ['偏头痛', '高血压', '青霉素', '硝苯地平']) assert.ok(!raw.includes(text), `${text} stored in clear`)
    assert.deepEqual(JSON.parse(t.app.ctx.cipher.decrypt(raw)), env.data.intake)

    const detail = await call<Inquiry>('GET', DETAIL, { caller: owner, query: { id: String(inq.open.id) } })
    assert.deepEqual(detail.data.intake, env.data.intake)
    const desk = await call<DeskInquiryDetail>('GET', `${P}/inquiries/${inq.open.id}`, { caller: doctor })
    assert.equal(desk.code, 200, desk.msg)
    assert.deepEqual(desk.data.intake, env.data.intake)

    // not seen offline: the offline diagnosis is not kept; empty fields read ''
    const again = await call<Inquiry>('POST', INTAKE, {
      caller: owner,
      body: { inquiryId: inq.open.id, visitedOffline: false, offlineDiagnosis: '偏头痛', allergyHistory: '无' },
    })
    assert.equal(again.code, 200, again.msg)
    assert.deepEqual(
      { ...again.data.intake, updatedAt: '' },
      { visitedOffline: false, offlineDiagnosis: '', pastHistory: '', allergyHistory: '无', currentMedication: '', updatedAt: '' },
    )
    assert.deepEqual((await call<DeskInquiryDetail>('GET', `${P}/inquiries/${inq.open.id}`, { caller: doctor })).data.intake, again.data.intake)
  })

  it('may be filled in before paying and while the doctor serves', async () => {
    const unpaid = await call<Inquiry>('POST', INTAKE, { caller: owner, body: intake({ inquiryId: inq.unpaid.id }) })
    assert.equal(unpaid.code, 200, unpaid.msg)
    assert.equal(unpaid.data.intake!.allergyHistory, '青霉素过敏')
    const serving = await consultation(owner, patientId, { accept: true })
    assert.equal(serving.status, 'inProgress')
    const env = await call<Inquiry>('POST', INTAKE, { caller: owner, body: intake({ inquiryId: serving.id }) })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.intake!.currentMedication, '硝苯地平缓释片')
    assert.equal((await call('GET', `${H}/im/trade/service/im/user/close`, { caller: owner, query: { id: String(serving.id) } })).code, 200)
  })

  it('is refused once the inquiry has ended or was cancelled, changing nothing', async () => {
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ inquiryId: inq.bare.id }) }), INTAKE_CLOSED)
    assert.equal(await rawIntake(inq.bare.id), null)
    const cancelled = await consultation(owner, patientId, { doctor: paidDoctorId })
    assert.equal((await call('GET', `${H}/im/trade/service/im/cancel`, { caller: owner, query: { id: String(cancelled.id) } })).code, 200)
    assertBadInput(await call('POST', INTAKE, { caller: owner, body: intake({ inquiryId: cancelled.id }) }), INTAKE_CLOSED)
    assert.equal(await rawIntake(cancelled.id), null)
  })
})

describe('POST /dld-hospital/im/medical/send/record', () => {
  const share = (over: Record<string, unknown> = {}) => ({ inquiryId: inq.open.id, imOrderNo: inq.earlier.inquiryNo, ...over })

  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', SHARE, { body: share() })
  })

  it('refuses bad input, a consultation without a record, another patient’s record and an ended consultation, sending nothing', async () => {
    const sentBefore = (await messagesFrom(owner.userId)).length
    assertBadInput(await call('POST', SHARE, { caller: owner, body: { imOrderNo: inq.earlier.inquiryNo } }), /inquiryId/)
    assertBadInput(await call('POST', SHARE, { caller: owner, body: share({ imOrderNo: "I1' or 1=1" }) }), /订单号不正确/)
    assertBadInput(await call('POST', SHARE, { caller: owner, body: share({ imOrderNo: inq.bare.inquiryNo }) }), '该问诊暂无病历')
    assertBadInput(await call('POST', SHARE, { caller: owner, body: share({ imOrderNo: inq.otherPatient.inquiryNo }) }), '只能发送本次就诊人的病历')
    assertBadInput(await call('POST', SHARE, { caller: owner, body: share({ inquiryId: inq.bare.id }) }), '问诊未在进行中，无法发送病历')
    assertBadInput(await call('POST', SHARE, { caller: owner, body: share({ inquiryId: inq.unpaid.id }) }), '问诊未在进行中，无法发送病历')
    assert.equal((await messagesFrom(owner.userId)).length, sentBefore)
  })

  it('answers 2999 for someone else’s consultation or record, sending nothing', async () => {
    const sentBefore = (await messagesFrom(owner.userId)).length
    assertForbidden(await call('POST', SHARE, { caller: owner, body: share({ imOrderNo: strangers.inquiryNo }) }))
    assertForbidden(await call('POST', SHARE, { caller: owner, body: share({ inquiryId: strangersOpen.id }) }))
    assertForbidden(await call('POST', SHARE, { caller: owner, body: share({ imOrderNo: 'I20990101000000000000' }) }))
    assertForbidden(await call('POST', SHARE, { caller: stranger, body: share({ inquiryId: strangersOpen.id }) }))
    assert.equal((await messagesFrom(owner.userId)).length, sentBefore)
    assert.equal((await messagesFrom(stranger.userId)).length, 0)
  })

  it('sends the record’s summary to the consultation’s doctor as the patient, once however often it is sent', async () => {
    const env = await call<ChatMessage>('POST', SHARE, { caller: owner, body: share() })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.from, `0_${owner.userId}`)
    assert.equal(env.data.to, `d_${doctorId}`)
    assert.equal(env.data.type, 'text')
    const lines = env.data.payload.split('\n')
    assert.match(lines[0]!, /^【历史病历】\d{4}-\d{2}-\d{2} 示范市第一人民医院 \S+ 问诊单医生医生$/)
    assert.deepEqual(lines.slice(1), ['诊断：紧张性头痛', '处理意见：注意休息，规律作息'])

    const again = await call<ChatMessage>('POST', SHARE, { caller: owner, body: share() })
    assert.equal(again.code, 200, again.msg)
    assert.equal(again.data.id, env.data.id)

    const stored = (await messagesFrom(owner.userId)).filter((m) => m.toAccount === `d_${doctorId}`)
    assert.equal(stored.length, 1)
    assert.equal(stored[0]!.orderNo, inq.open.inquiryNo)
    assert.ok(!stored[0]!.payloadEnc.includes('紧张性头痛'))
    assert.equal(t.app.ctx.cipher.decrypt(stored[0]!.payloadEnc), env.data.payload)

    // the doctor reads it in the consultation's chat
    const [first] = await db().select().from(chatMessages).where(eq(chatMessages.id, Number(env.data.id)))
    assert.equal(first!.toAccount, `d_${doctorId}`)
  })
})

describe('POST /dld-hospital/im/medical/send/pres', () => {
  const request = (over: Record<string, unknown> = {}) => ({ inquiryId: inq.open.id, medicines: ['苯磺酸氨氯地平片', '阿司匹林肠溶片'], note: '血压平稳', ...over })

  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', PRES, { body: request() })
  })

  it('refuses no medicines, too many, a blank name and an ended or unpaid consultation, sending nothing', async () => {
    const sentBefore = (await messagesFrom(owner.userId)).length
    assertBadInput(await call('POST', PRES, { caller: owner, body: request({ medicines: [] }) }), /请填写需要续方的药品/)
    assertBadInput(await call('POST', PRES, { caller: owner, body: request({ medicines: Array.from({ length: 11 }, (_, i) => `药${i}`) }) }), /最多10种药品/)
    assertBadInput(await call('POST', PRES, { caller: owner, body: request({ medicines: ['  '] }) }), /药品名称不能为空/)
    assertBadInput(await call('POST', PRES, { caller: owner, body: request({ inquiryId: inq.bare.id }) }), '问诊未在进行中，无法发送续方申请')
    assertBadInput(await call('POST', PRES, { caller: owner, body: request({ inquiryId: inq.unpaid.id }) }), '问诊未在进行中，无法发送续方申请')
    assert.equal((await messagesFrom(owner.userId)).length, sentBefore)
  })

  it('answers 2999 for someone else’s consultation, sending nothing', async () => {
    assertForbidden(await call('POST', PRES, { caller: owner, body: request({ inquiryId: strangersOpen.id }) }))
    assert.equal((await messagesFrom(stranger.userId)).length, 0)
  })

  it('lists the medicines to the consultation’s doctor, once however often the same request is sent', async () => {
    const env = await call<ChatMessage>('POST', PRES, { caller: owner, body: request() })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual([env.data.from, env.data.to], [`0_${owner.userId}`, `d_${doctorId}`])
    assert.equal(env.data.payload, '【续方申请】\n药品：苯磺酸氨氯地平片、阿司匹林肠溶片\n说明：血压平稳')
    const again = await call<ChatMessage>('POST', PRES, { caller: owner, body: request() })
    assert.equal(again.data.id, env.data.id)
    const other = await call<ChatMessage>('POST', PRES, { caller: owner, body: request({ medicines: ['二甲双胍片'], note: undefined }) })
    assert.equal(other.data.payload, '【续方申请】\n药品：二甲双胍片')
    assert.notEqual(other.data.id, env.data.id)
    const stored = (await messagesFrom(owner.userId)).filter((m) => m.clientId.startsWith(`pres-${inq.open.id}-`))
    assert.equal(stored.length, 2)
    assert.ok(stored.every((m) => m.orderNo === inq.open.inquiryNo && !m.payloadEnc.includes('阿司匹林')))
  })
})

describe('POST /dld-hospital/im/medical/send/kf/msg', () => {
  let assistants: { id: number; name: string }[] = []
  const toAssistants = async (userId: number) => (await messagesFrom(userId)).filter((m) => m.toAccount.startsWith('a_'))

  before(async () => {
    assistants = await db()
      .select({ id: physicianAssistants.id, name: physicianAssistants.name })
      .from(physicianAssistants)
      .where(eq(physicianAssistants.hospitalId, hospitalId))
      .orderBy(asc(physicianAssistants.sort), asc(physicianAssistants.id))
    assert.ok(assistants.length >= 2)
  })

  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', KF, { body: { hospitalCode: '10392', content: '请问几点上班' } })
  })

  it('refuses empty or over-long content, a bad clientId, an unknown hospital and one without customer service, sending nothing', async () => {
    assertBadInput(await call('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '   ' } }), /请输入消息内容/)
    assertBadInput(await call('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '问'.repeat(501) } }), /消息不能超过500个字/)
    assertBadInput(await call('POST', KF, { caller: owner, body: { content: '你好' } }), /hospitalCode/)
    assertBadInput(await call('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '你好', clientId: 'x' } }), /消息编号不正确/)
    const unknown = await call('POST', KF, { caller: owner, body: { hospitalCode: 'NO-SUCH', content: '你好' } })
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
    await db().insert(hospitals).values({ code: 'KF-NONE', name: '无客服医院', isInternet: true, homePageConfig: {} as never })
    assertBadInput(await call('POST', KF, { caller: owner, body: { hospitalCode: 'KF-NONE', content: '你好' } }), '该医院暂无在线客服')
    assert.equal((await toAssistants(owner.userId)).length, 0)
  })

  it('writes to the first assistant, stored encrypted, once per clientId', async () => {
    const env = await call<ServiceMessageResult>('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '  请问周末可以问诊吗  ', clientId: 'kf-owner-0001' } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.assistant, { id: assistants[0]!.id, name: assistants[0]!.name, imAccount: `a_${assistants[0]!.id}` })
    assert.equal(env.data.message.from, `0_${owner.userId}`)
    assert.equal(env.data.message.to, `a_${assistants[0]!.id}`)
    assert.equal(env.data.message.payload, '请问周末可以问诊吗')
    const again = await call<ServiceMessageResult>('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '请问周末可以问诊吗', clientId: 'kf-owner-0001' } })
    assert.equal(again.data.message.id, env.data.message.id)
    const stored = await toAssistants(owner.userId)
    assert.equal(stored.length, 1)
    assert.equal(stored[0]!.toAccount, `a_${assistants[0]!.id}`)
    assert.ok(!stored[0]!.payloadEnc.includes('周末'))
    assert.equal(t.app.ctx.cipher.decrypt(stored[0]!.payloadEnc), '请问周末可以问诊吗')
  })

  it('writes to the assistant the caller already chats with; someone else’s conversation does not count', async () => {
    const second = assistants[1]!
    await sendMessage(db(), t.app.ctx.cipher, `0_${stranger.userId}`, { clientId: 'stranger-to-second', to: `a_${second.id}`, type: 'text', payload: '你好' })
    const strangerFirst = await call<ServiceMessageResult>('POST', KF, { caller: stranger, body: { hospitalCode: '10392', content: '还在吗' } })
    assert.equal(strangerFirst.data.assistant.id, second.id)

    await sendMessage(db(), t.app.ctx.cipher, `0_${owner.userId}`, { clientId: 'owner-to-second', to: `a_${second.id}`, type: 'text', payload: '换个人问问' })
    const env = await call<ServiceMessageResult>('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '麻烦帮我看看' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.assistant.id, second.id)
    const [row] = await db().select().from(chatMessages).where(eq(chatMessages.id, Number(env.data.message.id)))
    assert.equal(row!.toAccount, `a_${second.id}`)
    assert.equal(t.app.ctx.cipher.decrypt(row!.payloadEnc), '麻烦帮我看看')
    // two calls without a clientId are two messages
    await call('POST', KF, { caller: owner, body: { hospitalCode: '10392', content: '麻烦帮我看看' } })
    assert.equal((await toAssistants(owner.userId)).filter((m) => m.toAccount === `a_${second.id}`).length, 3)
  })
})
