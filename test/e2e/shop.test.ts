/**
 * Browser journeys through the medicine shop (spec §2 /pages/shop/*, /pages/storePayment, /pages/order/shop): the real
 * server with the seeded formulary and pharmacy of 10412, the sandbox cashier and its notifications, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { WAIT_MS, appCall as call, bindMobile, confirmModal, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10412'
const SHOP = '/h5/pages/shop/list/index'
const CART = '/h5/pages/shop/cart/index'
const DETAIL = '/h5/pages/order/shop/detail'

describe('the medicine shop in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a cart of two products survives a reload, is delivered to a served city and paid in the cashier; cancelled before shipping, it is refunded', async () => {
    const { page } = await newPhone()
    await page.goto(`${SHOP}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, SHOP)
    // a default address in 杭州, which the demo pharmacy delivers to (the address book has its own journeys)
    await call(page, 'POST', '/dld-hospital/addAddress', { name: '孙丽华', mobile: '13800001111', provinceCode: 330000, cityCode: 330100, districtCode: 330106, detail: '文三路90号', isDefault: true })

    await visible(page.getByText('处方药', { exact: true })).first().waitFor()
    await visible(page.getByRole('button', { name: '布洛芬缓释胶囊加入购物车' })).first().click()
    await visible(page.getByRole('button', { name: '对乙酰氨基酚片加入购物车' })).first().click()
    await visible(page.getByRole('button', { name: '对乙酰氨基酚片加入购物车' })).first().click()
    await visible(page.getByRole('button', { name: '购物车，3件' })).first().waitFor()
    await shot(page, 'shop-1-list')

    // the app is loaded again: the cart is still there
    await page.reload()
    await visible(page.getByRole('button', { name: '购物车，3件' })).first().click()
    await waitForPath(page, CART)
    await visible(page.getByText('布洛芬缓释胶囊')).first().waitFor()
    // 15.90 + 2 × 9.80
    await seeText(page, '¥35.50')
    await shot(page, 'shop-2-cart')
    await tapButton(page, '去结算')

    await waitForPath(page, '/h5/pages/storePayment/index')
    await seeText(page, '浙江省 杭州市 西湖区 文三路90号')
    await visible(page.locator('.checkout__note', { hasText: '配送费' })).first().waitFor()
    await shot(page, 'shop-3-checkout')
    await tapButton(page, '提交订单')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()

    // back from the cashier the order is checked again: paid, waiting for the pharmacy
    await waitForPath(page, DETAIL, (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, '待发货', WAIT_MS)
    await seeText(page, '布洛芬缓释胶囊')
    await shot(page, 'shop-4-paid')

    // the ordered lines left the cart
    const id = Number(new URL(page.url()).searchParams.get('id'))
    await page.goto(CART)
    await seeText(page, '购物车是空的')

    // cancelled before shipping: the money goes back
    await page.goto(`${DETAIL}?id=${id}`)
    await seeText(page, '待发货')
    await tapButton(page, '取消订单')
    await confirmModal(page)
    await seeText(page, /^(已退款|退款处理中).*原路/, WAIT_MS)
    const order = await call<{ status: string; payOrder: { status: string } }>(page, 'GET', `/dld-rpflow/api/order/detail/${id}`)
    assert.equal(order.status, 'cancelled')
    assert.match(order.payOrder.status, /^refund(ing|ed)$/)
    await shot(page, 'shop-5-cancelled')
  })
})
