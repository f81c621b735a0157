/**
 * Browser journey through queue calling (spec §2 /palm/callRegister/index): the real server with the sandbox HIS, the
 * sandbox cashier, the workbench console calling the next number, and the built H5 app, whose numbers move when pushed.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, baseUrl, bindMobile, bindPatient, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/payment/list'
const DETAIL = '/h5/pages/order/payment/detail'
const QUEUE = '/h5/palm/callRegister/index'
/** The identity-card photo's 张三丰 (README, demo people). */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }
const DOCTOR = { login: '10392001', password: 'demo1234' }

async function desk<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/dld-doctor/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  assert.equal(env.code, 200, `${path}: ${env.msg}`)
  return env.data
}

/** The patient books the first free place of 心血管内科 and pays for it (as the bills test does). */
async function bookVisit(page: Page): Promise<string> {
  await page.goto(`/h5/palm/register/index?hospitalCode=${HOSPITAL}`)
  await seeText(page, '挂号须知')
  await visible(page.getByText('我已阅读并同意')).first().click()
  await tapButton(page, '开始挂号')
  await waitForPath(page, '/h5/palm/register/deptList/index')
  await visible(page.getByText('心血管内科', { exact: true })).first().click()
  await waitForPath(page, '/h5/palm/register/deptSchedule/index')
  await visible(page.getByText('按医生', { exact: true })).first().click()
  await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click()
  await waitForPath(page, '/h5/palm/register/rowSchedule/index')
  await visible(page.locator('.schedule-grid__cell--open')).first().click()
  await waitForPath(page, '/h5/palm/register/confirm/index')
  await visible(page.locator('.confirm__range', { hasNotText: '已约满' })).first().click()
  await tapButton(page, '确认挂号')
  await tapButton(page, '去支付')
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await seeText(page, '预约成功', WAIT_MS)
  // the booking's number (预约号): the console finds the visit by it among the day's many
  return (await visible(page.getByText(/^G[A-Z]*\d{12,}$/)).first().innerText()).trim()
}

/** The newest visit's unpaid bills, paid in the cashier. */
async function payNewest(page: Page) {
  await page.goto(LIST)
  await visible(page.getByRole('checkbox')).first().waitFor()
  await tapButton(page, '去缴费')
  await waitForPath(page, '/h5/palm/payment/mergeList')
  await visible(page.locator('.bill-items__item')).first().waitFor()
  await tapButton(page, '确认支付')
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await waitForPath(page, DETAIL)
  await seeText(page, '已支付', WAIT_MS)
}

describe('queue calling in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('two numbers at the MRI room: the console calls one, and the page moves without reloading', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await bindPatient(page, HOSPITAL, ZHANG, '13811112017')
    const regNo = await bookVisit(page)

    const { token } = await desk<{ token: string }>('', 'POST', '/login', DOCTOR)
    const visits = await desk<{ registrationId: number; patientName: string }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    const visit = visits.find((v) => v.patientName === '张*丰')
    assert.ok(visit, `his booked visit is on the console: ${JSON.stringify(visits).slice(0, 300)}`)
    const mri = (await desk<{ records: { code: string; name: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent('磁共振')}`)).records
    assert.ok(mri.length >= 2, 'two MRI items in the catalogue')
    // the MRI room has one window: two orders paid one after the other wait there one behind the other
    await desk(token, 'POST', '/his/orders', { registrationId: visit.registrationId, items: [{ code: mri[0]!.code, quantity: 1 }] })
    await payNewest(page)
    await desk(token, 'POST', '/his/orders', { registrationId: visit.registrationId, items: [{ code: mri[1]!.code, quantity: 1 }] })
    await payNewest(page)

    await page.goto(QUEUE)
    await see(page, '.call-register__card', '排队号')
    const cards = visible(page.locator('.call-register__card', { hasText: '排队号' }))
    await seeText(page, '前面还有0人')
    await seeText(page, '前面还有1人')
    assert.equal(await cards.count(), 2)
    // three or fewer ahead: told in a live region
    await see(page, '.call-register__notice[role="status"]', '附近等候')
    await shot(page, 'queue-1-waiting')
    const requests: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/dld-palm/api/queue/today') requests.push(r.url())
    })

    const queues = await desk<{ id: number; place: string; waiting: number }[]>(token, 'GET', '/his/queues')
    const room = queues.find((q) => q.place === '放射科磁共振室')
    assert.ok(room)
    await desk(token, 'POST', `/his/queues/${room.id}/call`, {})

    // pushed: the first is called with where to go, the second has nobody ahead
    await see(page, '.call-register__card', '已叫号')
    await see(page, '.call-register__card', '前面还有0人')
    assert.equal(await visible(page.getByText('前面还有1人')).count(), 0)
    await see(page, '.call-register__notice[role="status"]', '已叫号')
    assert.deepEqual(requests, [], 'moved by a push, not by reading again')
    await shot(page, 'queue-2-called')
  })
})
