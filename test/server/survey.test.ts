import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq } from 'drizzle-orm'
import { hospitals, surveyAnswers, surveys } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import { ALREADY_ANSWERED, BAD_RATING, UNKNOWN_OPTION, UNKNOWN_QUESTION } from '../../server/src/domain/survey'
import { NUL_CHARACTER } from '../../server/src/inputGuards'
import type { DeskSurvey, DeskSurveyResults, Survey, SurveyAnswerItem, SurveyResult, SurveySummary } from '../../types/api/survey'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, firstSubDepartment, hospitalIdOf } from './fixtures'

const S = '/dld-hospital/survey'
const P = '/dld-doctor/api'
const PASSWORD = 'survey-desk-2718'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number; mobile: string }

let t: TestApp
let owner: User
let stranger: User
let outpatientId = 0 // 门诊就诊满意度调查 at 10392
let internetId = 0 // 互联网问诊满意度 at 10412
let desk: Caller // staff of 10392
let farDesk: Caller // staff of 10412

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

/** A complete answer to the 10392 survey: every kind of question. */
const FULL: SurveyAnswerItem[] = [
  { questionId: 'q1', options: ['a'] },
  { questionId: 'q2', rating: 5 },
  { questionId: 'q3', rating: 4 },
  { questionId: 'q4', options: ['b'] },
  { questionId: 'q5', options: ['b', 'c'] },
  { questionId: 'q6', rating: 4 },
  { questionId: 'q7', text: '医生很耐心，候诊区座位不够' },
]
const replace = (questionId: string, item: Partial<SurveyAnswerItem> | null) =>
  FULL.flatMap((a) => (a.questionId !== questionId ? [a] : item === null ? [] : [{ questionId, ...item }]))

async function signInDesk(login: string): Promise<Caller> {
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

async function staffAt(code: string, login: string) {
  const hospitalId = await hospitalIdOf(t, code)
  const doctorId = await addOnlineDoctor(t, { hospitalId, deptId: await firstSubDepartment(t, hospitalId), name: `满意度${code}`, priceFen: 0 })
  await createStaffAccount(db(), { kind: 'doctor', doctorId, login, password: PASSWORD })
  return signInDesk(login)
}

const answersOf = (surveyId: number) => db().select().from(surveyAnswers).where(eq(surveyAnswers.surveyId, surveyId))

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  const [a] = await db().select({ id: surveys.id }).from(surveys).innerJoin(hospitals, eq(hospitals.id, surveys.hospitalId)).where(and(eq(hospitals.code, '10392'), eq(surveys.title, '门诊就诊满意度调查')))
  const [b] = await db().select({ id: surveys.id }).from(surveys).innerJoin(hospitals, eq(hospitals.id, surveys.hospitalId)).where(and(eq(hospitals.code, '10412'), eq(surveys.title, '互联网问诊满意度')))
  outpatientId = a!.id
  internetId = b!.id
  desk = await staffAt('10392', 'SV-10392')
  farDesk = await staffAt('10412', 'SV-10412')
})
after(() => t.close())

describe('GET /dld-hospital/survey/list', () => {
  it('needs a bound account (it says which the caller answered)', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${S}/list`, { query: { hospitalCode: '10392' } })
  })

  it('refuses an unknown hospital', async () => {
    const env = await call('GET', `${S}/list`, { caller: owner, query: { hospitalCode: '99999' } })
    assert.equal(env.code, 404)
    assert.equal(env.data, null)
  })

  it('lists the hospital’s surveys, none answered yet', async () => {
    const env = await call<SurveySummary[]>('GET', `${S}/list`, { caller: owner, query: { hospitalCode: '10392' } })
    assert.equal(env.code, 200, env.msg)
    const s = env.data.find((x) => x.id === outpatientId)!
    assert.equal(s.title, '门诊就诊满意度调查')
    assert.equal(s.answered, false)
    assert.ok(s.questionCount >= 6 && s.questionCount <= 8)
    assert.ok(env.data.every((x) => x.hospitalCode === '10392'))
  })
})

describe('GET /dld-hospital/survey/{id}', () => {
  it('needs a bound account', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${S}/${outpatientId}`)
  })

  it('refuses a bad or unknown id', async () => {
    assertBadInput(await call('GET', `${S}/abc`, { caller: owner }))
    const env = await call('GET', `${S}/999999`, { caller: owner })
    assert.equal(env.code, 404)
  })

  it('answers the questions of all four kinds', async () => {
    const env = await call<Survey>('GET', `${S}/${outpatientId}`, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.hospitalName.length > 0, true)
    assert.deepEqual([...new Set(env.data.questions.map((q) => q.kind))].sort(), ['multiple', 'rating', 'single', 'text'])
    const text = env.data.questions.find((q) => q.kind === 'text')!
    assert.equal(text.maxLength, 200)
    assert.equal(env.data.answered, false)
  })
})

