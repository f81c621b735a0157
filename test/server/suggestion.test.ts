/**
 * 投诉建议: POST /dld-hospital/userSuggestion, GET /userSuggestion/list, and on the workbench
 * GET /dld-doctor/api/suggestions and POST /suggestions/{id}/answer (the answer reaches the message centre).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { userMessages, userSuggestions } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import { ALREADY_ANSWERED, TOO_MANY_TODAY } from '../../server/src/domain/suggestion'
import type { DeskSuggestion, Suggestion } from '../../types/api/suggestion'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, firstSubDepartment, hospitalIdOf, newKey, uploadedPicture } from './fixtures'

const H = '/dld-hospital/userSuggestion'
const P = '/dld-doctor/api'
const PASSWORD = 'feedback-desk-3141'
type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number; mobile: string }

let t: TestApp
let owner: User
let stranger: User
let desk: Caller // staff of 10392
let farDesk: Caller // staff of 10412
const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function staffAt(code: string, login: string): Promise<Caller> {
  const hospitalId = await hospitalIdOf(t, code)
  const doctorId = await addOnlineDoctor(t, { hospitalId, deptId: await firstSubDepartment(t, hospitalId), name: `反馈${code}`, priceFen: 0 })
  await createStaffAccount(db(), { kind: 'doctor', doctorId, login, password: PASSWORD })
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

const input = (over: Record<string, unknown> = {}) => ({
  hospitalCode: '10392',
  kind: 'complaint',
  content: '门诊三楼收费窗口排队太久，只开了一个窗口',
  pictures: [],
  idempotencyKey: newKey('fb'),
  ...over,
})
const submit = (caller: Caller, over: Record<string, unknown> = {}) => call<Suggestion>('POST', H, { caller, body: input(over) })

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  desk = await staffAt('10392', 'FB-10392')
  farDesk = await staffAt('10412', 'FB-10412')
})
after(() => t.close())

describe('POST /dld-hospital/userSuggestion', () => {
  it('needs a bound account', async () => {
    await assertUnauthorisedCall(t.app, 'POST', H, { body: input() })
  })

  it('refuses bad input with the reason and stores nothing', async () => {
    const user = await signInUser(t.app)
    assertBadInput(await submit(user, { content: '太慢' }), /请至少填写5个字/)
    assertBadInput(await submit(user, { content: '慢'.repeat(501) }), /内容不能超过500个字/)
    assertBadInput(await submit(user, { kind: 'threat' }), /请选择反馈类型/)
    assertBadInput(await submit(user, { pictures: ['https://elsewhere.example/a.png'] }), /图片请先上传/)
    // a picture someone else uploaded is not the caller's to send
    assertBadInput(await submit(user, { pictures: [await uploadedPicture(t, stranger.userId)] }), /图片请先上传/)
    assertBadInput(await submit(user, { pictures: await Promise.all([1, 2, 3, 4, 5].map(() => uploadedPicture(t, user.userId))) }), /最多上传4张图片/)
    assert.equal((await call('POST', H, { caller: user, body: input({ hospitalCode: '99999' }) })).code, 404)
    assert.deepEqual(await db().select().from(userSuggestions).where(eq(userSuggestions.userId, user.userId)), [])
  })

  it('stores it with the caller’s pictures, encrypted; the same key again is the same submission', async () => {
    const picture = await uploadedPicture(t, owner.userId)
    const key = newKey('fb')
    const first = await submit(owner, { pictures: [picture], idempotencyKey: key })
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.status, 'open')
    assert.deepEqual(first.data.pictures, [picture])
    const again = await submit(owner, { pictures: [picture], idempotencyKey: key })
    assert.equal(again.data.id, first.data.id)
    const [row] = await db().select().from(userSuggestions).where(eq(userSuggestions.id, first.data.id))
    assert.ok(row!.contentEnc && !row!.contentEnc.includes('收费窗口'), 'the words are stored encrypted')
  })

  it('answers the same submission to the same key sent ten times at once', async () => {
    const user = await signInUser(t.app)
    const key = newKey('fb')
    const answers = await Promise.all(Array.from({ length: 10 }, () => submit(user, { idempotencyKey: key })))
    assert.ok(answers.every((a) => a.code === 200))
    assert.equal(new Set(answers.map((a) => a.data.id)).size, 1)
    assert.equal((await db().select().from(userSuggestions).where(eq(userSuggestions.userId, user.userId))).length, 1)
  })

  it('takes five a day per account and hospital', async () => {
    const user = await signInUser(t.app)
    for (let i = 0; i < 5; i++) assert.equal((await submit(user, { kind: 'suggestion', content: `建议增加自助机第${i + 1}台` })).code, 200)
    const sixth = await submit(user)
    assert.equal(sixth.code, 429)
    assert.equal(sixth.msg, TOO_MANY_TODAY)
    assert.equal((await submit(user, { hospitalCode: '10412' })).code, 200, 'another hospital counts on its own')
  })
})

describe('GET /dld-hospital/userSuggestion/list', () => {
  it('needs a bound account and a hospital', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${H}/list`, { query: { hospitalCode: '10392' } })
    assertBadInput(await call('GET', `${H}/list`, { caller: owner, query: {} }))
  })

  it('answers only the caller’s own, newest first', async () => {
    const mine = await call<Suggestion[]>('GET', `${H}/list`, { caller: owner, query: { hospitalCode: '10392' } })
    assert.equal(mine.code, 200)
    assert.ok(mine.data.length >= 1)
    assert.match(mine.data[0]!.content, /收费窗口/)
    const theirs = await call<Suggestion[]>('GET', `${H}/list`, { caller: stranger, query: { hospitalCode: '10392' } })
    assert.deepEqual(theirs.data, [])
  })
})

describe('the workbench: GET /dld-doctor/api/suggestions, POST /suggestions/{id}/answer', () => {
  it('needs a workbench token', async () => {
    assert.equal((await call('GET', `${P}/suggestions`)).code, 401)
    assert.equal((await call('POST', `${P}/suggestions/1/answer`, { body: { answer: '好的' } })).code, 401)
    assert.equal((await call('GET', `${P}/suggestions`, { caller: owner })).code, 401, 'a patient’s token is no workbench token')
  })

  it('lists the hospital’s own, unanswered first, the patient named by a masked mobile; another hospital’s staff do not see them', async () => {
    const list = await call<DeskSuggestion[]>('GET', `${P}/suggestions`, { caller: desk })
    assert.equal(list.code, 200)
    const mine = list.data.find((s) => s.content.includes('收费窗口') && s.mobile === `${owner.mobile.slice(0, 3)}****${owner.mobile.slice(-4)}`)
    assert.ok(mine, 'the owner’s complaint, with a masked mobile')
    assert.ok(!JSON.stringify(list.data).includes(owner.mobile), 'never the full mobile')
    assert.equal(list.data[0]!.status, 'open')
    const far = await call<DeskSuggestion[]>('GET', `${P}/suggestions`, { caller: farDesk })
    assert.ok(!far.data.some((s) => s.id === mine.id))
  })

  it('answers once: bad input and another hospital’s staff change nothing; the patient reads the answer in the message centre and on the list', async () => {
    const created = await submit(owner, { content: '挂号处工作人员态度很好，表扬一下', kind: 'praise' })
    const id = created.data.id
    assertBadInput(await call('POST', `${P}/suggestions/${id}/answer`, { caller: desk, body: { answer: '  ' } }), /请填写回复/)
    assertForbidden(await call('POST', `${P}/suggestions/${id}/answer`, { caller: farDesk, body: { answer: '收到' } }))
    assert.equal((await call('POST', `${P}/suggestions/999999/answer`, { caller: desk, body: { answer: '收到' } })).code, 404)
    const [untouched] = await db().select().from(userSuggestions).where(eq(userSuggestions.id, id))
    assert.equal(untouched!.status, 'open')

    const answered = await call<Suggestion>('POST', `${P}/suggestions/${id}/answer`, { caller: desk, body: { answer: '感谢您的表扬，我们已转达挂号处。' } })
    assert.equal(answered.code, 200, answered.msg)
    assert.equal(answered.data.status, 'answered')
    const twice = await call('POST', `${P}/suggestions/${id}/answer`, { caller: desk, body: { answer: '再次感谢' } })
    assert.equal(twice.code, 409)
    assert.equal(twice.msg, ALREADY_ANSWERED)

    const notices = await db().select().from(userMessages).where(eq(userMessages.userId, owner.userId))
    assert.deepEqual(
      notices.map((n) => [n.title, n.content, n.link]),
      [['您的投诉建议已有回复', '感谢您的表扬，我们已转达挂号处。', '/pages/comment/index']],
    )
    const list = await call<Suggestion[]>('GET', `${H}/list`, { caller: owner, query: { hospitalCode: '10392' } })
    const read = list.data.find((s) => s.id === id)!
    assert.equal(read.answer, '感谢您的表扬，我们已转达挂号处。')
    assert.ok(read.answeredAt)
  })
})
