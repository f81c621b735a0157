import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { and, asc, count, eq, gt, inArray, isNull } from 'drizzle-orm'
import {
  hisBills,
  hisQueueTickets,
  hospitals,
  orders,
  outpatientBills,
  outpatientPayments,
  registrations,
  scheduleSlots,
  schedules,
} from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { hmacHex } from '../../server/src/crypto'
import { AppError } from '../../server/src/errors'
import { ledgerImbalance } from '../../server/src/domain/payment'
import { httpHis, type HisBill } from '../../server/src/plugins/providers/his'
import { ALREADY_PERFORMED, type SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { BillDetail, BillPayStart, BillPayment, BillPaymentDetail, UnpaidVisit, WaitQueue } from '../../types/api/palm'
import type { ReportBillDetail } from '../../types/api/reportBill'
import type { Page } from '../../types/api/hospital'
import type { StaffSession } from '../../types/api/workbench'
import {
  assertBadInput,
  assertForbidden,
  assertUnauthorisedCall,
  callApi,
  envelopeOf,
  idCardFor,
  signInUser,
  startTestApp,
  type Envelope,
  type Method,
  type TestApp,
} from './harness'
import { addPatient, confirmAtCashier, hospitalIdOf, newKey } from './fixtures'

const A = '/dld-palm/api'
const P = '/dld-doctor/api'
const H = '10392'
const RETURN_URL = '/h5/palm/payment/waitPay'
const BILLS_PAYING = '所选缴费单正在支付中，请在缴费记录中继续支付或取消后重试'

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
/** A catalogue item's code by name (and spec, where the name has several). */
const code = (name: string, spec = '') => {
  const item = catalogue.find((c) => c.name === name && (!spec || c.spec === spec))
  if (!item) throw new Error(`no catalogue item ${name} ${spec}`)
  return item.code
}
const priceOf = (itemCode: string) => catalogue.find((c) => c.code === itemCode)!.priceFen

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())

