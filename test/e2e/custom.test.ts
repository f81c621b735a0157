/**
 * Each hospital's own pages in the browser (spec §1, §2 "Customer-specific pages"): a patient of 10412 chooses the card
 * type before adding a patient, one of aixin finds a doctor on its own list, and those of 10392, 10387 and 10388 add
 * patients on their own variants of the page, on the real server with its demo hospitals.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { bindMobile, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { assertAccessible } from './axe'

const PATIENTS = '/h5/pages/patient/index'

/** A fictional person with a valid identity number, whose social-security card number it is. */
const INSURED = { name: '钱立新', idCard: '330106198207153212' }

async function type(page: Page, placeholder: string, text: string) {
  const input = visible(page.locator(`input[placeholder="${placeholder}"]`)).first()
  await input.click()
  await input.pressSequentially(text)
}

/** A new phone signed in at a hospital, on the page `path` of it. */
async function signedIn(hospitalCode: string, path: string, mobile = uniqueMobile()) {
  const { page } = await newPhone()
  await page.goto(`${path}?hospitalCode=${hospitalCode}`)
  await bindMobile(page, mobile)
  await waitForPath(page, path)
  return page
}

describe('each hospital’s own pages in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('10412: 添加就诊人 asks for the card type first; a social-security card adds the patient', async () => {
    const mobile = uniqueMobile()
    const page = await signedIn('10412', PATIENTS, mobile)
    await seeText(page, '还没有就诊人，添加后即可挂号、缴费、查报告')
    await tapButton(page, '添加就诊人')
    await waitForPath(page, '/h5/custom/10412/cardType/index')
    await seeText(page, '请选择就诊人使用的证件')
    await assertAccessible(page, '10412 card type')
    await shot(page, 'custom-1-card-type')
    await visible(page.getByRole('link', { name: /社会保障卡（医保卡）/ })).first().click()

    await waitForPath(page, '/h5/custom/10412/addPatient/index', (q) => q.get('cardType') === 'socialCard')
    await seeText(page, '社保卡号')
    assert.equal(await visible(page.getByRole('tab')).count(), 0, 'the card chosen, no other way is offered')
    await type(page, '请输入就诊人姓名', INSURED.name)
    await type(page, '请输入社保卡号', INSURED.idCard)
    await seeText(page, '1982-07-15')
    // the account's own mobile was verified when the account was bound
    await type(page, '请输入手机号', mobile)
    await seeText(page, '账号手机号已验证，无需验证码')
    await shot(page, 'custom-2-social-card')
    await tapButton(page, '确认添加')
    await seeText(page, '添加成功')
    await waitForPath(page, PATIENTS)
    await visible(page.locator('.patient-card', { hasText: '钱*新' })).first().waitFor()
  })

  test('aixin: its own doctor list, its doctors only, each opening the doctor’s page', async () => {
    const page = await signedIn('aixin', PATIENTS)
    // 在线问诊 on aixin's home opens its own list
    await page.goto('/h5/pages/sys/internet/index')
    await visible(page.getByText('在线问诊', { exact: true })).first().click()
    await waitForPath(page, '/h5/custom/aixin/doctorList/index')
    await see(page, '.doctor-card', '示范爱心医院')
    assert.equal(await visible(page.getByRole('button', { name: /^地区/ })).count(), 0, 'no 地区 to other hospitals')
    assert.equal(await visible(page.locator('.doctor-card', { hasNotText: '示范爱心医院' })).count(), 0, 'every doctor is aixin’s')
    await assertAccessible(page, 'aixin doctor list')
    await shot(page, 'custom-3-aixin-doctors')
    await visible(page.locator('.doctor-card')).first().click()
    await waitForPath(page, '/h5/internet/doctor/index')
    await seeText(page, /^示范爱心医院 · /)
  })

  for (const [code, kinds, notice] of [
    ['10392', ['身份证', '无证儿童'], /本院核酸检测、医保结算均需实名/],
    ['10387', ['无证儿童', '身份证'], /本院暂未接入电子健康卡/],
    ['10388', ['身份证', '电子健康卡'], /携带出生医学证明到门诊一楼建档窗口/],
  ] as const) {
    test(`${code}: 添加就诊人 opens the hospital's own page with its ways and its notice`, async () => {
      const page = await signedIn(code, PATIENTS)
      await tapButton(page, '添加就诊人')
      await waitForPath(page, `/h5/custom/${code}/addPatient/index`)
      await seeText(page, notice)
      assert.deepEqual(await visible(page.getByRole('tab')).allInnerTexts(), kinds)
      await assertAccessible(page, `${code} add patient`)
    })
  }
})