describe('POST /dld-hospital/survey', () => {
  const submit = (caller: Caller, answers: unknown, surveyId: number = outpatientId) => call<SurveyResult>('POST', S, { caller, body: { surveyId, answers } })

  it('needs a bound account', async () => {
    await assertUnauthorisedCall(t.app, 'POST', S, { body: { surveyId: outpatientId, answers: FULL } })
  })

  it('refuses bad answers clearly and stores nothing', async () => {
    assertBadInput(await submit(owner, replace('q1', { options: ['z'] })), UNKNOWN_OPTION)
    assertBadInput(await submit(owner, replace('q1', { options: ['a', 'b'] })), '第1题只能选择一项')
    assertBadInput(await submit(owner, [...FULL, { questionId: 'q99', options: ['a'] }]), UNKNOWN_QUESTION)
    assertBadInput(await submit(owner, replace('q2', { rating: 6 })), BAD_RATING)
    assertBadInput(await submit(owner, replace('q2', { rating: 0 })), BAD_RATING)
    assertBadInput(await submit(owner, replace('q7', { text: '长'.repeat(201) })), /第7题.*不能超过200个字/)
    assertBadInput(await submit(owner, replace('q7', { text: '有\u0000空字符' })), NUL_CHARACTER)
    // required questions left out are named in words
    assertBadInput(await submit(owner, replace('q2', null).filter((a) => a.questionId !== 'q6')), /请回答必答题：第2题「您对医生的诊疗服务是否满意？」、第6题「您对本院的整体满意度」/)
    assertBadInput(await submit(owner, replace('q1', { options: [] })), /第1题/)
    assert.equal((await submit(owner, FULL, 999999)).code, 404)
    assert.equal((await answersOf(outpatientId)).length, 0)
  })

  it('stores the answer (optional questions may be left out), the words sealed, and refuses a second', async () => {
    const env = await submit(owner, FULL)
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.answers, FULL)
    assert.equal(env.data.survey.answered, true)
    const [row] = await answersOf(outpatientId)
    assert.ok(row!.textsEnc && !row!.textsEnc.includes('耐心'), 'the words are stored encrypted')
    assert.equal(JSON.stringify(row!.choices).includes('耐心'), false)

    const again = await submit(owner, FULL)
    assertBadInput(again, ALREADY_ANSWERED)
    assert.equal((await answersOf(outpatientId)).length, 1)

    const list = await call<SurveySummary[]>('GET', `${S}/list`, { caller: owner, query: { hospitalCode: '10392' } })
    assert.equal(list.data.find((x) => x.id === outpatientId)!.answered, true)
    const other = await call<SurveySummary[]>('GET', `${S}/list`, { caller: stranger, query: { hospitalCode: '10392' } })
    assert.equal(other.data.find((x) => x.id === outpatientId)!.answered, false)
  })

  it('counts 50 concurrent submissions of one answer once', async () => {
    const racer = await signInUser(t.app)
    const answers = replace('q7', null) // no words: the optional question left out
    const replies = await Promise.all(Array.from({ length: 50 }, () => submit(racer, answers)))
    const ok = replies.filter((r) => r.code === 200)
    assert.equal(ok.length, 1, replies.map((r) => `${r.code} ${r.msg}`).join('\n'))
    for (const r of replies.filter((x) => x.code !== 200)) assertBadInput(r, ALREADY_ANSWERED)
    const mine = (await answersOf(outpatientId)).filter((a) => a.userId === racer.userId)
    assert.equal(mine.length, 1)
    assert.equal(mine[0]!.textsEnc, null)
  })
})