/** A made-up identity number nobody else in this file has (the HIS knows patients by it). */
function newIdCard() {
  const birth = `19${60 + randomInt(40)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  return idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
}

async function newPerson(user: User, name = '陈志强'): Promise<Person> {
  const idCard = newIdCard()
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}

let visitSerial = 0
/** A doctor's orders for the person at 10392, straight into the sandbox HIS (the console has its own tests). */
async function issue(p: Person, items: [string, string?, number?][], opts: { dept?: string; visitNo?: string } = {}): Promise<HisBill[]> {
  visitSerial += 1
  return his.issueOrders({
    hospitalCode: H,
    patient: { cardNo: null, idCard: p.idCard, name: p.name },
    visitNo: opts.visitNo ?? `MZTEST${Date.now()}${visitSerial}`,
    visitDate: today(),
    deptName: opts.dept ?? '呼吸与危重症医学科',
    doctorName: '测试医生',
    items: items.map(([name, spec, quantity]) => ({ code: code(name, spec ?? ''), quantity: quantity ?? 1 })),
  })
}

const init = (caller: Caller, p: Person, billNos: string[], over: Record<string, unknown> = {}) =>
  call<BillPayStart>('POST', `${A}/payment/init`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, billNos, returnUrl: RETURN_URL, idempotencyKey: newKey('bill'), ...over },
  })

/** Pays the record's order in the sandbox cashier and waits for the notification to be applied. */
async function confirmPaid(start: BillPayStart) {
  assert.ok(start.action && start.action.kind === 'redirect', 'a cashier to open')
  assert.equal((await confirmAtCashier(t, start.action.url)).statusCode, 303)
  await sandbox.settled()
}

async function payBills(caller: Caller, p: Person, billNos: string[]) {
  const env = await init(caller, p, billNos)
  assert.equal(env.code, 200, env.msg)
  await confirmPaid(env.data)
  return env.data.record
}

const detail = (caller: Caller, id: number) => call<BillPaymentDetail>('GET', `${A}/payment/detail`, { caller, query: { id: String(id) } })
const hisBill = async (billNo: string) => (await db().select().from(hisBills).where(and(eq(hisBills.hospitalCode, H), eq(hisBills.billNo, billNo))))[0]!
const paymentCount = async () => (await db().select({ n: count() }).from(outpatientPayments))[0]!.n
const orderCount = async () => (await db().select({ n: count() }).from(orders).where(eq(orders.business, 'outpatient')))[0]!.n

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  his = t.app.ctx.providers.his as SandboxHis
  assert.equal(his.kind, 'sandbox')
  ownerPerson = await newPerson(owner, '陈志强')
  strangerPerson = await newPerson(stranger, '刘秀英')
})
after(() => t.close())

// ---- the unpaid bills -------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/payment/unpaid/list', () => {
  const url = `${A}/payment/unpaid/list`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: ownerPerson.patientId } })
  })

  it('refuses bad input with a clear reason', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: 'abc' } }))
    const unknown = await call('POST', url, { caller: owner, body: { hospitalCode: 'NOPE1', patientId: ownerPerson.patientId } })
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
  })

  it('answers 2999 for someone else’s patient, and reveals nothing of their bills', async () => {
    await issue(strangerPerson, [['血常规（五分类）']])
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: strangerPerson.patientId } }))
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: 2_000_000_000 } }))
  })

  it('answers the patient’s unpaid bills, one group per visit and department, with the sum of each', async () => {
    const p = await newPerson(owner, '王建国')
    assert.deepEqual((await call<UnpaidVisit[]>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })).data, [])
    const first = await issue(p, [['血常规（五分类）'], ['C反应蛋白'], ['阿莫西林胶囊', '0.5g×24粒', 2]], { dept: '呼吸与危重症医学科', visitNo: `MZA${Date.now()}` })
    const second = await issue(p, [['常规心电图']], { dept: '心血管内科', visitNo: `MZB${Date.now()}` })
    const env = await call<UnpaidVisit[]>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.length, 2)
    const resp = env.data.find((v) => v.deptName === '呼吸与危重症医学科')!
    // the laboratory's request and the pharmacy's prescription are two bills of one visit
    assert.deepEqual(resp.bills.map((b) => b.title).sort(), ['检验申请', '西药处方'])
    assert.deepEqual(resp.bills.map((b) => b.billNo).sort(), first.map((b) => b.billNo).sort())
    const expected = priceOf(code('血常规（五分类）')) + priceOf(code('C反应蛋白')) + 2 * priceOf(code('阿莫西林胶囊', '0.5g×24粒'))
    assert.equal(resp.amountFen, expected)
    assert.equal(resp.doctorName, '测试医生')
    assert.ok(resp.bills.every((b) => b.paying === false && b.payingId === null))
    const ecg = env.data.find((v) => v.deptName === '心血管内科')!
    assert.equal(ecg.bills.length, 1)
    assert.equal(ecg.bills[0]!.billNo, second[0]!.billNo)
    assert.equal(ecg.bills[0]!.place, '心电图室')
    assert.equal(ecg.bills[0]!.category, 'exam')
  })

  it('finds the seeded bills of a demo person once they are bound (王小明, two visits at 10392)', async () => {
    const user = await signInUser(t.app)
    const patientId = await addPatient(t, user.userId, { name: '王小明', sex: 1, birthday: '1985-11-03', mobile: '13600000001', idCard: '310104198511030034' })
    const env = await call<UnpaidVisit[]>('POST', url, { caller: user, body: { hospitalCode: H, patientId } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.map((v) => v.deptName).sort(), ['心血管内科', '消化内科'])
    assert.ok(env.data.every((v) => v.amountFen > 0 && v.bills.length > 0))
  })
})

describe('POST /dld-palm/api/payment/unpaid/detail', () => {
  const url = `${A}/payment/unpaid/detail`
  let bill: HisBill

  before(async () => {
    bill = (await issue(ownerPerson, [['阿莫西林胶囊', '0.25g×24粒', 2], ['盐酸氨溴索片', '', 1]]))[0]!
  })

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: bill.billNo } })
  })

  it('refuses a malformed bill number', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: 'B1;drop' } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId } }))
  })

  it('answers 2999 for someone else’s patient, and for another patient’s bill under one’s own patient', async () => {
    assertForbidden(await call('POST', url, { caller: stranger, body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: bill.billNo } }))
    assertForbidden(await call('POST', url, { caller: stranger, body: { hospitalCode: H, patientId: strangerPerson.patientId, billNo: bill.billNo } }))
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: 'B2026000000000000' } }))
  })

  it('answers the bill’s items: name, specification, quantity, unit price and amount', async () => {
    const env = await call<BillDetail>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: bill.billNo } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.title, '西药处方')
    assert.equal(env.data.status, 'unpaid')
    const amoxicillin = env.data.items.find((i) => i.name === '阿莫西林胶囊')!
    assert.deepEqual(amoxicillin, { name: '阿莫西林胶囊', spec: '0.25g×24粒', unit: '盒', quantity: 2, unitPriceFen: priceOf(code('阿莫西林胶囊', '0.25g×24粒')), amountFen: 2 * priceOf(code('阿莫西林胶囊', '0.25g×24粒')) })
    assert.equal(env.data.amountFen, env.data.items.reduce((s, i) => s + i.amountFen, 0))
  })
})

// ---- paying ---------------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/payment/init', () => {
  const url = `${A}/payment/init`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    const [bill] = await issue(ownerPerson, [['尿常规']])
    await assertUnauthorisedCall(t.app, 'POST', url, {
      body: { hospitalCode: H, patientId: ownerPerson.patientId, billNos: [bill!.billNo], returnUrl: RETURN_URL, idempotencyKey: newKey('bill') },
    })
  })

  it('refuses bad input with a clear reason, and creates nothing', async () => {
    const [bill] = await issue(ownerPerson, [['尿常规']])
    const before = { payments: await paymentCount(), orders: await orderCount() }
    assertBadInput(await init(owner, ownerPerson, []), /请选择缴费单/)
    assertBadInput(await init(owner, ownerPerson, [bill!.billNo], { returnUrl: 'https://evil.example/x' }), '返回页面不正确')
    assertBadInput(await init(owner, ownerPerson, [bill!.billNo], { idempotencyKey: 'short' }), /请求编号/)
    assertBadInput(await init(owner, ownerPerson, [bill!.billNo], { sourceType: 5 }), /来源类型不正确/)
    assertBadInput(await init(owner, ownerPerson, Array.from({ length: 21 }, (_, i) => `B${i}`)), /一次最多缴纳20张缴费单/)
    assert.deepEqual({ payments: await paymentCount(), orders: await orderCount() }, before)
  })

  it('answers 2999 for someone else’s patient or bill, and creates nothing', async () => {
    const [mine] = await issue(ownerPerson, [['尿常规']])
    const [theirs] = await issue(strangerPerson, [['尿常规']])
    const before = await paymentCount()
    assertForbidden(await init(stranger, ownerPerson, [mine!.billNo]))
    assertForbidden(await init(owner, ownerPerson, [mine!.billNo, theirs!.billNo]))
    assertForbidden(await init(owner, ownerPerson, ['B2026000000000001']))
    assert.equal(await paymentCount(), before)
  })

  it('pays several bills as one order: settled with the HIS, the patient queued where each bill sends them', async () => {
    const p = await newPerson(owner, '杨海涛')
    const bills = await issue(p, [['血常规（五分类）'], ['胸部CT', '平扫'], ['阿莫西林胶囊', '0.5g×24粒', 1]])
    assert.equal(bills.length, 3)
    const amount = bills.reduce((s, b) => s + b.amountFen, 0)
    const env = await init(owner, p, bills.map((b) => b.billNo), { sourceType: 2 })
    assert.equal(env.code, 200, env.msg)
    const { record } = env.data
    // the cashier was opened: the order is paying
    assert.equal(record.status, 'paying')
    assert.equal(record.statusText, '待支付')
    assert.equal(record.amountFen, amount)
    assert.equal(record.order.business, 'outpatient')
    assert.equal(record.order.amountFen, amount)
    assert.equal(record.sourceType, 2)
    assert.equal(record.patientName, '杨*涛')
    assert.equal(record.payable, true)
    assert.equal(record.bills.length, 3)
    // the list says the bills are being paid, and by which of the caller's records
    const listed = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    assert.ok(listed.data.flatMap((v) => v.bills).every((b) => b.paying && b.payingId === record.id))

    await confirmPaid(env.data)
    const paid = await detail(owner, record.id)
    assert.equal(paid.code, 200, paid.msg)
    assert.equal(paid.data.status, 'paid')
    assert.equal(paid.data.statusText, '已支付')
    assert.equal(paid.data.refundable, true)
    for (const b of bills) {
      const row = await hisBill(b.billNo)
      assert.equal(row.status, 'paid')
      assert.equal(row.orderNo, record.orderNo)
    }
    // paid bills leave the unpaid list
    const after = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    assert.deepEqual(after.data, [])
    // where to go next: the laboratory, the CT room and the pharmacy, each with a number
    const queue = await call<WaitQueue>('GET', `${A}/payment/wait/queue`, { caller: owner, query: { id: String(record.id) } })
    assert.equal(queue.code, 200, queue.msg)
    assert.deepEqual(queue.data.tickets.map((k) => k.place).sort(), ['放射科CT室', '检验科采血处', '门诊西药房'])
    for (const ticket of queue.data.tickets) {
      assert.match(ticket.ticketNo, /^[A-Z]\d{3}$/)
      assert.equal(ticket.status, 'waiting')
      assert.ok(ticket.guide.startsWith('请到') && ticket.guide.includes(ticket.place) && ticket.guide.includes(ticket.window))
      assert.equal(ticket.billNos.length, 1)
    }
    assert.equal(await ledgerImbalance(db()), 0)
  })

  it('answers the same payment for the same idempotency key, and for the same bills from a second tab; refuses an overlapping choice', async () => {
    const p = await newPerson(owner)
    const [a, b] = await issue(p, [['尿常规'], ['阿莫西林胶囊', '0.25g×24粒']])
    const key = newKey('tab')
    const first = await init(owner, p, [a!.billNo, b!.billNo], { idempotencyKey: key })
    assert.equal(first.code, 200, first.msg)
    const again = await init(owner, p, [b!.billNo, a!.billNo], { idempotencyKey: key })
    assert.equal(again.code, 200, again.msg)
    assert.equal(again.data.record.id, first.data.record.id)
    // the same key for other bills is another request
    const otherUse = await init(owner, p, [a!.billNo], { idempotencyKey: key })
    assert.equal(otherUse.code, 409)
    // a second tab, its own key, the same choice: the same order
    const tab = await init(owner, p, [a!.billNo, b!.billNo])
    assert.equal(tab.code, 200, tab.msg)
    assert.equal(tab.data.record.orderNo, first.data.record.orderNo)
    // part of it is in that order: refused until it is paid or cancelled
    const overlap = await init(owner, p, [a!.billNo])
    assert.equal(overlap.code, 409)
    assert.equal(overlap.msg, BILLS_PAYING)
    assert.equal((await db().select().from(outpatientPayments).where(eq(outpatientPayments.patientId, p.patientId))).length, 1)
  })

  it('refuses a bill already paid, and a merged choice holding one: none of it is paid', async () => {
    const p = await newPerson(owner)
    const [a, b] = await issue(p, [['血脂四项'], ['苯磺酸氨氯地平片']], { dept: '心血管内科' })
    await payBills(owner, p, [a!.billNo])
    const before = { payments: await paymentCount(), orders: await orderCount() }
    const twice = await init(owner, p, [a!.billNo])
    assertBadInput(twice, new RegExp(`缴费单${a!.billNo}.*已缴费`))
    const merged = await init(owner, p, [b!.billNo, a!.billNo])
    assertBadInput(merged, /已缴费/)
    assert.deepEqual({ payments: await paymentCount(), orders: await orderCount() }, before)
    assert.equal((await hisBill(b!.billNo)).status, 'unpaid')
  })

  it('refunds the whole merged order when the HIS refuses one of its bills at settlement (paid at the window meanwhile); the other may be paid again', async () => {
    const p = await newPerson(owner)
    const [a, b] = await issue(p, [['空腹血糖'], ['盐酸二甲双胍缓释片']], { dept: '内分泌科' })
    const env = await init(owner, p, [a!.billNo, b!.billNo])
    assert.equal(env.code, 200, env.msg)
    // the patient paid one of them at the hospital's window before the app's payment arrived
    await db().update(hisBills).set({ status: 'paid', orderNo: 'WINDOW-0001', paidAt: new Date() }).where(and(eq(hisBills.hospitalCode, H), eq(hisBills.billNo, a!.billNo)))
    await confirmPaid(env.data)
    const record = await detail(owner, env.data.record.id)
    assert.equal(record.data.status, 'refunded')
    assert.equal(record.data.statusText, '已退款')
    assert.equal(record.data.order.refundedFen, record.data.amountFen)
    // all or none: the other bill is still unpaid, in no queue
    assert.equal((await hisBill(b!.billNo)).status, 'unpaid')
    assert.equal((await hisBill(b!.billNo)).orderNo, null)
    assert.equal((await db().select().from(hisQueueTickets).where(eq(hisQueueTickets.orderNo, record.data.orderNo))).length, 0)
    assert.equal(await ledgerImbalance(db()), 0)
    const list = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    assert.deepEqual(list.data.flatMap((v) => v.bills).map((x) => [x.billNo, x.paying]), [[b!.billNo, false]])
    const again = await payBills(owner, p, [b!.billNo])
    assert.equal((await detail(owner, again.id)).data.status, 'paid')
  })

  it('settles a bill once however often the payment is reported (a copy of the notification changes nothing)', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['红细胞沉降率']])
    const record = await payBills(owner, p, [bill!.billNo])
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, record.orderNo))
    const copy = JSON.stringify({
      id: randomUUID(),
      event_type: 'TRANSACTION.SUCCESS',
      out_trade_no: order!.orderNo,
      transaction_id: order!.tradeNo,
      trade_state: 'SUCCESS',
      success_time: new Date().toISOString(),
      amount: { total: order!.amountFen, currency: 'CNY' },
    })
    const res = await t.app.inject({ method: 'POST', url: '/dld-pay/notify/sandbox', headers: sandbox.signNotification(copy), payload: copy })
    assert.deepEqual(res.json(), { code: 'SUCCESS' })
    // and the app asking about it again
    assert.equal((await call('GET', `/dld-pay/order/${record.orderNo}`, { caller: owner })).data.status, 'paid')
    const tickets = await db().select().from(hisQueueTickets).where(eq(hisQueueTickets.orderNo, record.orderNo))
    assert.equal(tickets.length, 1)
    assert.equal((await hisBill(bill!.billNo)).orderNo, record.orderNo)
    assert.equal(await ledgerImbalance(db()), 0)
  })

  it('pays a bill at most once when 20 sessions ask at the same moment: one order, or the others refused', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['C反应蛋白']])
    // another account that bound the same person (a spouse's phone) at the same moment
    const other = await signInUser(t.app)
    const otherPatient = await addPatient(t, other.userId, { name: p.name, sex: 1, birthday: '1985-04-12', mobile: '13700000001', idCard: p.idCard })
    const answers = await Promise.all([
      ...Array.from({ length: 14 }, () => init(owner, p, [bill!.billNo])),
      ...Array.from({ length: 6 }, () => init(other, { ...p, patientId: otherPatient }, [bill!.billNo])),
    ])
    assert.equal(answers.length, 20)
    const ok = answers.filter((a) => a.code === 200)
    const refused = answers.filter((a) => a.code !== 200)
    assert.ok(ok.length >= 1)
    assert.equal(new Set(ok.map((a) => a.data.record.orderNo)).size, 1, 'every answered tab has the same order')
    for (const r of refused) assert.equal(r.code, 409, r.msg)
    const live = await db()
      .select()
      .from(outpatientBills)
      .where(and(eq(outpatientBills.billNo, bill!.billNo), inArray(outpatientBills.status, ['holding', 'paid'])))
    assert.equal(live.length, 1)
    // a double tap sends one key several times at once: one payment answers them all
    const [again] = await issue(p, [['血尿酸']])
    const key = newKey('tap')
    const taps = await Promise.all(Array.from({ length: 6 }, () => init(owner, p, [again!.billNo], { idempotencyKey: key })))
    for (const tap of taps) assert.equal(tap.code, 200, tap.msg)
    assert.equal(new Set(taps.map((tap) => tap.data.record.id)).size, 1)
    await confirmPaid(ok[0]!.data)
    // and once paid, tabs asking again are all refused
    const late = await Promise.all(Array.from({ length: 4 }, () => init(owner, p, [bill!.billNo])))
    for (const l of late) assertBadInput(l, /已缴费/)
    assert.equal((await hisBill(bill!.billNo)).status, 'paid')
    assert.equal(await ledgerImbalance(db()), 0)
  })
})

describe('POST /dld-palm/api/payment/unpaid/report/detail and /payment/report/init (报告缴费)', () => {
  const detailUrl = `${A}/payment/unpaid/report/detail`
  const initUrl = `${A}/payment/report/init`
  const reportDetail = (caller: Caller, p: Person, billNo: string) =>
    call<ReportBillDetail>('POST', detailUrl, { caller, body: { hospitalCode: H, patientId: p.patientId, billNo } })
  const reportInit = (caller: Caller, p: Person, billNo: string, over: Record<string, unknown> = {}) =>
    call<BillPayStart>('POST', initUrl, { caller, body: { hospitalCode: H, patientId: p.patientId, billNo, returnUrl: RETURN_URL, idempotencyKey: newKey('rep'), ...over } })

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', detailUrl, { body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: 'B1' } })
    await assertUnauthorisedCall(t.app, 'POST', initUrl, { body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: 'B1', returnUrl: RETURN_URL, idempotencyKey: newKey('rep') } })
  })

  it('refuses bad input, and a bill that is no report’s (a prescription) with why', async () => {
    assertBadInput(await call('POST', detailUrl, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId } }))
    assertBadInput(await call('POST', detailUrl, { caller: owner, body: { hospitalCode: H, patientId: ownerPerson.patientId, billNo: 'B 1;' } }), /缴费单号/)
    assertBadInput(await reportInit(owner, ownerPerson, 'B1', { idempotencyKey: 'short' }))
    const [drug] = await issue(ownerPerson, [['阿莫西林胶囊', '0.25g×24粒', 1]])
    assertBadInput(await reportDetail(owner, ownerPerson, drug!.billNo), /不是检查检验费用/)
    const before = await paymentCount()
    assertBadInput(await reportInit(owner, ownerPerson, drug!.billNo), /不是检查检验费用/)
    assert.equal(await paymentCount(), before, 'nothing made')
  })

  it('answers 2999 for someone else’s patient or bill, saying nothing about it', async () => {
    const [theirs] = await issue(strangerPerson, [['胸部CT', '平扫']])
    assertForbidden(await reportDetail(owner, strangerPerson, theirs!.billNo))
    assertForbidden(await reportDetail(owner, ownerPerson, theirs!.billNo))
    assertForbidden(await reportDetail(owner, ownerPerson, 'B000000000000000000'))
    const before = await paymentCount()
    assertForbidden(await reportInit(owner, ownerPerson, theirs!.billNo))
    assert.equal(await paymentCount(), before)
  })

  it('answers an examination’s bill with the report held, pays it alone on the bill payment, then the report is no longer held', async () => {
    const p = await newPerson(owner, '黄志明')
    const [ct] = await issue(p, [['胸部CT', '平扫']])
    const env = await reportDetail(owner, p, ct!.billNo)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.category, 'exam')
    assert.equal(env.data.reportKindText, '检查报告')
    assert.equal(env.data.reportHeld, true)
    assert.match(env.data.note, /需缴费后发布/)
    assert.equal(env.data.payingId, null)
    assert.equal(env.data.amountFen, ct!.amountFen)

    const start = await reportInit(owner, p, ct!.billNo)
    assert.equal(start.code, 200, start.msg)
    assert.deepEqual(start.data.record.bills.map((b) => b.billNo), [ct!.billNo])
    assert.equal((await reportDetail(owner, p, ct!.billNo)).data.payingId, start.data.record.id)
    // the same bill on the outpatient list's payment is this very order: one bill, one payment, whichever page
    const same = await init(owner, p, [ct!.billNo])
    assert.equal(same.data.record.id, start.data.record.id)
    await confirmPaid(start.data)
    const after = (await reportDetail(owner, p, ct!.billNo)).data
    assert.equal(after.status, 'paid')
    assert.equal(after.reportHeld, false)
    assert.match(after.note, /已缴费/)
    assertBadInput(await reportInit(owner, p, ct!.billNo), /已缴费/)
    assert.equal((await hisBill(ct!.billNo)).status, 'paid')
    assert.equal(await ledgerImbalance(db()), 0)
  })
})

describe('合并支付 of one department (/palm/payment/deptMergeList on payment/init)', () => {
  it('pays every bill one department ordered at one visit as one order, leaving the other department’s', async () => {
    const p = await newPerson(owner, '林芳')
    const visitNo = `MZD${Date.now()}`
    const dept = await issue(p, [['血常规（五分类）'], ['阿莫西林胶囊', '0.5g×24粒', 1]], { dept: '呼吸与危重症医学科', visitNo })
    const other = await issue(p, [['常规心电图']], { dept: '心血管内科', visitNo })
    assert.ok(dept.length >= 2, 'one bill per place')
    const list = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    const group = list.data.find((v) => v.visitNo === visitNo && v.deptName === '呼吸与危重症医学科')!
    assert.deepEqual(group.bills.map((b) => b.billNo).sort(), dept.map((b) => b.billNo).sort())
    const record = await payBills(owner, p, group.bills.map((b) => b.billNo))
    assert.equal(record.amountFen, dept.reduce((sum, b) => sum + b.amountFen, 0))
    for (const b of dept) assert.equal((await hisBill(b.billNo)).orderNo, record.orderNo)
    assert.equal((await hisBill(other[0]!.billNo)).status, 'unpaid')
    const left = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: p.patientId } })
    assert.deepEqual(left.data.filter((v) => v.visitNo === visitNo).map((v) => v.deptName), ['心血管内科'])
  })
})

describe('POST /dld-palm/api/payment/cancel', () => {
  const url = `${A}/payment/cancel`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { id: 1 } })
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { id: 'x' } }))
    assertBadInput(await call('POST', url, { caller: owner, body: {} }))
  })

  it('answers 2999 for someone else’s payment, and leaves it as it was', async () => {
    const [bill] = await issue(ownerPerson, [['血型鉴定（ABO+Rh）']])
    const env = await init(owner, ownerPerson, [bill!.billNo])
    assertForbidden(await call('POST', url, { caller: stranger, body: { id: env.data.record.id } }))
    assert.equal((await detail(owner, env.data.record.id)).data.status, 'paying')
    await call('POST', url, { caller: owner, body: { id: env.data.record.id } })
  })

  it('cancels an unpaid payment: its bills may be paid again; a paid one is refused', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['尿微量白蛋白']])
    const env = await init(owner, p, [bill!.billNo])
    const cancelled = await call<BillPayment>('POST', url, { caller: owner, body: { id: env.data.record.id } })
    assert.equal(cancelled.code, 200, cancelled.msg)
    assert.equal(cancelled.data.status, 'cancelled')
    assert.equal(cancelled.data.statusText, '已取消')
    assert.equal(cancelled.data.payable, false)
    // cancelling again answers it as it is
    assert.equal((await call<BillPayment>('POST', url, { caller: owner, body: { id: env.data.record.id } })).data.status, 'cancelled')
    const record = await payBills(owner, p, [bill!.billNo])
    assert.notEqual(record.orderNo, env.data.record.orderNo)
    assertBadInput(await call('POST', url, { caller: owner, body: { id: record.id } }), '该缴费已支付，如需退费请申请退费')
  })
})

describe('POST /dld-palm/api/payment/fund/{id}', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/payment/fund/1`, { body: {} })
  })

  it('refuses a malformed id or reason', async () => {
    assertBadInput(await call('POST', `${A}/payment/fund/abc`, { caller: owner, body: {} }))
    assertBadInput(await call('POST', `${A}/payment/fund/1`, { caller: owner, body: { reason: '因'.repeat(101) } }), /退费原因不能超过100个字/)
  })

  it('answers 2999 for someone else’s payment, and refunds nothing', async () => {
    const [bill] = await issue(ownerPerson, [['血清铁蛋白']])
    const record = await payBills(owner, ownerPerson, [bill!.billNo])
    assertForbidden(await call('POST', `${A}/payment/fund/${record.id}`, { caller: stranger, body: {} }))
    assert.equal((await detail(owner, record.id)).data.status, 'paid')
    assert.equal((await hisBill(bill!.billNo)).status, 'paid')
  })

  it('refunds without a reason, as the app asks: a post whose body is null', async () => {
    const p = await newPerson(owner)
    const bills = await issue(p, [['血清铁蛋白']])
    const record = await payBills(owner, p, bills.map((b) => b.billNo))
    const res = await t.app.inject({
      method: 'POST',
      url: `${A}/payment/fund/${record.id}`,
      headers: { ...owner.headers, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      payload: 'null',
    })
    const env = envelopeOf<BillPayment>(res)
    assert.equal(env.code, 200, env.msg)
    assert.ok(['refunding', 'refunded'].includes(env.data.status))
  })

  it('refunds a paid payment nothing of which was dispensed: the HIS returns the bills, the payment core the money', async () => {
    const p = await newPerson(owner)
    const bills = await issue(p, [['肝功能（11项）'], ['奥美拉唑肠溶胶囊', '', 2]], { dept: '消化内科' })
    const unpaid = await init(owner, p, bills.map((b) => b.billNo))
    assertBadInput(await call('POST', `${A}/payment/fund/${unpaid.data.record.id}`, { caller: owner, body: {} }), '该缴费尚未支付，无需退费')
    await confirmPaid(unpaid.data)
    const env = await call<BillPayment>('POST', `${A}/payment/fund/${unpaid.data.record.id}`, { caller: owner, body: { reason: '不需要了' } })
    assert.equal(env.code, 200, env.msg)
    assert.ok(['refunding', 'refunded'].includes(env.data.status))
    await sandbox.settled()
    const record = await detail(owner, unpaid.data.record.id)
    assert.equal(record.data.status, 'refunded')
    assert.equal(record.data.order.refundedFen, record.data.amountFen)
    assert.equal(record.data.refundable, false)
    for (const b of bills) assert.equal((await hisBill(b.billNo)).status, 'refunded')
    const tickets = await db().select().from(hisQueueTickets).where(eq(hisQueueTickets.orderNo, record.data.orderNo))
    assert.ok(tickets.length > 0 && tickets.every((k) => k.status === 'cancelled'))
    const claims = await db().select().from(outpatientBills).where(eq(outpatientBills.paymentId, record.data.id))
    assert.ok(claims.every((c) => c.status === 'refunded'))
    // asking again answers it as it is
    assert.equal((await call<BillPayment>('POST', `${A}/payment/fund/${record.data.id}`, { caller: owner, body: {} })).data.status, 'refunded')
    assert.equal(await ledgerImbalance(db()), 0)
  })

  it('refuses once the pharmacy handed the drugs over (the number was called), and changes nothing', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['布洛芬缓释胶囊']])
    const record = await payBills(owner, p, [bill!.billNo])
    const [ticket] = await db()
      .select({ queueId: hisQueueTickets.queueId })
      .from(hisQueueTickets)
      .where(eq(hisQueueTickets.orderNo, record.orderNo))
    // the window calls until this patient's number comes up
    for (let i = 0; i < 200; i++) {
      const called = await his.callNext(H, ticket!.queueId)
      if ((await hisBill(bill!.billNo)).performedAt) break
      assert.ok(called.called, 'the number is called before the queue runs dry')
    }
    const d = await detail(owner, record.id)
    assert.equal(d.data.refundable, false)
    assert.equal(d.data.bills[0]!.performed, true)
    assertBadInput(await call('POST', `${A}/payment/fund/${record.id}`, { caller: owner, body: {} }), ALREADY_PERFORMED)
    assert.equal((await detail(owner, record.id)).data.status, 'paid')
    assert.equal((await hisBill(bill!.billNo)).status, 'paid')
  })
})

