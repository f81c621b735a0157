import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { diseases } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import type { Inquiry } from '../../types/api/inquiry'
import type { MedicalHistoryItem, MedicalRecord } from '../../types/api/medical'
import type { Page } from '../../types/api/hospital'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, hospitalIdOf } from './fixtures'

const H = '/dld-hospital'
const P = '/dld-doctor/api'
const DETAIL = `${H}/im/medical/his/recordDetail`
const RECORDS = `${H}/im/medical/his/record`
const BY_ORDER_NOS = `${H}/im/medical/recordByOrderNos`
const FIELDS = `${H}/common/medicalRecordFields`
const DISEASES = `${H}/common/diseaseCode`
const HISTORY = `${H}/inquiry/medical/list`
const PASSWORD = 'record-pass-3141'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

let t: TestApp
let owner: User
let stranger: User
let doctor: Caller
let doctorId = 0
let patientId = 0
let otherPatientId = 0
let strangerPatientId = 0
let pneumonia = ''
/** The owner's consultations: two finished with a record (older, newer), one in progress with a record, one without. */
const inq = { older: null as unknown as Inquiry, newer: null as unknown as Inquiry, open: null as unknown as Inquiry, bare: null as unknown as Inquiry, other: null as unknown as Inquiry }
let strangers: Inquiry

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST' | 'PUT', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

const fields = (diagnosis: string) => ({
  chiefComplaint: '咳嗽三天',
  presentIllness: '三天前受凉后咳嗽，咳白痰',
  pastHistory: '',
  allergyHistory: '无',
  diagnosis,
  advice: '多饮水，必要时复诊',
})
const record = (diagnosis: string) => ({ ...fields(diagnosis), diseaseCodes: [pneumonia] })
/** A patient of `userId`'s, with an identity number at random. */
const patientNamed = (userId: number, name: string) =>
  addPatient(t, userId, { name, sex: 1, birthday: '1980-05-12', mobile: '13600004444', idCard: idCardFor('19800512', String(100 + Math.floor(Math.random() * 800))) })

/** A free consultation (waiting at once), accepted by the doctor, optionally with a record, optionally finished. */
async function consultation(caller: User, patient: number, opts: { diagnosis?: string; finish?: boolean } = {}) {
  const env = await call<Inquiry>('POST', `${H}/inquiry/addInquiryInfo`, {
    caller,
    body: { doctorId, patientId: patient, description: '咳嗽三天', idempotencyKey: `m${randomBytes(8).toString('hex')}` },
  })
  assert.equal(env.code, 200, env.msg)
  const id = env.data.id
  assert.equal((await call('POST', `${P}/inquiries/${id}/accept`, { caller: doctor })).code, 200)
  if (opts.diagnosis) assert.equal((await call('PUT', `${P}/inquiries/${id}/record`, { caller: doctor, body: record(opts.diagnosis) })).code, 200)
  if (opts.finish) assert.equal((await call('POST', `${P}/inquiries/${id}/finish`, { caller: doctor })).code, 200)
  return env.data
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  const hospitalId = await hospitalIdOf(t, '10392')
  const [disease] = await db()
    .select({ id: diseases.id, deptId: diseases.deptId })
    .from(diseases)
    .where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '肺炎')))
  pneumonia = String(disease!.id)
  doctorId = await addOnlineDoctor(t, { hospitalId, deptId: disease!.deptId, name: '病历医生', priceFen: 0 })
  await createStaffAccount(db(), { kind: 'doctor', doctorId, login: 'MR-DOCTOR', password: PASSWORD })
  const session = await call<StaffSession>('POST', `${P}/login`, { body: { login: 'MR-DOCTOR', password: PASSWORD } })
  doctor = { headers: { authorization: `Bearer ${session.data.token}` } }
  patientId = await patientNamed(owner.userId, '孙丽华')
  otherPatientId = await patientNamed(owner.userId, '孙小明')
  strangerPatientId = await patientNamed(stranger.userId, '钱多多')
  inq.older = await consultation(owner, patientId, { diagnosis: '上呼吸道感染', finish: true })
  inq.newer = await consultation(owner, patientId, { diagnosis: '急性支气管炎', finish: true })
  inq.open = await consultation(owner, patientId, { diagnosis: '咳嗽待查' })
  inq.bare = await consultation(owner, patientId, { finish: true })
  inq.other = await consultation(owner, otherPatientId, { diagnosis: '肺炎', finish: true })
  strangers = await consultation(stranger, strangerPatientId, { diagnosis: '陌生人的诊断', finish: true })
})
after(() => t.close())

