import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { auditLog, hisNucleicTests, nucleicOrders } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { CODE_AFTER_PAYMENT } from '../../server/src/domain/nucleic'
import { ALREADY_SAMPLED } from '../../server/src/plugins/providers/hisSandboxMedTech'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { NucleicKind, NucleicOrder, NucleicPurchaseStart, NucleicResult } from '../../types/api/medtech'
import type { Page } from '../../types/api/hospital'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const P = '/dld-doctor/api'
const H = '10392'
const RETURN_URL = '/h5/palm/nucleic/orderList'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

let t: TestApp
let owner: User
let stranger: User
let sandbox: SandboxPay
let ownerPatient = 0
let strangerPatient = 0
let desk: Caller

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function newPatient(user: User, name: string) {
  const birth = `19${60 + randomInt(40)}0${1 + randomInt(9)}1${randomInt(10)}`
  return addPatient(t, user.userId, { name, sex: 2, birthday: `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6, 8)}`, mobile: '13700000000', idCard: idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), '330102') })
}

const buy = (caller: Caller, patientId: number, over: Record<string, unknown> = {}) =>
  call<NucleicPurchaseStart>('POST', `${A}/payment/init/nucleic`, { caller, body: { hospitalCode: H, patientId, kindCode: 'HS01', returnUrl: RETURN_URL, idempotencyKey: newKey('hs'), ...over } })

async function buyPaid(caller: Caller, patientId: number, kindCode = 'HS01'): Promise<NucleicOrder> {
  const env = await buy(caller, patientId, { kindCode })
  assert.equal(env.code, 200, env.msg)
  assert.ok(env.data.action && env.data.action.kind === 'redirect')
  assert.equal((await confirmAtCashier(t, env.data.action.url)).statusCode, 303)
  await sandbox.settled()
  return (await call<NucleicOrder>('GET', `${A}/payment/nucleic/detail`, { caller, query: { id: String(env.data.record.id) } })).data
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  ownerPatient = await newPatient(owner, '林小红')
  strangerPatient = await newPatient(stranger, '吴芳')
  const login = await call<StaffSession>('POST', `${P}/login`, { body: { login: '10392001', password: DEMO_STAFF_PASSWORD } })
  desk = { headers: { authorization: `Bearer ${login.data.token}` } }
})
after(() => t.close())

