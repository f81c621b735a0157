import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq, isNull } from 'drizzle-orm'
import { userMessages } from '../../server/src/db/schema'
import { checkInquiry } from '../../server/src/domain/inquiry'
import { addUserMessage } from '../../server/src/domain/userMessage'
import type { Inquiry } from '../../types/api/inquiry'
import type { MessageReadResult, UserMessagePage } from '../../types/api/message'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, firstSubDepartment, hospitalIdOf, newKey, payInquiry } from './fixtures'

const H = '/dld-hospital'
const LIST = `${H}/message/messageList`
const READ = `${H}/message/read`
const ADD = `${H}/inquiry/addInquiryInfo`
const CANCEL = `${H}/im/trade/service/im/cancel`

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
const doc = { paid: 0, free: 0 }

/** The patient each test's user has. */
const PATIENT = { name: '陈志强', sex: 1, birthday: '1978-09-15', mobile: '13600003333', salt: 'message' } as const

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  const hospitalId = await hospitalIdOf(t, '10392')
  const deptId = await firstSubDepartment(t, hospitalId)
  doc.paid = await addOnlineDoctor(t, { hospitalId, deptId, name: '消息测试甲', priceFen: 1500 })
  doc.free = await addOnlineDoctor(t, { hospitalId, deptId, name: '消息测试乙', priceFen: 0 })
})
after(() => t.close())

/** A fresh user with a complete patient: each test reads a message centre of its own. */
async function newPatientUser() {
  const caller = await signInUser(t.app)
  return { caller, patientId: await addPatient(t, caller.userId, PATIENT) }
}

async function order(caller: Caller, patientId: number, doctorId: number) {
  const env = await call<Inquiry>('POST', ADD, { caller, body: { doctorId, patientId, description: '胃痛一周', idempotencyKey: newKey('m') } })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

const list = (caller: Caller, query: Record<string, string> = {}) => call<UserMessagePage>('GET', LIST, { caller, query })
const unreadInDb = async (userId: number) =>
  (await db().select().from(userMessages).where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)))).length

/** `n` notices written as the domain writes them, oldest first; answers their ids in that order. */
async function notices(userId: number, n: number) {
  for (let i = 0; i < n; i++) {
    await addUserMessage(db(), { userId, kind: 'system', title: `系统通知${i + 1}`, content: `第${i + 1}条通知` }, new Date(Date.now() + i))
  }
  const rows = await db().select({ id: userMessages.id }).from(userMessages).where(eq(userMessages.userId, userId)).orderBy(userMessages.id)
  return rows.map((r) => r.id)
}

