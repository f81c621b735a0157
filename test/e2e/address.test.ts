/**
 * Browser journeys through delivery addresses (spec §2 /pages/address/list and /add, the system page
 * /choose-location; §7 addressList, addAddress, updateAddress, nation/parent, map/getLocation; §9 masking):
 * the real server with its seeded regions and sandbox location provider, the built H5 app, Debian Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, bindMobile, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const LIST = '/h5/pages/address/list'
const ADD = '/h5/pages/address/add'

/** A new phone bound to a new mobile, on the (empty) address list. */
async function boundOnList() {
  const phone = await newPhone()
  await phone.page.goto(LIST)
  await waitForPath(phone.page, '/h5/pages/login/index', (q) => q.get('sourceType') === '8')
  await bindMobile(phone.page, uniqueMobile())
  await waitForPath(phone.page, LIST)
  await seeText(phone.page, '暂无收货地址')
  return phone
}

/** The native input or textarea inside Taro's element that carries this placeholder. */
const field = (page: Page, placeholder: string) =>
  visible(page.locator(`input[placeholder="${placeholder}"], textarea[placeholder="${placeholder}"]`)).first()

async function type(page: Page, placeholder: string, text: string) {
  const field_ = field(page, placeholder)
  await field_.click()
  await field_.fill('')
  await field_.pressSequentially(text)
}

/** Chooses province, city and district in the region picker, waiting for each level to arrive from the server. */
async function pickRegion(page: Page, names: string[]) {
  await visible(page.locator('.address-form__region')).first().click()
  for (const name of names) {
    const item = visible(page.locator('.nut-cascader-item', { hasText: name })).first()
    await item.waitFor({ state: 'visible', timeout: WAIT_MS })
    await item.click()
  }
  await visible(page.locator('.nut-cascader')).first().waitFor({ state: 'hidden', timeout: WAIT_MS })
}

