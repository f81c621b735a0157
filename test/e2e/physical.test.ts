/**
 * Browser journeys through physical exams (体检, spec §2 Physical-exam booking and the physical-exam reports): the real
 * server with the sandbox HIS's centre, the sandbox cashier and its notifications, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { audit, describeViolations } from './axe'
import { WAIT_MS, bindMobile, bindPatient, confirmModal, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
/** The identity-card photos' people: 李秀英 books; 张三丰 has a past 中老年体检 with its report out (demo seed). */
const LI = { name: '李秀英', idCard: '440305199208170027' }
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }

/** No critical or serious WCAG 2.2 A/AA violation on the page as it is now. */
async function accessible(page: Page, name: string) {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.equal(blocking.length, 0, describeViolations(blocking))
}

describe('physical exams in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('the patient books a package that suits her, pays in the cashier, sees it in her list and cancels it with a refund', async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/reservePhysical/select?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/reservePhysical/select')
    await bindPatient(page, HOSPITAL, LI, '13811113001')
    await page.reload()

    // a woman of 34: the women's packages, none of the men's
    await seeText(page, '女性专项体检')
    assert.equal(await visible(page.getByText('基础体检（男）')).count(), 0)
    await shot(page, 'physical-1-packages')
    await visible(page.getByText('基础体检（女）')).first().click()

    await waitForPath(page, '/h5/palm/reservePhysical/detail')
    await seeText(page, '检查项目（15项）')
    const day = visible(page.locator('[role="radio"]:not([aria-disabled="true"])')).first()
    await day.click()
    assert.equal(await day.getAttribute('aria-checked'), 'true')
    await shot(page, 'physical-2-day')
    await accessible(page, '套餐详情')
    await tapButton(page, '预约并支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()

    await waitForPath(page, '/h5/palm/physical/payment')
    await seeText(page, '已预约', WAIT_MS)
    await seeText(page, '基础体检（女）')
    await shot(page, 'physical-3-booked')
    await accessible(page, '体检预约详情')

    await page.goto('/h5/palm/reservePhysical/reserveList')
    const item = visible(page.locator('.physical-item', { hasText: '基础体检（女）' })).first()
    await item.waitFor()
    assert.match(await item.innerText(), /已预约/)
    await item.click()
    await waitForPath(page, '/h5/palm/physical/payment')
    await tapButton(page, '取消预约')
    await confirmModal(page, '确定取消')
    await seeText(page, '已取消', WAIT_MS)
    await seeText(page, /已退款|退款中/, WAIT_MS)
    await shot(page, 'physical-4-cancelled')
  })

  test('a finished exam’s report opens as a PDF drawn on the phone, page by page', async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/report/physical/index?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/report/physical/index')
    await bindPatient(page, HOSPITAL, ZHANG, '13811113002')
    await page.reload()

    await visible(page.locator('.physical-report__entry', { hasText: '中老年体检' })).first().click()
    await waitForPath(page, '/h5/palm/report/physical/info')
    await seeText(page, '主检结论')
    await seeText(page, '心电图室')
    await shot(page, 'physical-5-report')
    await accessible(page, '体检报告详情')
    await tapButton(page, '查看PDF报告')

    await waitForPath(page, '/h5/palm/report/physical/filePreview')
    const canvas = visible(page.locator('.pdf-viewer__page canvas')).first()
    await canvas.waitFor({ timeout: WAIT_MS })
    // something was drawn: the canvas is not all white
    const inked = await canvas.evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data
      let dark = 0
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) dark += 1
      return dark
    })
    assert.ok(inked > 500, `the page is drawn (${inked} dark pixels)`)
    const count = visible(page.locator('.pdf-viewer__count')).first()
    assert.match(await count.innerText(), /^1 \/ [2-9]$/)
    await shot(page, 'physical-6-pdf')
    await accessible(page, 'PDF报告')
    await visible(page.getByText('下一页', { exact: true })).first().click()
    await page.waitForFunction(() => document.querySelector('.pdf-viewer__count')?.textContent?.trim().startsWith('2 /'), null, { timeout: WAIT_MS })
    await visible(page.getByRole('button', { name: '放大' })).first().click()
    await shot(page, 'physical-7-pdf-zoomed')
  })
})
