import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, isNull } from 'drizzle-orm'
import { diagnosisTemplates, diseases, drugs, pharmacists, physicianAssistants } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import type { DiagnosisTemplate, DiagnosisTemplateInput } from '../../types/api/pharmacy'
import type { StaffSession } from '../../types/api/workbench'
import { DEMO, assertBadInput, assertForbidden, callApi, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addOnlineDoctor, hospitalIdOf } from './fixtures'

const P = '/dld-doctor/api'
const PASSWORD = 'tpl-pass-2718'

type Caller = { headers: Record<string, string> }

let t: TestApp
let patient: Caller
let hospitalId = 0
/** Doctors made up for this file at 10392, each with a workbench account; `full` is the one filled to the limit. */
const doc = { a: 0, b: 0, full: 0 }
const desk = {} as Record<'a' | 'b' | 'full' | 'assistant' | 'pharmacist', Caller>
/** The formulary of 10392 by code, and one drug of 10412. */
const drug: Record<string, number> = {}
let farDrug = 0
const disease = { pneumonia: '', elsewhere: '' }
/** One of the hospital's shared (seeded) templates. */
let shared: DiagnosisTemplate

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown } = {}) => callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const list = async (caller: Caller) => {
  const env = await call<DiagnosisTemplate[]>('GET', `${P}/diagnosisTemplates`, { caller })
  assert.equal(env.code, 200, env.msg)
  return env.data
}
/** Every template row as stored: what a refused call must leave as it was. */
const allRows = () => db().select().from(diagnosisTemplates).orderBy(asc(diagnosisTemplates.id))
const ownCount = async (doctorId: number) => (await db().select({ n: count() }).from(diagnosisTemplates).where(eq(diagnosisTemplates.doctorId, doctorId)))[0]!.n

async function signInDesk(login: string): Promise<Caller> {
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

const input = (over: Partial<DiagnosisTemplateInput> = {}): DiagnosisTemplateInput => ({
  name: '咳嗽发热（自用）',
  category: 'western',
  diagnoses: [{ code: disease.pneumonia, name: '肺炎' }],
  lines: [
    { drugId: drug.X001!, dose: '0.5g', frequency: '每日3次', days: 5, quantity: 2 },
    { drugId: drug.X004!, dose: '0.5g', frequency: '发热时', days: 3, quantity: 1 },
  ],
  ...over,
})

async function created(over: Partial<DiagnosisTemplateInput> = {}, caller: Caller = desk.a) {
  const env = await call<DiagnosisTemplate>('POST', `${P}/diagnosisTemplates`, { caller, body: input(over) })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

before(async () => {
  t = await startTestApp()
  patient = await signInUser(t.app)
  hospitalId = await hospitalIdOf(t, DEMO.both.code)
  const farHospitalId = await hospitalIdOf(t, DEMO.internet.code)
  const [pneumonia] = await db().select({ id: diseases.id, deptId: diseases.deptId }).from(diseases).where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '肺炎')))
  const [elsewhere] = await db().select({ id: diseases.id }).from(diseases).where(eq(diseases.hospitalId, farHospitalId)).limit(1)
  disease.pneumonia = String(pneumonia!.id)
  disease.elsewhere = String(elsewhere!.id)
  for (const d of await db().select({ id: drugs.id, code: drugs.code }).from(drugs).where(eq(drugs.hospitalId, hospitalId))) drug[d.code] = d.id
  farDrug = (await db().select({ id: drugs.id }).from(drugs).where(eq(drugs.hospitalId, farHospitalId)).limit(1))[0]!.id
  const deptId = pneumonia!.deptId
  doc.a = await addOnlineDoctor(t, { hospitalId, deptId, name: '模板甲', priceFen: 0 })
  doc.b = await addOnlineDoctor(t, { hospitalId, deptId, name: '模板乙', priceFen: 0 })
  doc.full = await addOnlineDoctor(t, { hospitalId, deptId, name: '模板丙', priceFen: 0 })
  const [assistant] = await db().insert(physicianAssistants).values({ hospitalId, name: '模板助理' }).returning({ id: physicianAssistants.id })
  const [pharmacist] = await db().insert(pharmacists).values({ hospitalId, name: '模板药师' }).returning({ id: pharmacists.id })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.a, login: 'TPL-A', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.b, login: 'TPL-B', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.full, login: 'TPL-C', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'assistant', assistantId: assistant!.id, login: 'TPL-ZL', password: PASSWORD })
  await createStaffAccount(db(), { kind: 'pharmacist', pharmacistId: pharmacist!.id, login: '10392P81', password: PASSWORD })
  desk.a = await signInDesk('TPL-A')
  desk.b = await signInDesk('TPL-B')
  desk.full = await signInDesk('TPL-C')
  desk.assistant = await signInDesk('TPL-ZL')
  desk.pharmacist = await signInDesk('10392P81')
  const [row] = await db()
    .select({ id: diagnosisTemplates.id })
    .from(diagnosisTemplates)
    .where(and(eq(diagnosisTemplates.hospitalId, hospitalId), isNull(diagnosisTemplates.doctorId), eq(diagnosisTemplates.name, '社区获得性肺炎（轻症）')))
  shared = (await list(desk.a)).find((x) => x.id === row!.id)!
})
after(() => t.close())

