import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { count, eq, sql } from 'drizzle-orm'
import { hisAccounts, orders, recharges } from '../../server/src/db/schema'
import { rowsOf } from '../../server/src/db'
import { ledgerImbalance } from '../../server/src/domain/payment'
import type { HisBill } from '../../server/src/plugins/providers/his'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { AccountBalance, BillPayStart, BillPayment, RechargeRecord, RechargeStart } from '../../types/api/palm'
import type { Page } from '../../types/api/hospital'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const H = '10392'
const RETURN_URL = '/h5/palm/accountRecharge/index'

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
let ownerPerson: Person
let strangerPerson: Person

const catalogue = priceCatalogue(H)
const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())

function newIdCard() {
  const birth = `19${60 + randomInt(40)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  return idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
}
async function newPerson(user: User, name = '陈志强'): Promise<Person> {
  const idCard = newIdCard()
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}

const balance = (caller: Caller, p: Person) =>
  call<AccountBalance>('GET', `${A}/payment/clinic/balance`, { caller, query: { hospitalCode: H, patientId: String(p.patientId) } })
const topUp = (caller: Caller, p: Person, amountFen: number, over: Record<string, unknown> = {}) =>
  call<RechargeStart>('POST', `${A}/payment/recharge`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, amountFen, returnUrl: RETURN_URL, idempotencyKey: newKey('topup'), ...over },
  })
async function paid(start: RechargeStart | BillPayStart) {
  assert.ok(start.action && start.action.kind === 'redirect', 'a cashier to open')
  assert.equal((await confirmAtCashier(t, start.action.url)).statusCode, 303)
  await sandbox.settled()
}
async function toppedUp(caller: Caller, p: Person, amountFen: number) {
  const env = await topUp(caller, p, amountFen)
  assert.equal(env.code, 200, env.msg)
  await paid(env.data)
  return env.data.record
}

/**
 * The balance is the sum of the account's entries by construction (no balance column); what is checked: the balance the
 * patient is told equals that sum, no account was ever overdrawn, and the payment core's ledger balances.
 */
async function assertAccountsMatchLedger(checked: { caller: Caller; p: Person }[] = []) {
  const rows = rowsOf<{ id: number; total: string; lowest: string }>(
    await db().execute(sql`select account_id as id, sum(amount_fen)::text as total,
      min(running)::text as lowest from (select account_id, amount_fen, sum(amount_fen) over (partition by account_id order by id) as running from his_account_entries) e group by account_id`),
  )
  for (const r of rows) assert.ok(Number(r.lowest) >= 0 && Number(r.total) >= 0, `account ${r.id} overdrawn`)
  for (const { caller, p } of checked) {
    const told = (await balance(caller, p)).data.balanceFen
    const [acc] = await db().select().from(hisAccounts).where(eq(hisAccounts.id, (await accountIdOf(p))!))
    const [{ n } = { n: '0' }] = rowsOf<{ n: string }>(await db().execute(sql`select coalesce(sum(amount_fen), 0)::text as n from his_account_entries where account_id = ${acc!.id}`))
    assert.equal(told, Number(n))
  }
  assert.equal(await ledgerImbalance(db()), 0)
  return rows.length
}
async function accountIdOf(p: Person): Promise<number | undefined> {
  const ids = await db().select({ id: hisAccounts.id, key: hisAccounts.patientKey }).from(hisAccounts).where(eq(hisAccounts.hospitalCode, H))
  const key = t.app.ctx.cipher.blindIndex(`his:id:${p.idCard}`)
  return ids.find((r) => r.key === key)?.id
}

let visitSerial = 0
const priciest = [...catalogue].sort((a, b) => b.priceFen - a.priceFen)[0]!.name
function issue(p: Person, names: string[]): Promise<HisBill[]> {
  visitSerial += 1
  return his.issueOrders({
    hospitalCode: H,
    patient: { cardNo: null, idCard: p.idCard, name: p.name },
    visitNo: `MZACC${Date.now()}${visitSerial}`,
    visitDate: today(),
    deptName: '消化内科',
    doctorName: '测试医生',
    items: names.map((name) => ({ code: catalogue.find((c) => c.name === name)!.code, quantity: 1 })),
  })
}
const payFromAccount = (caller: Caller, p: Person, billNos: string[], key = newKey('acct')) =>
  call<BillPayStart>('POST', `${A}/payment/init`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, billNos, returnUrl: '/h5/palm/payment/waitPay', idempotencyKey: key, channel: 'account' },
  })

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  his = t.app.ctx.providers.his as SandboxHis
  ownerPerson = await newPerson(owner, '陈志强')
  strangerPerson = await newPerson(stranger, '刘秀英')
})
after(() => t.close())

describe('GET /dld-palm/api/payment/clinic/balance', () => {
  const url = `${A}/payment/clinic/balance`
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', url, { query: { hospitalCode: H, patientId: String(ownerPerson.patientId) } })
  })
  it('refuses bad input with a clear reason', async () => {
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H } }))
    assertBadInput(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: 'x' } }))
  })
  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await balance(owner, strangerPerson))
    assertForbidden(await call('GET', url, { caller: owner, query: { hospitalCode: H, patientId: '2000000000' } }))
  })
  it('answers the balance, 0 for a new card', async () => {
    const env = await balance(owner, ownerPerson)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.balanceFen, 0)
    assert.equal(env.data.hospitalCode, H)
    assert.equal(env.data.patientName, '陈*强')
  })
})

describe('POST /dld-palm/api/payment/recharge', () => {
  const url = `${A}/payment/recharge`
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: ownerPerson.patientId, amountFen: 10000, returnUrl: RETURN_URL, idempotencyKey: newKey('k') } })
  })
  it('refuses bad input with a clear reason, and creates nothing', async () => {
    const before = (await db().select({ n: count() }).from(recharges))[0]!.n
    assertBadInput(await topUp(owner, ownerPerson, 0))
    assertBadInput(await topUp(owner, ownerPerson, 12.5))
    assertBadInput(await topUp(owner, ownerPerson, 50), /充值金额应为1.00元至5000.00元/)
    assertBadInput(await topUp(owner, ownerPerson, 500_001), /充值金额应为1.00元至5000.00元/)
    assertBadInput(await topUp(owner, ownerPerson, 10000, { returnUrl: 'https://evil.example/' }), '返回页面不正确')
    assertBadInput(await topUp(owner, ownerPerson, 10000, { idempotencyKey: 'short' }), /请求编号/)
    assert.equal((await db().select({ n: count() }).from(recharges))[0]!.n, before)
  })
  it('answers 2999 for someone else’s patient, and creates nothing', async () => {
    const before = (await db().select({ n: count() }).from(recharges))[0]!.n
    assertForbidden(await topUp(owner, strangerPerson, 10000))
    assert.equal((await db().select({ n: count() }).from(recharges))[0]!.n, before)
  })
  it('tops up through the cashier; the HIS credits the account once; the same key answers the same top-up', async () => {
    const p = await newPerson(owner, '王建国')
    const key = newKey('same')
    const first = await topUp(owner, p, 20000, { idempotencyKey: key })
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.record.status, 'paying')
    assert.equal(first.data.record.kind, 'clinic')
    const again = await topUp(owner, p, 20000, { idempotencyKey: key })
    assert.equal(again.data.record.id, first.data.record.id)
    assert.equal((await topUp(owner, p, 30000, { idempotencyKey: key })).code, 409)
    assert.equal((await balance(owner, p)).data.balanceFen, 0)
    await paid(first.data)
    assert.equal((await balance(owner, p)).data.balanceFen, 20000)
    // the cashier's notification again changes nothing
    const after = await topUp(owner, p, 20000, { idempotencyKey: key })
    assert.equal(after.data.record.status, 'paid')
    assert.equal(after.data.action, null)
    assert.equal((await balance(owner, p)).data.balanceFen, 20000)
    await assertAccountsMatchLedger([{ caller: owner, p }])
  })
})

describe('GET /dld-palm/api/payment/recharge/list and /detail', () => {
  it('lists the caller’s own top-ups only, newest first; someone else’s record is 2999', async () => {
    const p = await newPerson(owner, '李娜')
    await toppedUp(owner, p, 10000)
    await toppedUp(owner, p, 5000)
    const env = await call<Page<RechargeRecord>>('GET', `${A}/payment/recharge/list`, { caller: owner, query: { hospitalCode: H, patientId: String(p.patientId) } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.records.map((r) => [r.amountFen, r.status]), [[5000, 'paid'], [10000, 'paid']])
    assertForbidden(await call('GET', `${A}/payment/recharge/list`, { caller: stranger, query: { patientId: String(p.patientId) } }))
    const theirs = await call<Page<RechargeRecord>>('GET', `${A}/payment/recharge/list`, { caller: stranger })
    assert.ok(theirs.data.records.every((r) => r.patientId !== p.patientId))
    const id = String(env.data.records[0]!.id)
    assert.equal((await call<RechargeRecord>('GET', `${A}/payment/recharge/detail`, { caller: owner, query: { id } })).data.amountFen, 5000)
    assertForbidden(await call('GET', `${A}/payment/recharge/detail`, { caller: stranger, query: { id } }))
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/recharge/list`)
  })
})