/** The list's cards, top to bottom, as their text. */
async function cards(page: Page): Promise<string[]> {
  return (await visible(page.locator('.addresses__item')).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
}

const card = (page: Page, text: string) => visible(page.locator('.addresses__item', { hasText: text })).first()

describe('delivery addresses in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('1. add with the region picker, add a located one as default, edit one, delete one', async () => {
    const { page, context } = await boundOnList()
    await shot(page, 'address-1-empty')

    // the first address, region chosen level by level: 广东省 > 深圳市 > 南山区
    await tapButton(page, '新增收货地址')
    await waitForPath(page, ADD)
    await seeText(page, '请选择省/市/区')
    await type(page, '请输入收货人姓名', '张三丰')
    await type(page, '请输入手机号', '1381234567') // one digit short
    await tapButton(page, '保存')
    await seeText(page, '请输入正确的手机号')
    await type(page, '请输入手机号', '13812345678')
    const cities = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-system/nation/parent/440000')
    await pickRegion(page, ['广东省', '深圳市', '南山区'])
    assert.equal((await cities).status(), 200, 'the cities were asked for after the province was chosen')
    await visible(page.locator('.address-form__value', { hasText: '广东省 深圳市 南山区' })).first().waitFor()
    await type(page, '请输入街道、门牌号等', '科技园科苑路15号')
    await shot(page, 'address-1-form')
    await tapButton(page, '保存')
    await waitForPath(page, LIST)
    await card(page, '张*丰').waitFor()
    let list = await cards(page)
    assert.equal(list.length, 1)
    assert.match(list[0]!, /张\*丰 138\*\*\*\*5678 默认/, 'masked name and mobile, and the first address is the default')
    assert.match(list[0]!, /广东省 深圳市 南山区 科技园科苑路15号/)
    assert.doesNotMatch(list.join(' '), /张三丰|13812345678/, 'the whole name and mobile are never listed')
    await shot(page, 'address-1-list-one')

    // the second address from 定位: the browser grants the position, the sandbox answers Hangzhou
    await context.grantPermissions(['geolocation'])
    await context.setGeolocation({ latitude: 30.27, longitude: 120.15 })
    await tapButton(page, '新增收货地址')
    await waitForPath(page, ADD)
    await seeText(page, '请选择省/市/区')
    await type(page, '请输入收货人姓名', '李四')
    await type(page, '请输入手机号', '13900001111')
    await visible(page.getByText('定位', { exact: true })).first().click()
    await waitForPath(page, '/h5/choose-location')
    await seeText(page, '杭州市中心')
    await seeText(page, /^浙江省杭州市/)
    await seeText(page, /纬度 30\.267680/) // the device's WGS-84 30.27, 120.15 in GCJ-02
    await shot(page, 'address-1-choose-location')
    await tapButton(page, '确认')
    await waitForPath(page, ADD)
    await visible(page.locator('.address-form__value', { hasText: /^浙江省 杭州市 / })).first().waitFor()
    assert.match(await field(page, '请输入街道、门牌号等').inputValue(), /^杭州市中心/, 'the detail line is filled from the location')
    await type(page, '请输入街道、门牌号等', '杭州市中心西湖大道1号')
    await visible(page.getByRole('switch', { name: '设为默认地址' })).first().click()
    await shot(page, 'address-1-form-located')
    await tapButton(page, '保存')
    await waitForPath(page, LIST)
    await card(page, '李*').waitFor()
    list = await cards(page)
    assert.equal(list.length, 2)
    assert.match(list[0]!, /^李\* 139\*\*\*\*1111 默认 浙江省 杭州市 \S+ 杭州市中心西湖大道1号/, 'the new default comes first')
    assert.doesNotMatch(list[1]!, /5678 默认 /, 'the first one is no longer the default')
    assert.match(list[1]!, /设为默认/)
    await shot(page, 'address-1-list-two')

    // edit: the edit page shows the whole values, the list the new detail
    await card(page, '张*丰').locator('.addresses__main').click()
    await waitForPath(page, ADD, (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, '编辑收货地址')
    await assertValue(field(page, '请输入收货人姓名'), '张三丰')
    await assertValue(field(page, '请输入手机号'), '13812345678')
    await visible(page.locator('.address-form__value', { hasText: '广东省 深圳市 南山区' })).first().waitFor()
    await type(page, '请输入街道、门牌号等', '科技园科苑路15号A座')
    await tapButton(page, '保存')
    await waitForPath(page, LIST)
    await card(page, '科苑路15号A座').waitFor()
    await shot(page, 'address-1-list-edited')

    // 设为默认 on the first one, then delete the other (confirm modal)
    await card(page, '张*丰').getByText('设为默认', { exact: true }).click()
    await card(page, '张*丰').getByText('默认', { exact: true }).waitFor()
    assert.match((await cards(page))[0]!, /^张\*丰 .* 默认 /)
    await card(page, '李*').getByText('删除', { exact: true }).click()
    await seeText(page, '确定删除该收货地址吗？')
    await shot(page, 'address-1-delete-confirm')
    await visible(page.getByText('确定', { exact: true })).last().click()
    await card(page, '李*').waitFor({ state: 'detached', timeout: WAIT_MS })
    list = await cards(page)
    assert.equal(list.length, 1)
    assert.match(list[0]!, /^张\*丰 138\*\*\*\*5678 默认 广东省 深圳市 南山区 科技园科苑路15号A座/)
    await shot(page, 'address-1-list-after-delete')
  })

  test('2. refused location permission says so and lets the patient pick the region by hand', async () => {
    const { page, context } = await boundOnList()
    await context.clearPermissions()
    await tapButton(page, '新增收货地址')
    await waitForPath(page, ADD)
    await visible(page.getByText('定位', { exact: true })).first().click()
    await waitForPath(page, '/h5/choose-location')
    await seeText(page, '未获得定位权限')
    await seeText(page, /手动选择所在地区/)
    await shot(page, 'address-2-denied')
    await tapButton(page, '手动选择地区')
    await waitForPath(page, ADD)
    // the picker opens by itself on the provinces
    const province = visible(page.locator('.nut-cascader-item', { hasText: '浙江省' })).first()
    await province.waitFor({ state: 'visible', timeout: WAIT_MS })
    await shot(page, 'address-2-picker-by-hand')
  })

  test('3. /open-location shows a place with its address and coordinates', async () => {
    const { page } = await boundOnList()
    const q = new URLSearchParams({ latitude: '30.2741', longitude: '120.1551', name: '示范市第一人民医院', address: '浙江省杭州市上城区示范路1号' })
    await page.goto(`/h5/open-location?${q}`)
    await waitForPath(page, '/h5/open-location')
    await seeText(page, '示范市第一人民医院')
    await seeText(page, '浙江省杭州市上城区示范路1号')
    await seeText(page, /纬度 30\.2741/)
    await visible(page.locator('.taro-button-core', { hasText: '复制地址' })).first().waitFor()
    await shot(page, 'address-3-open-location')
  })
})

async function assertValue(field: ReturnType<typeof visible>, expected: string) {
  const deadline = Date.now() + WAIT_MS
  let value = await field.inputValue()
  while (value !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    value = await field.inputValue()
  }
  assert.equal(value, expected)
}
