/**
 * Browser journey through self-service tests (自助开单, spec §2 /palm/selfService/index and /confirm/index): the real
 * server with the sandbox HIS, the sandbox cashier, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { WAIT_MS, bindMobile, bindPatient, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/selfService/index'
const DETAIL = '/h5/pages/order/payment/detail'
/** The identity-card photo's 张三丰 (README, demo people): a man born in 1980, so PSA is his to order, a pregnancy test is not. */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }

describe('self-service tests in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('the patient chooses two tests, sees one he may not order and why, pays in the cashier, and lands on the paid record', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await bindPatient(page, HOSPITAL, ZHANG, '13811112002')

    await page.goto(LIST)
    const blood = visible(page.getByRole('checkbox', { name: /^血常规（五分类）/ })).first()
    await blood.waitFor({ timeout: WAIT_MS })
    // a test for women is shown, disabled, with the reason in words
    const hcg = visible(page.getByRole('checkbox', { name: /^人绒毛膜促性腺激素（β-HCG）/ })).first()
    assert.equal(await hcg.getAttribute('aria-disabled'), 'true')
    await seeText(page, '不可选：仅限女性')
    await hcg.click({ force: true })
    assert.equal(await hcg.getAttribute('aria-checked'), 'false')

    await blood.click()
    await visible(page.getByRole('checkbox', { name: /^肝功能（11项）/ })).first().click()
    await seeText(page, '已选2项')
    const total = await visible(page.locator('.action-bar__amount')).first().innerText()
    assert.match(total, /合计\s*¥\d+\.\d{2}/)
    await shot(page, 'selfService-1-list')
    await tapButton(page, '下一步')

    await waitForPath(page, '/h5/palm/selfService/confirm/index')
    await seeText(page, '所选项目含需空腹检验的项目，请空腹8小时以上再来采血')
    assert.equal(await visible(page.locator('.self-confirm__item')).count(), 2)
    await shot(page, 'selfService-2-confirm')
    await tapButton(page, '确认并支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier', { timeout: WAIT_MS })
    await page.getByText('确认支付', { exact: true }).click()

    // back on the record: paid, the lab bill, where to go next
    await waitForPath(page, DETAIL)
    await seeText(page, '已支付', WAIT_MS)
    await seeText(page, '下一步去哪里')
    await visible(page.locator('.pay-ticket__guide')).first().waitFor({ timeout: WAIT_MS })
    const guide = await visible(page.locator('.pay-ticket__guide')).first().innerText()
    assert.match(guide, /检验科采血处/)
    await shot(page, 'selfService-3-paid')
  })
})