describe('the diagnosis template calls', () => {
  const calls = (): [Method, string, unknown?][] => [
    ['GET', `${P}/diagnosisTemplates`],
    ['POST', `${P}/diagnosisTemplates`, input()],
    ['PUT', `${P}/diagnosisTemplates/${shared.id}`, input()],
    ['DELETE', `${P}/diagnosisTemplates/${shared.id}`],
  ]

  it('need a workbench token: none, a patient’s or a made-up one answers 401 and changes nothing', async () => {
    const before = await allRows()
    for (const [method, url, body] of calls())
      for (const caller of [undefined, patient, { headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` } }]) {
        const env = await call(method, url, { caller, body })
        assert.equal(env.code, 401, `${method} ${url} answered ${env.code} ${env.msg}`)
        assert.equal(env.data, null)
      }
    assert.deepEqual(await allRows(), before)
  })

  it('are a doctor’s: a pharmacist or an assistant gets 2999 and changes nothing', async () => {
    const mineA = await created({ name: '药师不可见' })
    const before = await allRows()
    for (const caller of [desk.pharmacist, desk.assistant]) {
      for (const [method, url, body] of calls()) assertForbidden(await call(method, url, { caller, body }))
      assertForbidden(await call('PUT', `${P}/diagnosisTemplates/${mineA.id}`, { caller, body: input({ name: '改名' }) }))
      assertForbidden(await call('DELETE', `${P}/diagnosisTemplates/${mineA.id}`, { caller }))
    }
    assert.deepEqual(await allRows(), before)
  })
})

describe('GET /dld-doctor/api/diagnosisTemplates', () => {
  it('answers the hospital’s shared templates, read-only, each with the prescription category it fills', async () => {
    const all = await list(desk.b)
    const categoryOf = (name: string) => all.find((x) => x.name === name)?.category
    assert.equal(categoryOf('社区获得性肺炎（轻症）'), 'western')
    assert.equal(categoryOf('脾胃虚弱（中药饮片）'), 'chinese')
    assert.ok(all.filter((x) => !x.own).length >= 5)
  })
})

describe('POST /dld-doctor/api/diagnosisTemplates', () => {
  it('keeps the doctor’s own template, listed first and to no other doctor', async () => {
    const tpl = await created({ name: '  上呼吸道感染（成人）  ', diagnoses: [{ code: disease.pneumonia, name: '随便写的名字' }] })
    assert.equal(tpl.name, '上呼吸道感染（成人）')
    assert.equal(tpl.own, true)
    assert.equal(tpl.category, 'western')
    // the diagnosis is named as the hospital's disease list names it
    assert.deepEqual(tpl.diagnoses, [{ code: disease.pneumonia, name: '肺炎' }])
    assert.deepEqual(tpl.lines, input().lines)
    const mine = await list(desk.a)
    // own ones first, then the hospital's
    assert.deepEqual(mine.map((x) => x.own), [...mine.filter((x) => x.own).map(() => true), ...mine.filter((x) => !x.own).map(() => false)])
    assert.equal(mine.find((x) => x.id === tpl.id)?.own, true)
    assert.equal(mine.find((x) => x.id === shared.id)?.own, false)
    const theirs = await list(desk.b)
    assert.equal(theirs.some((x) => x.id === tpl.id), false)
    assert.ok(theirs.some((x) => x.id === shared.id && !x.own))
  })

  it('keeps a 中药饮片 template of herbs in g', async () => {
    const herbs = await created({
      name: '健脾方',
      category: 'chinese',
      lines: [
        { drugId: drug.C001!, dose: '15g', frequency: '每日1剂', days: 7, quantity: 105 },
        { drugId: drug.C002!, dose: '10g', frequency: '每日1剂', days: 7, quantity: 70 },
      ],
    })
    assert.equal(herbs.category, 'chinese')
    assert.equal(herbs.lines.length, 2)
  })

  it('refuses bad input with the reason and keeps nothing', async () => {
    const before = await allRows()
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /模板名称应为1至30个字/],
      [{ name: '   ' }, /模板名称应为1至30个字/],
      [{ name: '名'.repeat(31) }, /模板名称应为1至30个字/],
      [{ category: 'poison' }, /处方类型不正确/],
      [{ diagnoses: [] }, /请填写诊断/],
      [{ diagnoses: [{ code: disease.elsewhere, name: '别院' }] }, /疾病编码不存在/],
      [{ lines: [] }, /请添加药品/],
      [{ lines: [{ drugId: farDrug, dose: '1片', frequency: '每日1次', days: 3, quantity: 1 }] }, /不在本院药品目录中/],
      [{ lines: [{ drugId: drug.C001!, dose: '15g', frequency: '每日1剂', days: 7, quantity: 105 }] }, /不能开在西药处方中/],
      [{ lines: [{ drugId: drug.X001!, dose: '0.5g', frequency: '每日3次', days: 0, quantity: 1 }] }, /用药天数应为1至30天/],
      [{ lines: [{ drugId: drug.X001!, dose: '0.5g', frequency: '每日3次', days: 3, quantity: 11 }] }, /数量应为1至10盒/],
      [{ lines: [{ drugId: drug.X001!, dose: ' ', frequency: '每日3次', days: 3, quantity: 1 }] }, /请填写阿莫西林胶囊的每次用量/],
    ]
    for (const [over, message] of bad) assertBadInput(await call('POST', `${P}/diagnosisTemplates`, { caller: desk.a, body: { ...input(), ...over } }), message)
    assert.deepEqual(await allRows(), before)
  })

  it('keeps at most 50 a doctor: of two saves for the last place one is kept, the other refused until one is deleted', async () => {
    const { name: _, ...content } = input()
    await db()
      .insert(diagnosisTemplates)
      .values(Array.from({ length: 49 }, (_x, i) => ({ hospitalId, doctorId: doc.full, name: `常用${i + 1}`, ...content })))
    const both = await Promise.all([1, 2].map((i) => call<DiagnosisTemplate>('POST', `${P}/diagnosisTemplates`, { caller: desk.full, body: input({ name: `最后一个${i}` }) })))
    assert.deepEqual(both.map((env) => env.code).sort(), [200, 400])
    assertBadInput(both.find((env) => env.code === 400)!, '每位医生最多保存50个模板，请先删除不用的模板')
    assert.equal(await ownCount(doc.full), 50)
    assertBadInput(await call('POST', `${P}/diagnosisTemplates`, { caller: desk.full, body: input({ name: '第51个' }) }), /最多保存50个模板/)
    assert.equal(await ownCount(doc.full), 50)
    // another doctor is not held by it
    await created({ name: '不受影响' }, desk.b)
    const kept = both.find((env) => env.code === 200)!.data
    assert.equal((await call('DELETE', `${P}/diagnosisTemplates/${kept.id}`, { caller: desk.full })).code, 200)
    assert.equal((await created({ name: '删一个再存' }, desk.full)).own, true)
    assert.equal(await ownCount(doc.full), 50)
  })
})

describe('PUT /dld-doctor/api/diagnosisTemplates/:id', () => {
  it('renames and rewrites the doctor’s own template', async () => {
    const tpl = await created({ name: '高血压随访' })
    const env = await call<DiagnosisTemplate>('PUT', `${P}/diagnosisTemplates/${tpl.id}`, {
      caller: desk.a,
      body: { ...tpl, name: '高血压（老年）', lines: [{ drugId: drug.X007!, dose: '5mg', frequency: '每日1次', days: 28, quantity: 1 }] },
    })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.id, tpl.id)
    assert.equal(env.data.name, '高血压（老年）')
    assert.deepEqual(env.data.lines.map((l) => l.drugId), [drug.X007])
    const listed = (await list(desk.a)).find((x) => x.id === tpl.id)!
    assert.deepEqual(listed, env.data)
  })

  it('answers 2999 and changes nothing for another doctor’s template, a shared one or one that does not exist', async () => {
    const tpl = await created({ name: '甲的模板' })
    const before = await allRows()
    for (const [id, caller] of [
      [tpl.id, desk.b],
      [shared.id, desk.a],
      [2_000_000_000, desk.a],
    ] as const)
      assertForbidden(await call('PUT', `${P}/diagnosisTemplates/${id}`, { caller, body: input({ name: '改掉' }) }))
    // bad input for someone else's template reveals nothing either
    assertForbidden(await call('PUT', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.b, body: input({ diagnoses: [] }) }))
    assert.deepEqual(await allRows(), before)
  })

  it('refuses bad input on the doctor’s own template and leaves it as it was', async () => {
    const tpl = await created({ name: '原名' })
    const before = await allRows()
    assertBadInput(await call('PUT', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.a, body: { ...tpl, name: '' } }), /模板名称应为1至30个字/)
    assertBadInput(await call('PUT', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.a, body: { ...tpl, category: 'chinese' } }), /不能开在中药饮片处方中/)
    assertBadInput(await call('PUT', `${P}/diagnosisTemplates/abc`, { caller: desk.a, body: tpl }))
    assert.deepEqual(await allRows(), before)
  })
})

describe('DELETE /dld-doctor/api/diagnosisTemplates/:id', () => {
  it('deletes the doctor’s own template; another doctor’s, a shared one or a deleted one answers 2999', async () => {
    const tpl = await created({ name: '要删的' })
    const before = await allRows()
    assertForbidden(await call('DELETE', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.b }))
    assertForbidden(await call('DELETE', `${P}/diagnosisTemplates/${shared.id}`, { caller: desk.a }))
    assertBadInput(await call('DELETE', `${P}/diagnosisTemplates/0`, { caller: desk.a }))
    assert.deepEqual(await allRows(), before)
    const env = await call('DELETE', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.a })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data, null)
    assert.equal((await list(desk.a)).some((x) => x.id === tpl.id), false)
    assertForbidden(await call('DELETE', `${P}/diagnosisTemplates/${tpl.id}`, { caller: desk.a }))
    // the shared one is still there for everyone
    assert.ok((await list(desk.b)).some((x) => x.id === shared.id))
  })
})
