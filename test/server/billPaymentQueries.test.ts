import { after, before, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { queriesOf } from '../../server/src/db'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { BillPayStart, BillPaymentDetail } from '../../types/api/palm'
import { callApi, idCardFor, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

/**
 * The work of one bill payment, counted in statements sent to the database: a rule about work, not time (the bill
 * payment benchmark follows from it). It fails when someone adds a query back to the path; lower a figure when a
 * change takes one away.
 * - its start (POST /payment/init): the bills checked at the HIS, the order, the payment and its claims made, the
 *   cashier opened, the record answered;
 * - its settlement: the sandbox cashier takes the money and notifies, the order is paid, the ledger written and the
 *   bills settled at the sandbox HIS (whose own statements stand for a hospital's HIS, and are counted too).
 */
const MAX_QUERIES_PER_BILL_PAYMENT = 19
const MAX_QUERIES_PER_BILL_SETTLEMENT = 21

const H = '10392'
let t: TestApp
before(async () => {
  t = await startTestApp({ countQueries: true })
})
after(() => t.close())

it('a bill payment starts in at most MAX_QUERIES_PER_BILL_PAYMENT statements, the order it made not read back, and is settled in at most MAX_QUERIES_PER_BILL_SETTLEMENT', async () => {
  const caller = await signInUser(t.app)
  const idCard = idCardFor('19850412', String(randomInt(1000)).padStart(3, '0'), '330102')
  const patientId = await addPatient(t, caller.userId, { name: '陈志强', sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  const his = t.app.ctx.providers.his as SandboxHis
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
  const items = priceCatalogue(H).slice(0, 2)
  /** A visit's bills for the patient, straight into the sandbox HIS. */
  const billsOfVisit = async (visitNo: string) =>
    (
      await his.issueOrders({
        hospitalCode: H,
        patient: { cardNo: null, idCard, name: '陈志强' },
        visitNo,
        visitDate: today,
        deptName: '呼吸与危重症医学科',
        doctorName: '测试医生',
        items: items.map((c) => ({ code: c.code, quantity: 1 })),
      })
    ).map((b) => b.billNo)
  const init = (billNos: string[]) =>
    callApi<BillPayStart>(t.app, 'POST', '/dld-palm/api/payment/init', {
      caller,
      body: { hospitalCode: H, patientId, billNos, returnUrl: '/h5/palm/payment/waitPay', idempotencyKey: newKey('bill') },
    }) as Promise<Envelope<BillPayStart>>
  // the first payment files the patient at the hospital and finds the hospital: work done once
  const first = await init(await billsOfVisit(`MZQ${Date.now()}a`))
  assert.equal(first.code, 200, first.msg)

  const billNos = await billsOfVisit(`MZQ${Date.now()}b`)
  let answer: Envelope<BillPayStart> | null = null
  const queries = await queriesOf(async () => {
    answer = await init(billNos)
  })
  assert.equal(answer!.code, 200, answer!.msg)
  assert.ok(queries.length <= MAX_QUERIES_PER_BILL_PAYMENT, `${queries.length} statements:\n${queries.join('\n')}`)
  // the cashier is opened for the order made, and the record answered is the one the detail page shows
  const { record, action } = answer!.data
  assert.equal(action?.kind, 'redirect')
  assert.deepEqual(record.bills.map((b) => b.billNo).sort(), [...billNos].sort())
  const detail = (await callApi<BillPaymentDetail>(t.app, 'GET', '/dld-palm/api/payment/detail', { caller, query: { id: String(record.id) } })) as Envelope<BillPaymentDetail>
  assert.equal(detail.code, 200, detail.msg)
  assert.equal(detail.data.orderNo, record.orderNo)
  assert.equal(detail.data.status, 'paying')

  const sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  const settlement = await queriesOf(async () => {
    assert.equal((await confirmAtCashier(t, action!.kind === 'redirect' ? action!.url : '')).statusCode, 303)
    await sandbox.settled()
  })
  assert.ok(settlement.length <= MAX_QUERIES_PER_BILL_SETTLEMENT, `${settlement.length} statements:\n${settlement.join('\n')}`)
  const paid = (await callApi<BillPaymentDetail>(t.app, 'GET', '/dld-palm/api/payment/detail', { caller, query: { id: String(record.id) } })) as Envelope<BillPaymentDetail>
  assert.equal(paid.data.status, 'paid')
})
