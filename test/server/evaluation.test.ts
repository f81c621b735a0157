import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { evaluations, onlineDoctors } from '../../server/src/db/schema'
import { acceptInquiry, checkInquiry, finishInquiry } from '../../server/src/domain/inquiry'
import type { DoctorEvaluations, EvaluationAdded, EvaluationTags } from '../../types/api/evaluation'
import type { Inquiry } from '../../types/api/inquiry'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, firstSubDepartment, hospitalIdOf, newKey } from './fixtures'

const H = '/dld-hospital'
const TAGS = `${H}/im/evaluate/tags`
const ADD_EVALUATION = `${H}/im/evaluate/add`
const DOCTOR_EVALUATIONS = `${H}/im/evaluate/doctor/evaluates`
const ADD = `${H}/inquiry/addInquiryInfo`
const HOUR = 3600_000

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let hospitalId = 0
let deptId = 0
let doctorId = 0
let patientId = 0

/** The patient this file makes up (others take another name). */
const PATIENT = { name: '王建国', sex: 1, birthday: '1990-03-07', mobile: '13600001111', salt: 'evaluation' } as const
/** A free online doctor (the consultation is waiting at once), whose good rate starts at the seed's default. */
const freeDoctor = (name: string) => ({ hospitalId, deptId, name, priceFen: 0, goodRate: 98 })

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  hospitalId = await hospitalIdOf(t, '10392')
  deptId = await firstSubDepartment(t, hospitalId)
  doctorId = await addOnlineDoctor(t, freeDoctor('评价测试甲'))
  patientId = await addPatient(t, owner.userId, PATIENT)
})
after(() => t.close())

async function inquiry(caller: Caller = owner, pid = patientId, doctor = doctorId) {
  const env = await call<Inquiry>('POST', ADD, { caller, body: { doctorId: doctor, patientId: pid, description: '咳嗽三天', idempotencyKey: newKey('e') } })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

/** A consultation the doctor accepted and the patient ended (the domain calls of the doctor's side and the patient). */
async function finished(caller: Caller = owner, pid = patientId, doctor = doctorId) {
  const inq = await inquiry(caller, pid, doctor)
  assert.equal(await acceptInquiry(db(), doctor, inq.id, new Date()), true)
  await finishInquiry(db(), t.app.ctx.cipher, caller.userId, inq.id, new Date())
  return inq
}

const rate = (inquiryId: number, over: Record<string, unknown> = {}, caller: Caller = owner) =>
  call<EvaluationAdded>('POST', ADD_EVALUATION, { caller, body: { inquiryId, score: 5, tags: ['回复及时', '解答专业'], content: '医生很耐心', anonymous: false, ...over } })
const goodRateOf = async (doctor: number) => (await db().select({ r: onlineDoctors.goodRate }).from(onlineDoctors).where(eq(onlineDoctors.doctorId, doctor)))[0]!.r
const evaluationsOf = (inquiryId: number) => db().select().from(evaluations).where(eq(evaluations.inquiryId, inquiryId))

describe('GET /dld-hospital/im/evaluate/tags', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', TAGS)
  })

  it('answers the good and the bad tags', async () => {
    const env = await call<EvaluationTags>('GET', TAGS, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    for (const tag of ['回复及时', '解答专业', '态度很好']) assert.ok(env.data.good.includes(tag), tag)
    for (const tag of ['回复慢', '解答不清楚']) assert.ok(env.data.bad.includes(tag), tag)
    assert.equal(env.data.good.filter((g) => env.data.bad.includes(g)).length, 0)
  })
})

