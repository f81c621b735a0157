/**
 * Browser journey through queue calling (spec §2 /palm/callRegister/index): the real server with the sandbox HIS, the
 * sandbox cashier, the workbench console calling the next number, and the built H5 app, whose numbers move when pushed.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { DEMO_DOCTOR, WAIT_MS, bookVisit, deskCall, bindMobile, bindPatient, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/payment/list'
const DETAIL = '/h5/pages/order/payment/detail'
const QUEUE = '/h5/palm/callRegister/index'
/** The identity-card photo's 张三丰 (README, demo people). */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }
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
    const regNo = await bookVisit(page, HOSPITAL)

    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const visits = await deskCall<{ registrationId: number; patientName: string }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    const visit = visits.find((v) => v.patientName === '张*丰')
    assert.ok(visit, `his booked visit is on the console: ${JSON.stringify(visits).slice(0, 300)}`)
    const mri = (await deskCall<{ records: { code: string; name: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent('磁共振')}`)).records
    assert.ok(mri.length >= 2, 'two MRI items in the catalogue')
    // the MRI room has one window: two orders paid one after the other wait there one behind the other
    await deskCall(token, 'POST', '/his/orders', { registrationId: visit.registrationId, items: [{ code: mri[0]!.code, quantity: 1 }] })
    await payNewest(page)
    await deskCall(token, 'POST', '/his/orders', { registrationId: visit.registrationId, items: [{ code: mri[1]!.code, quantity: 1 }] })
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

    const queues = await deskCall<{ id: number; place: string; waiting: number }[]>(token, 'GET', '/his/queues')
    const room = queues.find((q) => q.place === '放射科磁共振室')
    assert.ok(room)
    await deskCall(token, 'POST', `/his/queues/${room.id}/call`, {})

    // pushed: the first is called with where to go, the second has nobody ahead
    await see(page, '.call-register__card', '已叫号')
    await see(page, '.call-register__card', '前面还有0人')
    assert.equal(await visible(page.getByText('前面还有1人')).count(), 0)
    await see(page, '.call-register__notice[role="status"]', '已叫号')
    assert.deepEqual(requests, [], 'moved by a push, not by reading again')
    await shot(page, 'queue-2-called')
  })
})