/** Workbench tokens mean nothing on the patients' calls. */
async function assertRefusesStaffToken(method: 'GET' | 'POST', url: string, opts: { body?: unknown; query?: Record<string, string> } = {}) {
  const env = await call(method, url, { caller: doctor, ...opts })
  assert.equal(env.code, 401)
  assert.equal(env.data, null)
}

describe('GET /dld-hospital/im/medical/his/recordDetail', () => {
  it('needs a signed-in user with a bound mobile (a workbench token is none)', async () => {
    await assertUnauthorisedCall(t.app, 'GET', DETAIL, { query: { imOrderNo: inq.older.inquiryNo } })
    await assertRefusesStaffToken('GET', DETAIL, { query: { imOrderNo: inq.older.inquiryNo } })
  })

  it('refuses a missing or malformed number', async () => {
    assertBadInput(await call('GET', DETAIL, { caller: owner }), /imOrderNo/)
    assertBadInput(await call('GET', DETAIL, { caller: owner, query: { imOrderNo: "I1' or 1=1" } }), /订单号不正确/)
  })

  it('answers 2999 for someone else’s consultation and one that does not exist', async () => {
    assertForbidden(await call('GET', DETAIL, { caller: stranger, query: { imOrderNo: inq.older.inquiryNo } }))
    assertForbidden(await call('GET', DETAIL, { caller: owner, query: { imOrderNo: strangers.inquiryNo } }))
    assertForbidden(await call('GET', DETAIL, { caller: owner, query: { imOrderNo: 'I20990101000000000000' } }))
  })

  it('answers the record the doctor wrote, and null for a consultation without one', async () => {
    const env = await call<MedicalRecord>('GET', DETAIL, { caller: owner, query: { imOrderNo: inq.older.inquiryNo } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.imOrderNo, inq.older.inquiryNo)
    assert.equal(env.data.inquiryId, inq.older.id)
    assert.equal(env.data.patientName, '孙*华')
    assert.equal(env.data.doctorName, '病历医生')
    assert.equal(env.data.hospitalName, '示范市第一人民医院')
    assert.deepEqual(env.data.fields, fields('上呼吸道感染'))
    assert.deepEqual(env.data.diseases.map((d) => [d.code, d.name]), [[pneumonia, '肺炎']])
    const none = await call('GET', DETAIL, { caller: owner, query: { imOrderNo: inq.bare.inquiryNo } })
    assert.equal(none.code, 200, none.msg)
    assert.equal(none.data, null)
  })
})

describe('GET /dld-hospital/im/medical/his/record', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', RECORDS, { query: { patientId: String(patientId) } })
    await assertRefusesStaffToken('GET', RECORDS)
  })

  it('refuses a patient id that is not one, and an over-large page', async () => {
    assertBadInput(await call('GET', RECORDS, { caller: owner, query: { patientId: 'abc' } }), /patientId/)
    assertBadInput(await call('GET', RECORDS, { caller: owner, query: { size: '500' } }), /size/)
  })

  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await call('GET', RECORDS, { caller: owner, query: { patientId: String(strangerPatientId) } }))
  })

  it('answers one patient’s records newest first, or all of the caller’s', async () => {
    const env = await call<Page<MedicalRecord>>('GET', RECORDS, { caller: owner, query: { patientId: String(patientId) } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      env.data.records.map((r) => r.imOrderNo),
      [inq.open.inquiryNo, inq.newer.inquiryNo, inq.older.inquiryNo],
    )
    assert.equal(env.data.total, 3)
    const all = await call<Page<MedicalRecord>>('GET', RECORDS, { caller: owner })
    assert.equal(all.data.total, 4)
    assert.ok(!all.data.records.some((r) => r.imOrderNo === strangers.inquiryNo))
    const paged = await call<Page<MedicalRecord>>('GET', RECORDS, { caller: owner, query: { patientId: String(patientId), page: '2', size: '2' } })
    assert.deepEqual(paged.data.records.map((r) => r.imOrderNo), [inq.older.inquiryNo])
  })
})

