import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq } from 'drizzle-orm'
import { hisBills, hospitals, insuranceSettlements, orders, outpatientBills, refunds } from '../../server/src/db/schema'
import { ledgerBalance, ledgerImbalance } from '../../server/src/domain/payment'
import { SANDBOX_INSURED, type InsuranceProvider } from '../../server/src/plugins/providers/insurance'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { HisBill } from '../../server/src/plugins/providers/his'
import { priceCatalogue } from '../../server/src/seed/his'
import type { BillPayStart, BillPaymentDetail } from '../../types/api/palm'
import type { InsuranceSplit } from '../../types/api/insurance'
import { assertForbidden, callApi, idCardFor, signInUser, startTestApp, type CallOptions, type Envelope, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

/**
 * Paying outpatient bills with health insurance (issue 17): POST /payment/init with channel insurance makes the order,
 * yibao/outpfeeupload splits the bills' lines, payment/yibao/init takes the cash part, the bills settle with the HIS.
 */
const A = '/dld-palm/api'
const Y = `${A}/yibao`
const H = '10392'
const RETURN_URL = '/h5/pages/order/payment/detail?source=pay'
const REDIRECT = '/palm/chsPayment/index?source=payment&type=outpatient&id=1'
const EMPLOYEE = SANDBOX_INSURED[0]! // 职工: the fund pays 70 %

type Caller = { headers: Record<string, string>; userId: number }
interface Person {
  patientId: number
  idCard: string
  name: string
}

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
let his: SandboxHis
let insured: Person
let strangers: Person

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: CallOptions = {}) => callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
const catalogue = priceCatalogue(H)
const code = (name: string) => catalogue.find((c) => c.name === name)!.code

let visitSerial = 0
/** Two bills of one visit (the laboratory's request and the pharmacy's prescription), straight into the sandbox HIS. */
function issueTwo(p: Person): Promise<HisBill[]> {
  visitSerial += 1
  return his.issueOrders({
    hospitalCode: H,
    patient: { cardNo: null, idCard: p.idCard, name: p.name },
    visitNo: `MZINS${Date.now()}${visitSerial}`,
    visitDate: today(),
    deptName: '呼吸与危重症医学科',
    doctorName: '测试医生',
    items: [
      { code: code('血常规（五分类）'), quantity: 1 },
      { code: code('阿莫西林胶囊'), quantity: 2 },
    ],
  })
}

const init = (caller: Caller, p: Person, billNos: string[], over: Record<string, unknown> = {}) =>
  call<BillPayStart>('POST', `${A}/payment/init`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, billNos, returnUrl: RETURN_URL, idempotencyKey: newKey('ins'), channel: 'insurance', ...over },
  })
const upload = (caller: Caller, orderNo: string) => call<InsuranceSplit>('POST', `${Y}/outpfeeupload`, { caller, body: { orderNo } })
const detail = (caller: Caller, id: number) => call<BillPaymentDetail>('GET', `${A}/payment/detail`, { caller, query: { id: String(id) } })
const hisStatus = async (billNo: string) => (await db().select().from(hisBills).where(and(eq(hisBills.hospitalCode, H), eq(hisBills.billNo, billNo))))[0]!.status
const settlementOf = async (orderNo: string) =>
  (await db().select({ s: insuranceSettlements }).from(insuranceSettlements).innerJoin(orders, eq(orders.id, insuranceSettlements.orderId)).where(eq(orders.orderNo, orderNo)))[0]?.s ?? null

/** The patient picks the insured person on the sandbox voucher page and the app redeems the one-time code. */
async function authorise(caller: Caller, patientId: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/sandbox/insurance/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ channel: 'wechat', hospitalCode: H, redirect: REDIRECT, person: EMPLOYEE.idCard }).toString(),
  })
  assert.equal(res.statusCode, 302)
  const back = new URL(res.headers.location as string, 'http://x')
  assert.equal(back.pathname, '/h5/palm/chsPayment/index')
  assert.equal(back.searchParams.get('type'), 'outpatient')
  const env = await call('POST', `${Y}/wechat/userquery`, { caller, body: { authCode: back.searchParams.get('authCode'), patientId } })
  assert.equal(env.code, 200, env.msg)
}

