/**
 * Browser journeys through the app shell (spec §2 screens and startup, §4 login gate, §8 errors): the real server
 * with its sandbox WeChat authorisation, the built H5 app at /h5/, Debian Chromium at 390x844.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  WAIT_MS,
  baseUrl,
  bindMobile,
  countVisibleText,
  masked,
  newPhone,
  see,
  seeText,
  setup,
  shot,
  tabLabels,
  tapButton,
  teardown,
  uniqueMobile,
  visible,
  waitForPath,
  type Phone,
} from './support'

const ALL_TABS = ['首页', '我的问诊', '健康知识', '我的']
const MAIN_APP_ID = 'wxdemo0000000000'

/** The app's own sign-in state in localStorage, as Taro.setStorageSync writes it: `{"data": value}` per key. */
async function readStorage<T>(page: Page, key: string): Promise<T | undefined> {
  const raw = await page.evaluate((k) => localStorage.getItem(k), key)
  return raw ? (JSON.parse(raw) as { data: T }).data : undefined
}

async function writeStorage(page: Page, key: string, value: unknown) {
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [key, JSON.stringify({ data: value })] as const)
}

/** Lets any late redirect show itself: the network goes quiet for a moment and the address stays put. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: WAIT_MS }).catch(() => undefined)
  const before = page.url()
  await page.waitForTimeout(500)
  assert.equal(page.url(), before, 'the page did not move on by itself')
}

/** A new phone signed in by the sandbox (base scope, no mobile bound), on a page of the app. */
async function signedInPhone(path: string): Promise<Phone> {
  const phone = await newPhone()
  await phone.page.goto(`/h5${path}`)
  await waitForPath(phone.page, `/h5${path}`)
  await visible(phone.page.locator('.page-shell .nav-bar')).first().waitFor({ state: 'visible' })
  return phone
}