describe('GET /dld-palm/api/nucleic/kinds', () => {
  it('answers the hospital’s tests and prices from its HIS; an unknown hospital is 404', async () => {
    const env = await call<NucleicKind[]>('GET', `${A}/nucleic/kinds`, { query: { hospitalCode: H } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.map((k) => [k.code, k.priceFen]), [['HS01', 1600], ['HS10', 350]])
    assert.match(env.data[1]!.name, /混检/)
    assert.equal((await call('GET', `${A}/nucleic/kinds`, { query: { hospitalCode: 'NOPE1' } })).code, 404)
    assertBadInput(await call('GET', `${A}/nucleic/kinds`))
  })
})

describe('POST /dld-palm/api/payment/init/nucleic', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/payment/init/nucleic`, { body: { hospitalCode: H, patientId: ownerPatient, kindCode: 'HS01', returnUrl: RETURN_URL, idempotencyKey: newKey('hs') } })
  })

  it('refuses bad input and makes nothing', async () => {
    const before = (await db().select().from(nucleicOrders)).length
    assertBadInput(await buy(owner, ownerPatient, { kindCode: 'NOPE' }), '请选择核酸检测项目')
    assertBadInput(await buy(owner, ownerPatient, { returnUrl: 'https://evil.example/' }), '返回页面不正确')
    assertBadInput(await buy(owner, ownerPatient, { idempotencyKey: 'x' }))
    assert.equal((await db().select().from(nucleicOrders)).length, before)
  })

  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await buy(owner, strangerPatient))
  })

  it('makes one test per idempotency key, unpaid with a cashier to pay it', async () => {
    const key = newKey('hs')
    const first = await buy(owner, ownerPatient, { idempotencyKey: key, kindCode: 'HS10' })
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.record.amountFen, 350)
    assert.equal(first.data.record.payable, true)
    assert.equal(first.data.record.sampleNo, null)
    assert.equal(first.data.record.patientName, '林*红')
    const again = await buy(owner, ownerPatient, { idempotencyKey: key, kindCode: 'HS10' })
    assert.equal(again.data.record.id, first.data.record.id)
    assert.equal((await buy(owner, ownerPatient, { idempotencyKey: key, kindCode: 'HS01' })).code, 409)
  })
})

describe('GET /dld-palm/api/payment/nucleic/list, /detail and /codeImage/{id}', () => {
  let paid: NucleicOrder
  let unpaidId = 0
  before(async () => {
    paid = await buyPaid(owner, ownerPatient)
    unpaidId = (await buy(owner, ownerPatient)).data.record.id
  })

  it('answer 401 without a sign-in', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/nucleic/list`)
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/nucleic/detail`, { query: { id: String(paid.id) } })
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/nucleic/codeImage/${paid.id}`)
  })

  it('refuse bad input', async () => {
    assertBadInput(await call('GET', `${A}/payment/nucleic/list`, { caller: owner, query: { size: '500' } }))
    assertBadInput(await call('GET', `${A}/payment/nucleic/codeImage/abc`, { caller: owner }))
  })

  it('answer 2999 for someone else’s test or patient', async () => {
    assertForbidden(await call('GET', `${A}/payment/nucleic/detail`, { caller: stranger, query: { id: String(paid.id) } }))
    assertForbidden(await call('GET', `${A}/payment/nucleic/codeImage/${paid.id}`, { caller: stranger }))
    assertForbidden(await call('GET', `${A}/payment/nucleic/list`, { caller: stranger, query: { patientId: String(ownerPatient) } }))
    const theirs = await call<Page<NucleicOrder>>('GET', `${A}/payment/nucleic/list`, { caller: stranger })
    assert.ok(theirs.data.records.every((r) => r.id !== paid.id))
  })

  it('list the tests newest first: the paid one registered for sampling with its sample number', async () => {
    assert.equal(paid.status, 'paid')
    assert.equal(paid.testStatus, 'registered')
    assert.equal(paid.testStatusText, '待采样')
    assert.match(paid.sampleNo!, /^HS\d{18}$/)
    assert.equal(paid.refundable, true)
    const list = await call<Page<NucleicOrder>>('GET', `${A}/payment/nucleic/list`, { caller: owner, query: { patientId: String(ownerPatient), hospitalCode: H } })
    assert.equal(list.code, 200, list.msg)
    assert.equal(list.data.records[0]!.id, unpaidId)
    assert.equal(list.data.records.find((r) => r.id === paid.id)!.sampleNo, paid.sampleNo)
  })

  it('draws the sampling QR code of a paid test on the server, and refuses one not paid', async () => {
    const env = await call<{ sampleNo: string; image: string }>('GET', `${A}/payment/nucleic/codeImage/${paid.id}`, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.sampleNo, paid.sampleNo)
    assert.match(env.data.image, /^data:image\/svg\+xml;base64,/)
    const svg = Buffer.from(env.data.image.split(',')[1]!, 'base64').toString('utf8')
    assert.match(svg, /^<svg[^>]*viewBox/)
    assertBadInput(await call('GET', `${A}/payment/nucleic/codeImage/${unpaidId}`, { caller: owner }), CODE_AFTER_PAYMENT)
  })
})

