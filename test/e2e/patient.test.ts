/**
 * Browser journeys through the people behind an account (spec §2 /pages/patient/index, /pages/addPatient/index,
 * /palm/hospitalization/escort; §5 the incomplete-information modal; §9 masking and the phone code): the real
 * server with its sandbox SMS and electronic-health-card providers, the built H5 app, Debian Chromium.
 */
import { after, before, describe, test } from 'node:test'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { ROOT, WAIT_MS, bindMobile, bindPatient, confirmModal, masked, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'
import { assertAccessible } from './axe'

const LIST = '/h5/pages/patient/index'
const ADD = '/h5/pages/addPatient/index'
const ESCORTS = '/h5/palm/hospitalization/escort/index'

/** Fictional people with valid identity numbers (checksums right). */
const SELF = { name: '李建国', idCard: '110105198805122718', birthday: '1988-05-12' }
const GUARDIAN = { name: '陈美玲', idCard: '440305199208233622' }
const ESCORT = { name: '周文博', idCard: '310104197501014511', mobile: '13700001111' }

const field = (page: Page, placeholder: string) =>
  visible(page.locator(`input[placeholder="${placeholder}"], textarea[placeholder="${placeholder}"]`)).first()

async function type(page: Page, placeholder: string, text: string) {
  const input = field(page, placeholder)
  await input.click()
  await input.fill('')
  await input.pressSequentially(text)
}

/** Types the mobile, asks for the code (the test server answers it as devCode), types the code. */
async function verifyMobile(page: Page, mobile: string) {
  await type(page, '请输入手机号', mobile)
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dld-auth/token/smsBindCode')
  await visible(page.getByText('获取验证码', { exact: true })).first().click()
  const body = (await (await answer).json()) as { code: number; data: { devCode?: string } | null }
  assert.equal(body.code, 200)
  // spec §9: the countdown text replaces the button while it runs
  await seeText(page, /^\d{1,2}秒后重新获取$/)
  await type(page, '请输入验证码', body.data!.devCode!)
}

/** The patient cards on the list, top to bottom, as one line of text each. */
async function cards(page: Page): Promise<string[]> {
  return (await visible(page.locator('.patient-card')).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
}

const card = (page: Page, text: string) => visible(page.locator('.patient-card', { hasText: text })).first()

/** Whether the card carries the 默认 tag (its 设为默认 action is not the tag). */
const isDefault = async (page: Page, text: string) => (await card(page, text).locator('.patient-card__tag--default').count()) === 1

/** Taps one of a card's actions (设为默认, 陪护人, 编辑, 解除绑定). */
async function act(page: Page, cardText: string, action: string) {
  await card(page, cardText).locator('.patient-card__action', { hasText: action }).click()
}

describe('patients in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('1. bind oneself by identity card, add a newborn and an escort, set a default, unbind', async () => {
    const { page } = await newPhone()
    await page.goto(LIST)
    await waitForPath(page, '/h5/pages/login/index')
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await seeText(page, '还没有就诊人，添加后即可挂号、缴费、查报告')
    await seeText(page, '还可添加5位就诊人')

    // by identity card: sex, birth date and age come from the number
    await tapButton(page, '添加就诊人')
    await waitForPath(page, ADD)
    await seeText(page, '根据身份证号自动识别')
    await type(page, '请输入就诊人姓名', SELF.name)
    await type(page, '请输入身份证号', SELF.idCard.slice(0, 17) + '1') // wrong check digit
    await seeText(page, '身份证号有误，请核对')
    assert.equal(await visible(page.locator('.form-field__value', { hasText: SELF.birthday })).count(), 0, 'a mistyped number fills nothing')
    await type(page, '请输入身份证号', SELF.idCard)
    await seeText(page, '男')
    await seeText(page, SELF.birthday)
    await seeText(page, /^\d{2}岁$/)
    await verifyMobile(page, '13811112222')
    await shot(page, 'patient-1-id-card')
    await tapButton(page, '确认添加')
    await waitForPath(page, LIST)
    await card(page, '李*国').waitFor()
    let list = await cards(page)
    assert.equal(list.length, 1)
    assert.match(list[0]!, /李\*国 男 \d+岁 本人 默认/)
    assert.ok(list[0]!.includes('证件号码：110105********2718'), list[0])
    assert.ok(list[0]!.includes(`手机号码：${masked('13811112222')}`), list[0])
    assert.ok(!list.join().includes(SELF.idCard), 'the whole identity number is never listed')

    // a newborn, under the guardian's identity card
    await tapButton(page, '添加就诊人')
    await waitForPath(page, ADD)
    await visible(page.getByText('无证儿童', { exact: true })).first().click()
    await type(page, '请输入儿童姓名', '李小宝')
    await visible(page.locator('[role=radiogroup][aria-label="性别"] [role=radio]', { hasText: '女' })).first().click()
    await visible(page.getByText('请选择出生日期', { exact: true })).first().click()
    await visible(page.locator('.nut-picker-confirm-btn', { hasText: '确认' })).first().click()
    await seeText(page, new Date().toLocaleDateString('sv'), WAIT_MS) // the picker's default: today, as YYYY-MM-DD
    await type(page, '请输入监护人姓名', GUARDIAN.name)
    await type(page, '请输入监护人身份证号', GUARDIAN.idCard)
    await verifyMobile(page, '13811113333')
    await shot(page, 'patient-1-newborn')
    await tapButton(page, '确认添加')
    await waitForPath(page, LIST)
    await card(page, '李*宝').waitFor()
    list = await cards(page)
    assert.equal(list.length, 2)
    const baby = list.find((c) => c.includes('李*宝'))!
    assert.match(baby, /李\*宝 女 0岁 子女/)
    assert.ok(baby.includes('无身份证（儿童）'), baby)
    assert.ok(!(await isDefault(page, '李*宝')), 'the first patient stays the default')
    assert.ok(await isDefault(page, '李*国'))
    await seeText(page, '还可添加3位就诊人')

    // set the newborn as default: exactly one default
    await act(page, '李*宝', '设为默认')
    await seeText(page, '已设为默认就诊人')
    await page.waitForFunction(() => document.querySelectorAll('.patient-card__tag--default').length > 0)
    assert.ok(await isDefault(page, '李*宝'))
    assert.ok(!(await isDefault(page, '李*国')), 'exactly one default')

    // an escort for the adult patient
    await act(page, '李*国', '陪护人')
    await waitForPath(page, ESCORTS)
    await tapButton(page, '添加陪护人')
    await type(page, '请输入陪护人姓名', ESCORT.name)
    await type(page, '请输入陪护人身份证号', ESCORT.idCard)
    await type(page, '请输入陪护人手机号', ESCORT.mobile)
    await visible(page.locator('[role=radio]', { hasText: '配偶' })).first().click()
    await tapButton(page, '确认添加')
    await waitForPath(page, ESCORTS)
    const escort = visible(page.locator('.escort-card', { hasText: '周*博' })).first()
    await escort.waitFor()
    const escortText = (await escort.innerText()).replace(/\s+/g, ' ')
    assert.ok(escortText.includes(masked(ESCORT.mobile)), escortText)
    assert.ok(!escortText.includes(ESCORT.idCard), 'the escort’s whole identity number is never listed')
    await shot(page, 'patient-1-escort')
    await page.goBack()
    await waitForPath(page, LIST)

    // unbinding the default moves the default to the one that is left
    await act(page, '李*宝', '解除绑定')
    await seeText(page, /确定解除绑定就诊人李\*宝吗/)
    await confirmModal(page)
    await seeText(page, '已解除绑定')
    await page.waitForFunction(() => document.querySelectorAll('.patient-card').length === 1 || [...document.querySelectorAll('.patient-card')].filter((e) => (e as HTMLElement).offsetParent).length === 1)
    list = await cards(page)
    assert.equal(list.length, 1)
    assert.ok(await isDefault(page, '李*国'), 'the default moved to the one that is left')
    await shot(page, 'patient-1-unbound')
  })

  test('2. a patient bound from an electronic health card without a mobile must be completed first', async () => {
    const { page } = await newPhone()
    await page.goto(`${ADD}?hospitalCode=10388`) // a health card is issued for a hospital
    await waitForPath(page, '/h5/pages/login/index')
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, ADD)

    // leaves the app for the sandbox health-card authorisation and comes back with a one-time code
    await visible(page.getByText('电子健康卡', { exact: true })).first().click()
    await shot(page, 'patient-2-health-card')
    await tapButton(page, '选择电子健康卡')
    await page.waitForURL((u) => u.pathname === '/sandbox/ehealth/authorize')
    await page.getByRole('button', { name: /赵丽/ }).click()
    await waitForPath(page, LIST, undefined, WAIT_MS)
    await card(page, '赵*').waitFor()
    const text = (await card(page, '赵*').innerText()).replace(/\s+/g, ' ')
    assert.ok(text.includes('待完善'), text)
    assert.ok(text.includes('手机号码：未填写'), text)
    assert.ok(!page.url().includes('healthCode'), 'the one-time code leaves the address bar')

    // a flow that needs a complete patient stops at the modal of spec §5
    await act(page, '赵*', '陪护人')
    await seeText(page, '当前就诊人信息不完整，请先完善就诊人信息。')
    await shot(page, 'patient-2-incomplete')
    await visible(page.locator('.nut-dialog-footer-ok', { hasText: '完善就诊人信息' })).last().click()
    // 10388 completes patients on its own page (spec §2 customer-specific pages)
    await waitForPath(page, '/h5/custom/10388/addPatient/index', (q) => q.get('business') === 'edit' && /^\d+$/.test(q.get('id') ?? ''))
    const patientId = new URL(page.url()).searchParams.get('id')
    await seeText(page, '请补充就诊人的以下信息后再继续办理业务。')
    // the identity number came from the card: shown whole here, where the patient edits, and not editable
    await seeText(page, '510107199002140041')
    await seeText(page, '1990-02-14')
    await verifyMobile(page, '13822224444')
    await tapButton(page, '保存')
    await waitForPath(page, LIST)
    await seeText(page, '保存成功')
    await page.waitForFunction(() => ![...document.querySelectorAll('.patient-card')].some((e) => (e as HTMLElement).offsetParent && e.textContent?.includes('待完善')))
    const completed = (await card(page, '赵*').innerText()).replace(/\s+/g, ' ')
    assert.ok(completed.includes(`手机号码：${masked('13822224444')}`), completed)

    // now complete, the same tap goes on to the escorts
    await act(page, '赵*', '陪护人')
    await waitForPath(page, ESCORTS)
    await seeText(page, '就诊人')
    await shot(page, 'patient-2-completed')

    // her card shows the health card's own QR code, drawn by the health-card platform (jkt/photoUrl)
    const drawn = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/jkt/photoUrl')
    await page.goto(`/h5/pages/healthPatient/index?id=${patientId}`)
    assert.equal(((await (await drawn).json()) as { code: number }).code, 200)
    const qr = visible(page.getByAltText('电子健康卡二维码')).first()
    await qr.waitFor()
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/)
    await assertAccessible(page, 'health card')
    await shot(page, 'patient-2-health-card-qr')
  })

  test('3. an identity-card photo fills the form; an escort is edited and unbound', async () => {
    const { page } = await newPhone()
    await page.goto(ADD)
    await waitForPath(page, '/h5/pages/login/index')
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, ADD)

    // 拍照识别: the sandbox OCR reads the demo card the seed ships (张三丰, 11010519800512001X)
    const chooser = page.waitForEvent('filechooser')
    await visible(page.getByText('拍照识别', { exact: true })).first().click()
    await (await chooser).setFiles(join(ROOT, 'server/src/seed/cards/demo-idcard-1.png'))
    await seeText(page, '识别成功，请核对', WAIT_MS)
    assert.equal(await field(page, '请输入就诊人姓名').inputValue(), '张三丰')
    assert.equal(await field(page, '请输入身份证号').inputValue(), '11010519800512001X')
    await seeText(page, '1980-05-12')
    await verifyMobile(page, '13811115555')
    await tapButton(page, '确认添加')
    await waitForPath(page, LIST)
    const text = (await card(page, '张*丰').innerText()).replace(/\s+/g, ' ')
    assert.ok(text.includes('证件号码：110105********001X'), text)

    // an escort: add, edit the mobile, unbind
    await act(page, '张*丰', '陪护人')
    await waitForPath(page, ESCORTS)
    await seeText(page, '还没有陪护人')
    await tapButton(page, '添加陪护人')
    await type(page, '请输入陪护人姓名', ESCORT.name)
    await type(page, '请输入陪护人身份证号', ESCORT.idCard)
    await type(page, '请输入陪护人手机号', ESCORT.mobile)
    await visible(page.locator('[role=radio]', { hasText: '其他' })).first().click()
    await tapButton(page, '确认添加')
    await waitForPath(page, ESCORTS)
    const escort = () => visible(page.locator('.escort-card', { hasText: '周*博' })).first()
    await escort().locator('.escort-card__action', { hasText: '编辑' }).click()
    // where the patient edits, the values are whole; name and number are fixed once bound
    await seeText(page, ESCORT.idCard)
    assert.equal(await field(page, '请输入陪护人手机号').inputValue(), ESCORT.mobile)
    await type(page, '请输入陪护人手机号', '13700002222')
    await tapButton(page, '保存')
    await waitForPath(page, ESCORTS)
    await seeText(page, '保存成功')
    await page.waitForFunction((m) => [...document.querySelectorAll('.escort-card')].some((e) => e.textContent?.includes(m)), masked('13700002222'))
    await escort().locator('.escort-card__action', { hasText: '解除' }).click()
    await seeText(page, '确定解除陪护人周*博吗？')
    await confirmModal(page)
    await seeText(page, '已解除')
    await seeText(page, '还没有陪护人')
    await shot(page, 'patient-3-escort-unbound')
  })

  test('4. 账号与隐私: download everything held about the account, then close it; the patients are out of reach', async () => {
    const { page } = await newPhone()
    const mobile = uniqueMobile()
    const person = { name: '韩淑珍', idCard: '110105196203154422' }
    await page.goto(LIST)
    await bindMobile(page, mobile)
    await waitForPath(page, LIST)
    await bindPatient(page, '10392', person, mobile)

    await page.goto('/h5/pages/sys/user/index')
    await visible(page.getByText('账号与隐私', { exact: true })).first().click()
    await waitForPath(page, '/h5/pages/privacy/index')
    await seeText(page, /依法由医院继续保存/)

    /** Opens a step's code form, asks for the code (the test server answers it as devCode) and types it. */
    const codeFor = async (button: string) => {
      await tapButton(page, button)
      await seeText(page, masked(mobile))
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dld-user/user/accountCode')
      await visible(page.getByText('获取验证码', { exact: true })).first().click()
      const body = (await (await answer).json()) as { code: number; msg: string; data: { devCode?: string } | null }
      assert.equal(body.code, 200, body.msg)
      await seeText(page, /^\d{1,2}秒后重新获取$/)
      await type(page, '请输入验证码', body.data!.devCode!)
    }

    // the copy: a file with the patient's whole identity number, readable
    await codeFor('下载我的数据')
    const download = page.waitForEvent('download')
    await tapButton(page, '验证并下载')
    const file = await download
    assert.match(file.suggestedFilename(), /^我的数据-\d{4}-\d{2}-\d{2}\.json$/)
    const copy = JSON.parse(readFileSync((await file.path())!, 'utf8')) as { account: { mobile: string }; patients: { name: string; idCard: string }[] }
    assert.equal(copy.account.mobile, mobile)
    assert.deepEqual(
      copy.patients.map((p) => [p.name, p.idCard]),
      [[person.name, person.idCard]],
    )
    await seeText(page, '已开始下载')
    await shot(page, 'patient-4-privacy')

    // closing asks once more, then the phone is a WeChat user without an account
    await codeFor('注销账号')
    await tapButton(page, '验证并注销')
    await seeText(page, /注销后无法恢复/)
    await confirmModal(page)
    await waitForPath(page, '/h5/pages/sys/index')
    await page.goto('/h5/pages/sys/user/index')
    await seeText(page, '绑定手机号，使用全部服务 ›')

    // the patients are out of reach: the list asks for a mobile first (binding it again makes a new, empty
    // account: test/server/privacy.test.ts)
    await page.goto(LIST)
    await waitForPath(page, '/h5/pages/login/index')
    await shot(page, 'patient-4-closed')
  })
})
