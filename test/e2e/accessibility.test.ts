/**
 * Every page of the app, signed in and with data, checked by axe-core against the WCAG 2.2 A and AA rules at a phone
 * viewport: no critical and no serious violation anywhere. The counts per impact are printed for the note.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { bindMobile, bindPatient, newPhone, seeText, setup, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { audit, countByImpact, describeViolations, type Violation } from './axe'

const PALM = '10392'
const INTERNET = '10412'

/** Waits for a page to have drawn what it loads: its frame, a quiet network, a moment for the last answer. */
async function settled(page: Page) {
  await visible(page.locator('.page-shell .nav-bar')).first().waitFor({ state: 'visible' })
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await page.waitForTimeout(300)
}

describe('accessibility of every page (axe-core, WCAG 2.2 A/AA)', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  const found: Violation[] = []
  const checked: string[] = []

  async function check(page: Page, name: string) {
    await settled(page)
    found.push(...(await audit(page, name)))
    // NutUI's buttons are Taro's divs (.taro-button-core): each must say it is a button and be in the Tab order unless disabled
    const mute = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.taro-button-core')]
        .filter((b) => b.offsetParent !== null)
        .filter((b) => b.getAttribute('role') !== 'button' || (b.getAttribute('aria-disabled') !== 'true' && b.tabIndex !== 0))
        .map((b) => b.textContent?.trim()),
    )
    assert.deepEqual(mute, [], `${name}: buttons a screen reader or a keyboard cannot use`)
    checked.push(name)
  }

  async function visit(page: Page, path: string, name = path) {
    await page.goto(`/h5${path}`)
    await check(page, name)
  }

  test('the site icon: /favicon.ico leads to the app icon instead of a 404', async () => {
    const { page } = await newPhone()
    const answer = await page.request.get('/favicon.ico')
    assert.equal(answer.status(), 200)
    assert.equal(new URL(answer.url()).pathname, '/h5/favicon.svg')
    assert.match(answer.headers()['content-type'] ?? '', /^image\/svg\+xml/)
    assert.match(await answer.text(), /<svg /)
  })

  test('a patient with a booking walks every page; none has a critical or serious violation', { timeout: 600_000 }, async () => {
    const { page } = await newPhone()
    const mobile = uniqueMobile()

    // sign-in: the bind page itself, then a patient and a paid booking through the pages
    await page.goto(`/h5/palm/register/index?hospitalCode=${PALM}`)
    await waitForPath(page, '/h5/pages/login/index')
    await check(page, 'login (bind mobile)')
    await bindMobile(page, mobile)
    await waitForPath(page, '/h5/palm/register/index')
    await bindPatient(page, PALM, { name: '李建国', idCard: '110105198805122718' }, '13811110001')
    await page.reload()
    await check(page, 'register notice')
    await visible(page.getByText('我已阅读并同意')).first().click()
    await tapButton(page, '开始挂号')
    await waitForPath(page, '/h5/palm/register/deptList/index')
    await check(page, 'department list')
    await visible(page.getByText('心血管内科', { exact: true })).first().click()
    await waitForPath(page, '/h5/palm/register/deptSchedule/index')
    await visible(page.locator('.schedule-row')).first().waitFor()
    await check(page, 'department schedule')
    await visible(page.getByText('按医生', { exact: true })).first().click()
    await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click()
    await waitForPath(page, '/h5/palm/register/rowSchedule/index')
    await check(page, 'doctor schedule')
    await visible(page.locator('.schedule-grid__cell--open')).first().click()
    await waitForPath(page, '/h5/palm/register/confirm/index')
    await visible(page.locator('.confirm__range')).first().waitFor()
    await check(page, 'confirm registration')
    await visible(page.locator('.confirm__range', { hasNotText: '已约满' })).first().click()
    await tapButton(page, '确认挂号')
    await visible(page.locator('.hold-pay')).first().waitFor()
    await check(page, 'confirm registration (held, to pay)')
    await tapButton(page, '去支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, '/h5/pages/order/register/detail')
    await seeText(page, '预约成功')
    await check(page, 'registration detail (paid)')

    for (const path of [
      `/pages/sys/merge/index?hospitalCode=${PALM}`,
      '/pages/sys/conversation/index',
      '/pages/sys/user/index',
      '/pages/hospital/index',
      '/pages/about/index',
      '/pages/editUser/index',
      '/pages/patient/index',
      '/pages/healthPatient/index',
      '/pages/addPatient/index',
      '/pages/address/list',
      '/pages/address/add',
      '/pages/order/register/index',
      '/pages/order/inquiry/index',
      '/pages/doctor/index',
      '/pages/message/index',
      '/pages/medicalHistory/index',
      '/pages/accessLog/index',
      '/pages/privacy/index',
      '/pages/about/consent',
      '/pages/comment/index',
      '/pages/introduce/index',
      `/pages/introduce/html?key=guideHtml&title=${encodeURIComponent('就医指南')}`,
      '/palm/register/deptList/search',
    ])
      await visit(page, path)

    // the knowledge list and an article from it
    await visit(page, '/pages/sys/knowledge/index', 'knowledge')
    await visible(page.locator('.article-list__item')).first().click()
    await waitForPath(page, '/h5/pages/sys/knowledge/detail')
    await check(page, 'knowledge article')

    // the internet hospital: another hospital; the sign-in carries over (the sandbox authorises again silently)
    await page.goto(`/h5/internet/doctorList/index?hospitalCode=${INTERNET}`)
    await waitForPath(page, '/h5/internet/doctorList/index')
    await visible(page.locator('.doctor-card')).first().waitFor()
    await check(page, 'online doctors')
    await visible(page.locator('.doctor-card')).first().click()
    await waitForPath(page, '/h5/internet/doctor/index')
    await check(page, 'online doctor home')
    for (const path of [`/pages/sys/merge/index?hospitalCode=${INTERNET}`, '/internet/heat/index', '/internet/guidance/index', '/internet/timHistory/index', '/internet/searchParams/index'])
      await visit(page, path)

    const counts = countByImpact(found)
    console.info(`axe-core (WCAG 2.2 A/AA) on ${checked.length} pages: ${JSON.stringify(counts)}`)
    const blocking = found.filter((v) => v.impact === 'critical' || v.impact === 'serious')
    assert.deepEqual(blocking, [], `critical or serious violations:\n${describeViolations(blocking)}`)
  })
})
