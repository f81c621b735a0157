import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { count } from 'drizzle-orm'
import { recharges } from '../../server/src/db/schema'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { settlementReturns, type SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { DailyCharges, InpatientView, RechargeAmounts, RechargeRecord, RechargeStart } from '../../types/api/palm'
import type { Page } from '../../types/api/hospital'
import type { DischargeSettlement } from '../../types/api/settlement'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const H = '10392'
const RETURN_URL = '/h5/palm/hospitalization/index'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }
interface Person {
  patientId: number
  idCard: string
  name: string
}

let t: TestApp
let owner: User
let stranger: User
let sandbox: SandboxPay
let his: SandboxHis

const catalogue = priceCatalogue(H)
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const day = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + offset * 86_400_000))

async function newPerson(user: User, name: string): Promise<Person> {
  const birth = `19${60 + randomInt(40)}0${1 + randomInt(9)}1${randomInt(9)}`
  const idCard = idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}
const who = (p: Person) => ({ cardNo: null, idCard: p.idCard, name: p.name })
/** Admitted three days ago, with a day's charges on each day since. */
async function admitted(p: Person) {
  const a = await his.admit({ hospitalCode: H, patient: who(p), deptName: '心血管内科', ward: '心内科一病区', bed: '12床', doctorName: '姚秀英' }, new Date(Date.now() - 3 * 86_400_000))
  const items = [catalogue.find((c) => c.category === 'drug')!, catalogue.find((c) => c.category === 'lab')!]
  for (const offset of [-3, -2, -1]) await his.postCharges({ hospitalCode: H, admissionNo: a.admissionNo, date: day(offset), items: items.map((c) => ({ code: c.code, quantity: 2 })) })
  return { admissionNo: a.admissionNo, dailyFen: items.reduce((s, c) => s + 2 * c.priceFen, 0) }
}
const view = (caller: Caller, p: Person, path = 'inpatient') => call<InpatientView | null>('POST', `${A}/recharge/${path}`, { caller, body: { hospitalCode: H, patientId: p.patientId } })
const deposit = (caller: Caller, p: Person, admissionNo: string, amountFen: number, over: Record<string, unknown> = {}) =>
  call<RechargeStart>('POST', `${A}/recharge`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, admissionNo, amountFen, returnUrl: RETURN_URL, idempotencyKey: newKey('dep'), ...over },
  })
async function paid(start: RechargeStart) {
  assert.ok(start.action && start.action.kind === 'redirect')
  assert.equal((await confirmAtCashier(t, start.action.url)).statusCode, 303)
  await sandbox.settled()
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  his = t.app.ctx.providers.his as SandboxHis
})
after(() => t.close())

describe('POST /dld-palm/api/recharge/inpatient and /recharge/balance', () => {
  it('answers 401/403, 400 for bad input, 2999 for someone else’s patient', async () => {
    const p = await newPerson(owner, '陈志强')
    await assertUnauthorisedCall(t.app, 'POST', `${A}/recharge/inpatient`, { body: { hospitalCode: H, patientId: p.patientId } })
    assertBadInput(await call('POST', `${A}/recharge/inpatient`, { caller: owner, body: { hospitalCode: H } }))
    assertForbidden(await view(stranger, p))
  })
  it('answers null without a stay, then the stay with costs, days, and the low-deposit warning', async () => {
    const p = await newPerson(owner, '王建国')
    assert.equal((await view(owner, p)).data, null)
    const { admissionNo, dailyFen } = await admitted(p)
    const env = await view(owner, p)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data!.admissionNo, admissionNo)
    assert.equal(env.data!.status, 'in')
    assert.equal(env.data!.bed, '12床')
    assert.equal(env.data!.costFen, 3 * dailyFen)
    assert.equal(env.data!.balanceFen, -3 * dailyFen)
    assert.equal(env.data!.days.length, 3)
    assert.equal(env.data!.averageDailyFen, dailyFen)
    assert.equal(env.data!.lowDeposit, true)
    assert.match(env.data!.warning!, /住院预交金余额不足/)
    assert.deepEqual((await view(owner, p, 'balance')).data, env.data)
  })
})

describe('POST /dld-palm/api/recharge/daily', () => {
  it('answers one day’s items of the patient’s own stay; someone else’s stay is 2999', async () => {
    const p = await newPerson(owner, '李娜')
    const q = await newPerson(stranger, '刘秀英')
    const { admissionNo, dailyFen } = await admitted(p)
    const env = await call<DailyCharges>('POST', `${A}/recharge/daily`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId, admissionNo, date: day(-2) } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.totalFen, dailyFen)
    assert.equal(env.data.items.length, 2)
    assertBadInput(await call('POST', `${A}/recharge/daily`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId, admissionNo, date: '2024/1/1' } }), /日期/)
    assertForbidden(await call('POST', `${A}/recharge/daily`, { caller: stranger, body: { hospitalCode: H, patientId: q.patientId, admissionNo, date: day(-2) } }))
    assertForbidden(await call('POST', `${A}/recharge/daily`, { caller: stranger, body: { hospitalCode: H, patientId: p.patientId, admissionNo, date: day(-2) } }))
  })
})