// ---- the records ------------------------------------------------------------------------------------------------

describe('GET /dld-palm/api/payment/list and /payment/paid/list', () => {
  let listOwner: User
  let person: Person
  let paidId = 0
  let unpaidId = 0
  let paidTitle = ''

  before(async () => {
    listOwner = await signInUser(t.app)
    person = await newPerson(listOwner, '黄雪梅')
    const [a, b] = await issue(person, [['甲状腺功能五项'], ['左甲状腺素钠片']], { dept: '内分泌科' })
    paidId = (await payBills(listOwner, person, [a!.billNo])).id
    paidTitle = a!.title
    unpaidId = (await init(listOwner, person, [b!.billNo])).data.record.id
  })

  for (const path of ['/payment/list', '/payment/paid/list']) {
    it(`${path}: answers 401 without a sign-in and 403 before a mobile is bound`, async () => {
      await assertUnauthorisedCall(t.app, 'GET', `${A}${path}`)
    })

    it(`${path}: refuses bad paging`, async () => {
      assertBadInput(await call('GET', `${A}${path}`, { caller: listOwner, query: { size: '500' } }))
      assertBadInput(await call('GET', `${A}${path}`, { caller: listOwner, query: { page: '0' } }))
    })

    it(`${path}: answers 2999 for someone else’s patient`, async () => {
      assertForbidden(await call('GET', `${A}${path}`, { caller: listOwner, query: { patientId: String(ownerPerson.patientId) } }))
    })
  }

  it('lists the caller’s own records only, newest first, by status', async () => {
    const all = await call<Page<BillPayment>>('GET', `${A}/payment/list`, { caller: listOwner })
    assert.equal(all.code, 200, all.msg)
    assert.deepEqual(all.data.records.map((r) => r.id), [unpaidId, paidId])
    assert.equal(all.data.total, 2)
    assertBadInput(await call('GET', `${A}/payment/list`, { caller: listOwner, query: { status: 'lost' } }))
    const unpaid = await call<Page<BillPayment>>('GET', `${A}/payment/list`, { caller: listOwner, query: { status: 'unpaid', hospitalCode: H } })
    assert.deepEqual(unpaid.data.records.map((r) => r.id), [unpaidId])
    const paid = await call<Page<BillPayment>>('GET', `${A}/payment/paid/list`, { caller: listOwner, query: { patientId: String(person.patientId) } })
    assert.deepEqual(paid.data.records.map((r) => r.id), [paidId])
    assert.equal(paid.data.records[0]!.bills[0]!.title, paidTitle)
    assert.equal(paid.data.records[0]!.deptNames, '内分泌科')
    // nobody else's record shows up
    const others = await call<Page<BillPayment>>('GET', `${A}/payment/list`, { caller: stranger })
    assert.ok(others.data.records.every((r) => r.id !== paidId && r.id !== unpaidId))
  })
})