describe('POST /dld-hospital/im/evaluate/add', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', ADD_EVALUATION, { body: { inquiryId: 1, score: 5, tags: [], content: '', anonymous: true } })
  })

  it('refuses a bad score, an unknown tag, over-long words and a consultation not over yet, storing nothing', async () => {
    const done = await finished()
    assertBadInput(await rate(done.id, { score: 0 }), /请选择1至5星评分/)
    assertBadInput(await rate(done.id, { score: 6 }), /请选择1至5星评分/)
    assertBadInput(await rate(done.id, { score: 4.5 }), /请选择1至5星评分/)
    assertBadInput(await rate(done.id, { tags: ['医术高明但不在列表里'] }), '评价标签不正确')
    assertBadInput(await rate(done.id, { content: '好'.repeat(201) }), /评价内容不能超过200个字/)
    assertBadInput(await rate(done.id, { inquiryId: 'abc' }))
    assert.equal((await evaluationsOf(done.id)).length, 0)
    const waiting = await inquiry()
    assertBadInput(await rate(waiting.id), '问诊结束后才能评价')
    await acceptInquiry(db(), doctorId, waiting.id, new Date())
    assertBadInput(await rate(waiting.id), '问诊结束后才能评价')
    assert.equal((await evaluationsOf(waiting.id)).length, 0)
  })

  it('answers 2999 for someone else’s consultation and one that does not exist', async () => {
    const done = await finished()
    assertForbidden(await rate(done.id, {}, stranger))
    assertForbidden(await rate(999999))
    assert.equal((await evaluationsOf(done.id)).length, 0)
  })

  it('rates a finished consultation once: the second time is refused and changes nothing', async () => {
    const done = await finished()
    const env = await rate(done.id)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.evaluation.score, 5)
    assert.deepEqual(env.data.evaluation.tags, ['回复及时', '解答专业'])
    assert.equal(env.data.evaluation.content, '医生很耐心')
    assert.equal(env.data.evaluation.patientName, '王*国')
    assert.equal(env.data.doctorId, doctorId)
    assertBadInput(await rate(done.id, { score: 1, tags: ['回复慢'], content: '改个差评' }), '该问诊已评价，请勿重复提交')
    const rows = await evaluationsOf(done.id)
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.score, 5)
    assert.equal(rows[0]!.content, '医生很耐心')
  })

  it('rates a consultation closed after the doctor accepted it', async () => {
    const inq = await inquiry()
    const acceptedAt = new Date()
    await acceptInquiry(db(), doctorId, inq.id, acceptedAt)
    const closed = await checkInquiry(db(), t.app.ctx.cipher, t.app.ctx.providers, owner.userId, inq.id, new Date(acceptedAt.getTime() + 24 * HOUR + 1))
    assert.equal(closed.status, 'closed')
    const env = await rate(inq.id, { score: 4, tags: [] })
    assert.equal(env.code, 200, env.msg)
  })

  it('keeps the doctor’s good rate the share of 4 and 5 stars among all ratings', async () => {
    const doctor = await addOnlineDoctor(t, freeDoctor('评价测试乙'))
    assert.equal(await goodRateOf(doctor), 98)
    const scores = [5, 2, 4]
    const expected = [100, 50, 67]
    for (const [i, score] of scores.entries()) {
      const done = await finished(owner, patientId, doctor)
      const env = await rate(done.id, { score, tags: score >= 4 ? ['态度很好'] : ['回复慢'] })
      assert.equal(env.code, 200, env.msg)
      assert.equal(env.data.goodRate, expected[i])
      assert.equal(await goodRateOf(doctor), expected[i])
    }
    // the doctor's page shows it
    const info = await call<{ goodRate: number }>('GET', `${H}/doctor/info`, { caller: owner, query: { id: String(doctor) } })
    assert.equal(info.data.goodRate, 67)
  })

  it('counts every rating when several of one doctor arrive at once, and stores one rating per consultation', async () => {
    const doctor = await addOnlineDoctor(t, freeDoctor('评价测试丙'))
    const done = await Promise.all(Array.from({ length: 4 }, () => finished(owner, patientId, doctor)))
    const answers = await Promise.all(done.map((inq, i) => rate(inq.id, { score: i === 0 ? 1 : 5, tags: [] })))
    for (const a of answers) assert.equal(a.code, 200, a.msg)
    assert.equal(await goodRateOf(doctor), 75)
    const same = await finished(owner, patientId, doctor)
    const twice = await Promise.all(Array.from({ length: 5 }, () => rate(same.id, { score: 5, tags: [] })))
    assert.equal(twice.filter((a) => a.code === 200).length, 1)
    for (const a of twice.filter((a) => a.code !== 200)) assertBadInput(a, '该问诊已评价，请勿重复提交')
    assert.equal((await evaluationsOf(same.id)).length, 1)
    assert.equal(await goodRateOf(doctor), 80)
  })
})

