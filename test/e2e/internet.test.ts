/**
 * Browser journey through finding a doctor online (spec §2 /internet/doctorList, /internet/doctor, /pages/doctor, the
 * internet home, /internet/timHistory, /internet/inquiry/useMedicine): the real server with its seeded online doctors,
 * the built H5 app, Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { audit, describeViolations } from './axe'
import { appCall as call, baseUrl, bindMobile, bindPatient, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10412'
const LIST = '/h5/internet/doctorList/index'
const HOME = '/h5/pages/sys/internet/index'
/** Seeded online doctors of 10412 accepting consultations (server/src/seed/internet.ts): 谭振华 ¥10, 白美玲 ¥50; 贾洁 is not accepting. */
const TAN = { id: 145, name: '谭振华' }
const BAI = { id: 144, name: '白美玲' }
const JIA = { id: 161, name: '贾洁' }
const PERSON = { name: '孙丽华', idCard: '110105198805122718' }

/** The first patient of the signed-in account at the hospital, bound here when there is none. */
async function patientId(page: Page): Promise<number> {
  await bindPatient(page, HOSPITAL, PERSON, uniqueMobile())
  const list = await call<{ id: number }[]>(page, 'GET', `/dld-palm/api/patient/list?hospitalCode=${HOSPITAL}`)
  return list[0]!.id
}

/**
 * Pays an unpaid inquiry the way the sandbox cashier does (its own page has a journey in consultation.test.ts) and
 * waits until the server has the payment: the inquiry is 待接诊.
 */
async function payInquiry(page: Page, id: number) {
  const action = await call<{ url: string }>(page, 'POST', '/dld-hospital/im/trade/service/im/init/continuePay', { id, returnUrl: `/h5/pages/order/inquiry/detail?id=${id}` })
  const q = new URL(action.url, baseUrl).searchParams
  const form = { orderNo: q.get('orderNo') ?? '', returnUrl: q.get('returnUrl') ?? '', sign: q.get('sign') ?? '', action: 'confirm' }
  await page.evaluate(async (f) => void (await fetch('/sandbox/pay/cashier', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f).toString() })), form)
  for (let i = 0; i < 100; i++) {
    if ((await call<{ status: string }>(page, 'GET', `/dld-hospital/im/trade/service/im/check?id=${id}`)).status === 'waiting') return
    await page.waitForTimeout(200)
  }
  assert.fail(`inquiry ${id} was not paid`)
}

/** Signs a new phone in at the doctor list of the internet hospital (internet pages need a bound user, spec §4). */
async function signIn(page: Page, mobile = uniqueMobile()) {
  await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
  await bindMobile(page, mobile)
  await waitForPath(page, LIST)
}

/** What the page shows now has no critical or serious axe-core violation (WCAG 2.2 A/AA; accessibility.test.ts walks every page). */
async function accessible(page: Page, name: string) {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `${name}:\n${describeViolations(blocking)}`)
}