describe('GET /dld-hospital/message/messageList', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', LIST)
  })

  it('refuses a bad page or size', async () => {
    assertBadInput(await list(owner, { page: '0' }))
    assertBadInput(await list(owner, { size: 'x' }))
    assertBadInput(await list(owner, { size: '500' }))
  })

  it('answers the caller’s notices newest first, a page at a time, with the unread count; never someone else’s', async () => {
    const { caller } = await newPatientUser()
    const ids = await notices(caller.userId, 3)
    const first = await list(caller, { page: '1', size: '2' })
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.total, 3)
    assert.equal(first.data.unread, 3)
    assert.deepEqual(
      first.data.records.map((m) => [m.id, m.title, m.read]),
      [
        [ids[2], '系统通知3', false],
        [ids[1], '系统通知2', false],
      ],
    )
    const second = await list(caller, { page: '2', size: '2' })
    assert.deepEqual(
      second.data.records.map((m) => m.id),
      [ids[0]],
    )
    const theirs = await list(stranger)
    assert.ok(!theirs.data.records.some((m) => ids.includes(m.id)))
  })

  it('tells the patient a consultation was paid, cancelled with a refund, and closed and refunded when no doctor accepted', async () => {
    const { caller, patientId } = await newPatientUser()
    const paid = await order(caller, patientId, doc.paid)
    await payInquiry(t, caller, paid.id)
    let page = (await list(caller)).data
    assert.equal(page.records[0]!.title, '问诊已支付，等待医生接诊')
    assert.equal(page.records[0]!.kind, 'inquiry')
    assert.equal(page.records[0]!.link, `/pages/order/inquiry/detail?id=${paid.id}`)
    assert.match(page.records[0]!.content, /消息测试甲医生/)
    assert.ok(page.records[0]!.content.includes(paid.inquiryNo))

    const cancelled = await call<Inquiry>('GET', CANCEL, { caller, query: { id: String(paid.id) } })
    assert.equal(cancelled.code, 200, cancelled.msg)
    page = (await list(caller)).data
    assert.equal(page.records[0]!.title, '问诊已取消，费用将原路退回')

    const overdue = await order(caller, patientId, doc.paid)
    await payInquiry(t, caller, overdue.id)
    const paidAt = new Date((await call<Inquiry>('GET', `${H}/inquiry/order/detail`, { caller, query: { id: String(overdue.id) } })).data.serviceEndsAt!)
    await checkInquiry(db(), t.app.ctx.cipher, t.app.ctx.providers, caller.userId, overdue.id, new Date(paidAt.getTime() + 1))
    page = (await list(caller)).data
    assert.equal(page.records[0]!.title, '医生未接诊，问诊已关闭，费用将原路退回')
    assert.equal(page.records[0]!.link, `/pages/order/inquiry/detail?id=${overdue.id}`)

    const free = await order(caller, patientId, doc.free)
    page = (await list(caller)).data
    assert.equal(page.records[0]!.title, '问诊已提交，等待医生接诊')
    assert.equal(page.records[0]!.link, `/pages/order/inquiry/detail?id=${free.id}`)
    assert.equal(page.total, 5)
    assert.equal(page.unread, 5)
    // an unpaid order tells nothing yet
    await order(caller, patientId, doc.paid)
    assert.equal((await list(caller)).data.total, 5)
  })
})

describe('POST /dld-hospital/message/read', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', READ, { body: {} })
  })

  it('refuses a bad id and marks nothing', async () => {
    const { caller } = await newPatientUser()
    await notices(caller.userId, 1)
    assertBadInput(await call('POST', READ, { caller, body: { id: 'abc' } }))
    assertBadInput(await call('POST', READ, { caller, body: { id: -1 } }))
    assert.equal(await unreadInDb(caller.userId), 1)
  })

  it('answers 2999 for someone else’s notice and one that does not exist, marking nothing', async () => {
    const { caller } = await newPatientUser()
    const [id] = await notices(caller.userId, 1)
    assertForbidden(await call('POST', READ, { caller: stranger, body: { id } }))
    assertForbidden(await call('POST', READ, { caller, body: { id: 99999999 } }))
    assert.equal(await unreadInDb(caller.userId), 1)
  })

  it('marks one notice read, then all of them; marking again changes nothing', async () => {
    const { caller } = await newPatientUser()
    const ids = await notices(caller.userId, 3)
    const other = await newPatientUser()
    await notices(other.caller.userId, 1)
    const one = await call<MessageReadResult>('POST', READ, { caller, body: { id: ids[1] } })
    assert.equal(one.code, 200, one.msg)
    assert.deepEqual(one.data, { marked: 1, unread: 2 })
    const page = (await list(caller)).data
    assert.deepEqual(
      page.records.map((m) => [m.id, m.read]),
      [
        [ids[2], false],
        [ids[1], true],
        [ids[0], false],
      ],
    )
    assert.equal(page.unread, 2)
    assert.deepEqual((await call<MessageReadResult>('POST', READ, { caller, body: { id: ids[1] } })).data, { marked: 0, unread: 2 })
    const all = await call<MessageReadResult>('POST', READ, { caller })
    assert.equal(all.code, 200, all.msg)
    assert.deepEqual(all.data, { marked: 2, unread: 0 })
    assert.equal((await list(caller)).data.unread, 0)
    // someone else's stay unread
    assert.equal(await unreadInDb(other.caller.userId), 1)
  })
})