describe('POST /dld-hospital/im/evaluate/doctor/evaluates', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', DOCTOR_EVALUATIONS, { body: { doctorId, page: 1, size: 10 } })
  })

  it('refuses a bad doctor id or size, and answers 404 for a doctor who does not consult online', async () => {
    assertBadInput(await call('POST', DOCTOR_EVALUATIONS, { caller: owner, body: { doctorId: 'x' } }))
    assertBadInput(await call('POST', DOCTOR_EVALUATIONS, { caller: owner, body: { doctorId, size: 500 } }))
    const missing = await call('POST', DOCTOR_EVALUATIONS, { caller: owner, body: { doctorId: 999999 } })
    assert.equal(missing.code, 404)
    assert.equal(missing.data, null)
  })

  it('lists the ratings newest first with masked or anonymous names, and the count, good rate and tag counts; anyone signed in may read', async () => {
    const doctor = await addOnlineDoctor(t, freeDoctor('评价测试丁'))
    const other = await signInUser(t.app)
    const otherPatient = await addPatient(t, other.userId, { ...PATIENT, name: '欧阳娜娜' })
    const a = await finished(owner, patientId, doctor)
    const b = await finished(other, otherPatient, doctor)
    const c = await finished(owner, patientId, doctor)
    assert.equal((await rate(a.id, { score: 5, tags: ['回复及时', '态度很好'], anonymous: true })).code, 200)
    assert.equal((await rate(b.id, { score: 2, tags: ['回复慢'], content: '等了很久', anonymous: false }, other)).code, 200)
    assert.equal((await rate(c.id, { score: 4, tags: ['回复及时'], content: '', anonymous: 'false' })).code, 200)

    const env = await call<DoctorEvaluations>('POST', DOCTOR_EVALUATIONS, { caller: stranger, body: { doctorId: doctor, page: 1, size: 2 } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.total, 3)
    assert.deepEqual(
      env.data.records.map((r) => [r.score, r.patientName]),
      [
        [4, '王*国'],
        [2, '欧**娜'],
      ],
    )
    assert.equal(env.data.records[1]!.content, '等了很久')
    assert.equal(env.data.summary.count, 3)
    assert.equal(env.data.summary.goodRate, 67)
    assert.deepEqual(env.data.summary.tags, [
      { tag: '回复及时', count: 2 },
      { tag: '回复慢', count: 1 },
      { tag: '态度很好', count: 1 },
    ].sort((x, y) => y.count - x.count || (x.tag < y.tag ? -1 : x.tag > y.tag ? 1 : 0)))
    const second = await call<DoctorEvaluations>('POST', DOCTOR_EVALUATIONS, { caller: stranger, body: { doctorId: doctor, page: 2, size: 2 } })
    assert.deepEqual(
      second.data.records.map((r) => [r.score, r.patientName]),
      [[5, '匿名用户']],
    )
    assert.ok(!JSON.stringify([env.data, second.data]).includes('欧阳娜娜'))
  })
})

describe('GET /dld-hospital/inquiry/order/detail (evaluated)', () => {
  const detail = (id: number) => call<Inquiry>('GET', `${H}/inquiry/order/detail`, { caller: owner, query: { id: String(id) } })
  const listed = async (id: number) =>
    (await call<{ records: Inquiry[] }>('GET', `${H}/inquiry/order/list`, { caller: owner, query: { page: '1', size: '50' } })).data.records.find((i) => i.id === id)

  it('says whether the consultation was rated: false until the patient rates it, true after, in the detail and the list', async () => {
    const done = await finished()
    const other = await finished()
    const before = await detail(done.id)
    assert.equal(before.code, 200, before.msg)
    assert.equal(before.data.evaluated, false)
    assert.equal((await listed(done.id))?.evaluated, false)
    // a refused rating stores nothing and leaves it unrated
    assertBadInput(await rate(done.id, { score: 0 }), /请选择1至5星评分/)
    assert.equal((await detail(done.id)).data.evaluated, false)

    assert.equal((await rate(done.id)).code, 200)
    assert.equal((await detail(done.id)).data.evaluated, true)
    assert.equal((await listed(done.id))?.evaluated, true)
    // only that consultation
    assert.equal((await detail(other.id)).data.evaluated, false)
    assert.equal((await listed(other.id))?.evaluated, false)
  })
})