describe('POST /dld-hospital/im/medical/recordByOrderNos', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', BY_ORDER_NOS, { body: { orderNos: [inq.older.inquiryNo] } })
    await assertRefusesStaffToken('POST', BY_ORDER_NOS, { body: { orderNos: [inq.older.inquiryNo] } })
  })

  it('refuses no numbers, more than 20, and a malformed one', async () => {
    assertBadInput(await call('POST', BY_ORDER_NOS, { caller: owner, body: { orderNos: [] } }), /请提供订单号/)
    assertBadInput(await call('POST', BY_ORDER_NOS, { caller: owner, body: { orderNos: Array.from({ length: 21 }, (_, i) => `I${i}`) } }), /一次最多查询20个订单/)
    assertBadInput(await call('POST', BY_ORDER_NOS, { caller: owner, body: { orderNos: ['I-1'] } }), /订单号不正确/)
  })

  it('answers 2999 when any number is someone else’s', async () => {
    assertForbidden(await call('POST', BY_ORDER_NOS, { caller: owner, body: { orderNos: [inq.older.inquiryNo, strangers.inquiryNo] } }))
  })

  it('answers the records in the order asked, leaving out a consultation without one', async () => {
    const env = await call<MedicalRecord[]>('POST', BY_ORDER_NOS, { caller: owner, body: { orderNos: [inq.older.inquiryNo, inq.bare.inquiryNo, inq.newer.inquiryNo] } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.map((r) => [r.imOrderNo, r.fields.diagnosis]), [
      [inq.older.inquiryNo, '上呼吸道感染'],
      [inq.newer.inquiryNo, '急性支气管炎'],
    ])
  })
})

describe('GET /dld-hospital/common/medicalRecordFields', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', FIELDS)
    await assertRefusesStaffToken('GET', FIELDS)
  })

  it('answers the fields with their labels, which are required, and their lengths', async () => {
    const env = await call<{ key: string; label: string; required: boolean; maxLength: number }[]>('GET', FIELDS, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      env.data.map((f) => [f.key, f.label, f.required]),
      [
        ['chiefComplaint', '主诉', true],
        ['presentIllness', '现病史', true],
        ['pastHistory', '既往史', false],
        ['allergyHistory', '过敏史', false],
        ['diagnosis', '初步诊断', true],
        ['advice', '处理意见', true],
      ],
    )
    assert.ok(env.data.every((f) => f.maxLength > 0))
  })
})

describe('GET /dld-hospital/common/diseaseCode', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', DISEASES, { query: { hospitalCode: '10392' } })
    await assertRefusesStaffToken('GET', DISEASES, { query: { hospitalCode: '10392' } })
  })

  it('refuses a missing hospital, an over-long keyword; an unknown hospital is not found', async () => {
    assertBadInput(await call('GET', DISEASES, { caller: owner, query: { keyword: '肺' } }), /hospitalCode/)
    assertBadInput(await call('GET', DISEASES, { caller: owner, query: { hospitalCode: '10392', keyword: '肺'.repeat(21) } }), /搜索关键词不能超过20个字/)
    const unknown = await call('GET', DISEASES, { caller: owner, query: { hospitalCode: '99999' } })
    assert.deepEqual([unknown.code, unknown.msg, unknown.data], [404, '医院不存在', null])
  })

  it('answers the hospital’s diseases matching the keyword, at most 20, with the codes records use', async () => {
    const env = await call<{ code: string; name: string; deptName: string }[]>('GET', DISEASES, { caller: owner, query: { hospitalCode: '10392', keyword: '肺' } })
    assert.equal(env.code, 200, env.msg)
    assert.ok(env.data.length > 0)
    assert.ok(env.data.every((d) => d.name.includes('肺')))
    assert.ok(env.data.some((d) => d.code === pneumonia && d.deptName))
    const all = await call<unknown[]>('GET', DISEASES, { caller: owner, query: { hospitalCode: '10392' } })
    assert.equal(all.data.length, 20)
    // a keyword with LIKE's wildcards is only text
    assert.deepEqual((await call('GET', DISEASES, { caller: owner, query: { hospitalCode: '10392', keyword: '%' } })).data, [])
  })
})

describe('GET /dld-hospital/inquiry/medical/list', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', HISTORY, { query: { patientId: String(patientId) } })
    await assertRefusesStaffToken('GET', HISTORY, { query: { patientId: String(patientId) } })
  })

  it('refuses a missing patient id', async () => {
    assertBadInput(await call('GET', HISTORY, { caller: owner }), /patientId/)
  })

  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await call('GET', HISTORY, { caller: owner, query: { patientId: String(strangerPatientId) } }))
  })

  it('answers the patient’s finished consultations that have a record, newest first, with the diagnosis', async () => {
    const env = await call<MedicalHistoryItem[]>('GET', HISTORY, { caller: owner, query: { patientId: String(patientId) } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      env.data.map((i) => [i.inquiryNo, i.diagnosis]),
      [
        [inq.newer.inquiryNo, '急性支气管炎'],
        [inq.older.inquiryNo, '上呼吸道感染'],
      ],
    )
    assert.equal(env.data[0]!.doctorId, doctorId)
    assert.equal(env.data[0]!.doctorName, '病历医生')
    assert.ok(env.data[0]!.finishedAt)
    assert.deepEqual(env.data[0]!.diseases.map((d) => d.name), ['肺炎'])
  })
})
