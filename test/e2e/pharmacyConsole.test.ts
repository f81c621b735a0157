/**
 * The pharmacy's side of a medicine order in the browser (issue 19): the workbench's 药房订单 of the seeded pharmacist
 * readies a pickup order, hands it over and accepts a refund after shipping, while the patient follows it on the order
 * detail: the pickup QR code and its code, 退款申请中, the request withdrawn, and the money back. The orders come from the
 * shop (shop.test.ts has the shop's own journeys); the real server, the sandbox cashier, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { appCall, bindMobile, confirmModal, deskSignIn, newDesk, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { assertAccessible } from './axe'

/** The app's own hospital, whose pharmacy the shop sells from, and its pharmacist (seed/staff.ts: `<hospital code>P01`). */
const HOSPITAL = '10392'
const PHARMACIST_LOGIN = '10392P01'
const SHOP = '/h5/pages/shop/list/index'
const DETAIL = '/h5/pages/order/shop/detail'
/** 杭州 is among the demo pharmacy's delivery cities. */
const ADDRESS = { name: '吴建国', mobile: '13800002222', provinceCode: 330000, cityCode: 330100, districtCode: 330106, detail: '天目山路148号', isDefault: true }

/**
 * A new phone signed in at the shop buys one box of 布洛芬缓释胶囊 (15.90, over the counter) for delivery or pickup
 * and pays in the cashier; answers the phone's page, on the paid order's detail, and the order's number as shown.
 */
async function paidShopOrder(delivery: '快递配送' | '到店自提'): Promise<{ page: Page; orderCode: string }> {
  const { page } = await newPhone()
  await page.goto(`${SHOP}?hospitalCode=${HOSPITAL}`)
  await bindMobile(page, uniqueMobile())
  await waitForPath(page, SHOP)
  if (delivery === '快递配送') await appCall(page, 'POST', '/dld-hospital/addAddress', ADDRESS)
  await visible(page.getByRole('button', { name: '布洛芬缓释胶囊加入购物车' })).first().click()
  await visible(page.getByRole('button', { name: '购物车，1件' })).first().click()
  await tapButton(page, '去结算')
  await waitForPath(page, '/h5/pages/storePayment/index')
  await visible(page.getByRole('tab', { name: delivery })).first().click()
  await tapButton(page, '提交订单')
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await waitForPath(page, DETAIL, (q) => /^\d+$/.test(q.get('id') ?? ''))
  await seeText(page, '布洛芬缓释胶囊')
  const orderCode = ((await visible(page.locator('.shop-order__row', { hasText: '订单编号' }).locator('.shop-order__value')).first().textContent()) ?? '').trim()
  assert.match(orderCode, /^\S+$/, 'the order shows its number')
  return { page, orderCode }
}

/** The pharmacist's desk on 药房订单, showing the orders of one status as they are now. */
async function pharmacyOrders(desk: Page, status: string) {
  const listed = () => desk.waitForResponse((r) => new URL(r.url()).pathname === '/dld-doctor/api/pharmacy/orders')
  if (!(await desk.locator('#pharmacy').isVisible())) {
    const opened = listed()
    await desk.getByRole('button', { name: '药房订单' }).click()
    await opened
  }
  const select = desk.getByLabel('订单状态')
  const answered = listed()
  if ((await select.locator('option:checked').innerText()) === status) await desk.locator('#pharmacy-form').getByRole('button', { name: '刷新' }).click()
  else await select.selectOption({ label: status })
  await answered
}

/** Waits until the order detail's status band says this (the steps below it name the earlier states too). */
const status = (page: Page, text: string) => see(page, '.shop-order__status-text', text)

/** The console's card of an order. */
const card = (desk: Page, orderCode: string) => desk.locator('#pharmacy-list > li', { hasText: orderCode })

/** Taps a console button that asks first (the browser's confirm dialog), accepting it. */
async function tapConfirmed(desk: Page, scope: ReturnType<typeof card>, name: string) {
  desk.once('dialog', (d) => void d.accept())
  await scope.getByRole('button', { name }).click()
}

/** On the order detail: 申请退款 with a reason, submitted. */
async function askRefund(page: Page, reason: string) {
  await tapButton(page, '申请退款')
  const field = visible(page.getByPlaceholder('请填写退款原因')).first()
  await field.click()
  await field.pressSequentially(reason)
}

