/**
 * Browser journeys through hospitals and what a patient has at one (spec §2 /pages/hospital/index, /pages/about/rich,
 * /pages/sys/palm/index, /pages/healthPatient/index, /pages/editUser/index; §7 brands, menu config, hospital config,
 * the patient's card and record, modifyiIdentify, the insurance test person): the real server with its seeded brand,
 * settings and sandboxes, the built H5 app, Debian Chromium. Each page visited is checked by axe-core as well.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, bindMobile, bindPatient, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { audit, describeViolations } from './axe'

const FIRST = '10392'
const TCM = '10388'
const LIST = '/h5/pages/hospital/index'
const CARD = '/h5/pages/healthPatient/index'
const NOTICE = '/h5/palm/register/index'

/** Fictional people with valid identity numbers (checksums right). */
const SELF = { name: '李建国', idCard: '110105198805122718' }

/** No critical or serious WCAG 2.2 A/AA violation on the page on show. */
async function accessible(page: Page, name: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined)
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `${name}:\n${describeViolations(blocking)}`)
}

/** Signs a new phone in at the registration notice of a hospital (the hospital parameter chooses it). */
async function signIn(page: Page, hospitalCode = FIRST, mobile = uniqueMobile()) {
  await page.goto(`${NOTICE}?hospitalCode=${hospitalCode}`)
  await bindMobile(page, mobile)
  await waitForPath(page, NOTICE)
}

const field = (page: Page, placeholder: string) => visible(page.locator(`input[placeholder="${placeholder}"]`)).first()

async function type(page: Page, placeholder: string, text: string) {
  const input = field(page, placeholder)
  await input.click()
  await input.fill('')
  await input.pressSequentially(text)
}

/** The most recent toast's text. */
const toast = (page: Page, text: string) => seeText(page, text)

