import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, asc, count, eq } from 'drizzle-orm'
import {
  auditLog,
  chatMessages,
  diseases,
  drugs,
  hospitalConfigs,
  inquiries,
  pharmacists,
  pharmacyOrders,
  pharmacyStores,
  physicianAssistants,
  prescriptions,
  storeStock,
} from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import { orderablePrescriptionForOrder } from '../../server/src/domain/prescription/order'
import { AppError } from '../../server/src/errors'
import type { Inquiry } from '../../types/api/inquiry'
import type { Page } from '../../types/api/hospital'
import type { DiagnosisTemplate, DrugInfo, Prescription, PrescriptionCard, PrescriptionSummary, UsedDrug, WritePrescriptionInput } from '../../types/api/pharmacy'
import type { StaffSession } from '../../types/api/workbench'
import { DEMO, assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, hospitalIdOf, newKey } from './fixtures'

const P = '/dld-doctor/api'
const H = '/dld-hospital'
const R = '/dld-rpflow/api'
const PASSWORD = 'pres-pass-3141'
const DAY = 86_400_000

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

let t: TestApp
let owner: User
let stranger: User
let patientId = 0
let strangerPatientId = 0
let hospitalId = 0
let farHospitalId = 0
/** Doctors made up for this file at 10392 (free consultations: waiting at once), each with a workbench account. */
const doc = { a: 0, b: 0 }
const desk = {} as Record<'a' | 'b' | 'assistant' | 'pharmacist' | 'pharmacist2' | 'farPharmacist', Caller>
/** The formulary of 10392 by code, and one drug of 10412. */
const drug: Record<string, number> = {}
let farDrug = 0
const disease = { pneumonia: '', hypertension: '', elsewhere: '' }

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST' | 'PUT', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const prescriptionCount = async () => (await db().select({ n: count() }).from(prescriptions))[0]!.n

async function signInDesk(login: string): Promise<Caller> {
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

/** A free consultation of `doctorId` the patient ordered, accepted by that doctor unless `waiting`. */
async function consultation(doctor: 'a' | 'b' = 'a', opts: { waiting?: boolean; caller?: User; patient?: number } = {}): Promise<Inquiry> {
  const env = await call<Inquiry>('POST', `${H}/inquiry/addInquiryInfo`, {
    caller: opts.caller ?? owner,
    body: { doctorId: doc[doctor], patientId: opts.patient ?? patientId, description: '咳嗽一周，偶有低热', idempotencyKey: newKey('p') },
  })
  assert.equal(env.code, 200, env.msg)
  assert.equal(env.data.status, 'waiting')
  if (opts.waiting) return env.data
  const accepted = await call('POST', `${P}/inquiries/${env.data.id}/accept`, { caller: desk[doctor] })
  assert.equal(accepted.code, 200, accepted.msg)
  return env.data
}

const input = (over: Partial<WritePrescriptionInput> = {}): WritePrescriptionInput => ({
  category: 'western',
  diagnoses: [{ code: disease.pneumonia, name: '肺炎' }],
  advice: '多饮水，按时服药，三天后复诊',
  renewable: false,
  lines: [
    { drugId: drug.X001!, dose: '0.5g', frequency: '每日3次', days: 7, quantity: 2 },
    { drugId: drug.X004!, dose: '0.5g', frequency: '发热时', days: 3, quantity: 1 },
  ],
  idempotencyKey: newKey('rx'),
  ...over,
})

const write = (inquiryId: number, body: unknown, caller: Caller = desk.a) => call<Prescription>('POST', `${P}/inquiries/${inquiryId}/prescriptions`, { caller, body })

async function written(inquiryId: number, over: Partial<WritePrescriptionInput> = {}, caller: Caller = desk.a) {
  const env = await write(inquiryId, input(over), caller)
  assert.equal(env.code, 200, env.msg)
  return env.data
}

async function approve(id: number, caller: Caller = desk.pharmacist) {
  const env = await call<Prescription>('POST', `${P}/review/prescriptions/${id}/approve`, { caller })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

/** A prescription approved by the pharmacist, in a new consultation of doctor a. */
async function approved(over: Partial<WritePrescriptionInput> = {}) {
  const inq = await consultation()
  return approve((await written(inq.id, over)).id)
}

/** A live pharmacy order of the prescription, written directly (placing orders has its own tests). */
async function orderOf(pres: Prescription, userId = owner.userId) {
  const [store] = await db().select({ id: pharmacyStores.id }).from(pharmacyStores).where(eq(pharmacyStores.hospitalId, hospitalId)).limit(1)
  const [row] = await db()
    .insert(pharmacyOrders)
    .values({
      orderCode: `Y${randomBytes(8).toString('hex')}`,
      userId,
      hospitalId,
      patientId: pres.patientId,
      prescriptionId: pres.id,
      source: 'prescription',
      storeId: store!.id,
      delivery: 'pickup',
      drugFeeFen: pres.drugFeeFen,
      totalFen: pres.totalFen,
      idempotencyKey: newKey('o'),
    })
    .returning({ id: pharmacyOrders.id })
  return row!.id
}

const patientAudits = async (id: number) =>
  (await db().select({ n: count() }).from(auditLog).where(and(eq(auditLog.subject, 'prescription'), eq(auditLog.actorKind, 'patient'), eq(auditLog.patientId, id))))[0]!.n

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  hospitalId = await hospitalIdOf(t, DEMO.both.code)
  farHospitalId = await hospitalIdOf(t, DEMO.internet.code)
  const [pneumonia] = await db().select({ id: diseases.id, deptId: diseases.deptId }).from(diseases).where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '肺炎')))
  const [hypertension] = await db().select({ id: diseases.id }).from(diseases).where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '高血压')))
  const [elsewhere] = await db().select({ id: diseases.id }).from(diseases).where(eq(diseases.hospitalId, farHospitalId)).limit(1)
  disease.pneumonia = String(pneumonia!.id)
  disease.hypertension = String(hypertension!.id)
  disease.elsewhere = String(elsewhere!.id)
  for (const d of await db().select({ id: drugs.id, code: drugs.code }).from(drugs).where(eq(drugs.hospitalId, hospitalId))) drug[d.code] = d.id
  farDrug = (await db().select({ id: drugs.id }).from(drugs).where(eq(drugs.hospitalId, farHospitalId)).limit(1))[0]!.id
  const deptId = pneumonia!.deptId
  doc.a = await addOnlineDoctor(t, { hospitalId, deptId, name: '处方甲', priceFen: 0 })
  doc.b = await addOnlineDoctor(t, { hospitalId, deptId, name: '处方乙', priceFen: 0 })
  const [assistant] = await db().insert(physicianAssistants).values({ hospitalId, name: '处方助理' }).returning({ id: physicianAssistants.id })
  const [ph1, ph2, far] = await db()
    .insert(pharmacists)
    .values([
      { hospitalId, name: '审方甲' },
      { hospitalId, name: '审方乙' },
      { hospitalId: farHospitalId, name: '远方药师' },
    ])
    .returning({ id: pharmacists.id })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.a, login: 'RX-A', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.b, login: 'RX-B', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'assistant', assistantId: assistant!.id, login: 'RX-ZL', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'pharmacist', pharmacistId: ph1!.id, login: '10392P91', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'pharmacist', pharmacistId: ph2!.id, login: '10392P92', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'pharmacist', pharmacistId: far!.id, login: '10412P91', password: PASSWORD })
  desk.a = await signInDesk('RX-A')
  desk.b = await signInDesk('RX-B')
  desk.assistant = await signInDesk('RX-ZL')
  desk.pharmacist = await signInDesk('10392P91')
  desk.pharmacist2 = await signInDesk('10392P92')
  desk.farPharmacist = await signInDesk('10412P91')
  patientId = await addPatient(t, owner.userId, { name: '王秀兰', sex: 2, birthday: '1980-05-06', mobile: '13600003333' })
  strangerPatientId = await addPatient(t, stranger.userId, { name: '赵建国', sex: 1, birthday: '1975-01-02', mobile: '13600004444' })
})
after(() => t.close())

