/**
 * Browser journeys through the deposits (spec §2 /palm/hospitalization/*, /pages/order/recharge/*, /palm/accountRecharge/*):
 * the real server with the sandbox HIS's seeded demo stay (王小明 at 10392, server/src/seed/his.ts), the sandbox
 * cashier and its notifications, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, bindMobile, bindPatient, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const INPATIENT = '/h5/palm/hospitalization/index'
/** The health card's 王小明: the sandbox HIS has him in hospital at 10392 with a low deposit (README, demo people). */
const WANG = { name: '王小明', idCard: '310104198511030034' }
/** The identity-card photo's 张三丰. */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }

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
    const before = fenOf(await visible(page.locator('.inpatient__money-item', { hasText: '预交金余额' })).first().innerText())
    await shot(page, 'recharge-1-stay')

    await visible(page.getByRole('link', { name: /预交金充值/ })).first().click()
    await waitForPath(page, '/h5/palm/hospitalization/recharge/recharge')
    const amount = visible(page.getByRole('radio', { name: '1000元' })).first()
    await amount.click()
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
})