describe('POST /dld-palm/api/payment/init with channel account', () => {
  it('refuses a short balance with the balance, and changes nothing', async () => {
    const p = await newPerson(owner, '赵强')
    await toppedUp(owner, p, 100)
    const bills = await issue(p, [priciest])
    const ordersBefore = (await db().select({ n: count() }).from(orders))[0]!.n
    const env = await payFromAccount(owner, p, bills.map((b) => b.billNo))
    assertBadInput(env, /^就诊卡余额不足：当前余额1.00元，本次需支付\d+\.\d{2}元，请先充值或选择其他支付方式$/)
    assert.equal((await db().select({ n: count() }).from(orders))[0]!.n, ordersBefore)
    assert.equal((await his.bills({ hospitalCode: H, patient: { cardNo: null, idCard: p.idCard, name: p.name }, billNos: [bills[0]!.billNo] }))[0]!.status, 'unpaid')
    assert.equal((await balance(owner, p)).data.balanceFen, 100)
    assertBadInput(await call('POST', `${A}/payment/init`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId, billNos: [bills[0]!.billNo], returnUrl: RETURN_URL, idempotencyKey: newKey('x'), channel: 'card' } }), /支付方式不正确/)
  })

  it('pays from the account at once, no cashier; the same key answers it; a refund credits the account back', async () => {
    const p = await newPerson(owner, '孙丽')
    await toppedUp(owner, p, 50000)
    const bills = await issue(p, ['血常规（五分类）', 'C反应蛋白'])
    const sum = bills.reduce((s, b) => s + b.amountFen, 0)
    const key = newKey('acct')
    const env = await payFromAccount(owner, p, bills.map((b) => b.billNo), key)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.action, null)
    assert.equal(env.data.record.status, 'paid')
    assert.equal(env.data.record.order.channel, 'account')
    assert.equal((await balance(owner, p)).data.balanceFen, 50000 - sum)
    assert.equal((await payFromAccount(owner, p, bills.map((b) => b.billNo), key)).data.record.id, env.data.record.id)
    assert.equal((await balance(owner, p)).data.balanceFen, 50000 - sum)
    // paid already: another account payment of the same bills is refused, the balance untouched
    assert.notEqual((await payFromAccount(owner, p, bills.map((b) => b.billNo))).code, 200)
    const refund = await call<BillPayment>('POST', `${A}/payment/fund/${env.data.record.id}`, { caller: owner, body: {} })
    assert.equal(refund.code, 200, refund.msg)
    assert.equal(refund.data.status, 'refunded')
    assert.equal((await balance(owner, p)).data.balanceFen, 50000)
    await assertAccountsMatchLedger([{ caller: owner, p }])
  })

  it('pays two concurrent account payments only while the balance lasts', async () => {
    const p = await newPerson(owner, '周杰')
    const bills = await issue(p, ['血常规（五分类）', '常规心电图'])
    await toppedUp(owner, p, Math.max(...bills.map((b) => b.amountFen)))
    const answers = await Promise.all(bills.map((b) => payFromAccount(owner, p, [b.billNo])))
    const ok = answers.filter((a) => a.code === 200)
    assert.equal(ok.length, 1, answers.map((a) => a.msg).join(' / '))
    assert.ok((await balance(owner, p)).data.balanceFen >= 0)
  })
})

describe('top-ups under concurrency', () => {
  it('credits exactly the sum of 100 concurrent top-ups (paid at once), and every balance equals its ledger', async () => {
    // a caller of its own: 100 orders an hour is the per-caller limit
    const rich = await signInUser(t.app)
    const p = await newPerson(rich, '钱多多')
    const starts = await Promise.all(Array.from({ length: 100 }, (_, i) => topUp(rich, p, 100 + i)))
    assert.ok(starts.every((s) => s.code === 200), starts.find((s) => s.code !== 200)?.msg)
    await Promise.all(starts.map((s) => confirmAtCashier(t, (s.data.action as { url: string }).url)))
    await sandbox.settled()
    const expected = Array.from({ length: 100 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0)
    assert.equal((await balance(rich, p)).data.balanceFen, expected)
    assert.ok((await assertAccountsMatchLedger([{ caller: rich, p }])) > 0)
  })
})
