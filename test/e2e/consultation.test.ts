/**
 * Browser journey of an online consultation (spec §2 /internet/inquiry, /internet/tim, /pages/sys/conversation; §4 chat
 * session): a patient on a phone and the doctor at the workbench the server serves, two browser contexts on the real
 * server with its seeded doctors, the sandbox cashier and our own chat service.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  WAIT_MS,
  deskOpen,
  deskSignIn,
  newDesk,
  orderConsultation,
  patientAtDoctor,
  restartServer,
  see,
  seeText,
  setup,
  shot,
  tapButton,
  teardown,
  visible,
  waitForPath,
} from './support'

const HOSPITAL = '10392'
/** The first seeded doctor of the demo hospital (README, demo data). */
const DOCTOR_LOGIN = '10392001'

async function deskSend(desk: Page, words: string) {
  await desk.locator('#reply-text').fill(words)
  await desk.getByRole('button', { name: '发送', exact: true }).click()
  await desk.locator('#messages li', { hasText: words }).waitFor()
}

/** Sends a text from the room's input bar. */
async function roomSend(page: Page, words: string) {
  const input = visible(page.getByPlaceholder('请输入您想咨询的问题')).first()
  await input.click()
  await input.pressSequentially(words)
  await tapButton(page, '发送')
}

const bubble = (page: Page, words: string) => visible(page.locator('.room-msg', { hasText: words }))