describe('GET /dld-palm/api/payment/detail', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/detail`, { query: { id: '1' } })
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('GET', `${A}/payment/detail`, { caller: owner, query: { id: '-3' } }))
  })

  it('answers 2999 for someone else’s record', async () => {
    const [bill] = await issue(ownerPerson, [['类风湿因子']])
    const record = await payBills(owner, ownerPerson, [bill!.billNo])
    assertForbidden(await detail(stranger, record.id))
    assertForbidden(await detail(owner, 2_000_000_000))
  })

  it('answers each bill’s items as they were paid (kept encrypted), and whether it may be refunded', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['头孢呋辛酯片', '', 2], ['氯雷他定片', '', 1]])
    const record = await payBills(owner, p, [bill!.billNo])
    const env = await detail(owner, record.id)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.bills.length, 1)
    const lines = env.data.bills[0]!.items
    assert.deepEqual(lines.map((i) => [i.name, i.quantity]), [['头孢呋辛酯片', 2], ['氯雷他定片', 1]])
    assert.equal(env.data.bills[0]!.amountFen, lines.reduce((s, i) => s + i.amountFen, 0))
    assert.equal(env.data.refundable, true)
    const [claim] = await db().select().from(outpatientBills).where(eq(outpatientBills.paymentId, record.id))
    assert.ok(!claim!.itemsEnc.includes('头孢'), 'the drugs are not readable in the table')
  })
})

describe('GET /dld-palm/api/payment/wait/queue', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${A}/payment/wait/queue`, { query: { id: '1' } })
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('GET', `${A}/payment/wait/queue`, { caller: owner, query: {} }))
  })

  it('answers 2999 for someone else’s record', async () => {
    const [bill] = await issue(ownerPerson, [['抗链球菌溶血素O']])
    const { data } = await init(owner, ownerPerson, [bill!.billNo])
    assertForbidden(await call('GET', `${A}/payment/wait/queue`, { caller: stranger, query: { id: String(data.record.id) } }))
  })

  it('answers nothing before payment, then the place, window, number and how many wait before it', async () => {
    const p = await newPerson(owner)
    const [bill] = await issue(p, [['常规心电图']], { dept: '心血管内科' })
    const env = await init(owner, p, [bill!.billNo])
    const before = await call<WaitQueue>('GET', `${A}/payment/wait/queue`, { caller: owner, query: { id: String(env.data.record.id) } })
    assert.equal(before.code, 200, before.msg)
    assert.deepEqual(before.data.tickets, [])
    await confirmPaid(env.data)
    const q = await call<WaitQueue>('GET', `${A}/payment/wait/queue`, { caller: owner, query: { id: String(env.data.record.id) } })
    assert.equal(q.data.status, 'paid')
    const [ticket] = q.data.tickets
    assert.equal(ticket!.kind, 'exam')
    assert.equal(ticket!.place, '心电图室')
    assert.match(ticket!.ticketNo, /^E\d{3}$/)
    assert.equal(ticket!.statusText, '候诊中')
    assert.deepEqual(ticket!.billNos, [bill!.billNo])
    const [row] = await db().select().from(hisQueueTickets).where(eq(hisQueueTickets.orderNo, q.data.orderNo))
    const waitingBefore = await db()
      .select({ n: count() })
      .from(hisQueueTickets)
      .where(and(eq(hisQueueTickets.queueId, row!.queueId), eq(hisQueueTickets.status, 'waiting'), gt(hisQueueTickets.seq, 0)))
    assert.equal(ticket!.ahead, waitingBefore[0]!.n - 1)
  })
})