describe('POST /dld-palm/api/payment/nucleic/cancel', () => {
  it('answers 401 without a sign-in, 400 without an id, 2999 for someone else’s test', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/payment/nucleic/cancel`, { body: { id: 1 } })
    assertBadInput(await call('POST', `${A}/payment/nucleic/cancel`, { caller: owner, body: {} }))
    const theirs = await buyPaid(stranger, strangerPatient)
    assertForbidden(await call('POST', `${A}/payment/nucleic/cancel`, { caller: owner, body: { id: theirs.id } }))
    assert.equal((await call<NucleicOrder>('GET', `${A}/payment/nucleic/detail`, { caller: stranger, query: { id: String(theirs.id) } })).data.status, 'paid')
  })

  it('gives up an unpaid test', async () => {
    const unpaid = (await buy(owner, ownerPatient)).data.record
    const env = await call<NucleicOrder>('POST', `${A}/payment/nucleic/cancel`, { caller: owner, body: { id: unpaid.id } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'cancelled')
    assert.equal(env.data.payable, false)
    // the HIS lets the unpaid test go with the order
    const [his] = await db().select().from(hisNucleicTests).where(eq(hisNucleicTests.orderNo, unpaid.orderNo))
    assert.equal(his!.status, 'cancelled')
  })

  it('refunds a paid test cancelled before sampling, whole, and the HIS cancels it', async () => {
    const test = await buyPaid(owner, ownerPatient)
    const env = await call<NucleicOrder>('POST', `${A}/payment/nucleic/cancel`, { caller: owner, body: { id: test.id } })
    assert.equal(env.code, 200, env.msg)
    assert.ok(['refunding', 'refunded'].includes(env.data.status))
    await sandbox.settled()
    const after = (await call<NucleicOrder>('GET', `${A}/payment/nucleic/detail`, { caller: owner, query: { id: String(test.id) } })).data
    assert.equal(after.status, 'refunded')
    assert.equal(after.order.refundedFen, 1600)
    assert.equal(after.testStatus, 'cancelled')
    assert.equal(after.sampleNo, null)
    const [his] = await db().select().from(hisNucleicTests).where(eq(hisNucleicTests.orderNo, test.orderNo))
    assert.equal(his!.status, 'cancelled')
    assert.equal(await ledgerImbalance(db()), 0)
  })

  it('refuses once sampled, and refunds nothing', async () => {
    const test = await buyPaid(owner, ownerPatient)
    assert.equal((await call('POST', `${P}/his/nucleic/tests/${test.sampleNo}/sample`, { caller: desk })).code, 200)
    assertBadInput(await call('POST', `${A}/payment/nucleic/cancel`, { caller: owner, body: { id: test.id } }), ALREADY_SAMPLED)
    const after = (await call<NucleicOrder>('GET', `${A}/payment/nucleic/detail`, { caller: owner, query: { id: String(test.id) } })).data
    assert.equal(after.status, 'paid')
    assert.equal(after.testStatus, 'sampled')
    assert.equal(after.refundable, false)
  })
})

describe('POST /dld-palm/api/report/nucleic and the console’s release', () => {
  let test: NucleicOrder
  before(async () => {
    test = await buyPaid(owner, ownerPatient)
  })

  it('answers 401 without a sign-in, 400 on bad input, 2999 for someone else’s patient', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/report/nucleic`, { body: { hospitalCode: H, patientId: ownerPatient } })
    assertBadInput(await call('POST', `${A}/report/nucleic`, { caller: owner, body: { hospitalCode: H } }))
    assertForbidden(await call('POST', `${A}/report/nucleic`, { caller: stranger, body: { hospitalCode: H, patientId: ownerPatient } }))
  })

  it('shows the result the console released: 阴性 with its sampling and report times; the console refuses before sampling', async () => {
    const before = await call<NucleicResult[]>('POST', `${A}/report/nucleic`, { caller: owner, body: { hospitalCode: H, patientId: ownerPatient } })
    assert.equal(before.code, 200, before.msg)
    const waiting = before.data.find((r) => r.sampleNo === test.sampleNo)!
    assert.equal(waiting.statusText, '待采样')
    assert.equal(waiting.result, null)
    assertBadInput(await call('POST', `${P}/his/nucleic/tests/${test.sampleNo}/release`, { caller: desk, body: { result: '阴性' } }), '该核酸检测尚未采样')
    assert.equal((await call('POST', `${P}/his/nucleic/tests/${test.sampleNo}/sample`, { caller: desk })).code, 200)
    assertBadInput(await call('POST', `${P}/his/nucleic/tests/${test.sampleNo}/release`, { caller: desk, body: { result: '可疑' } }))
    const released = await call<{ result: string; patientName: string }>('POST', `${P}/his/nucleic/tests/${test.sampleNo}/release`, { caller: desk, body: { result: '阴性' } })
    assert.equal(released.code, 200, released.msg)
    assert.equal(released.data.patientName, '林*红')
    const results = await call<NucleicResult[]>('POST', `${A}/report/nucleic`, { caller: owner, body: { hospitalCode: H, patientId: ownerPatient } })
    const done = results.data.find((r) => r.sampleNo === test.sampleNo)!
    assert.equal(done.result, '阴性')
    assert.equal(done.statusText, '已出报告')
    assert.ok(done.sampledAt && done.reportedAt && done.reportedAt >= done.sampledAt)
    const console = await call<{ sampleNo: string; status: string }[]>('GET', `${P}/his/nucleic/tests`, { caller: desk })
    assert.equal(console.data.find((c) => c.sampleNo === test.sampleNo)!.status, 'reported')
    assert.equal((await call('GET', `${P}/his/nucleic/tests`)).code, 401)
  })

  it('records every read of a result in the audit log with the patient, and none of the stranger’s refused reads', async () => {
    const rows = await db().select().from(auditLog).where(and(eq(auditLog.subject, 'nucleic'), eq(auditLog.patientId, ownerPatient)))
    assert.ok(rows.some((r) => r.route === `POST ${A}/report/nucleic` && r.actorId === owner.userId))
    assert.ok(rows.some((r) => r.route === `GET ${A}/payment/nucleic/detail` && r.action === 'read'))
    assert.ok(!rows.some((r) => r.actorId === stranger.userId))
  })
})