describe('GET /dld-palm/api/recharge/amount', () => {
  it('answers the default choices, and a hospital’s own', async () => {
    const env = await call<RechargeAmounts>('GET', `${A}/recharge/amount`, { query: { hospitalCode: H } })
    assert.deepEqual(env.data.amountsFen, [100000, 200000, 500000, 1000000])
    assert.equal((await call('GET', `${A}/recharge/amount`, { query: { hospitalCode: 'NOPE1' } })).code, 404)
  })
})

describe('POST /dld-palm/api/recharge, GET /recharge/list and /detail', () => {
  it('refuses bad input and someone else’s patient or stay, creating nothing', async () => {
    const p = await newPerson(owner, '赵强')
    const q = await newPerson(stranger, '钱芳')
    const { admissionNo } = await admitted(p)
    const { admissionNo: theirs } = await admitted(q)
    const before = (await t.database.db.select({ n: count() }).from(recharges))[0]!.n
    await assertUnauthorisedCall(t.app, 'POST', `${A}/recharge`, { body: { hospitalCode: H, patientId: p.patientId, admissionNo, amountFen: 100000, returnUrl: RETURN_URL, idempotencyKey: newKey('d') } })
    assertBadInput(await deposit(owner, p, admissionNo, 50), /充值金额应为/)
    assertBadInput(await deposit(owner, p, admissionNo, 100000, { returnUrl: 'https://evil.example/' }))
    assertForbidden(await deposit(owner, q, theirs, 100000))
    assertForbidden(await deposit(owner, p, theirs, 100000))
    assert.equal((await t.database.db.select({ n: count() }).from(recharges))[0]!.n, before)
  })

  it('pays a deposit into the stay, credited once; discharge settles the balance; a later deposit is refunded', async () => {
    const p = await newPerson(owner, '孙丽')
    const { admissionNo, dailyFen } = await admitted(p)
    const key = newKey('dep')
    const start = await deposit(owner, p, admissionNo, 500000, { idempotencyKey: key })
    assert.equal(start.code, 200, start.msg)
    assert.equal((await deposit(owner, p, admissionNo, 500000, { idempotencyKey: key })).data.record.id, start.data.record.id)
    await paid(start.data)
    const stay = (await view(owner, p)).data!
    assert.equal(stay.depositFen, 500000)
    assert.equal(stay.balanceFen, 500000 - 3 * dailyFen)
    assert.equal(stay.lowDeposit, false)
    const list = await call<Page<RechargeRecord>>('GET', `${A}/recharge/list`, { caller: owner, query: { patientId: String(p.patientId) } })
    assert.deepEqual(list.data.records.map((r) => [r.admissionNo, r.status]), [[admissionNo, 'paid']])
    assertForbidden(await call('GET', `${A}/recharge/detail`, { caller: stranger, query: { id: String(start.data.record.id) } }))
    // a deposit started before discharge and paid after it is refunded: the HIS refuses it
    const late = await deposit(owner, p, admissionNo, 100000)
    await his.discharge(H, admissionNo)
    const settled = (await view(owner, p)).data!
    assert.equal(settled.status, 'discharged')
    assert.deepEqual(settled.settlement, { returnedFen: 500000 - 3 * dailyFen, owedFen: 0 })
    assert.equal(settled.balanceFen, 0)
    await paid(late.data)
    const record = await call<RechargeRecord>('GET', `${A}/recharge/detail`, { caller: owner, query: { id: String(late.data.record.id) } })
    assert.equal(record.data.status, 'refunded')
    assert.equal((await view(owner, p)).data!.depositFen, 500000)
    assertBadInput(await deposit(owner, p, admissionNo, 100000), /已出院/)
    assert.equal(await ledgerImbalance(t.database.db), 0)
  })

  it('credits exactly the sum of 100 concurrent deposits', async () => {
    const rich = await signInUser(t.app)
    const p = await newPerson(rich, '周杰')
    const { admissionNo, dailyFen } = await admitted(p)
    const starts = await Promise.all(Array.from({ length: 100 }, (_, i) => deposit(rich, p, admissionNo, 10000 + i)))
    assert.ok(starts.every((s) => s.code === 200), starts.find((s) => s.code !== 200)?.msg)
    await Promise.all(starts.map((s) => confirmAtCashier(t, (s.data.action as { url: string }).url)))
    await sandbox.settled()
    const sum = Array.from({ length: 100 }, (_, i) => 10000 + i).reduce((a, b) => a + b, 0)
    const stay = (await view(rich, p)).data!
    assert.equal(stay.depositFen, sum)
    assert.equal(stay.balanceFen, sum - 3 * dailyFen)
    assert.equal(await ledgerImbalance(t.database.db), 0)
  })
})