/** Pays the cash part in the sandbox cashier as the chsPayment page does; answers the cashier page. */
async function payCash(caller: Caller, orderNo: string) {
  const action = await call<{ kind: string; url: string }>('POST', `${A}/payment/yibao/init`, { caller, body: { orderNo, returnUrl: RETURN_URL } })
  assert.equal(action.code, 200, action.msg)
  const cashier = await t.app.inject({ method: 'GET', url: action.data.url })
  assert.equal((await confirmAtCashier(t, action.data.url)).statusCode, 303)
  await sandbox.settled()
  return cashier.body
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  his = t.app.ctx.providers.his as SandboxHis
  insured = { patientId: 0, idCard: EMPLOYEE.idCard, name: EMPLOYEE.name }
  insured.patientId = await addPatient(t, owner.userId, { name: EMPLOYEE.name, idCard: EMPLOYEE.idCard, sex: 1, birthday: '1978-06-15', mobile: '13612345678' })
  const strangerCard = idCardFor('19800202', '321')
  strangers = { patientId: await addPatient(t, stranger.userId, { name: '吴用', idCard: strangerCard, sex: 1, birthday: '1980-02-02', mobile: '13612345679' }), idCard: strangerCard, name: '吴用' }
})
after(() => t.close())

describe('POST /dld-palm/api/payment/init with channel insurance', () => {
  it('refuses insurance at a hospital that is not in chsList, with nothing made', async () => {
    const [h] = await db().insert(hospitals).values({ code: '10601', name: '示范市第四医院', homePageConfig: { menus: [] } }).returning()
    const env = await call('POST', `${A}/payment/init`, {
      caller: owner,
      body: { hospitalCode: h!.code, patientId: insured.patientId, billNos: ['B1'], returnUrl: RETURN_URL, idempotencyKey: newKey('ins'), channel: 'insurance' },
    })
    assert.equal(env.code, 400)
    assert.equal(env.msg, '该医院暂未开通医保移动支付')
    assert.equal(env.data, null)
  })

  it('refuses an unknown way to pay', async () => {
    const env = await init(owner, insured, ['B1'], { channel: 'credit' })
    assert.equal(env.code, 400)
    assert.match(env.msg, /支付方式不正确/)
  })

  it('answers 2999 for someone else’s bills, someone else’s patient and someone else’s order', async () => {
    const theirs = await issueTwo(strangers)
    assertForbidden(await init(owner, insured, theirs.map((b) => b.billNo)))
    assertForbidden(await init(owner, strangers, theirs.map((b) => b.billNo)))
    const mine = await init(stranger, strangers, theirs.map((b) => b.billNo))
    assert.equal(mine.code, 200, mine.msg)
    assertForbidden(await upload(owner, mine.data.record.orderNo))
    // an unauthorised patient is told to authorise first
    const refused = await upload(stranger, mine.data.record.orderNo)
    assert.equal(refused.code, 400)
    assert.equal(refused.msg, '请先完成医保授权')
    assert.equal((await call('POST', `${A}/payment/cancel`, { caller: stranger, body: { id: mine.data.record.id } })).code, 200)
  })

  it('an insured patient pays two bills: the fund pays its share, the cashier only the cash part, the bills settle with the HIS', async () => {
    const imbalanceBefore = await ledgerImbalance(db())
    const insuranceBefore = await ledgerBalance(db(), 'insurance')
    const bills = await issueTwo(insured)
    assert.equal(bills.length, 2)
    const billNos = bills.map((b) => b.billNo)
    const total = bills.reduce((sum, b) => sum + b.amountFen, 0)

    const start = await init(owner, insured, billNos)
    assert.equal(start.code, 200, start.msg)
    // nothing goes to a channel before the split is known
    assert.equal(start.data.action, null)
    assert.deepEqual([start.data.record.status, start.data.record.payable, start.data.record.amountFen], ['created', true, total])
    // asked again (another tab): the same order, still waiting for the split
    const again = await init(owner, insured, billNos)
    assert.deepEqual([again.data.record.id, again.data.action], [start.data.record.id, null])
    const orderNo = start.data.record.orderNo

    await authorise(owner, insured.patientId)
    const split = await upload(owner, orderNo)
    assert.equal(split.code, 200, split.msg)
    const fund = Math.floor((total * 70) / 100)
    assert.deepEqual([split.data.totalFen, split.data.fundFen, split.data.accountFen, split.data.cashFen, split.data.status], [total, fund, 0, total - fund, 'uploaded'])
    assert.equal(split.data.insuTypeName, '职工基本医疗保险')

    const cashier = await payCash(owner, orderNo)
    assert.match(cashier, new RegExp(`<small>¥</small>${((total - fund) / 100).toFixed(2).replace('.', '\\.')}`))
    const paid = await detail(owner, start.data.record.id)
    assert.equal(paid.code, 200, paid.msg)
    assert.deepEqual([paid.data.status, paid.data.order.insuranceFen, paid.data.order.selfPayFen, paid.data.refundable], ['paid', fund, total - fund, true])
    for (const no of billNos) assert.equal(await hisStatus(no), 'paid')
    assert.equal((await settlementOf(orderNo))!.status, 'settled')
    assert.equal((await ledgerBalance(db(), 'insurance')) - insuranceBefore, fund)
    assert.equal(await ledgerImbalance(db()), imbalanceBefore)
  })

  it('the upload sends the bills’ own lines (codes, prices, counts) for the patient', async () => {
    const ins = t.app.ctx.providers.insurance as InsuranceProvider
    const original = ins.uploadFees
    const sent: Parameters<InsuranceProvider['uploadFees']>[0][] = []
    ins.uploadFees = async (input) => {
      sent.push(input)
      return original(input)
    }
    try {
      const bills = await issueTwo(insured)
      const start = await init(owner, insured, bills.map((b) => b.billNo))
      assert.equal((await upload(owner, start.data.record.orderNo)).code, 200)
      assert.equal(sent.length, 1)
      assert.deepEqual(
        sent[0]!.items.map((i) => [i.code, i.fen, i.count]).sort(),
        bills.flatMap((b) => b.items.map((i) => [i.code, i.unitPriceFen, i.quantity])).sort(),
      )
      assert.deepEqual([sent[0]!.person.name, sent[0]!.hospitalCode], [EMPLOYEE.name, H])
      assert.equal((await call('POST', `${A}/payment/cancel`, { caller: owner, body: { id: start.data.record.id } })).code, 200)
      // cancelled: the split is void and the bills may be paid again
      assert.equal((await settlementOf(start.data.record.orderNo))!.status, 'void')
    } finally {
      ins.uploadFees = original
    }
  })

  it('a refund gives the insurance part back to the platform and the cash part through the cashier', async () => {
    const ins = t.app.ctx.providers.insurance as InsuranceProvider
    const original = ins.refund
    const returned: string[] = []
    ins.refund = async (input) => {
      returned.push(input.payOrdId)
      return original(input)
    }
    try {
      const imbalanceBefore = await ledgerImbalance(db())
      const insuranceBefore = await ledgerBalance(db(), 'insurance')
      const bills = await issueTwo(insured)
      const start = await init(owner, insured, bills.map((b) => b.billNo))
      const orderNo = start.data.record.orderNo
      const split = (await upload(owner, orderNo)).data
      await payCash(owner, orderNo)
      assert.equal((await detail(owner, start.data.record.id)).data.status, 'paid')

      assertForbidden(await call('POST', `${A}/payment/fund/${start.data.record.id}`, { caller: stranger }))
      const env = await call('POST', `${A}/payment/fund/${start.data.record.id}`, { caller: owner })
      assert.equal(env.code, 200, env.msg)
      await sandbox.settled()
      const after = await detail(owner, start.data.record.id)
      assert.deepEqual([after.data.status, after.data.order.refundedFen], ['refunded', split.cashFen])
      const s = await settlementOf(orderNo)
      assert.equal(s!.status, 'refunded')
      assert.deepEqual(returned, [s!.payOrdId])
      const [order] = await db().select().from(orders).where(eq(orders.orderNo, orderNo))
      const rows = await db().select().from(refunds).where(eq(refunds.orderId, order!.id))
      assert.deepEqual(rows.map((r) => [r.amountFen, r.status]), [[split.cashFen, 'succeeded']])
      for (const b of bills) assert.equal(await hisStatus(b.billNo), 'refunded')
      const claims = await db().select().from(outpatientBills).where(eq(outpatientBills.paymentId, start.data.record.id))
      assert.ok(claims.every((c) => c.status === 'refunded'))
      assert.equal(await ledgerBalance(db(), 'insurance'), insuranceBefore)
      assert.equal(await ledgerImbalance(db()), imbalanceBefore)
    } finally {
      ins.refund = original
    }
  })
})
