/**
 * 投诉建议 in the browser (spec §2 /pages/comment/index): a patient files a complaint with a picture from 我的, staff
 * answer it on the workbench's 投诉建议 panel, and the patient reads the answer in the message centre and on the page.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO_DOCTOR, bindMobile, newDesk, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { audit, describeViolations } from './axe'

const PAGE = '/h5/pages/comment/index'
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const WORDS = '门诊三楼收费窗口只开了一个，排队四十分钟'
const ANSWER = '已增开两个收费窗口，感谢您的反馈。'

describe('complaints and suggestions in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a complaint with a picture reaches the workbench; the answer reaches the message centre', async () => {
    const { page } = await newPhone()
    await page.goto(`${PAGE}?hospitalCode=10392`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, PAGE)
    await seeText(page, '暂无反馈记录')

    const box = visible(page.getByRole('textbox', { name: '反馈内容' })).first()
    await box.click()
    await box.pressSequentially(WORDS)
    const chooser = page.waitForEvent('filechooser')
    await visible(page.getByRole('button', { name: '添加图片' })).first().click()
    const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-file/files-upload')
    await (await chooser).setFiles({ name: 'queue.png', mimeType: 'image/png', buffer: PNG })
    assert.equal(((await (await uploaded).json()) as { code: number }).code, 200)
    await visible(page.getByRole('button', { name: '删除第1张图片' })).first().waitFor()
    const blocking = (await audit(page, 'complaint form')).filter((v) => v.impact === 'critical' || v.impact === 'serious')
    assert.deepEqual(blocking, [], describeViolations(blocking))
    await shot(page, 'comment-1-form')
    await tapButton(page, '提交')
    await seeText(page, '提交成功')
    await seeText(page, '待回复')
    await seeText(page, WORDS)

    const desk = await newDesk()
    await desk.goto('/workbench/')
    await desk.getByPlaceholder('请输入账号（工号）').fill(DEMO_DOCTOR.login)
    await desk.getByPlaceholder('请输入密码').fill(DEMO_DOCTOR.password)
    await desk.getByRole('button', { name: '登录' }).click()
    await desk.getByRole('button', { name: '投诉建议' }).click()
    const item = desk.locator('#feedback-list li', { hasText: WORDS })
    await item.waitFor()
    assert.equal(await item.getByRole('link', { name: /图片1/ }).count(), 1, 'the picture is there for staff')
    await item.getByRole('textbox', { name: '回复内容' }).fill(ANSWER)
    await item.getByRole('button', { name: '回复' }).click()
    await desk.locator('#feedback-list li', { hasText: `已回复：${ANSWER}` }).waitFor()

    await page.goto('/h5/pages/message/index')
    await waitForPath(page, '/h5/pages/message/index')
    await seeText(page, '您的投诉建议已有回复')
    await visible(page.getByText('您的投诉建议已有回复')).first().click()
    await waitForPath(page, PAGE)
    await seeText(page, ANSWER)
    await seeText(page, '已回复')
    await shot(page, 'comment-2-answered')
  })
})
