/**
 * Browser journeys through examination appointments (spec §2 /palm/inspectReserve/index, /pages/order/inspectReserve)
 * and nucleic-acid tests (/palm/nucleic/*): the real server with the sandbox HIS's seeded paid CT and devices, the
 * sandbox cashier, the workbench console's sampling and release, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Locator, Page } from 'playwright-core'
import { audit, describeViolations } from './axe'
import { DEMO_DOCTOR, WAIT_MS, bindMobile, bindPatient, deskCall, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
/** The health card's 王小明: the sandbox HIS has his 上腹部CT paid at the window, waiting for an appointment (README). */
const WANG = { name: '王小明', idCard: '310104198511030034' }
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }
const RESERVE = '/h5/palm/inspectReserve/index'
const DETAIL = '/h5/pages/order/inspectReserve/index'

/** No critical or serious WCAG 2.2 A/AA violation on the page as it is (axe-core, as the accessibility test checks every page). */
async function accessible(page: Page, name: string) {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `${name}: critical or serious violations:\n${describeViolations(blocking)}`)
}

/** Taps a day and waits for its slots to arrive (the slots of the day shown before stay on screen until then). */
async function pickDay(page: Page, day: Locator) {
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-palm/api/report/med-tech/appointment/list', { timeout: WAIT_MS })
  await day.click()
  await listed
  await page.waitForTimeout(100)
}

describe('examination appointments and nucleic tests in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('the patient books a CT slot, reads the preparation, and moves it to another time', async () => {
    const { page } = await newPhone()
    await page.goto(`${RESERVE}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, RESERVE)
    await bindPatient(page, HOSPITAL, WANG, '13811113001')
    await page.goto(RESERVE)
    await seeText(page, '上腹部CT（平扫）')
    await seeText(page, '待预约')
    await tapButton(page, '预约')

    // a day after today (a whole day of slots), then its first free slot
    const days = visible(page.getByRole('radio', { name: /余\d+个号$/ }))
    await days.nth(1).waitFor({ timeout: WAIT_MS })
    await pickDay(page, days.nth(1))
    const slots = visible(page.getByRole('radio', { name: /^CT\d号机.*余\d+个号$/ }))
    await slots.first().waitFor({ timeout: WAIT_MS })
    const first = (await slots.first().getAttribute('aria-label'))!
    await slots.first().click()
    await shot(page, 'medtech-1-slots')
    await accessible(page, '医技预约')
    await tapButton(page, '确认预约')

    await waitForPath(page, DETAIL)
    await seeText(page, '已预约', WAIT_MS)
    await seeText(page, '检查前准备')
    await seeText(page, /腹部检查前空腹8小时/)
    await seeText(page, /去除检查部位的金属物品/)
    const firstTime = first.match(/(\d{2}:\d{2})至(\d{2}:\d{2})/)!
    await seeText(page, new RegExp(`${firstTime[1]}-${firstTime[2]}`))
    await shot(page, 'medtech-1-booked')
    await accessible(page, '预约详情')

    // 改约: another slot of the same examination; the same appointment moves
    await tapButton(page, '改约')
    await waitForPath(page, RESERVE)
    await seeText(page, '选择新的检查时间', WAIT_MS)
    const again = visible(page.getByRole('radio', { name: /余\d+个号$/ }))
    await again.nth(2).waitFor({ timeout: WAIT_MS })
    await pickDay(page, again.nth(2))
    const other = visible(page.getByRole('radio', { name: /^CT\d号机.*余\d+个号$/ })).nth(3)
    await other.waitFor({ timeout: WAIT_MS })
    const second = (await other.getAttribute('aria-label'))!
    await other.click()
    await tapButton(page, '确认改约')
    await waitForPath(page, DETAIL)
    await seeText(page, '改约次数', WAIT_MS)
    const secondTime = second.match(/(\d{2}:\d{2})至(\d{2}:\d{2})/)!
    await seeText(page, new RegExp(`${secondTime[1]}-${secondTime[2]}`))
    await shot(page, 'medtech-1-rescheduled')

    // the console shows the booking on the device's day, name masked
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const devices = await deskCall<{ deviceId: number; deviceName: string }[]>(token, 'GET', '/his/exam/devices')
    const device = devices.find((d) => second.startsWith(d.deviceName))!
    const date = (await visible(page.locator('.exam-detail__value--strong')).first().innerText()).slice(0, 10)
    const bookings = await deskCall<{ patientName: string; startTime: string }[]>(token, 'GET', `/his/exam/devices/${device.deviceId}/bookings?date=${date}`)
    assert.ok(bookings.some((b) => b.patientName === '王*明' && b.startTime === secondTime[1]))
  })

  test('the patient buys a nucleic test, pays in the cashier, shows its QR code, and reads the released result', async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/nucleic/purchase?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/nucleic/purchase')
    await bindPatient(page, HOSPITAL, ZHANG, '13811113002')
    await page.goto('/h5/palm/nucleic/purchase')
    await visible(page.getByRole('radio', { name: /单检.*¥16\.00/ })).first().click()
    await seeText(page, '¥16.00')
    await tapButton(page, '立即支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier', { timeout: WAIT_MS })
    await page.getByText('确认支付', { exact: true }).click()

    await waitForPath(page, '/h5/palm/nucleic/orderList')
    await seeText(page, '待采样', WAIT_MS)
    await tapButton(page, '出示采样码')
    const code = visible(page.getByRole('img', { name: /^采样码，条码号HS\d{18}$/ }))
    await code.waitFor({ timeout: WAIT_MS })
    assert.match((await code.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/)
    const sampleNo = (await visible(page.locator('.nucleic__code-no')).first().innerText()).trim()
    await shot(page, 'nucleic-1-code')
    await accessible(page, '核酸订单')

    // the sampling point scans it; the laboratory releases the result
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    await deskCall(token, 'POST', `/his/nucleic/tests/${sampleNo}/sample`, {})
    await deskCall(token, 'POST', `/his/nucleic/tests/${sampleNo}/release`, { result: '阴性' })

    await page.goto('/h5/palm/nucleic/result')
    await seeText(page, '检测结果：阴性（未检出新冠病毒核酸）', WAIT_MS)
    await seeText(page, `条码号：${sampleNo}`)
    await seeText(page, /^报告时间：/)
    await shot(page, 'nucleic-1-result')
    await accessible(page, '核酸检测结果')

    // the records of the examinations and the hospital's own nucleic pages read the same
    for (const path of ['/h5/pages/order/inspection/index', '/h5/custom/10392/nucleic/index', '/h5/palm/report/nucleic/index']) {
      await page.goto(path)
      await visible(page.locator('.nucleic, .inspection')).first().waitFor({ timeout: WAIT_MS })
      await page.waitForTimeout(300)
      await accessible(page, path)
    }
    await seeText(page, '检测结果：阴性（未检出新冠病毒核酸）', WAIT_MS)
  })
})