/** The doctors' names in one section of the internet home. */
const namesIn = (page: Page, section: string) => visible(page.getByRole('region', { name: section })).first().locator('.doctor-card__name').allInnerTexts()

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
      const box = await visible(page.locator('.online-doctor__actions .taro-button-core', { hasText: text })).first().boundingBox()
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

    // 医生文章: from a doctor's home page to one of their articles (the server names a doctor who wrote some)
    const written = await page.evaluate(async () => {
      const res = await (await fetch('/dld-hospital/api/patient/article/list?hospitalCode=10392&size=50')).json()
      return (res.data.records as { doctorId: number | null; title: string }[]).find((a) => a.doctorId !== null)!
    })
    await page.goto(`/h5/internet/doctor/index?id=${written.doctorId}`)
    await visible(page.getByRole('link', { name: '医生文章 ›' })).first().click()
    await waitForPath(page, '/h5/internet/doctorArticle/index', (q) => q.get('doctorId') === String(written.doctorId))
    await visible(page.locator('.article-list__item', { hasText: written.title })).first().click()
    await waitForPath(page, '/h5/pages/sys/knowledge/detail')
    await seeText(page, written.title)
    await shot(page, 'internet-4-doctor-article')
  })

  test('the internet home: a visitor sees 热门医生 without signing in; signed in, 为您推荐 and then 问诊过的医生 too', async () => {
    const { page, requests } = await newPhone()
    await page.goto(`/h5/?hospitalCode=${HOSPITAL}`)
    await waitForPath(page, HOME)
    const hot = visible(page.getByRole('region', { name: '热门医生' })).first()
    await hot.locator('.doctor-card').first().waitFor()
    const hotNames = await namesIn(page, '热门医生')
    assert.ok(hotNames.length >= 1 && hotNames.length <= 3, `up to three hot doctors: ${hotNames}`)
    assert.equal(await hot.locator('.doctor-card__badge', { hasText: '休息中' }).count(), 0, 'hot doctors accept consultations now')
    assert.equal(await visible(page.getByRole('region', { name: '为您推荐' })).count(), 0)
    assert.equal(requests.filter((r) => new URL(r.url()).pathname === '/dld-hospital/im/patient/recommend/doctor').length, 0, 'a visitor is not asked for their own doctors')
    assert.equal(new URL(page.url()).pathname, HOME, 'and stays on the home page')
    await hot.scrollIntoViewIfNeeded()
    await shot(page, 'internet-4-home-visitor')

    // signed in (the doctor list asks for a bound mobile), with a paid consultation with 谭振华
    await page.goto(LIST)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    const inquiry = await call<{ id: number }>(page, 'POST', '/dld-hospital/inquiry/addInquiryInfo', {
      doctorId: TAN.id,
      patientId: await patientId(page),
      description: '血压偏高一个月，想咨询用药',
      idempotencyKey: `e2e-home-${Date.now()}`,
    })
    await payInquiry(page, inquiry.id)
    await page.goto(HOME)
    await visible(page.getByRole('region', { name: '为您推荐' })).first().locator('.doctor-card').first().waitFor()
    assert.deepEqual(await namesIn(page, '问诊过的医生'), [TAN.name])
    const suggested = await namesIn(page, '为您推荐')
    assert.ok(suggested.length >= 1 && !suggested.includes(TAN.name), `为您推荐 leaves out the doctor consulted: ${suggested}`)
    const shownAbove = new Set([TAN.name, ...suggested])
    assert.ok((await namesIn(page, '热门医生')).every((n) => !shownAbove.has(n)), '热门医生 does not repeat a doctor shown above')
    await visible(page.getByRole('region', { name: '问诊过的医生' })).first().scrollIntoViewIfNeeded()
    await shot(page, 'internet-5-home-signed-in')
    await accessible(page, 'internet home, signed in')

    await visible(page.getByRole('region', { name: '问诊过的医生' })).first().locator('.doctor-card').first().click()
    await waitForPath(page, '/h5/internet/doctor/index', (q) => q.get('id') === String(TAN.id))
  })

  test('地区 on the doctor list: the city’s other hospital lists its own doctors', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await visible(page.locator('.doctor-card')).first().waitFor()
    const place = visible(page.getByRole('button', { name: /^地区/ })).first()
    assert.equal(await place.locator('.place-filter__value').innerText(), '示范互联网医院')
    await place.click()
    const cities = visible(page.getByRole('radiogroup', { name: '城市' })).first()
    await cities.waitFor()
    assert.equal(await cities.getByRole('radio', { name: '示范市' }).getAttribute('aria-checked'), 'true')
    const hospitals = visible(page.getByRole('radiogroup', { name: '医院' })).first()
    assert.equal(await hospitals.getByRole('radio', { name: '示范互联网医院' }).getAttribute('aria-checked'), 'true')
    await shot(page, 'internet-6-place')
    await accessible(page, '地区 open')

    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/index/doctorList' && new URL(r.url()).searchParams.get('hospitalCode') === '10392')
    await hospitals.getByRole('radio', { name: '示范市第一人民医院' }).click()
    await listed
    await see(page, '.doctor-card__dept', '示范市第一人民医院')
    assert.equal(await visible(page.locator('.doctor-card__dept', { hasText: '示范互联网医院' })).count(), 0, 'only the chosen hospital’s doctors')
    assert.equal(await place.locator('.place-filter__value').innerText(), '示范市 · 示范市第一人民医院')
    await shot(page, 'internet-7-place-other-hospital')
  })

  test('医生主页 with a consultation still open: 继续问诊 opens its room instead of ordering another', async () => {
    const { page } = await newPhone()
    await signIn(page)
    const patient = await patientId(page)
    await page.goto(`/h5/internet/doctor/index?id=${TAN.id}`)
    await visible(page.locator('.online-doctor__actions .taro-button-core', { hasText: '图文问诊' })).first().waitFor()
    // ordered while the page lies below another (here 问诊须知; the inquiry page in life): back on it, it knows
    await tapButton(page, '复诊续方')
    await waitForPath(page, '/h5/internet/doctorList/notice')
    await visible(page.locator('.taro-button-core', { hasText: '我已阅读并同意' })).first().waitFor()
    const inquiry = await call<{ id: number }>(page, 'POST', '/dld-hospital/inquiry/addInquiryInfo', {
      doctorId: TAN.id,
      patientId: patient,
      description: '头晕三天',
      idempotencyKey: `e2e-open-${Date.now()}`,
    })
    await page.goBack()
    await waitForPath(page, '/h5/internet/doctor/index')
    await seeText(page, '您与该医生有一个未结束的图文问诊（待支付）')
    assert.equal(await visible(page.locator('.online-doctor__actions .taro-button-core', { hasText: '图文问诊' })).count(), 0, 'no second order offered')
    await tapButton(page, '继续支付')
    await waitForPath(page, '/h5/pages/order/inquiry/detail', (q) => q.get('id') === String(inquiry.id))

    await payInquiry(page, inquiry.id)
    await page.goto(`/h5/internet/doctor/index?id=${TAN.id}`)
    await seeText(page, '您与该医生有一个未结束的图文问诊（待接诊）')
    await shot(page, 'internet-8-continue')
    await accessible(page, '医生主页 with 继续问诊')
    await tapButton(page, '继续问诊')
    await waitForPath(page, '/h5/internet/tim/index', (q) => q.get('inquiryId') === String(inquiry.id) && q.get('toUserId') === `d_${TAN.id}`)

    // another doctor: nothing open, the usual two
    await page.goto(`/h5/internet/doctor/index?id=${BAI.id}`)
    await see(page, '.online-doctor__name', BAI.name)
    await visible(page.locator('.online-doctor__actions .taro-button-core', { hasText: '复诊续方' })).first().waitFor()
    assert.equal(await visible(page.getByText('继续问诊', { exact: true })).count(), 0)
  })

  test('复诊续方: the diagnosis picked from the hospital’s disease list; the renewal then shows under 问诊记录 · 复诊续方', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await patientId(page)
    await call(page, 'PUT', '/dld-hospital/im/fans/follow', { doctorId: TAN.id })
    await page.goto(`/h5/internet/inquiry/useMedicine?doctorId=${TAN.id}`)
    const chip = visible(page.getByRole('radiogroup', { name: '就诊人' }).getByRole('radio')).first()
    await chip.waitFor()
    if ((await chip.getAttribute('aria-checked')) !== 'true') await chip.click()

    const finder = visible(page.getByLabel('从医院疾病目录查找诊断')).first()
    await finder.click()
    const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/common/diseaseCode' && new URL(r.url()).searchParams.get('keyword') === '高血压')
    await finder.pressSequentially('高血压')
    await searched
    const disease = visible(page.getByRole('checkbox', { name: /^高血压（/ })).first()
    await disease.click()
    assert.equal(await disease.getAttribute('aria-checked'), 'true')
    assert.equal(await visible(page.getByLabel('诊断', { exact: true })).first().inputValue(), '高血压')
    await shot(page, 'internet-9-renewal-diagnosis')
    await accessible(page, '复诊续方 with the disease list')

    const medicine = visible(page.getByPlaceholder(/药品名称/)).first()
    await medicine.click()
    await medicine.pressSequentially('苯磺酸氨氯地平片')
    const description = visible(page.getByPlaceholder(/请描述目前的病情/)).first()
    await description.click()
    await description.pressSequentially('血压控制平稳，药快吃完了')
    await visible(page.locator('.inquiry__consent').getByText('我已阅读并同意', { exact: true })).first().click()
    const ordered = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/inquiry/chronicInquiry')
    await tapButton(page, '提交并支付')
    const body = (await (await ordered).request().postDataJSON()) as { diagnosis: string }
    assert.equal(body.diagnosis, '高血压')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    const detail = /^\/h5\/pages\/order\/inquiry\/detail$/
    await page.waitForURL((u) => detail.test(u.pathname))
    const id = Number(new URL(page.url()).searchParams.get('id'))
    for (let i = 0; i < 100 && (await call<{ status: string }>(page, 'GET', `/dld-hospital/im/trade/service/im/check?id=${id}`)).status !== 'waiting'; i++) await page.waitForTimeout(200)
    // given up before a doctor accepted: it is over (refunded), and so a past renewal
    await call(page, 'GET', `/dld-hospital/im/trade/service/im/cancel?id=${id}`)

    await page.goto('/h5/internet/timHistory/index')
    const kinds = visible(page.getByRole('tablist', { name: '问诊类型' })).first()
    await kinds.waitFor()
    const renewals = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/im/core/chronic/historyList')
    await kinds.getByRole('tab', { name: '复诊续方' }).click()
    await renewals
    await see(page, '.tim-history__item', `复诊续方 · `)
    assert.equal(await visible(page.locator('.tim-history__item')).count(), 1)
    assert.equal(await kinds.getByRole('tab', { name: '复诊续方' }).getAttribute('aria-selected'), 'true')
    await shot(page, 'internet-10-renewal-history')
    await accessible(page, '问诊记录 · 复诊续方')
  })

  test('我的医生: 可问诊优先 puts those accepting first, 最近关注 the latest followed first', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await call(page, 'PUT', '/dld-hospital/im/fans/follow', { doctorId: TAN.id })
    await call(page, 'PUT', '/dld-hospital/im/fans/follow', { doctorId: JIA.id })
    await page.goto('/h5/pages/doctor/index')
    await see(page, '.doctor-card__name', JIA.name)
    const names = () => visible(page.locator('.doctor-card__name')).allInnerTexts()
    assert.deepEqual(await names(), [TAN.name, JIA.name])
    const recent = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/im/fans/doctor/list')
    await visible(page.getByRole('tab', { name: '最近关注' })).first().click()
    await recent
    await page.waitForFunction(() => document.querySelector('.doctor-card__name')?.textContent === '贾洁')
    assert.deepEqual(await names(), [JIA.name, TAN.name])
    await shot(page, 'internet-11-my-doctors-recent')
    await accessible(page, '我的医生 · 最近关注')
  })
})
