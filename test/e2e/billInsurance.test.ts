/**
 * Browser journey: an insured patient pays outpatient bills with health insurance (医保支付, issue 17, spec §6 chsList):
 * the insurance sandbox's test person, bound as the patient, authorises the voucher on the chsPayment page; the fund
 * pays its share and the sandbox cashier takes only the cash part.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO_DOCTOR, WAIT_MS, bookVisit, deskCall, bindMobile, bindPatient, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/payment/list'
const DETAIL = '/h5/pages/order/payment/detail'
const CHS = '/h5/palm/chsPayment/index'

describe('outpatient payment with health insurance in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('an insured patient authorises the voucher and pays two bills, only the cash part in the cashier', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    // the insurance platform's test person (a test platform's way to try insurance), bound as this phone's patient
    const person = await page.evaluate(async () => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const answer = await (await fetch('/dld-palm/api/yibao/getAuthTestUserInfo', { headers: { Authorization: `Bearer ${token}` } })).json()
      return { name: answer.data.name as string, idCard: atob(answer.data.idCard as string) }
    })
    await bindPatient(page, HOSPITAL, person, '13811113001')

    // a visit, and the doctor's orders for it: a test and a medicine, two bills
    const regNo = await bookVisit(page, HOSPITAL)
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const [visit] = await deskCall<{ registrationId: number }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    assert.ok(visit, 'the booked visit is on the console')
    const find = async (keyword: string) =>
      (await deskCall<{ records: { code: string; name: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}`)).records[0]!
    const [lab, drug] = [await find('血常规'), await find('阿莫西林')]
    const ordered = await deskCall<{ bills: { title: string }[] }>(token, 'POST', '/his/orders', {
      registrationId: visit.registrationId,
      items: [
        { code: lab.code, quantity: 1 },
        { code: drug.code, quantity: 2 },
      ],
    })
    assert.equal(ordered.bills.length, 2)

    await page.goto(LIST)
    await visible(page.getByRole('checkbox')).first().waitFor()
    for (const bill of ordered.bills) await see(page, '.bill', bill.title)
    await seeText(page, '已选2项')
    await tapButton(page, '去缴费')
    await waitForPath(page, '/h5/palm/payment/mergeList')
    await visible(page.locator('.bill-items__item')).first().waitFor()
    await visible(page.getByRole('radio', { name: /医保支付/ })).first().click()
    await shot(page, 'bill-insurance-1-choice')
    await tapButton(page, '医保支付')

    // the insurance payment page: the patient's own voucher first, on the platform's page
    await waitForPath(page, CHS)
    await tapButton(page, '医保电子凭证授权')
    await page.waitForURL((u) => u.pathname === '/sandbox/insurance/authorize')
    await seeText(page, /申请使用你的医保电子凭证进行医保结算/)
    await page.locator('button.holder', { hasText: `${person.name[0]}*${person.name.slice(-1)}` }).click()

    // back with the one-time code: the bills are uploaded and split; the cash part is what is left to pay
    await waitForPath(page, CHS, (q) => !q.has('authCode') && q.get('type') === 'outpatient')
    await seeText(page, '统筹基金支付', WAIT_MS)
    const fen = async (label: string) => {
      const text = await visible(page.locator('.chs__row', { hasText: label })).first().locator('.chs__value').innerText()
      return Math.round(Number(text.replace('¥', '')) * 100)
    }
    const total = Math.round(Number((await visible(page.locator('.chs__total-amount')).first().innerText()).replace('¥', '')) * 100)
    const fund = await fen('统筹基金支付')
    const cash = await fen('个人自付')
    // the sandbox platform's rule for employees: the fund pays 70 %, rounded down to the fen
    assert.deepEqual([fund, cash], [Math.floor((total * 70) / 100), total - Math.floor((total * 70) / 100)])
    await shot(page, 'bill-insurance-2-split')

    await tapButton(page, '支付个人自付部分')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    assert.equal((await page.locator('.amount').innerText()).replace(/\s+/g, ''), `¥${(cash / 100).toFixed(2)}`)
    await page.getByText('确认支付', { exact: true }).click()

    // back on the record: paid, both bills, where to go next
    await waitForPath(page, DETAIL)
    await seeText(page, '已支付', WAIT_MS)
    assert.equal(await visible(page.locator('.pay-detail__title')).count(), 2)
    await seeText(page, '下一步去哪里')
    await shot(page, 'bill-insurance-3-paid')
  })
})