describe('the workbench’s prescription calls', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', `${P}/formulary`],
    ['GET', `${P}/diagnosisTemplates`],
    ['POST', `${P}/inquiries/1/prescriptions`, {}],
    ['GET', `${P}/inquiries/1/prescriptions`],
    ['POST', `${P}/prescriptions/1/revoke`],
    ['GET', `${P}/review/prescriptions`],
    ['POST', `${P}/review/prescriptions/1/approve`],
    ['POST', `${P}/review/prescriptions/1/reject`, { reason: '用量不当' }],
  ]

  it('need a workbench token: none, a patient’s or a made-up one answers 401 and nothing', async () => {
    for (const [method, url, body] of calls)
      for (const caller of [undefined, owner, { headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` } }]) {
        const env = await call(method as 'GET', url, { caller, body })
        assert.equal(env.code, 401, `${url} answered ${env.code} ${env.msg}`)
        assert.equal(env.data, null)
      }
  })

  it('keep review to pharmacists and the consultations from them', async () => {
    assertForbidden(await call('GET', `${P}/inquiries`, { caller: desk.pharmacist, query: { status: 'waiting' } }))
    for (const caller of [desk.a, desk.assistant]) assertForbidden(await call('GET', `${P}/review/prescriptions`, { caller }))
    for (const url of [`${P}/formulary`, `${P}/diagnosisTemplates`, `${P}/inquiries/1/prescriptions`]) assertForbidden(await call('GET', url, { caller: desk.pharmacist }))
  })
})

describe('GET /dld-doctor/api/formulary and /diagnosisTemplates', () => {
  it('answer the doctor’s hospital’s medicines by keyword and category', async () => {
    const all = await call<DrugInfo[]>('GET', `${P}/formulary`, { caller: desk.a })
    assert.equal(all.code, 200, all.msg)
    assert.ok(all.data.length >= 17)
    assert.ok(all.data.every((d) => drug[d.code] === d.id))
    const amox = all.data.find((d) => d.code === 'X001')!
    assert.deepEqual(
      { name: amox.name, drugSpec: amox.drugSpec, drugSpecUnit: amox.drugSpecUnit, unit: amox.unit, priceFen: amox.priceFen, rx: amox.rx },
      { name: '阿莫西林胶囊', drugSpec: '0.25g*24粒', drugSpecUnit: 'g', unit: '盒', priceFen: 1850, rx: true },
    )
    const found = await call<DrugInfo[]>('GET', `${P}/formulary`, { caller: desk.a, query: { keyword: '阿莫西林' } })
    assert.deepEqual(found.data.map((d) => d.code), ['X001'])
    const herbs = await call<DrugInfo[]>('GET', `${P}/formulary`, { caller: desk.a, query: { category: 'chinese' } })
    assert.deepEqual(herbs.data.map((d) => d.code), ['C001', 'C002', 'C003'])
    assert.ok(herbs.data.every((d) => d.unit === 'g'))
    assertBadInput(await call('GET', `${P}/formulary`, { caller: desk.a, query: { category: 'poison' } }), /处方类型不正确/)
    assertForbidden(await call('GET', `${P}/formulary`, { caller: desk.assistant }))
  })

  it('answer the hospital’s shared templates, whose diagnoses and medicines a prescription accepts', async () => {
    const env = await call<DiagnosisTemplate[]>('GET', `${P}/diagnosisTemplates`, { caller: desk.a })
    assert.equal(env.code, 200, env.msg)
    const pneumonia = env.data.find((x) => x.name === '社区获得性肺炎（轻症）')!
    assert.equal(pneumonia.own, false)
    assert.deepEqual(pneumonia.diagnoses, [{ code: disease.pneumonia, name: '肺炎' }])
    assert.deepEqual(pneumonia.lines.map((l) => l.drugId), [drug.X001, drug.X004])
    assert.ok(env.data.some((x) => x.name === '脾胃虚弱（中药饮片）'))
    const inq = await consultation()
    const pres = await written(inq.id, { diagnoses: pneumonia.diagnoses, lines: pneumonia.lines })
    assert.equal(pres.lines.length, 2)
    assertForbidden(await call('GET', `${P}/diagnosisTemplates`, { caller: desk.assistant }))
  })
})

describe('POST /dld-doctor/api/inquiries/:id/prescriptions', () => {
  it('writes the treating doctor’s prescription: priced lines, 3 days’ validity, under review, diagnoses and advice encrypted', async () => {
    const inq = await consultation()
    const before = Date.now()
    const pres = await written(inq.id)
    assert.match(pres.presNo, /^F\d{8}\d{12}$/)
    assert.equal(pres.inquiryId, inq.id)
    assert.equal(pres.status, 'reviewing')
    assert.equal(pres.statusText, '待审核')
    assert.equal(pres.orderable, false)
    assert.equal(pres.patientId, patientId)
    assert.equal(pres.patientName, '王*兰')
    assert.equal(pres.doctorName, '处方甲')
    assert.equal(pres.pharmacistName, '')
    assert.deepEqual(pres.diagnoses, [{ code: disease.pneumonia, name: '肺炎' }])
    assert.deepEqual(
      pres.lines.map((l) => [l.drugName, l.totalCount, l.priceFen, l.amountFen, l.unit, l.drugSpecUnit]),
      [
        ['阿莫西林胶囊', 2, 1850, 3700, '盒', 'g'],
        ['对乙酰氨基酚片', 1, 980, 980, '盒', 'g'],
      ],
    )
    assert.equal(pres.drugFeeFen, 4680)
    assert.equal(pres.diagnosisFeeFen, 0)
    assert.equal(pres.totalFen, 4680)
    const validity = new Date(pres.expiresAt).getTime() - before
    assert.ok(validity > 3 * DAY - 60_000 && validity <= 3 * DAY + 60_000, `validity ${validity}`)
    const [row] = await db().select().from(prescriptions).where(eq(prescriptions.id, pres.id))
    assert.ok(!row!.diagnosesEnc.includes('肺炎') && !row!.adviceEnc.includes('多饮水'))
  })

  it('answers the same prescription for the same key, written once', async () => {
    const inq = await consultation()
    const body = input()
    const [one, two] = await Promise.all([write(inq.id, body), write(inq.id, body)])
    assert.equal(one.code, 200, one.msg)
    assert.equal(two.code, 200, two.msg)
    assert.equal(one.data.id, two.data.id)
    assert.equal((await db().select({ n: count() }).from(prescriptions).where(eq(prescriptions.inquiryId, inq.id)))[0]!.n, 1)
    const other = await consultation()
    assert.equal((await write(other.id, body)).code, 409)
  })

  it('keeps the validity the hospital configures', async () => {
    await db().insert(hospitalConfigs).values({ hospitalId, key: 'prescriptionValidDays', value: '7' })
    try {
      const pres = await written((await consultation()).id)
      const validity = new Date(pres.expiresAt).getTime() - new Date(pres.createdAt).getTime()
      assert.equal(validity, 7 * DAY)
    } finally {
      await db().delete(hospitalConfigs).where(and(eq(hospitalConfigs.hospitalId, hospitalId), eq(hospitalConfigs.key, 'prescriptionValidDays')))
    }
  })

  it('is refused to every other role, and for a consultation not in progress, writing nothing', async () => {
    const inq = await consultation()
    const waiting = await consultation('a', { waiting: true })
    const finished = await consultation()
    assert.equal((await call('POST', `${P}/inquiries/${finished.id}/finish`, { caller: desk.a })).code, 200)
    const before = await prescriptionCount()
    // another doctor, an assistant, a pharmacist: 2999
    for (const caller of [desk.b, desk.assistant, desk.pharmacist, desk.farPharmacist]) assertForbidden(await write(inq.id, input(), caller))
    // a patient's token means nothing at the workbench, and the patients' API has no such call
    assert.equal((await write(inq.id, input(), owner)).code, 401)
    // not in progress
    assertBadInput(await write(waiting.id, input()), '问诊未在进行中，不能开具处方')
    assertBadInput(await write(finished.id, input()), '问诊未在进行中，不能开具处方')
    // a missing consultation answers like someone else's
    assertForbidden(await write(2_000_000_000, input()))
    assert.equal(await prescriptionCount(), before)
  })

  it('refuses what the rules do not allow, writing nothing', async () => {
    const inq = await consultation()
    const before = await prescriptionCount()
    const line = (code: string, quantity = 1) => ({ drugId: drug[code]!, dose: '1粒', frequency: '每日1次', days: 7, quantity })
    const refused: [Partial<WritePrescriptionInput>, RegExp][] = [
      [{ diagnoses: [] }, /请填写诊断/],
      [{ diagnoses: [{ code: '999999999', name: '胡编' }] }, /疾病编码不存在/],
      [{ diagnoses: [{ code: disease.elsewhere, name: '外院' }] }, /疾病编码不存在/],
      [{ lines: [] }, /请添加药品/],
      [{ lines: ['X001', 'X002', 'X003', 'X004', 'X005', 'X006'].map((c) => line(c)) }, /西药处方最多5种药品/],
      [{ lines: [{ ...line('X001'), drugId: farDrug }] }, /第1行药品不在本院药品目录中/],
      [{ lines: [{ ...line('X001'), drugId: 2_000_000_000 }] }, /不在本院药品目录中/],
      [{ lines: [line('X001', 11)] }, /阿莫西林胶囊的数量应为1至10盒/],
      [{ lines: [line('X001', 0)] }, /数量应大于0/],
      [{ lines: [{ ...line('X001'), days: 31 }] }, /用药天数应为1至30天/],
      [{ lines: [{ ...line('X001'), drugId: 99_999_999_999 }] }, /drugId/],
      [{ lines: [{ ...line('X001'), dose: ' ' }] }, /请填写阿莫西林胶囊的每次用量/],
      [{ lines: [line('X001'), line('X001')] }, /同一药品请合并为一行/],
      [{ lines: [line('C001', 10)] }, /黄芪不能开在西药处方中/],
      [{ category: 'chinese', lines: [line('X001')] }, /阿莫西林胶囊不能开在中药饮片处方中/],
      [{ category: 'patent', lines: [line('X001')] }, /不能开在中成药处方中/],
      [{ category: 'chinese', lines: [line('C001', 1001)] }, /黄芪的数量应为1至1000g/],
      [{ advice: '嘱'.repeat(201) }, /医嘱不能超过200个字/],
      [{ idempotencyKey: 'x' }, /请求编号/],
    ]
    for (const [over, message] of refused) assertBadInput(await write(inq.id, input(over)), message)
    assertBadInput(await write(inq.id, { ...input(), category: 'poison' }), /处方类型不正确/)
    assert.equal(await prescriptionCount(), before)
    // what the rules allow: 中成药 beside 西药, and a 中药饮片 prescription in g
    assert.equal((await written(inq.id, { lines: [line('X001'), line('Z001')] })).lines.length, 2)
    const herbs = await written(inq.id, { category: 'chinese', lines: [line('C001', 105), line('C002', 70)] })
    assert.deepEqual(herbs.lines.map((l) => [l.unit, l.totalCount, l.amountFen]), [['g', 105, 1260], ['g', 70, 1260]])
  })
})

describe('the AI triage', () => {
  it('answers no prescription, and writes none, even when asked for one', async () => {
    const before = await prescriptionCount()
    for (const text of ['发烧咳嗽，请给我开阿莫西林', '能给我开个处方吗', '高血压，开点降压药']) {
      const env = await call('POST', '/dld-palm/api/ai/triage', { caller: owner, body: { hospitalCode: DEMO.both.code, text } })
      assert.equal(env.code, 200, env.msg)
      assert.deepEqual(Object.keys(env.data).sort(), ['departments', 'disclaimer', 'emergency', 'reply', 'source'])
      assert.doesNotMatch(JSON.stringify(env.data), /阿莫西林胶囊|presNo|prescriptionId/)
    }
    assert.equal(await prescriptionCount(), before)
  })
})

describe('GET /dld-doctor/api/inquiries/:id/prescriptions and POST /prescriptions/:id/revoke', () => {
  it('lists the treating doctor’s prescriptions of the consultation, a rejected one with the reason', async () => {
    const inq = await consultation()
    const first = await written(inq.id)
    const rejected = await call<Prescription>('POST', `${P}/review/prescriptions/${first.id}/reject`, { caller: desk.pharmacist, body: { reason: '阿莫西林用量偏大' } })
    assert.equal(rejected.code, 200, rejected.msg)
    const second = await written(inq.id)
    const list = await call<Prescription[]>('GET', `${P}/inquiries/${inq.id}/prescriptions`, { caller: desk.a })
    assert.equal(list.code, 200, list.msg)
    assert.deepEqual(
      list.data.map((p) => [p.id, p.statusText, p.rejectReason]),
      [
        [second.id, '待审核', null],
        [first.id, '审核未通过', '阿莫西林用量偏大'],
      ],
    )
    for (const caller of [desk.b, desk.assistant]) assertForbidden(await call('GET', `${P}/inquiries/${inq.id}/prescriptions`, { caller }))
  })

  it('revokes its doctor’s prescription not yet ordered, and nobody else’s', async () => {
    const inq = await consultation()
    const pres = await written(inq.id)
    for (const caller of [desk.b, desk.assistant, desk.pharmacist]) assertForbidden(await call('POST', `${P}/prescriptions/${pres.id}/revoke`, { caller }))
    const revoked = await call<Prescription>('POST', `${P}/prescriptions/${pres.id}/revoke`, { caller: desk.a })
    assert.equal(revoked.code, 200, revoked.msg)
    assert.equal(revoked.data.statusText, '已撤回')
    assert.equal((await call('POST', `${P}/review/prescriptions/${pres.id}/approve`, { caller: desk.pharmacist })).code, 409)
    assertForbidden(await call('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner }))
    // ordered: no longer revocable
    const ordered = await approved()
    await orderOf(ordered)
    const env = await call('POST', `${P}/prescriptions/${ordered.id}/revoke`, { caller: desk.a })
    assert.equal(env.code, 409)
    assert.equal(env.msg, '处方已下单，无法撤回')
  })
})

describe('the pharmacist’s review', () => {
  it('lists only the pharmacist’s hospital’s prescriptions to review', async () => {
    const pres = await written((await consultation()).id)
    const mine = await call<Prescription[]>('GET', `${P}/review/prescriptions`, { caller: desk.pharmacist, query: { status: 'reviewing' } })
    assert.equal(mine.code, 200, mine.msg)
    assert.ok(mine.data.some((p) => p.id === pres.id))
    assert.ok(mine.data.every((p) => p.status === 'reviewing'))
    const far = await call<Prescription[]>('GET', `${P}/review/prescriptions`, { caller: desk.farPharmacist })
    assert.equal(far.code, 200, far.msg)
    assert.ok(!far.data.some((p) => p.id === pres.id))
    for (const verb of ['approve', 'reject']) assertForbidden(await call('POST', `${P}/review/prescriptions/${pres.id}/${verb}`, { caller: desk.farPharmacist, body: { reason: '不合理' } }))
    assertBadInput(await call('GET', `${P}/review/prescriptions`, { caller: desk.pharmacist, query: { status: 'revoked' } }))
    assertForbidden(await call('POST', `${P}/review/prescriptions/2000000000/approve`, { caller: desk.pharmacist }))
  })

  it('approves: the patient may order it, and its card reaches the consultation room from the doctor', async () => {
    const inq = await consultation()
    const pres = await written(inq.id)
    const done = await approve(pres.id)
    assert.equal(done.statusText, '审核通过')
    assert.equal(done.pharmacistName, '审方甲')
    assert.equal(done.orderable, true)
    assert.ok(done.reviewedAt)
    const [row] = await db().select({ inquiryNo: inquiries.inquiryNo }).from(inquiries).where(eq(inquiries.id, inq.id))
    const cards = (await db().select().from(chatMessages).where(eq(chatMessages.orderNo, row!.inquiryNo)).orderBy(asc(chatMessages.id))).filter((m) => m.type === 'prescription')
    assert.equal(cards.length, 1)
    assert.equal(cards[0]!.fromAccount, `d_${doc.a}`)
    assert.equal(cards[0]!.toAccount, `0_${owner.userId}`)
    const card = JSON.parse(t.app.ctx.cipher.decrypt(cards[0]!.payloadEnc)) as PrescriptionCard
    assert.deepEqual(card, { prescriptionId: pres.id, presNo: pres.presNo, diagnoses: ['肺炎'], drugNames: ['阿莫西林胶囊', '对乙酰氨基酚片'], totalFen: 4680 })
    // the patient reads it in the room's history
    const history = await call<{ messages: { type: string; payload: string }[] }>('GET', `${H}/manage/order/chatRecord/${inq.id}`, { caller: owner })
    assert.equal(history.code, 200, history.msg)
    assert.ok(history.data.messages.some((m) => m.type === 'prescription' && JSON.parse(m.payload).prescriptionId === pres.id))
    // decided once
    const again = await call('POST', `${P}/review/prescriptions/${pres.id}/approve`, { caller: desk.pharmacist })
    assert.equal(again.code, 409)
    assert.equal(again.msg, '该处方已被审核')
    assert.equal((await call('POST', `${P}/review/prescriptions/${pres.id}/reject`, { caller: desk.pharmacist2, body: { reason: '不合理' } })).code, 409)
  })

  it('rejects with a reason only, back to the doctor, never shown to the patient', async () => {
    const pres = await written((await consultation()).id)
    assertBadInput(await call('POST', `${P}/review/prescriptions/${pres.id}/reject`, { caller: desk.pharmacist, body: { reason: ' ' } }), /请填写驳回原因/)
    assertBadInput(await call('POST', `${P}/review/prescriptions/${pres.id}/reject`, { caller: desk.pharmacist, body: { reason: '因'.repeat(201) } }), /驳回原因不能超过200个字/)
    const env = await call<Prescription>('POST', `${P}/review/prescriptions/${pres.id}/reject`, { caller: desk.pharmacist, body: { reason: '诊断与用药不符' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'rejected')
    assert.equal(env.data.rejectReason, '诊断与用药不符')
    assertForbidden(await call('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner }))
    const list = await call<Page<PrescriptionSummary>>('GET', `${H}/outflow/getPresList`, { caller: owner, query: { size: '50' } })
    assert.ok(!list.data.records.some((p) => p.id === pres.id))
    const rejected = await call<Prescription[]>('GET', `${P}/review/prescriptions`, { caller: desk.pharmacist, query: { status: 'rejected' } })
    assert.equal(rejected.data[0]!.id, pres.id)
  })

  it('lets one of two pharmacists deciding at once win; the other is told it was decided', async () => {
    for (let round = 0; round < 3; round++) {
      const pres = await written((await consultation()).id)
      const [a, b] = await Promise.all([
        call<Prescription>('POST', `${P}/review/prescriptions/${pres.id}/approve`, { caller: desk.pharmacist }),
        call<Prescription>('POST', `${P}/review/prescriptions/${pres.id}/reject`, { caller: desk.pharmacist2, body: { reason: '用法不当' } }),
      ])
      assert.deepEqual([a.code, b.code].sort(), [200, 409])
      const winner = a.code === 200 ? a.data : b.data
      const [row] = await db().select().from(prescriptions).where(eq(prescriptions.id, pres.id))
      assert.equal(row!.status, winner.status)
      const cards = await db()
        .select({ n: count() })
        .from(chatMessages)
        .where(and(eq(chatMessages.type, 'prescription'), eq(chatMessages.clientId, `prescription-${pres.id}`)))
      assert.equal(cards[0]!.n, winner.status === 'approved' ? 1 : 0)
    }
  })
})

describe('the patient’s prescription calls', () => {
  const urls: [string, string, unknown?, Record<string, string>?][] = [
    ['GET', `${H}/pres/presDetail/1`],
    ['POST', `${H}/pres/getPrescriptionDetail`, { presNo: 'F1' }],
    ['GET', `${H}/pres/drugDetail`, undefined, { ids: '1' }],
    ['GET', `${H}/pres/historyDrug`],
    ['GET', `${H}/pres/order/prescriptionStatus`, undefined, { id: '1' }],
    ['GET', `${H}/outflow/getPresList`],
    ['GET', `${R}/prescription/1`],
    ['GET', `${R}/order/web/prescription/1`],
  ]

  it('need a signed-in user with a mobile', async () => {
    for (const [method, url, body, query] of urls) await assertUnauthorisedCall(t.app, method as 'GET', url, { body, query })
  })

  it('show a prescription under review as 待审核, not orderable; approved, whole and orderable; someone else’s answers 2999', async () => {
    const inq = await consultation()
    const pres = await written(inq.id)
    const waiting = await call<Prescription>('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner })
    assert.equal(waiting.code, 200, waiting.msg)
    assert.equal(waiting.data.statusText, '待审核')
    assert.equal(waiting.data.orderable, false)
    await approve(pres.id)
    const detail = await call<Prescription>('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner })
    assert.deepEqual(
      [detail.data.statusText, detail.data.orderable, detail.data.pharmacistName, detail.data.advice, detail.data.orderId],
      ['审核通过', true, '审方甲', '多饮水，按时服药，三天后复诊', null],
    )
    const byNo = await call<Prescription>('POST', `${H}/pres/getPrescriptionDetail`, { caller: owner, body: { presNo: pres.presNo } })
    assert.deepEqual(byNo.data, detail.data)
    const status = await call('GET', `${H}/pres/order/prescriptionStatus`, { caller: owner, query: { id: String(pres.id) } })
    assert.deepEqual(status.data, { id: pres.id, status: 'approved', statusText: '审核通过', orderable: true, orderId: null })
    // someone else: 2999 everywhere, and nothing of it
    assertForbidden(await call('GET', `${H}/pres/presDetail/${pres.id}`, { caller: stranger }))
    assertForbidden(await call('POST', `${H}/pres/getPrescriptionDetail`, { caller: stranger, body: { presNo: pres.presNo } }))
    assertForbidden(await call('GET', `${H}/pres/order/prescriptionStatus`, { caller: stranger, query: { id: String(pres.id) } }))
    assertForbidden(await call('GET', `${R}/prescription/${pres.id}`, { caller: stranger }))
    assertForbidden(await call('GET', `${H}/pres/presDetail/2000000000`, { caller: owner }))
    assertForbidden(await call('POST', `${H}/pres/getPrescriptionDetail`, { caller: owner, body: { presNo: 'F000' } }))
    assertBadInput(await call('GET', `${H}/pres/presDetail/abc`, { caller: owner }))
    assertBadInput(await call('POST', `${H}/pres/getPrescriptionDetail`, { caller: owner, body: {} }))
  })

  it('record every read of a prescription in the audit log, naming the patient', async () => {
    const pres = await approved()
    const reads: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', `${H}/pres/presDetail/${pres.id}`],
      ['POST', `${H}/pres/getPrescriptionDetail`, { presNo: pres.presNo }],
      ['GET', `${H}/pres/order/prescriptionStatus`, undefined, { id: String(pres.id) }],
      ['GET', `${H}/outflow/getPresList`],
      ['GET', `${H}/pres/historyDrug`, undefined, { patientId: String(patientId) }],
      ['GET', `${R}/prescription/${pres.id}`],
    ]
    for (const [method, url, body, query] of reads) {
      const before = await patientAudits(patientId)
      const env = await call(method as 'GET', url, { caller: owner, body, query })
      assert.equal(env.code, 200, `${url} ${env.msg}`)
      assert.equal(await patientAudits(patientId), before + 1, url)
    }
    // a refused read is not a read
    const before = await patientAudits(patientId)
    assertForbidden(await call('GET', `${H}/pres/presDetail/${pres.id}`, { caller: stranger }))
    assert.equal(await patientAudits(patientId), before)
  })

  it('list the user’s issued prescriptions, newest first, paged, of one patient when asked', async () => {
    const other = await addPatient(t, owner.userId, { name: '王小明', sex: 1, birthday: '2010-02-03', mobile: '13600005555' })
    const mine = await approved()
    const theirs = await consultation('a', { patient: other })
    const forOther = await written(theirs.id)
    const all = await call<Page<PrescriptionSummary>>('GET', `${H}/outflow/getPresList`, { caller: owner, query: { page: '1', size: '2' } })
    assert.equal(all.code, 200, all.msg)
    assert.deepEqual(all.data.records.map((p) => p.id), [forOther.id, mine.id])
    assert.equal(all.data.size, 2)
    assert.ok(all.data.total >= 2)
    assert.deepEqual(all.data.records[1]!.drugNames, ['阿莫西林胶囊', '对乙酰氨基酚片'])
    const one = await call<Page<PrescriptionSummary>>('GET', `${H}/outflow/getPresList`, { caller: owner, query: { patientId: String(other) } })
    assert.deepEqual(one.data.records.map((p) => [p.id, p.statusText]), [[forOther.id, '待审核']])
    assert.equal(one.data.total, 1)
    assertForbidden(await call('GET', `${H}/outflow/getPresList`, { caller: owner, query: { patientId: String(strangerPatientId) } }))
    const none = await call<Page<PrescriptionSummary>>('GET', `${H}/outflow/getPresList`, { caller: stranger })
    assert.deepEqual([none.data.records, none.data.total], [[], 0])
    assertBadInput(await call('GET', `${H}/outflow/getPresList`, { caller: owner, query: { size: '51' } }))
  })

  it('answer the medicines prescribed before, one per medicine, for approved prescriptions only', async () => {
    const patient = await addPatient(t, owner.userId, { name: '王续方', sex: 1, birthday: '1960-02-03', mobile: '13600006666' })
    const line = (code: string) => ({ drugId: drug[code]!, dose: '5mg', frequency: '每日1次', days: 28, quantity: 1 })
    for (const codes of [['X007'], ['X007', 'X009']]) await approve((await written((await consultation('a', { patient })).id, { lines: codes.map(line) })).id)
    await written((await consultation('a', { patient })).id, { lines: [line('X005')] })
    const env = await call<UsedDrug[]>('GET', `${H}/pres/historyDrug`, { caller: owner, query: { patientId: String(patient) } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      env.data.map((d) => [d.drugName, d.times, d.doctorName]).sort(),
      [
        ['苯磺酸氨氯地平片', 2, '处方甲'],
        ['阿托伐他汀钙片', 1, '处方甲'],
      ].sort(),
    )
    assertForbidden(await call('GET', `${H}/pres/historyDrug`, { caller: owner, query: { patientId: String(strangerPatientId) } }))
    assert.deepEqual((await call('GET', `${H}/pres/historyDrug`, { caller: stranger })).data, [])
  })

  it('answer a medicine’s formulary facts, in the order asked, unknown ids left out', async () => {
    const env = await call<DrugInfo[]>('GET', `${H}/pres/drugDetail`, { caller: owner, query: { ids: `${drug.X004},${drug.X001},2000000000` } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.map((d) => d.name), ['对乙酰氨基酚片', '阿莫西林胶囊'])
    assertBadInput(await call('GET', `${H}/pres/drugDetail`, { caller: owner, query: { ids: '1,abc' } }), /药品编号不正确/)
    assertBadInput(await call('GET', `${H}/pres/drugDetail`, { caller: owner, query: { ids: Array.from({ length: 51 }, (_, i) => i + 1).join(',') } }), /一次最多查询50种药品/)
  })

  it('answer the stores that have every line in stock', async () => {
    const pres = await approved()
    const env = await call<Prescription>('GET', `${R}/prescription/${pres.id}`, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    const [store] = await db().select().from(pharmacyStores).where(eq(pharmacyStores.hospitalId, hospitalId)).limit(1)
    assert.deepEqual(env.data.stores, [{ id: store!.id, name: store!.name, address: store!.address, delivery: true, pickup: true }])
    const [stock] = await db().select().from(storeStock).where(and(eq(storeStock.storeId, store!.id), eq(storeStock.drugId, drug.X004!)))
    await db().update(storeStock).set({ quantity: 0 }).where(eq(storeStock.id, stock!.id))
    try {
      assert.deepEqual((await call<Prescription>('GET', `${R}/prescription/${pres.id}`, { caller: owner })).data.stores, [])
    } finally {
      await db().update(storeStock).set({ quantity: stock!.quantity }).where(eq(storeStock.id, stock!.id))
    }
  })

  it('answer an ordered prescription as 已下单 with its order, from that order too', async () => {
    const pres = await approved()
    const orderId = await orderOf(pres)
    const detail = await call<Prescription>('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner })
    assert.deepEqual([detail.data.statusText, detail.data.orderable, detail.data.orderId], ['已下单', false, orderId])
    const fromOrder = await call<Prescription>('GET', `${R}/order/web/prescription/${orderId}`, { caller: owner })
    assert.equal(fromOrder.code, 200, fromOrder.msg)
    assert.equal(fromOrder.data.id, pres.id)
    assertForbidden(await call('GET', `${R}/order/web/prescription/${orderId}`, { caller: stranger }))
    assertForbidden(await call('GET', `${R}/order/web/prescription/2000000000`, { caller: owner }))
    // a cancelled order lets it be ordered again
    await db().update(pharmacyOrders).set({ status: 'cancelled' }).where(eq(pharmacyOrders.id, orderId))
    const again = await call<Prescription>('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner })
    assert.deepEqual([again.data.statusText, again.data.orderable, again.data.orderId], ['审核通过', true, null])
  })

  it('answer an expired prescription as 已过期, not orderable', async () => {
    const pres = await approved()
    await db().update(prescriptions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(prescriptions.id, pres.id))
    const env = await call<Prescription>('GET', `${H}/pres/presDetail/${pres.id}`, { caller: owner })
    assert.deepEqual([env.data.statusText, env.data.expired, env.data.orderable], ['已过期', true, false])
  })
})

describe('orderablePrescriptionForOrder', () => {
  const refusal = async (userId: number, prescriptionId: number) => {
    try {
      await db().transaction((tx) => orderablePrescriptionForOrder(tx, { userId, prescriptionId }))
    } catch (err) {
      assert.ok(err instanceof AppError)
      return [err.code, err.message]
    }
    return null
  }

  it('answers an approved prescription’s lines and fees, or why it cannot be ordered', async () => {
    const pres = await approved()
    const got = await db().transaction((tx) => orderablePrescriptionForOrder(tx, { userId: owner.userId, prescriptionId: pres.id }))
    assert.deepEqual(
      [got.patientId, got.drugFeeFen, got.diagnosisFeeFen, got.lines.map((l) => [l.drugId, l.quantity, l.priceFen])],
      [patientId, 4680, 0, [[drug.X001, 2, 1850], [drug.X004, 1, 980]]],
    )
    assert.deepEqual(await refusal(stranger.userId, pres.id), [2999, '暂无权限'])
    const reviewing = await written((await consultation()).id)
    assert.deepEqual(await refusal(owner.userId, reviewing.id), [400, '处方未审核通过，不可下单'])
    const rejected = await written((await consultation()).id)
    await call('POST', `${P}/review/prescriptions/${rejected.id}/reject`, { caller: desk.pharmacist, body: { reason: '不合理' } })
    assert.deepEqual(await refusal(owner.userId, rejected.id), [2999, '暂无权限'])
    await orderOf(pres)
    assert.deepEqual(await refusal(owner.userId, pres.id), [409, '处方已下单，请勿重复下单'])
    const old = await approved()
    await db().update(prescriptions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(prescriptions.id, old.id))
    assert.deepEqual(await refusal(owner.userId, old.id), [400, '处方已过期，不可下单'])
  })
})