describe("the pharmacy's console and the patient's medicine order in the browser", () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('pickup at the store: readied at the console, the patient shows the QR code and its code, picked up and finished', async () => {
    const desk = await newDesk()
    await deskSignIn(desk, PHARMACIST_LOGIN)
    const { page, orderCode } = await paidShopOrder('到店自提')
    // paid: the pharmacy prepares it; the pickup code is already there
    await status(page, '待备药')
    await seeText(page, '药房备药中，备好后请到店出示取药码')

    await pharmacyOrders(desk, '待发货 / 待备药')
    const waiting = card(desk, orderCode)
    await waiting.waitFor()
    assert.match(await waiting.innerText(), /到店自提/)
    assert.match(await waiting.innerText(), /布洛芬缓释胶囊 .* × 1盒/)
    await waiting.getByRole('button', { name: '备药完成' }).click()
    await waiting.waitFor({ state: 'detached' })
    await pharmacyOrders(desk, '待取药')
    await card(desk, orderCode).locator('.badge', { hasText: '待取药' }).waitFor()
    await shot(desk, 'pharmacy-console-1-ready')

    // the patient sees it ready, with the QR code (named for a screen reader) and the code as text
    await page.reload()
    await status(page, '待取药')
    await seeText(page, '药品已备好，请到店出示取药码')
    const code = ((await visible(page.locator('.shop-order__code')).first().textContent()) ?? '').trim()
    assert.match(code, /^\d{4,}$/, `the pickup code shows as text: ${code}`)
    const qr = visible(page.getByRole('img', { name: `取药二维码，取药码${code}` })).first()
    await qr.waitFor()
    assert.ok(((await qr.boundingBox())?.width ?? 0) >= 150, 'the QR code is large enough to scan')
    await shot(page, 'pharmacy-console-2-pickup-code')
    await assertAccessible(page, '取药码')

    // handed over at the store: the console finishes it
    await tapConfirmed(desk, card(desk, orderCode), '完成')
    await card(desk, orderCode).waitFor({ state: 'detached' })
    await pharmacyOrders(desk, '已完成')
    await card(desk, orderCode).locator('.badge', { hasText: '已完成' }).waitFor()

    await page.reload()
    await status(page, '已完成')
    assert.equal(await visible(page.locator('.shop-order__qr')).count(), 0, 'a finished order shows no pickup code')
    await shot(page, 'pharmacy-console-3-picked-up')
  })

  test('refund after shipping: asked with a reason, withdrawn, asked again, accepted at the console, the money back', async () => {
    const desk = await newDesk()
    await deskSignIn(desk, PHARMACIST_LOGIN)
    const { page, orderCode } = await paidShopOrder('快递配送')
    await status(page, '待发货')
    // 15.90 and the delivery fee
    const total = ((await visible(page.locator('.shop-order__row', { hasText: '合计' }).locator('.shop-order__value')).first().textContent()) ?? '').trim()
    assert.match(total, /^¥\d+\.\d{2}$/)

    await pharmacyOrders(desk, '待发货 / 待备药')
    const paid = card(desk, orderCode)
    await paid.getByLabel('快递公司').fill('中国邮政EMS')
    await paid.getByLabel('快递单号').fill('EMS9876543210')
    await paid.getByRole('button', { name: '发货' }).click()
    await paid.waitFor({ state: 'detached' })

    await page.reload()
    await status(page, '已发货')
    await seeText(page, 'EMS9876543210')

    // asks for a refund: the reason sheet, then 退款申请中 with the reason
    await askRefund(page, '药品包装破损')
    await shot(page, 'pharmacy-console-4-refund-reason')
    await assertAccessible(page, '申请退款')
    await tapButton(page, '提交退款申请')
    await status(page, '退款申请中')
    await visible(page.locator('.shop-order__row', { hasText: '退款原因' }).getByText('药品包装破损')).first().waitFor()

    // withdraws it: back to shipped, the tracking number still there
    await tapButton(page, '撤销退款申请')
    await confirmModal(page)
    await status(page, '已发货')
    await seeText(page, 'EMS9876543210')
    assert.equal(await visible(page.locator('.taro-button-core', { hasText: '撤销退款申请' })).count(), 0)
    await pharmacyOrders(desk, '退款申请')
    assert.equal(await card(desk, orderCode).count(), 0, 'a withdrawn request leaves the console')

    // asks again; the pharmacy sees the reason and accepts
    await askRefund(page, '收到的药品与订单不符')
    await tapButton(page, '提交退款申请')
    await status(page, '退款申请中')
    await pharmacyOrders(desk, '退款申请')
    const asked = card(desk, orderCode)
    await asked.getByText('退款原因：收到的药品与订单不符').waitFor()
    await shot(desk, 'pharmacy-console-5-refund-request')
    await tapConfirmed(desk, asked, '同意退款')
    await asked.waitFor({ state: 'detached' })

    // the patient: refunded, the whole amount back the way it was paid
    await page.reload()
    await status(page, '已退款')
    await seeText(page, `已退款${total}，已原路返回`)
    await shot(page, 'pharmacy-console-6-refunded')
    const order = await appCall<{ status: string; payOrder: { status: string } }>(page, 'GET', `/dld-rpflow/api/order/detail/${new URL(page.url()).searchParams.get('id')}`)
    assert.equal(order.status, 'refunded')
    assert.equal(order.payOrder.status, 'refunded')
  })
})