// ---- the price catalogue -------------------------------------------------------------------------------------------

describe('GET /dld-palm/api/price/list', () => {
  const url = `${A}/price/list`

  it('is public, and refuses bad input', async () => {
    assertBadInput(await call('GET', url, { query: {} }))
    assertBadInput(await call('GET', url, { query: { hospitalCode: H, size: '500' } }))
    assertBadInput(await call('GET', url, { query: { hospitalCode: H, keyword: '药'.repeat(21) } }), /搜索关键词不能超过20个字/)
    assertBadInput(await call('GET', url, { query: { hospitalCode: H, category: 'food' } }))
    assert.equal((await call('GET', url, { query: { hospitalCode: 'NOPE1' } })).code, 404)
  })

  it('answers a few hundred items with specifications and prices, by keyword, category and page', async () => {
    const all = await call<Page<{ code: string; name: string; spec: string; unit: string; priceFen: number; category: string; categoryName: string }>>('GET', url, { query: { hospitalCode: H, size: '50' } })
    assert.equal(all.code, 200, all.msg)
    assert.ok(all.data.total >= 300, `${all.data.total} items`)
    assert.equal(all.data.records.length, 50)
    assert.deepEqual(all.data.records[0], { code: 'XY0001', name: '阿莫西林胶囊', spec: '0.25g×24粒', unit: '盒', priceFen: priceOf('XY0001'), category: 'drug', categoryName: '西药' })
    const ct = await call<Page<{ name: string }>>('GET', url, { query: { hospitalCode: H, keyword: 'CT', category: 'exam' } })
    assert.ok(ct.data.total >= 8 && ct.data.records.every((r) => r.name.includes('CT')))
    const page2 = await call<Page<{ code: string }>>('GET', url, { query: { hospitalCode: H, size: '50', page: '2' } })
    assert.equal(page2.data.records[0]!.code, catalogue[50]!.code)
    // a keyword with LIKE's own wildcards matches itself only
    assert.equal((await call<Page<unknown>>('GET', url, { query: { hospitalCode: H, keyword: '_' } })).data.total, 0)
    const percent = await call<Page<{ name: string }>>('GET', url, { query: { hospitalCode: H, keyword: '%' } })
    assert.ok(percent.data.total > 0 && percent.data.records.every((r) => r.name.includes('%')))
  })
})