describe('hospitals, brands and what a patient has at one, in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('1. browse the hospitals by brand, go to a featured department’s hospital, its menu, and the brand in 关于我们', async () => {
    const { page, requests } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${FIRST}`)
    await waitForPath(page, LIST)
    await seeText(page, '示范互联网医院')
    const tabs = visible(page.getByRole('tab'))
    assert.deepEqual(await tabs.allInnerTexts(), ['全部医院', '示范医疗集团'])
    await accessible(page, 'hospital list')

    await visible(page.getByRole('tab', { name: '示范医疗集团' })).first().click()
    await seeText(page, '3家成员医院')
    await seeText(page, '特色科室')
    const current = visible(page.locator('.hospitals__item', { hasText: '示范市第一人民医院' })).first()
    assert.match(await current.innerText(), /当前医院/)
    await shot(page, 'hospital-1-brand')
    await accessible(page, 'hospital list, a brand')

    // a featured department is seen at its hospital: the app restarts for 示范市中医院, a palm-only hospital
    await visible(page.locator('.hospitals__dept').filter({ hasText: '心血管内科' }).filter({ hasText: '示范市中医院' })).first().click()
    await waitForPath(page, '/h5/pages/sys/palm/index', undefined, WAIT_MS)
    await seeText(page, '示范市中医院')
    // its menu is its menu config: the palm services, none of the internet hospital's
    await seeText(page, '体检预约')
    assert.equal(await visible(page.getByText('在线问诊', { exact: true })).count(), 0)
    const menuCalls = () => requests.filter((r) => /\/dld-hospital\/common\/menuConfig\/\d+$/.test(new URL(r.url()).pathname)).length
    assert.ok(menuCalls() >= 1, 'the palm home asked for the menu config')
    await shot(page, 'hospital-1-palm-home')

    // 关于我们 of this hospital names its brand, and leads to the brand's hospitals
    await page.goto('/h5/pages/about/rich?key=about')
    await seeText(page, '所属医联体')
    await seeText(page, '示范医疗集团')
    await accessible(page, 'about, with the brand')
    await visible(page.getByRole('link', { name: /^查看示范医疗集团的医院和特色科室/ })).first().click()
    await waitForPath(page, LIST, (q) => /^\d+$/.test(q.get('brandId') ?? ''))
    await seeText(page, '3家成员医院')
    assert.equal(await visible(page.getByRole('tab', { name: '示范医疗集团' })).first().getAttribute('aria-selected'), 'true')
  })

  test('2. the electronic card: a patient without a card here asks for it, then shows its number, QR code and record', async () => {
    const { page } = await newPhone()
    await signIn(page)
    // bound before choosing a hospital: no card at this one yet
    await bindPatient(page, '', SELF, '13811110001')
    await page.goto(CARD)
    await waitForPath(page, CARD)
    await seeText(page, '尚未在本院建档，可点“就诊卡”申领')
    await accessible(page, 'electronic health cards')

    await visible(page.locator('.health-card', { hasText: '李*国' })).first().locator('.patient-card__action', { hasText: '就诊卡' }).click()
    await waitForPath(page, CARD, (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, '尚未在示范市第一人民医院建档')
    await accessible(page, 'electronic card, not filed')
    await tapButton(page, '申领电子就诊卡')
    await toast(page, '申领成功')

    await seeText(page, '建档信息')
    const number = await visible(page.locator('.card-detail__no')).first().innerText()
    assert.match(number, new RegExp(`^${FIRST}\\d{8}$`))
    assert.equal(await visible(page.getByAltText(`就诊卡号${number}的二维码`)).count(), 1)
    assert.match(await visible(page.locator('.card-detail__row', { hasText: '建档医院' })).first().innerText(), /示范市第一人民医院/)
    assert.match(await visible(page.locator('.card-detail__row', { hasText: '建档时间' })).first().innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    assert.ok(!(await page.locator('body').innerText()).includes(SELF.idCard), 'the identity number never shows whole')
    await shot(page, 'hospital-2-card')
    await accessible(page, 'electronic card')

    // issued once: the same card when read again, and on the list of cards
    await page.reload()
    await seeText(page, '建档信息')
    assert.equal(await visible(page.locator('.card-detail__no')).first().innerText(), number)
    await page.goto(CARD)
    await visible(page.getByAltText(`就诊卡号${number}的二维码`)).first().waitFor()
  })

  test('3. 实名认证: the number is checked, then only its masked form is shown', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await page.goto('/h5/pages/editUser/index')
    await seeText(page, '实名认证')
    await accessible(page, 'edit user, 实名认证')
    await type(page, '请输入本人真实姓名', SELF.name)
    await type(page, '请输入本人身份证号', `${SELF.idCard.slice(0, 17)}1`)
    await tapButton(page, '提交实名认证')
    await toast(page, '身份证号码不正确')
    await type(page, '请输入本人身份证号', SELF.idCard)
    await tapButton(page, '提交实名认证')
    await toast(page, '实名认证成功')
    await seeText(page, '110105********2718')
    await seeText(page, '李*国')
    await seeText(page, '已认证')
    assert.ok(!(await page.locator('body').innerText()).includes(SELF.idCard))
    await shot(page, 'hospital-3-identity')
  })

  test('4. staff change a setting in 医院设置 and patients read it on the notice; a patient has no entry', async () => {
    const staff = await newPhone()
    await signIn(staff.page, FIRST, '13800000000') // the seeded administrator
    await seeText(staff.page, '预约后请在15分钟内完成支付，超时号源将自动释放')
    // the hospital's public setting: 10392 waives the 普通号 fee for older patients
    await seeText(staff.page, '敬老服务：本院老年人预约普通号免挂号费，确认挂号时按就诊人年龄自动减免')
    await staff.page.goto('/h5/pages/sys/user/index')
    await visible(staff.page.getByRole('link', { name: '医院设置' })).first().click()
    await waitForPath(staff.page, '/h5/pages/hospitalConfig/index')
    await seeText(staff.page, '挂号待支付保留时长')
    await accessible(staff.page, 'hospital settings')
    await shot(staff.page, 'hospital-4-settings')

    const holdCard = visible(staff.page.locator('.hospital-config__item', { hasText: '挂号待支付保留时长' })).first()
    assert.equal(await holdCard.locator('.hospital-config__value').innerText(), '15')
    await visible(staff.page.getByRole('button', { name: '修改挂号待支付保留时长' })).first().click()
    await type(staff.page, '请输入设置值', '20')
    await accessible(staff.page, 'hospital settings, editing')
    await tapButton(staff.page, '保存')
    await toast(staff.page, '已保存')
    await visible(staff.page.locator('.hospital-config__item', { hasText: '挂号待支付保留时长' }).locator('.hospital-config__value', { hasText: /^20$/ })).first().waitFor()

    const patient = await newPhone()
    await signIn(patient.page)
    await seeText(patient.page, '预约后请在20分钟内完成支付，超时号源将自动释放')
    await patient.page.goto('/h5/pages/sys/user/index')
    await seeText(patient.page, '账号与隐私')
    assert.equal(await visible(patient.page.getByRole('link', { name: '医院设置' })).count(), 0)
    await patient.page.goto('/h5/pages/hospitalConfig/index')
    await seeText(patient.page, '医院设置仅供本院工作人员使用')
  })

  test('5. insurance in the sandbox: the test person is named, and can be added as a patient from the form it fills', async () => {
    const { page } = await newPhone()
    await signIn(page, TCM)
    await bindPatient(page, TCM, SELF, '13811110003')
    await page.reload()
    await visible(page.getByText('我已阅读并同意')).first().click()
    await tapButton(page, '开始挂号')
    await waitForPath(page, '/h5/palm/register/deptList/index')
    await visible(page.getByText('心血管内科', { exact: true })).first().click()
    await visible(page.getByText('按医生', { exact: true })).first().click()
    await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click()
    await waitForPath(page, '/h5/palm/register/rowSchedule/index')
    await visible(page.locator('.schedule-grid__cell--open')).last().click()
    await waitForPath(page, '/h5/palm/register/confirm/index')
    await visible(page.locator('.confirm__range', { hasNotText: '已约满' })).first().click()
    await visible(page.locator('.confirm__chip', { hasText: /^医保$/ })).first().click()
    await tapButton(page, '确认挂号')

    await waitForPath(page, '/h5/palm/chsPayment/index')
    await seeText(page, '医保测试环境')
    await seeText(page, /^测试参保人：孙\*国 320102\*{8}\d{3}[\dX]（职工基本医疗保险）$/)
    await seeText(page, '测试环境只能以测试参保人授权，且须是就诊人本人。请添加测试参保人为就诊人，再为其预约。')
    await shot(page, 'hospital-5-test-person')
    await accessible(page, 'insurance payment, sandbox')

    await visible(page.getByText('添加测试参保人为就诊人 ›')).first().click()
    // 10388 adds patients on its own page (spec §2 customer-specific pages)
    await waitForPath(page, '/h5/custom/10388/addPatient/index')
    assert.equal(await field(page, '请输入就诊人姓名').inputValue(), '孙建国')
    assert.match(await field(page, '请输入身份证号').inputValue(), /^320102\d{11}[\dX]$/)
    await seeText(page, '男')
    await visible(page.locator('.choice__item', { hasText: /^其他$/ })).first().click()
    await type(page, '请输入手机号', '13811110004')
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dld-auth/token/smsBindCode')
    await visible(page.getByText('获取验证码', { exact: true })).first().click()
    const body = (await (await answer).json()) as { data: { devCode?: string } | null }
    await type(page, '请输入验证码', body.data!.devCode!)
    await tapButton(page, '确认添加')
    await toast(page, '添加成功')
    await waitForPath(page, '/h5/palm/chsPayment/index')
  })
})