describe('POST /dld-palm/api/recharge/settlement', () => {
  const url = `${A}/recharge/settlement`
  const settlement = (caller: Caller, p: Person, admissionNo: string) =>
    call<DischargeSettlement>('POST', url, { caller, body: { hospitalCode: H, patientId: p.patientId, admissionNo } })

  it('answers 401/403 without a sign-in and 400 for bad input', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: 1, admissionNo: 'ZY1' } })
    const p = await newPerson(owner, '孙丽')
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: p.patientId, admissionNo: 'ZY 1;' } }), /住院号/)
  })

  it('refuses a stay still in hospital, and someone else’s patient or stay (2999)', async () => {
    const p = await newPerson(owner, '赵敏')
    const q = await newPerson(stranger, '钱伟')
    const { admissionNo } = await admitted(p)
    assertBadInput(await settlement(owner, p, admissionNo), /尚未办理出院结算/)
    await his.discharge(H, admissionNo)
    assertForbidden(await settlement(stranger, p, admissionNo))
    assertForbidden(await settlement(stranger, q, admissionNo))
    assertForbidden(await settlement(owner, p, 'ZY000000000000'))
  })

  it('answers the settlement of a discharged stay: costs by category, deposits, the balance returned the way it was paid', async () => {
    const p = await newPerson(owner, '吴刚')
    const { admissionNo, dailyFen } = await admitted(p)
    await paid((await deposit(owner, p, admissionNo, 500000)).data)
    await his.discharge(H, admissionNo)
    const env = await settlement(owner, p, admissionNo)
    assert.equal(env.code, 200, env.msg)
    const s = env.data
    assert.equal(s.admissionNo, admissionNo)
    assert.equal(s.patientName, '吴*')
    assert.equal(s.ward, '心内科一病区')
    assert.equal(s.stayDays, 3)
    assert.equal(s.costFen, 3 * dailyFen)
    assert.equal(s.depositFen, 500000)
    assert.equal(s.returnedFen, 500000 - 3 * dailyFen)
    assert.equal(s.owedFen, 0)
    assert.deepEqual(s.returns, [{ way: 'original', channel: 'sandbox', text: '原路退回在线支付', amountFen: 500000 - 3 * dailyFen }])
    assert.deepEqual(s.categories.map((c) => c.name).sort(), ['检验费', '西药费'].sort())
    assert.equal(s.categories.reduce((sum, c) => sum + c.amountFen, 0), s.costFen)
    // what the stay's view says is what the settlement says
    const stay = (await view(owner, p)).data!
    assert.deepEqual(stay.settlement, { returnedFen: s.returnedFen, owedFen: 0 })
  })

  it('answers what is still owed when the deposits did not cover the costs', async () => {
    const p = await newPerson(owner, '郑爽')
    const { admissionNo, dailyFen } = await admitted(p)
    await his.discharge(H, admissionNo)
    const s = (await settlement(owner, p, admissionNo)).data
    assert.equal(s.returnedFen, 0)
    assert.equal(s.owedFen, 3 * dailyFen)
    assert.deepEqual(s.returns, [])
  })
})

describe('the sandbox HIS: how a settled stay’s balance goes back', () => {
  it('goes back to the latest online deposits first, each at most what it paid, the rest at the window', () => {
    const deposits = [
      { channel: 'wechat', amountFen: 30000 },
      { channel: 'window', amountFen: 100000 },
      { channel: 'alipay', amountFen: 20000 },
      { channel: 'wechat', amountFen: 10000 },
    ]
    assert.deepEqual(settlementReturns(55000, deposits), [
      { way: 'original', channel: 'wechat', amountFen: 35000 },
      { way: 'original', channel: 'alipay', amountFen: 20000 },
    ])
    assert.deepEqual(settlementReturns(80000, deposits), [
      { way: 'original', channel: 'wechat', amountFen: 40000 },
      { way: 'original', channel: 'alipay', amountFen: 20000 },
      { way: 'window', channel: 'window', amountFen: 20000 },
    ])
  })
  it('returns nothing when nothing is left', () => {
    assert.deepEqual(settlementReturns(0, [{ channel: 'wechat', amountFen: 100 }]), [])
  })
})