describe('GET /dld-hospital/survey/result/{id}', () => {
  it('needs a bound account', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${S}/result/${outpatientId}`)
  })

  it('never answers someone else’s answer (2999 without one of the caller’s own)', async () => {
    assertForbidden(await call('GET', `${S}/result/${outpatientId}`, { caller: stranger }))
    assertForbidden(await call('GET', `${S}/result/${internetId}`, { caller: owner }))
  })

  it('answers the caller’s own answer with the survey, the words opened', async () => {
    const env = await call<SurveyResult>('GET', `${S}/result/${outpatientId}`, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.answers, FULL)
    assert.equal(env.data.survey.id, outpatientId)
    assert.ok(!Number.isNaN(Date.parse(env.data.answeredAt)))
  })
})

describe('the workbench: GET /dld-doctor/api/surveys and /surveys/{id}', () => {
  it('needs a workbench token (a patient’s means nothing)', async () => {
    for (const url of [`${P}/surveys`, `${P}/surveys/${outpatientId}`]) {
      assert.equal((await call('GET', url)).code, 401)
      assert.equal((await call('GET', url, { caller: owner })).code, 401)
    }
  })

  it('lists the staff’s hospital’s surveys with the answer counts', async () => {
    const env = await call<DeskSurvey[]>('GET', `${P}/surveys`, { caller: desk })
    assert.equal(env.code, 200, env.msg)
    const s = env.data.find((x) => x.id === outpatientId)!
    assert.equal(s.answerCount, 2)
    assert.equal(env.data.some((x) => x.id === internetId), false)
  })

  it('counts per option, averages the stars and shows the newest words with the author masked', async () => {
    const stranger2 = await signInUser(t.app)
    const second = await call('POST', S, {
      caller: stranger2,
      body: { surveyId: outpatientId, answers: [...replace('q2', { rating: 3 }).filter((a) => a.questionId !== 'q7'), { questionId: 'q7', text: '希望增加停车位' }] },
    })
    assert.equal(second.code, 200, second.msg)
    const env = await call<DeskSurveyResults>('GET', `${P}/surveys/${outpatientId}`, { caller: desk })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.answerCount, 3)
    const q = (id: string) => env.data.questions.find((x) => x.id === id)!
    assert.equal(q('q1').options.find((o) => o.id === 'a')!.count, 3)
    assert.equal(q('q1').answered, 3)
    assert.deepEqual(q('q5').options.map((o) => o.count), [0, 3, 3, 0, 0])
    assert.equal(q('q5').answered, 3)
    // q2: 5 (owner), 5 (racer), 3 (stranger2)
    assert.deepEqual(q('q2').options.map((o) => o.count), [0, 0, 1, 0, 2])
    assert.equal(q('q2').average, 4.3)
    assert.equal(q('q6').average, 4)
    const words = q('q7')
    assert.equal(words.answered, 2)
    assert.deepEqual(words.latest.map((w) => w.text), ['希望增加停车位', '医生很耐心，候诊区座位不够'])
    assert.equal(words.latest[1]!.author, `${owner.mobile.slice(0, 3)}****${owner.mobile.slice(-4)}`)
    assert.ok(!JSON.stringify(env.data).includes(owner.mobile))
  })

  it('refuses another hospital’s survey (2999) and a bad id', async () => {
    assertForbidden(await call('GET', `${P}/surveys/${outpatientId}`, { caller: farDesk }))
    assertForbidden(await call('GET', `${P}/surveys/999999`, { caller: desk }))
    assertBadInput(await call('GET', `${P}/surveys/x`, { caller: desk }))
    const far = await call<DeskSurveyResults>('GET', `${P}/surveys/${internetId}`, { caller: farDesk })
    assert.equal(far.code, 200, far.msg)
    assert.equal(far.data.answerCount, 0)
    assert.equal(far.data.questions.find((x) => x.kind === 'rating')!.average, null)
  })
})
