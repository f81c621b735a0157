/**
 * Browser journeys through the deposits (spec §2 /palm/hospitalization/*, /pages/order/recharge/*, /palm/accountRecharge/*):
 * the real server with the sandbox HIS's seeded demo stay (王小明 at 10392, server/src/seed/his.ts), the sandbox
 * cashier and its notifications, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { audit, describeViolations } from './axe'
import { DEMO_DOCTOR, WAIT_MS, bindMobile, bindPatient, bookVisit, deskCall, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const INPATIENT = '/h5/palm/hospitalization/index'
/** The health card's 王小明: the sandbox HIS has him in hospital at 10392 with a low deposit (README, demo people). */
const WANG = { name: '王小明', idCard: '310104198511030034' }
/** The identity-card photo's 张三丰. */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }

/** No critical or serious WCAG 2.2 A/AA violation on the page on show (axe-core). */
async function accessible(page: Page, name: string) {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `critical or serious violations:\n${describeViolations(blocking)}`)
}

/** ¥1,234.56 as fen. */
const fenOf = (text: string) => {
  const m = /(-?)¥(\d+)\.(\d{2})/.exec(text)
  assert.ok(m, `an amount in ${text}`)
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]))
}

async function payInCashier(page: Page) {
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
}

describe('deposits in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a relative tops up an inpatient’s deposit in the cashier, sees the new balance, and reads yesterday’s daily bill', async () => {
    const { page } = await newPhone()
    await page.goto(`${INPATIENT}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, INPATIENT)
    await bindPatient(page, HOSPITAL, WANG, '13811112101')
    await page.reload()
    await waitForPath(page, INPATIENT)

    // his stay, with the warning in words
    await seeText(page, '在院')
    await seeText(page, '预交金余额不足')
    const before = fenOf(await visible(page.locator('.stay__money-item', { hasText: '预交金余额' })).first().innerText())
    await shot(page, 'recharge-1-stay')

    // 住院预交金: the same money and warning, and the hospital's amounts; 1000 yuan opens the top-up with it chosen
    await visible(page.getByRole('link', { name: /^住院预交金/ })).first().click()
    await waitForPath(page, '/h5/palm/hospitalization/recharge/index')
    await seeText(page, '选择充值金额')
    await visible(page.getByRole('alert').filter({ hasText: '预交金余额不足' })).first().waitFor()
    assert.equal(fenOf(await visible(page.locator('.deposit__balance')).first().innerText()), before)
    await shot(page, 'recharge-1-deposit')
    await accessible(page, 'inpatient deposit')
    await visible(page.getByRole('link', { name: '充值1000元' })).first().click()
    await waitForPath(page, '/h5/palm/hospitalization/recharge/recharge', (q) => q.get('amountFen') === '100000')
    const amount = visible(page.getByRole('radio', { name: '1000元' })).first()
    await visible(page.locator('[role="radio"][aria-checked="true"][aria-label="1000元"]')).first().waitFor()
    assert.equal(await amount.getAttribute('aria-checked'), 'true')
    await shot(page, 'recharge-1-amount')
    await tapButton(page, '立即充值')
    await payInCashier(page)

    // back on the record: paid, and the balance 1000 yuan higher
    await waitForPath(page, '/h5/pages/order/recharge/detail', (q) => !!q.get('id'))
    await seeText(page, '住院预交金充值成功', WAIT_MS)
    const after = fenOf(await visible(page.locator('.recharge-detail__balance')).first().innerText())
    assert.equal(after, before + 100_000)
    await shot(page, 'recharge-1-paid')

    // among the records
    await page.goto('/h5/pages/order/recharge/index')
    await visible(page.locator('.recharge-record', { hasText: '¥1000.00' })).first().waitFor()

    // yesterday's daily bill
    await page.goto('/h5/palm/hospitalization/settlement/index')
    await seeText(page, '当日合计')
    const day = visible(page.getByRole('radio', { checked: true })).filter({ hasText: '¥' }).first()
    const yesterday = new Date(Date.now() + 8 * 3_600_000 - 86_400_000).toISOString().slice(5, 10)
    assert.match(await day.innerText(), new RegExp(yesterday))
    assert.ok((await visible(page.locator('.bill-items__item')).count()) > 0)
    assert.ok(fenOf(await visible(page.locator('.daily-bill__total-value')).first().innerText()) > 0)
    await shot(page, 'recharge-1-daily')
  })

  test('a patient tops up the outpatient account, then pays a bill from it without a cashier', async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/accountRecharge/index?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/accountRecharge/index')
    await bindPatient(page, HOSPITAL, ZHANG, '13811112102')
    await page.reload()
    await waitForPath(page, '/h5/palm/accountRecharge/index')
    await seeText(page, '门诊预交金余额')
    const before = fenOf(await visible(page.locator('.account-recharge__value')).first().innerText())

    await visible(page.getByLabel('其他金额（元）')).first().click()
    await page.keyboard.type('888.50')
    await seeText(page, '充值金额 ¥888.50')
    await tapButton(page, '立即充值')
    await payInCashier(page)

    await waitForPath(page, '/h5/palm/accountRecharge/detail', (q) => !!q.get('id'))
    await seeText(page, '门诊预交金充值成功', WAIT_MS)
    const after = fenOf(await visible(page.locator('.recharge-detail__balance')).first().innerText())
    assert.equal(after, before + 88_850)
    await shot(page, 'recharge-2-account')

    // one of his unpaid bills, paid from the balance: 就诊卡余额, no cashier, straight to the paid record
    await page.goto('/h5/palm/payment/list')
    const boxes = visible(page.getByRole('checkbox'))
    await boxes.first().waitFor()
    const count = await boxes.count()
    for (let i = 0; i < count; i++) {
      const box = boxes.nth(i)
      if (((await box.getAttribute('aria-checked')) === 'true') !== (i === 0)) await box.click()
    }
    await seeText(page, '已选1项')
    await tapButton(page, '去缴费')
    await waitForPath(page, '/h5/palm/payment/mergeList')
    await visible(page.getByRole('radio', { name: /就诊卡余额/ })).first().click()
    await tapButton(page, '余额支付')
    await waitForPath(page, '/h5/pages/order/payment/detail')
    await seeText(page, '已支付', WAIT_MS)
    assert.doesNotMatch(page.url(), /sandbox/, 'no cashier')
    await page.goto('/h5/palm/accountRecharge/index')
    await seeText(page, '门诊预交金余额')
    const left = fenOf(await visible(page.locator('.account-recharge__value')).first().innerText())
    assert.ok(left < after, `the balance went down: ${after} -> ${left}`)
    await shot(page, 'recharge-3-paid-from-account')
  })

  test('after the console discharges a stay, the family reads the settlement: what it cost by category and the deposit returned', async () => {
    const { page } = await newPhone()
    await page.goto(`${INPATIENT}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, INPATIENT)
    await bindPatient(page, HOSPITAL, ZHANG, '13811112103')

    // his visit; at the console he is admitted, and a day's charges are posted
    const regNo = await bookVisit(page, HOSPITAL)
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const [visit] = await deskCall<{ registrationId: number }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    const stay = await deskCall<{ admissionNo: string }>(token, 'POST', '/his/admissions', { registrationId: visit!.registrationId, ward: '心内科二病区', bed: '8' })
    const find = async (keyword: string) => (await deskCall<{ records: { code: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}`)).records[0]!
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10)
    const charged = await deskCall<{ costFen: number }>(token, 'POST', `/his/admissions/${stay.admissionNo}/charges`, {
      date: today,
      items: [
        { code: (await find('血常规')).code, quantity: 1 },
        { code: (await find('阿莫西林')).code, quantity: 2 },
      ],
    })

    // his family pays a deposit of 1000 yuan from 住院预交金
    await page.goto('/h5/palm/hospitalization/recharge/index')
    await seeText(page, '选择充值金额')
    await visible(page.getByRole('link', { name: '充值1000元' })).first().click()
    await waitForPath(page, '/h5/palm/hospitalization/recharge/recharge')
    await visible(page.locator('[role="radio"][aria-checked="true"][aria-label="1000元"]')).first().waitFor()
    await tapButton(page, '立即充值')
    await payInCashier(page)
    await waitForPath(page, '/h5/pages/order/recharge/detail', (q) => !!q.get('id'))
    await seeText(page, '住院预交金充值成功', WAIT_MS)

    // the console discharges him; the stay's page leads to the settlement
    const settled = await deskCall<{ settlement: { returnedFen: number; owedFen: number } }>(token, 'POST', `/his/admissions/${stay.admissionNo}/discharge`, {})
    assert.equal(settled.settlement.returnedFen, 100_000 - charged.costFen)
    await page.goto(INPATIENT)
    await seeText(page, '已出院')
    await visible(page.getByRole('link', { name: /^出院结算单/ })).first().click()
    await waitForPath(page, '/h5/palm/hospitalization/settlement/result', (q) => q.get('admissionNo') === stay.admissionNo)
    await seeText(page, `退还 ¥${(settled.settlement.returnedFen / 100).toFixed(2)}`)
    const ways = visible(page.getByRole('group', { name: '退款方式' })).first()
    assert.match(await ways.innerText(), /原路退回/)
    const categories = visible(page.getByRole('group', { name: '费用分类' })).first()
    const text = await categories.innerText()
    assert.match(text, /检验费/)
    assert.match(text, /西药费/)
    assert.equal(fenOf(text.slice(text.indexOf('合计'))), charged.costFen)
    await seeText(page, '心内科二病区 8床')
    await shot(page, 'recharge-4-settlement')
    await accessible(page, 'discharge settlement')
  })
})
