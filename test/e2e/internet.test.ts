/**
 * Browser journey through finding a doctor online (spec §2 /internet/doctorList, /internet/doctor, /pages/doctor): the
 * real server with its seeded online doctors, the built H5 app, Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { bindMobile, newPhone, see, seeText, setup, shot, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10412'
const LIST = '/h5/internet/doctorList/index'

/** Signs a new phone in at the doctor list of the internet hospital (internet pages need a bound user, spec §4). */
async function signIn(page: Page, mobile = uniqueMobile()) {
  await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
  await bindMobile(page, mobile)
  await waitForPath(page, LIST)
}

describe('finding a doctor online in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('see the online doctors with stars and prices, open one, follow them, and find them under 我的医生', async () => {
    const { page } = await newPhone()
    await signIn(page)

    // the list: cards with a name, stars and the price of 图文问诊
    const cards = visible(page.locator('.doctor-card'))
    await cards.first().waitFor()
    await seeText(page, '全部')
    assert.ok((await cards.count()) >= 5, 'several online doctors')
    const first = cards.first()
    assert.ok((await first.locator('.level-stars__star').count()) === 5, 'five stars, full, half or empty')
    assert.ok((await first.locator('.level-stars__star--full').count()) >= 3, 'the seed’s levels are 3 and up')
    assert.match(await first.locator('.doctor-card__price').innerText(), /^图文 (免费|¥\d+\.\d{2})$/)
    assert.match(await first.locator('.doctor-card__stats').innerText(), /平均回复 \d+(秒|分钟|小时|天)/)
    await see(page, '.doctor-card__badge', '休息中') // the seed has doctors not accepting now
    await shot(page, 'internet-1-doctor-list')

    // sorting by price puts the cheapest first
    // listened for before the tap: on a fast server the answer may come before a listener set up after it
    const sorted = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/index/doctorList' && new URL(r.url()).searchParams.get('sort') === 'price')
    await visible(page.getByText('价格低', { exact: true })).first().click()
    await sorted
    await page.waitForTimeout(300)
    const prices = (await visible(page.locator('.doctor-card__price')).allInnerTexts()).map((t) => (t.includes('免费') ? 0 : Number(t.replace(/[^\d.]/g, ''))))
    assert.deepEqual(prices, [...prices].sort((a, b) => a - b), `sorted by price: ${prices}`)

    // one doctor's home page, and 关注
    const name = await visible(page.locator('.doctor-card__name')).first().innerText()
    await visible(page.locator('.doctor-card')).first().click()
    await waitForPath(page, '/h5/internet/doctor/index', (q) => /^\d+$/.test(q.get('id') ?? ''))
    await see(page, '.online-doctor__name', name)
    await seeText(page, '平均回复')
    await seeText(page, '图文问诊')
    // both bottom buttons are on the screen, side by side (复诊续方 was once laid out at x 386-743)
    for (const text of ['图文问诊', '复诊续方']) {
      const box = await visible(page.locator('.online-doctor__actions taro-button-core', { hasText: text })).first().boundingBox()
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${text} lies on the 390-wide screen: ${JSON.stringify(box)}`)
    }
    const follow = visible(page.locator('.online-doctor__follow')).first()
    assert.equal(await follow.innerText(), '关注')
    await follow.click()
    await see(page, '.online-doctor__follow', '已关注')
    await shot(page, 'internet-2-doctor-followed')

    // 我的医生 lists them
    await page.goto('/h5/pages/doctor/index')
    await see(page, '.doctor-card__name', name)
    assert.equal(await visible(page.locator('.doctor-card')).count(), 1)
    await shot(page, 'internet-3-my-doctors')
  })
})