describe('an online consultation in the browser: the patient on a phone, the doctor at the workbench', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  let doctorId = 0

  test('order with a picture, pay, wait; the doctor accepts and replies live; unread badges; record, finish; rate and thank', async () => {
    const desk = await newDesk()
    doctorId = (await deskSignIn(desk, DOCTOR_LOGIN)).doctorId!
    const { page } = await patientAtDoctor(HOSPITAL, doctorId, { name: '孙丽华', idCard: '110105198805122718' })
    await orderConsultation(page, '咳嗽三天，夜间加重，有少量白痰', 'consultation-0-inquiry-form')
    await shot(page, 'consultation-1-paid')

    await tapButton(page, '进入诊室')
    await waitForPath(page, '/h5/internet/tim/index', (q) => q.get('toUserId') === `d_${doctorId}`)
    await seeText(page, '等待医生接诊，医生接诊后会在这里回复您')

    // the desk: the new consultation waits, with the illness and the picture
    await deskOpen(desk, '待接诊', '孙*华')
    await desk.locator('#detail-description', { hasText: '咳嗽三天' }).waitFor()
    assert.equal(await desk.locator('#detail-pictures img').count(), 1)
    await desk.getByRole('button', { name: '接诊', exact: true }).click()
    await shot(desk, 'consultation-2-desk-accepted')

    // the patient sees the acceptance without reloading: the note and the service time left
    await seeText(page, '医生已接诊')
    await see(page, '.room-banner__note', /^剩余\d+小时\d+分钟$/)
    await deskSend(desk, '您好，请问发热吗？')
    await bubble(page, '您好，请问发热吗？').first().waitFor()
    await roomSend(page, '不发热，就是咳嗽')
    await desk.locator('#messages li', { hasText: '不发热，就是咳嗽' }).waitFor()
    assert.equal(await visible(page.locator('.room-msg__resend')).count(), 0)
    await shot(page, 'consultation-3-room')

    // on the consultation tab, a new message from the doctor shows as unread, without reloading
    await page.goto('/h5/pages/sys/conversation/index')
    await see(page, '.conversation__item', '不发热，就是咳嗽')
    await deskSend(desk, '多喝水，注意休息')
    await see(page, '.conversation__badge', '1')
    await see(page, '.tab-bar__badge', '1')
    await see(page, '.conversation__last', '多喝水，注意休息')
    await shot(page, 'consultation-4-unread')
    await visible(page.locator('.conversation__item')).first().click()
    await waitForPath(page, '/h5/internet/tim/index')
    await bubble(page, '多喝水，注意休息').first().waitFor()

    // the doctor writes the record and ends the consultation
    for (const [key, text] of [
      ['chiefComplaint', '咳嗽3天'],
      ['presentIllness', '3天前受凉后咳嗽，夜间加重，少量白痰，无发热'],
      ['pastHistory', '体健'],
      ['allergyHistory', '无'],
      ['diagnosis', '急性支气管炎'],
      ['advice', '多饮水，休息；症状加重或发热请线下就诊'],
    ] as const) {
      await desk.locator(`#record-${key}`).fill(text)
    }
    const saved = desk.waitForResponse((r) => r.request().method() === 'PUT' && /\/dld-doctor\/api\/inquiries\/\d+\/record$/.test(new URL(r.url()).pathname))
    await desk.getByRole('button', { name: '保存病历' }).click()
    assert.equal(((await (await saved).json()) as { code: number }).code, 200)
    desk.once('dialog', (d) => void d.accept())
    await desk.getByRole('button', { name: '结束问诊' }).click()

    await seeText(page, '问诊已结束')
    await seeText(page, '本次问诊已结束')
    assert.equal(await visible(page.getByPlaceholder('请输入您想咨询的问题')).count(), 0, 'the input bar no longer takes messages')
    await shot(page, 'consultation-5-finished')

    // the patient rates the doctor
    await tapButton(page, '评价医生')
    await waitForPath(page, '/h5/internet/tim/evaluate/index')
    await visible(page.getByRole('radio', { name: '5星' })).first().click()
    await visible(page.getByText('解答专业', { exact: true })).first().click()
    await tapButton(page, '提交评价')
    await seeText(page, /评价成功|感谢您的评价/)
    await shot(page, 'consultation-6-rated')

    // and sends a gift, paid in the cashier
    await page.goBack()
    await waitForPath(page, '/h5/internet/tim/index')
    await seeText(page, '已评价')
    await tapButton(page, '送心意')
    await waitForPath(page, '/h5/internet/tim/gift/index')
    await visible(page.getByText('鲜花', { exact: true })).first().click()
    await tapButton(page, '送出心意')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, '/h5/internet/tim/gift/index')
    await seeText(page, /感谢您的心意/)
    await shot(page, 'consultation-7-gift')

    // under mine, 访问记录 shows who at the hospital opened the patient's consultation and wrote the record
    await page.goto('/h5/pages/accessLog/index')
    await seeText(page, /姚秀英医生查看了问诊记录/)
    await seeText(page, /姚秀英医生修改了病历/)
    await shot(page, 'consultation-8-access-log')
  })

  test('a message sent while the server restarts fails visibly, and its resend arrives once', async () => {
    const desk = await newDesk()
    await deskSignIn(desk, DOCTOR_LOGIN)
    const { page } = await patientAtDoctor(HOSPITAL, doctorId, { name: '钱志远', idCard: '310104197501014511' })
    await orderConsultation(page, '头晕两天，血压偏高')
    await tapButton(page, '进入诊室')
    await waitForPath(page, '/h5/internet/tim/index')
    await deskOpen(desk, '待接诊', '钱*远')
    await desk.getByRole('button', { name: '接诊', exact: true }).click()
    await seeText(page, '医生已接诊')

    const words = '服务器重启时发的消息'
    await restartServer(1000, async () => {
      await roomSend(page, words)
      // the service is gone: the message is not silently dropped but shown as failed, with 重发
      await visible(page.locator('.room-msg', { hasText: words }).locator('.room-msg__resend')).first().waitFor({ timeout: WAIT_MS })
    })
    await shot(page, 'consultation-8-failed-while-down')
    // back again: the room reconnects on its own, and the resend goes through
    await visible(page.getByText('正在连接消息服务…')).first().waitFor({ state: 'hidden', timeout: 45_000 })
    await visible(page.locator('.room-msg', { hasText: words }).locator('.room-msg__resend')).first().click()
    await visible(page.locator('.room-msg', { hasText: words }).locator('.room-msg__resend, .room-msg__sending')).first().waitFor({ state: 'detached' })

    // the doctor has it exactly once
    await desk.reload()
    await deskOpen(desk, '问诊中', '钱*远')
    await desk.locator('#messages li', { hasText: words }).first().waitFor()
    assert.equal(await desk.locator('#messages li', { hasText: words }).count(), 1)
    // so does the patient, after a fresh load of the room
    await page.reload()
    await bubble(page, words).first().waitFor()
    assert.equal(await bubble(page, words).count(), 1)
    assert.equal(await visible(page.locator('.room-msg__resend')).count(), 0)
  })
})