describe('app shell in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('1. a new visitor is authorised silently and lands on the main home with the hospitals', async () => {
    const { page, authorizeTrips } = await newPhone()
    await page.goto('/h5/')
    await waitForPath(page, '/h5/pages/sys/merge/index')
    assert.equal(authorizeTrips(), 1, 'one trip to the sandbox WeChat authorisation')
    assert.doesNotMatch(page.url(), /[?&]code=/, 'the one-time code is gone from the address bar')
    assert.deepEqual(await tabLabels(page), ALL_TABS)
    for (const name of ['示范市第一人民医院', '示范市中医院', '示范互联网医院']) await seeText(page, name)
    await seeText(page, '智慧医疗服务平台')
    await shot(page, '1-main-home')

    await visible(page.locator('.home__hospital', { hasText: '示范市第一人民医院' })).first().click()
    await waitForPath(page, '/h5/pages/sys/merge/index')
    await see(page, '.home__name', '示范市第一人民医院')
    await seeText(page, '预约挂号')
    await seeText(page, '在线问诊')
    assert.deepEqual(await tabLabels(page), ALL_TABS, 'both services: the merged tab bar')
    assert.doesNotMatch(page.url(), /[?&]code=/)
    assert.equal(authorizeTrips(), 2, 'a new hospital clears the tokens and authorises once more (spec §2)')
    await shot(page, '1-hospital-10392-home')
  })

  test('2. a palm-only hospital shows two tabs and opens its services; internet-only has four and its 复诊续方 asks a visitor to sign in first', async () => {
    const { page } = await newPhone()
    await page.goto('/h5/?hospitalCode=10388')
    await waitForPath(page, '/h5/pages/sys/palm/index')
    await see(page, '.home__name', '示范市中医院')
    assert.deepEqual(await tabLabels(page), ['首页', '我的'])
    await shot(page, '2-palm-home')

    await visible(page.locator('.home__entry', { hasText: '价格公示' })).first().click()
    await waitForPath(page, '/h5/palm/priceDisclosure/index')

    await page.goto('/h5/?hospitalCode=10412')
    await waitForPath(page, '/h5/pages/sys/internet/index')
    await see(page, '.home__name', '示范互联网医院')
    assert.deepEqual(await tabLabels(page), ALL_TABS)
    await seeText(page, '在线问诊')
    assert.equal(await countVisibleText(page, '预约挂号'), 0, 'no registration entry for an internet-only hospital')
    // 复诊续方 opens the patient's prescriptions, behind the login gate for a visitor who has not bound a mobile
    await visible(page.locator('.home__entry', { hasText: '复诊续方' })).first().click()
    await waitForPath(page, '/h5/pages/login/index')
    await shot(page, '2-internet-home-prescriptions-gate')
  })

  test('3. the login gate sends an unbound visitor to bind a mobile, then back to where they were going', async () => {
    const { page } = await signedInPhone('/pages/sys/user/index')
    await seeText(page, /绑定手机号/)
    assert.deepEqual(await tabLabels(page), ALL_TABS)

    await page.goto('/h5/pages/editUser/index')
    await waitForPath(page, '/h5/pages/login/index', (q) => q.get('sourceType') === '8')
    await seeText(page, '为保障就医安全，请先绑定本人手机号')
    // the texts agreed to on binding can be read from the bind page
    await visible(page.getByRole('link', { name: '《隐私政策》' })).first().click()
    await waitForPath(page, '/h5/pages/about/rich', (q) => q.get('key') === 'privacyPolicy')
    await seeText(page, /个人信息/)
    await page.goBack()
    await waitForPath(page, '/h5/pages/login/index')
    const mobile = uniqueMobile()
    await bindMobile(page, mobile)
    // straight back, not to the consent page: the consent given on the bind page was recorded for the new account
    await waitForPath(page, '/h5/pages/editUser/index')
    await seeText(page, masked(mobile))
    assert.equal(await countVisibleText(page, mobile), 0, 'the full mobile is never shown')
    await shot(page, '3-edit-user-after-bind')

    await page.goto('/h5/pages/sys/user/index')
    await waitForPath(page, '/h5/pages/sys/user/index')
    await see(page, '.mine__who .mine__mobile', masked(mobile))
    const name = (await visible(page.locator('.mine__who .mine__name')).first().innerText()).trim()
    assert.ok(name.length > 0, 'a nickname (or its placeholder) is shown')
    assert.equal(await countVisibleText(page, /绑定手机号/), 0, 'no bind prompt once bound')
    await shot(page, '3-mine-bound')

    await visible(page.locator('.tab-bar__item', { hasText: '我的问诊' })).first().click()
    await waitForPath(page, '/h5/pages/sys/conversation/index')
    await seeText(page, '暂无问诊记录')
    await shot(page, '3-conversations-empty')
  })

  test('4. health knowledge lists the server articles, opens one, and ends with 没有更多了', async () => {
    const { page } = await signedInPhone('/pages/sys/knowledge/index')
    const title = '高血压患者在家怎样正确测血压'
    await seeText(page, title)
    assert.ok((await visible(page.locator('.article-list__item')).count()) >= 2, 'several articles')

    await visible(page.locator('.article-list__item', { hasText: title })).first().click()
    await waitForPath(page, '/h5/pages/sys/knowledge/detail', (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, title)
    await seeText(page, /测量前30分钟内不要吸烟/)
    await shot(page, '4-article')

    await page.goBack()
    await waitForPath(page, '/h5/pages/sys/knowledge/index')
    await seeText(page, title)
    // scroll to the bottom: the list ends with 没有更多了, in view, once every article of the server is shown
    const more = visible(page.locator('.article-list__more')).first()
    const inView = async () => {
      const box = await more.boundingBox()
      return !!box && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height
    }
    for (let i = 0; i < 20 && !((await more.innerText()).trim() === '没有更多了' && (await inView())); i++) {
      await page.mouse.move(195, 400)
      await page.mouse.wheel(0, 2500)
      await page.waitForTimeout(150)
    }
    assert.equal((await more.innerText()).trim(), '没有更多了')
    assert.ok(await inView(), 'the end of the list is on screen')
    const res = await fetch(`${baseUrl}/dld-hospital/api/patient/article/list?page=1&size=50`)
    const { data } = (await res.json()) as { data: { total: number } }
    assert.equal(await visible(page.locator('.article-list__item')).count(), data.total, 'every article of the server is listed')
    await shot(page, '4-knowledge-list-end')
  })

  test('5. an answer with code 2999 leads to the no-permission page', async () => {
    const { page } = await newPhone()
    // No page of this build calls a staff-only endpoint, so one real call is made to answer 2999: the server's own
    // answer is fetched and passed on with the same body but `code: 2999`.
    let faked = 0
    await page.route('**/dld-hospital/common/homePageConfig*', async (route) => {
      const res = await route.fetch()
      const body = (await res.json()) as { code: number; msg: string; data: unknown }
      faked++
      await route.fulfill({ response: res, json: { ...body, code: 2999, msg: '暂无权限' } })
    })
    await page.goto('/h5/')
    await waitForPath(page, '/h5/pages/permission')
    await seeText(page, '暂无权限访问该内容')
    assert.ok(faked >= 1, 'the faked answer was used')
    await shot(page, '5-permission')
  })

  test('5b. an address that is no page of the app says so and leads home, instead of loading for ever', async () => {
    const { page } = await newPhone()
    await page.goto('/h5/pages/nothing/here?from=an-old-link')
    await waitForPath(page, '/h5/pages/notFound/index')
    await seeText(page, '您访问的页面不存在或已下线')
    await shot(page, '5b-not-found')
    await visible(page.getByRole('button', { name: '返回首页' })).first().click()
    await waitForPath(page, '/h5/pages/sys/merge/index')
    await seeText(page, '示范市第一人民医院')
  })

  test('6. an expired login is renewed with its refresh token, or re-authorises once; a 401 re-authorises with consent and returns to the page', async () => {
    const phone = await signedInPhone('/pages/sys/user/index')
    const { page } = phone
    await seeText(page, /绑定手机号/)
    const life = await readStorage<{ appId: string; expire: number }>(page, 'lifeData')
    assert.equal(life?.appId, MAIN_APP_ID, `lifeData holds the app id: ${JSON.stringify(life)}`)
    assert.ok(life.expire > Date.now(), 'and an expiry in the future')

    // expired: renewed with the refresh token, no trip to authorisation, the same page
    await writeStorage(page, 'lifeData', { ...life, expire: Date.now() - 60_000 })
    const tripsBefore = phone.authorizeTrips()
    const renewal = page.waitForRequest((r) => new URL(r.url()).pathname === '/dld-auth/token/refresh/force', { timeout: WAIT_MS })
    await page.reload()
    await renewal
    await waitForPath(page, '/h5/pages/sys/user/index')
    await seeText(page, /绑定手机号/)
    await settle(page)
    assert.equal(phone.authorizeTrips() - tripsBefore, 0, 'no authorisation trip')
    const renewed = await readStorage<{ appId: string; expire: number }>(page, 'lifeData')
    assert.ok(renewed && renewed.expire > Date.now(), 'a fresh expiry')
    await shot(page, '6-expired-login-renewed')

    // expired, and the server no longer takes the refresh token: one silent trip, back on the same page
    await writeStorage(page, 'lifeData', { ...renewed, expire: Date.now() - 60_000 })
    await writeStorage(page, 'refreshToken', 'revoked-refresh-token-00000000')
    const tripsBeforeSilent = phone.authorizeTrips()
    const trip = page.waitForRequest((r) => new URL(r.url()).pathname === '/sandbox/wechat/authorize', { timeout: WAIT_MS })
    await page.reload()
    assert.equal(new URL((await trip).url()).searchParams.get('scope'), 'snsapi_base', 'silent re-authorisation')
    await waitForPath(page, '/h5/pages/sys/user/index')
    await seeText(page, /绑定手机号/)
    await settle(page)
    assert.equal(phone.authorizeTrips() - tripsBeforeSilent, 1, 'exactly one authorisation trip')

    // 401: a garbage token with a valid expiry; the app asks again, with the user-info scope (consent page)
    const goodToken = await readStorage<string>(page, 'token')
    await writeStorage(page, 'token', 'garbage-token-0000000000')
    const before401 = phone.authorizeTrips()
    await page.reload()
    await page.waitForURL((u) => u.pathname === '/sandbox/wechat/authorize', { timeout: WAIT_MS })
    const consent = new URL(page.url())
    assert.equal(consent.searchParams.get('scope'), 'snsapi_userinfo')
    await seeText(page, '允许')
    // the user-info scope brings the WeChat nickname to the app
    await page.getByLabel('昵称').fill('张小明')
    await shot(page, '6-consent')
    await page.getByRole('button', { name: '允许' }).click()
    await waitForPath(page, '/h5/pages/sys/user/index')
    await see(page, '.mine__name', '张小明')
    await seeText(page, /绑定手机号/)
    assert.equal(phone.authorizeTrips() - before401, 1)
    const newToken = await readStorage<string>(page, 'token')
    assert.ok(newToken && newToken !== 'garbage-token-0000000000' && newToken !== goodToken, 'a new token')

    const beforeReload = phone.authorizeTrips()
    await page.reload()
    await waitForPath(page, '/h5/pages/sys/user/index')
    await see(page, '.mine__name', '张小明')
    await settle(page)
    assert.equal(phone.authorizeTrips(), beforeReload, 'reloading does not go to authorisation again')
    await shot(page, '6-after-401-consent')
  })

  test('7. opening the authorisation return address again does not loop', async () => {
    const phone = await newPhone()
    const { page, requests } = phone
    await page.goto('/h5/')
    await waitForPath(page, '/h5/pages/sys/merge/index')
    await seeText(page, '示范市第一人民医院')
    const returned = requests.find((r) => {
      const u = new URL(r.url())
      return r.isNavigationRequest() && u.pathname === '/h5/pages/login/login' && u.searchParams.has('code') && u.searchParams.has('state')
    })
    assert.ok(returned, 'the app came back from authorisation with a code and state')
    const returnUrl = returned.url()

    const tripsBefore = phone.authorizeTrips()
    await page.goto(returnUrl)
    // the used code and state are refused with a clear message (or the app goes home); never round and round
    const message = visible(page.getByText('授权状态不一致，请重新进入', { exact: true })).first()
    const home = visible(page.locator('.home__group-title', { hasText: '合作医院' })).first()
    await message.or(home).first().waitFor({ state: 'visible', timeout: WAIT_MS })
    await settle(page)
    assert.ok(phone.authorizeTrips() - tripsBefore <= 1, 'at most one further authorisation trip')
    assert.doesNotMatch(page.url(), /[?&]code=/, 'the code is stripped from the address again')
    await shot(page, '7-return-page-refreshed')

    if (await message.isVisible()) {
      // the way out: back to the home, still signed in
      await tapButton(page, '重新进入')
      await waitForPath(page, '/h5/pages/sys/merge/index')
      await seeText(page, '示范市第一人民医院')
      assert.ok(phone.authorizeTrips() - tripsBefore <= 1, 'at most one further authorisation trip')
    }
  })
})
