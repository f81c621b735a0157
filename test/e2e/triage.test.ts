/**
 * Browser journey through the doctor AI agent (智能导诊, spec §2 /palm/ds/index): the real server with its built-in
 * triage rules and the seeded demo hospital, the built H5 app, Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { bindMobile, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import type { TriageAnswer } from '../../types/api/triage'

const HOSPITAL = '10392'
const PAGE = '/h5/palm/ds/index'
const DISCLAIMER = 'AI导诊仅供参考，不能替代医生的诊断和治疗'

/** Types into the message box and taps 发送; answers the server's reply to that message. */
async function say(page: Page, text: string): Promise<TriageAnswer> {
  const box = visible(page.getByPlaceholder('请描述您的症状，如：头痛两天，伴有发热')).first()
  await box.click()
  await box.pressSequentially(text)
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dld-palm/api/ai/triage')
  await tapButton(page, '发送')
  const body = (await (await answer).json()) as { code: number; msg: string; data: TriageAnswer }
  assert.equal(body.code, 200, `${body.code} ${body.msg}`)
  return body.data
}

describe('智能导诊 in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a patient describes a complaint, is sent to 心血管内科 with its doctors, books from there, is refused a medicine, and is sent to 120 for a red flag', async () => {
    const { page } = await newPhone()
    await page.goto(`${PAGE}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, PAGE)
    await seeText(page, DISCLAIMER)
    await seeText(page, /您好，我是智能导诊助手/)
    await shot(page, 'triage-1-greeting')

    const answer = await say(page, '最近总是胸闷心慌')
    await see(page, '.triage__bubble--patient', '最近总是胸闷心慌')
    const card = visible(page.locator('.triage__dept', { hasText: '心血管内科' })).first()
    await card.waitFor()
    const dept = answer.departments.find((d) => d.deptName === '心血管内科')
    assert.ok(dept, 'the server recommended 心血管内科')
    assert.equal(answer.emergency, false)

    // the doctors on the card are that department's own, as the registration catalogue lists them
    const shown = (await card.locator('.triage__doctor-name').allInnerTexts()).map((s) => s.trim())
    assert.ok(shown.length > 0, 'a doctor is shown')
    const catalogue = await page.evaluate(
      async ({ hospitalCode, deptId }) => (await (await fetch(`/dld-palm/api/doctor/list/search?hospitalCode=${hospitalCode}&deptId=${deptId}`)).json()).data,
      { hospitalCode: HOSPITAL, deptId: dept.id },
    )
    const names = (catalogue as { doctorName: string }[]).map((d) => d.doctorName)
    for (const name of shown) assert.ok(names.includes(name), `${name} works in 心血管内科`)
    await see(page, '.triage__disclaimer', DISCLAIMER)
    await shot(page, 'triage-2-answer')

    // the department opens its schedule, to book
    await card.locator('.triage__dept-main').click()
    await waitForPath(page, '/h5/palm/register/deptSchedule/index', (q) => q.get('deptId') === String(dept.id))
    await visible(page.locator('.schedule-row')).first().waitFor()
    await seeText(page, '心血管内科')
    await shot(page, 'triage-3-schedule')

    // back in the conversation, a question about medicines is refused
    await page.goBack()
    await waitForPath(page, PAGE)
    await see(page, '.triage__bubble--patient', '最近总是胸闷心慌')
    const refusal = await say(page, '吃什么药')
    assert.match(refusal.reply, /药物必须由医生面诊后开具处方/)
    await see(page, '.triage__bubble', /药物必须由医生面诊后开具处方/)
    const replies = await visible(page.locator('.triage__reply')).allInnerTexts()
    for (const reply of replies) assert.doesNotMatch(reply, /\d+\s*(mg|毫克|片|粒|ml)/i)
    await shot(page, 'triage-4-refusal')

    // a red flag: the answer in red, with a way to call 120 at once
    const urgent = await say(page, '胸痛，满头大汗')
    assert.equal(urgent.emergency, true)
    const alert = visible(page.locator('.triage__bubble--emergency')).first()
    await alert.waitFor()
    assert.match(await alert.innerText(), /120/)
    await visible(alert.locator('.taro-button-core', { hasText: '拨打120' })).first().waitFor()
    await shot(page, 'triage-5-emergency')
  })
})
