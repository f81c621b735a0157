/**
 * Browser journey through a satisfaction survey (spec §2 /pages/survey/list, /index, /result): a patient answers the
 * 10392 outpatient survey (every kind of question), sees the answer as given, and answering again says 已参与.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { bindMobile, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/pages/survey/list'
const FORM = '/h5/pages/survey/index'
const RESULT = '/h5/pages/survey/result'
const TITLE = '门诊就诊满意度调查'

describe('satisfaction survey in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a patient answers the outpatient survey, sees the answer, and cannot answer again', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await seeText(page, TITLE)
    await visible(page.getByText(TITLE, { exact: true })).first().click()
    await waitForPath(page, FORM)
    await seeText(page, '第1题 您本次就诊的方式是？')

    // 提交 with nothing answered names the required questions in words
    await tapButton(page, '提交')
    await seeText(page, /^请回答必答题：第1题「您本次就诊的方式是？」、第2题/)

    const form = page.locator(`.survey`).filter({ visible: true })
    await form.getByRole('radio', { name: '线上预约挂号' }).click()
    await form.getByRole('radio', { name: '15至30分钟' }).click()
    for (const [question, stars] of [['第2题', '5星 非常满意'], ['第3题', '4星 满意'], ['第6题', '4星 满意']] as const) {
      await form.locator('.survey-question', { hasText: question }).getByRole('radio', { name: stars }).click()
    }
    const q2 = form.locator('.survey-question', { hasText: '第2题' }).getByRole('radio', { name: '5星 非常满意' })
    assert.equal(await q2.getAttribute('aria-checked'), 'true')
    await form.getByRole('checkbox', { name: '候诊时间' }).click()
    await form.getByRole('checkbox', { name: '停车便利' }).click()
    await form.locator('textarea').fill('医生很耐心，希望增加停车位')
    await seeText(page, '13/200')
    await shot(page, 'survey-form')
    await tapButton(page, '提交')

    await waitForPath(page, RESULT)
    await seeText(page, '感谢您的参与！')
    await seeText(page, '线上预约挂号')
    await seeText(page, '候诊时间、停车便利')
    await seeText(page, '医生很耐心，希望增加停车位')
    await visible(page.getByRole('img', { name: '5星 非常满意' })).first().waitFor()
    await shot(page, 'survey-result')

    const surveyId = new URL(page.url()).searchParams.get('id')
    assert.ok(surveyId)

    // the list marks it, and opening the questions again says 已参与: nothing to submit a second time
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await seeText(page, '已参与')
    await page.goto(`${FORM}?id=${surveyId}`)
    await seeText(page, '您已参与过该调查（已参与），感谢您的反馈')
    assert.equal(await visible(page.locator('.taro-button-core', { hasText: '提交' })).count(), 0)
  })
})