// ---- the sandbox HIS console on the workbench --------------------------------------------------------------------

describe('the sandbox HIS console (/dld-doctor/api/his)', () => {
  let desk: Caller
  let farDesk: Caller
  let registrationId = 0
  let person: Person

  async function signInDesk(login: string): Promise<Caller> {
    const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: DEMO_STAFF_PASSWORD } })
    assert.equal(env.code, 200, env.msg)
    return { headers: { authorization: `Bearer ${env.data.token}` } }
  }

  /** A booking of the person at 10392 tomorrow, written directly (booking has its own tests). */
  async function bookTomorrow(p: Person) {
    const hospitalId = await hospitalIdOf(t, H)
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
    const [slot] = await db()
      .select({ slot: scheduleSlots, schedule: schedules })
      .from(scheduleSlots)
      .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
      .where(and(eq(schedules.hospitalId, hospitalId), eq(schedules.visitDate, tomorrow), isNull(scheduleSlots.registrationId), eq(schedules.stopped, false)))
      .orderBy(asc(scheduleSlots.id))
      .limit(1)
    const { slot: s, schedule } = slot!
    const [reg] = await db()
      .insert(registrations)
      .values({
        regNo: `GHTEST${randomBytes(6).toString('hex')}`,
        userId: owner.userId,
        patientId: p.patientId,
        hospitalId,
        deptId: schedule.deptId,
        doctorId: schedule.doctorId,
        scheduleId: schedule.id,
        slotId: s.id,
        registerType: schedule.registerType,
        visitDate: schedule.visitDate,
        segment: schedule.segment,
        seq: s.seq,
        timeRange: s.timeRange,
        feeFen: schedule.feeFen,
        status: 'booked',
        idempotencyKey: newKey('reg'),
      })
      .returning()
    await db().update(scheduleSlots).set({ registrationId: reg!.id }).where(eq(scheduleSlots.id, s.id))
    return reg!
  }

  before(async () => {
    desk = await signInDesk('10392001')
    farDesk = await signInDesk('10412001')
    person = await newPerson(owner, '赵丽华')
    const reg = await bookTomorrow(person)
    registrationId = reg.id
  })

  it('answers 401 without a workbench token (a patient’s token is no workbench token)', async () => {
    for (const [method, path, body] of [
      ['GET', '/his/visits', undefined],
      ['GET', '/his/catalogue', undefined],
      ['POST', '/his/orders', { registrationId, items: [{ code: code('尿常规'), quantity: 1 }] }],
      ['GET', '/his/queues', undefined],
      ['POST', '/his/queues/1/call', undefined],
    ] as const) {
      assert.equal((await call(method, `${P}${path}`, { body })).code, 401, path)
      assert.equal((await call(method, `${P}${path}`, { caller: owner, body })).code, 401, path)
    }
  })

  it('refuses bad orders with a clear reason, and makes no bill', async () => {
    const before = (await db().select({ n: count() }).from(hisBills))[0]!.n
    assertBadInput(await call('POST', `${P}/his/orders`, { caller: desk, body: { registrationId, items: [] } }), /请选择收费项目/)
    assertBadInput(await call('POST', `${P}/his/orders`, { caller: desk, body: { registrationId, items: [{ code: code('尿常规'), quantity: 0 }] } }), /数量至少为1/)
    assertBadInput(await call('POST', `${P}/his/orders`, { caller: desk, body: { registrationId, items: [{ code: 'XX9999', quantity: 1 }] } }), '收费项目不存在：XX9999')
    assert.equal((await db().select({ n: count() }).from(hisBills))[0]!.n, before)
  })

  it('answers 2999 for another hospital’s visit or queue', async () => {
    assertForbidden(await call('POST', `${P}/his/orders`, { caller: farDesk, body: { registrationId, items: [{ code: code('尿常规'), quantity: 1 }] } }))
    const [queue] = (await call<{ id: number }[]>('GET', `${P}/his/queues`, { caller: desk })).data
    assertForbidden(await call('POST', `${P}/his/queues/${queue!.id}/call`, { caller: farDesk }))
    assert.ok((await call<{ registrationId: number }[]>('GET', `${P}/his/visits`, { caller: farDesk })).data.every((v) => v.registrationId !== registrationId))
  })

  it('issues orders for a booked visit: the patient finds them unpaid, pays, and the window calls the number', async () => {
    const visits = await call<{ registrationId: number; patientName: string; regNo: string }[]>('GET', `${P}/his/visits`, { caller: desk, query: { regNo: '' } })
    assert.equal(visits.code, 200, visits.msg)
    const [reg] = await db().select().from(registrations).where(eq(registrations.id, registrationId))
    const mine = await call<{ registrationId: number; patientName: string }[]>('GET', `${P}/his/visits`, { caller: desk, query: { regNo: reg!.regNo } })
    assert.deepEqual(mine.data.map((v) => [v.registrationId, v.patientName]), [[registrationId, '赵*华']])
    const found = await call<Page<{ code: string; name: string }>>('GET', `${P}/his/catalogue`, { caller: desk, query: { keyword: '彩色超声' } })
    assert.ok(found.data.total >= 10)
    const issued = await call<{ patientId: number; bills: BillDetail[] }>('POST', `${P}/his/orders`, {
      caller: desk,
      body: { registrationId, items: [{ code: found.data.records[0]!.code, quantity: 1 }, { code: code('血常规（五分类）'), quantity: 1 }] },
    })
    assert.equal(issued.code, 200, issued.msg)
    assert.equal(issued.data.patientId, person.patientId)
    assert.equal(issued.data.bills.length, 2)
    assert.ok(issued.data.bills.every((b) => b.visitNo === reg!.regNo && b.status === 'unpaid'))
    const listed = await call<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: person.patientId } })
    assert.deepEqual(listed.data.flatMap((v) => v.bills.map((b) => b.billNo)).sort(), issued.data.bills.map((b) => b.billNo).sort())

    const record = await payBills(owner, person, issued.data.bills.map((b) => b.billNo))
    const queue = await call<WaitQueue>('GET', `${A}/payment/wait/queue`, { caller: owner, query: { id: String(record.id) } })
    const lab = queue.data.tickets.find((k) => k.kind === 'lab')!
    const queues = await call<{ id: number; place: string; window: string; waiting: number; current: string }[]>('GET', `${P}/his/queues`, { caller: desk })
    const labQueue = queues.data.find((q) => q.place === lab.place && q.window === lab.window)!
    assert.ok(labQueue.waiting >= 1)
    let called: { called: { ticketNo: string; patientName: string } | null } | null = null
    for (let i = 0; i <= labQueue.waiting; i++) {
      const env = await call<{ called: { ticketNo: string; patientName: string } | null }>('POST', `${P}/his/queues/${labQueue.id}/call`, { caller: desk })
      assert.equal(env.code, 200, env.msg)
      if (env.data.called?.ticketNo === lab.ticketNo) {
        called = env.data
        break
      }
    }
    assert.equal(called?.called?.patientName, '赵*华')
    const after = await call<WaitQueue>('GET', `${A}/payment/wait/queue`, { caller: owner, query: { id: String(record.id) } })
    const labAfter = after.data.tickets.find((k) => k.kind === 'lab')!
    assert.equal(labAfter.status, 'called')
    assert.equal(labAfter.statusText, '请到窗口')
    assert.equal(labAfter.ahead, 0)
    // the sample was taken: no refund online any more
    assertBadInput(await call('POST', `${A}/payment/fund/${record.id}`, { caller: owner, body: {} }), ALREADY_PERFORMED)
  })
})

// ---- the HTTP adapter against a stand-in of the contract ------------------------------------------------------------

/**
 * A small HIS speaking the documented contract on 127.0.0.1: it checks the app id and the signature of every body,
 * keeps its bills in memory, and records what it was asked.
 */
function standInHis(appId: string, secret: string) {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const bill = (billNo: string, amountFen: number, place = '门诊西药房'): HisBill & { orderNo: string | null } => ({
    billNo,
    visitNo: 'MZ202611230001',
    visitDate: '2026-11-23',
    deptName: '呼吸与危重症医学科',
    doctorName: '钱医生',
    title: '西药处方',
    category: 'drug',
    place,
    status: 'unpaid',
    amountFen,
    orderedAt: '2026-11-23T02:00:00.000Z',
    performed: false,
    items: [{ code: 'XY0001', name: '阿莫西林胶囊', spec: '0.25g×24粒', unit: '盒', quantity: 2, unitPriceFen: amountFen / 2, amountFen }],
    orderNo: null,
  })
  const bills = new Map([
    ['HB0001', bill('HB0001', 1960)],
    ['HB0002', bill('HB0002', 3300)],
    ['HB-REFUSE', bill('HB-REFUSE', 1000)],
  ])
  const view = ({ orderNo: _o, ...b }: HisBill & { orderNo: string | null }): HisBill => b
  const tickets = new Map<string, unknown[]>()
  const ok = (data: unknown) => ({ code: 0, data })
  const answer = (path: string, body: Record<string, unknown>): unknown => {
    const patient = body.patient as { cardNo: string | null; idCard: string | null; name: string } | undefined
    switch (path) {
      case '/bills/unpaid':
        if (!patient?.name || !(patient.idCard || patient.cardNo)) return { code: 1, msg: '患者信息不全' }
        return ok({ bills: [...bills.values()].filter((b) => b.status === 'unpaid').map(view) })
      case '/bills/query':
        return ok({ bills: (body.billNos as string[]).flatMap((no) => (bills.has(no) ? [view(bills.get(no)!)] : [])) })
      case '/bills/settle': {
        const nos = body.billNos as string[]
        const these = nos.map((no) => bills.get(no))
        if (these.every((b) => b?.status === 'paid' && b.orderNo === body.orderNo)) return ok({ tickets: tickets.get(body.orderNo as string) ?? [] })
        if (nos.includes('HB-REFUSE')) return { code: 2001, msg: '该缴费单已在收费窗口缴费' }
        if (these.some((b) => !b || b.status !== 'unpaid')) return { code: 2002, msg: '缴费单状态已变化' }
        if (these.reduce((s, b) => s + b!.amountFen, 0) !== body.amountFen) return { code: 2003, msg: '金额不符' }
        for (const b of these) Object.assign(b!, { status: 'paid', orderNo: body.orderNo })
        const issued = [{ kind: 'pharmacy', place: '门诊西药房', window: '2号窗口', location: '门诊楼1楼', ticketNo: 'Y007', ahead: 3, status: 'waiting', billNos: nos }]
        tickets.set(body.orderNo as string, issued)
        return ok({ tickets: issued })
      }
      case '/bills/refund':
        for (const no of body.billNos as string[]) Object.assign(bills.get(no)!, { status: 'refunded' })
        return ok({})
      case '/queue/tickets':
        return ok({ tickets: tickets.get(body.orderNo as string) ?? [] })
      case '/prices':
        return ok({
          records: [{ code: 'JY0001', name: '血常规（五分类）', spec: '项', unit: '项', priceFen: 2200, category: 'lab', categoryName: '检验' }].filter((r) =>
            r.name.includes(String(body.keyword ?? '')),
          ),
          total: 1,
        })
      case '/broken':
        return ok({ bills: [{ billNo: 7 }] })
      default:
        return null
    }
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json') return reply(405, {})
      if (req.headers['x-app-id'] !== appId || req.headers['x-signature'] !== hmacHex(secret, raw)) return reply(401, { code: 401, msg: 'bad signature' })
      const body = JSON.parse(raw) as Record<string, unknown>
      const path = (req.url ?? '').replace(/^\/his/, '')
      calls.push({ path, body })
      const data = answer(path, body)
      return data === null ? reply(404, {}) : reply(200, data)
    })
  })
  return {
    calls,
    bills,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('the HIS adapter (httpHis) against a stand-in of the documented contract', () => {
  const cfg = { appId: 'app-h5', secret: 'his-secret-0123456789' }
  const standIn = standInHis(cfg.appId, cfg.secret)
  let url = ''
  const patient = { cardNo: '10392000123', idCard: '110101199003074514', name: '陈志强' }

  before(async () => {
    url = await standIn.start()
  })
  after(() => standIn.close())

  it('asks for bills, settles, refunds, reads tickets and prices with signed bodies, and reads the answers', async () => {
    const adapter = httpHis({ url, ...cfg })
    const unpaid = await adapter.unpaidBills({ hospitalCode: H, patient })
    assert.deepEqual(unpaid.map((b) => b.billNo), ['HB0001', 'HB0002', 'HB-REFUSE'])
    assert.deepEqual(standIn.calls.at(-1), { path: '/bills/unpaid', body: { hospitalCode: H, patient } })
    const some = await adapter.bills({ hospitalCode: H, patient, billNos: ['HB0002', 'NOT-MINE'] })
    assert.deepEqual(some.map((b) => [b.billNo, b.items[0]!.quantity]), [['HB0002', 2]])
    const paidAt = new Date('2026-11-23T03:00:00Z')
    const tickets = await adapter.settle(db(), { hospitalCode: H, orderNo: 'P20261123000000000001', billNos: ['HB0001'], amountFen: 1960, paidAt, channel: 'sandbox', tradeNo: 'T1' })
    assert.deepEqual(tickets.map((k) => k.ticketNo), ['Y007'])
    assert.deepEqual(standIn.calls.at(-1)!.body, { hospitalCode: H, orderNo: 'P20261123000000000001', billNos: ['HB0001'], amountFen: 1960, paidAt: paidAt.toISOString(), channel: 'sandbox', tradeNo: 'T1' })
    // the same order again is a copy, answered the same
    assert.deepEqual(await adapter.settle(db(), { hospitalCode: H, orderNo: 'P20261123000000000001', billNos: ['HB0001'], amountFen: 1960, paidAt, channel: 'sandbox', tradeNo: 'T1' }), tickets)
    assert.deepEqual(await adapter.tickets({ hospitalCode: H, orderNo: 'P20261123000000000001' }), tickets)
    await adapter.refund(db(), { hospitalCode: H, orderNo: 'P20261123000000000001', billNos: ['HB0001'], reason: '患者申请退费' })
    assert.deepEqual(standIn.calls.at(-1), { path: '/bills/refund', body: { hospitalCode: H, orderNo: 'P20261123000000000001', billNos: ['HB0001'], reason: '患者申请退费' } })
    const prices = await adapter.prices({ hospitalCode: H, keyword: '血常规', page: 1, size: 20 })
    assert.equal(prices.total, 1)
    assert.equal(prices.records[0]!.priceFen, 2200)
    assert.deepEqual(standIn.calls.at(-1)!.body, { hospitalCode: H, keyword: '血常规', category: null, page: 1, size: 20 })
  })

  it('passes the HIS’s refusal on to the patient (400 with its message), and treats a bad answer as a failure', async () => {
    const adapter = httpHis({ url, ...cfg })
    await assert.rejects(
      adapter.settle(db(), { hospitalCode: H, orderNo: 'P20261123000000000002', billNos: ['HB-REFUSE'], amountFen: 1000, paidAt: new Date(), channel: 'sandbox', tradeNo: 'T2' }),
      (err: unknown) => err instanceof AppError && err.code === 400 && err.message === '该缴费单已在收费窗口缴费',
    )
    // a wrong secret: the HIS answers 401, which is no answer the patient can act on
    await assert.rejects(httpHis({ url, appId: cfg.appId, secret: 'wrong' }).unpaidBills({ hospitalCode: H, patient }), (err: unknown) => !(err instanceof AppError))
    // an answer without its fields
    await assert.rejects(httpHis({ url: `${url}/broken#`, ...cfg }).unpaidBills({ hospitalCode: H, patient }), (err: unknown) => !(err instanceof AppError))
  })

  it('serves a whole payment through the adapter: bills listed, paid, settled at the HIS, the queue read from it', async () => {
    const app = await startTestApp({ config: { his: { url, ...cfg } } })
    try {
      assert.equal(app.app.ctx.providers.his.kind, 'http')
      const user = await signInUser(app.app)
      const patientId = await addPatient(app, user.userId, { name: '陈志强', sex: 1, birthday: '1990-03-07', mobile: '13700000002', idCard: patient.idCard })
      const req = <T = any>(method: Method, path: string, opts: { body?: unknown; query?: Record<string, string> } = {}) =>
        callApi<T>(app.app, method, path, { caller: user, ...opts })
      const list = await req<UnpaidVisit[]>('POST', `${A}/payment/unpaid/list`, { body: { hospitalCode: H, patientId } })
      assert.equal(list.code, 200, list.msg)
      assert.deepEqual(list.data.flatMap((v) => v.bills.map((b) => b.billNo)), ['HB0002', 'HB-REFUSE'])
      const askedAbout = standIn.calls.at(-1)!.body.patient as typeof patient
      assert.equal(askedAbout.idCard, patient.idCard)
      assert.equal(askedAbout.name, '陈志强')
      const start = await req<BillPayStart>('POST', `${A}/payment/init`, {
        body: { hospitalCode: H, patientId, billNos: ['HB0002'], returnUrl: RETURN_URL, idempotencyKey: newKey('http') },
      })
      assert.equal(start.code, 200, start.msg)
      assert.equal(start.data.record.amountFen, 3300)
      assert.equal((await confirmAtCashier(app, (start.data.action as { url: string }).url)).statusCode, 303)
      await (app.app.ctx.providers.pay.sandbox as SandboxPay).settled()
      const settle = standIn.calls.find((c) => c.path === '/bills/settle' && c.body.orderNo === start.data.record.orderNo)
      assert.ok(settle, 'the HIS was told')
      assert.deepEqual(settle.body.billNos, ['HB0002'])
      assert.equal(settle.body.amountFen, 3300)
      assert.equal(standIn.bills.get('HB0002')!.status, 'paid')
      const queue = await req<WaitQueue>('GET', `${A}/payment/wait/queue`, { query: { id: String(start.data.record.id) } })
      assert.deepEqual(queue.data.tickets.map((k) => [k.ticketNo, k.guide]), [['Y007', '请到门诊楼1楼门诊西药房2号窗口取药']])
      // the HIS refuses a bill at settlement: the whole order is refunded
      const refused = await req<BillPayStart>('POST', `${A}/payment/init`, {
        body: { hospitalCode: H, patientId, billNos: ['HB-REFUSE'], returnUrl: RETURN_URL, idempotencyKey: newKey('http') },
      })
      assert.equal((await confirmAtCashier(app, (refused.data.action as { url: string }).url)).statusCode, 303)
      await (app.app.ctx.providers.pay.sandbox as SandboxPay).settled()
      const after = await req<BillPaymentDetail>('GET', `${A}/payment/detail`, { query: { id: String(refused.data.record.id) } })
      assert.equal(after.data.status, 'refunded')
      const prices = await callApi<Page<{ code: string }>>(app.app, 'GET', `${A}/price/list`, { query: { hospitalCode: H, keyword: '血常规' } })
      assert.deepEqual(prices.data.records.map((r) => r.code), ['JY0001'])
      assert.equal(await ledgerImbalance(app.database.db), 0)
      const [h] = await app.database.db.select({ code: hospitals.code }).from(hospitals).where(eq(hospitals.code, H))
      assert.equal(h!.code, H)
    } finally {
      await app.close()
    }
  })
})
