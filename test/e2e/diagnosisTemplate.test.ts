/**
 * Browser journey of a doctor's own diagnosis templates (诊断模板, issue 19): at the workbench the treating doctor
 * keeps the prescription being written as a template of their own, fills the next patient's prescription from it,
 * renames it and deletes it. Two patients on phones and the doctor's desk, on the real server with the seeded doctor
 * and formulary.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { deskOpen, deskSignIn, newDesk, orderConsultation, patientAtDoctor, seeText, setup, shot, tapButton, teardown, waitForPath } from './support'
import { assertAccessible } from './axe'

const HOSPITAL = '10392'
/** The demo hospital's first doctor (README, demo data). */
const DOCTOR_LOGIN = '10392001'
const TEMPLATE = '咽炎发热（我的）'
const RENAMED = '急性咽炎发热'

/** The patient orders a consultation and enters the room; the doctor opens and accepts it. */
async function consultationStarted(desk: Page, doctorId: number, person: { name: string; idCard: string }, masked: string, illness: string) {
  const { page } = await patientAtDoctor(HOSPITAL, doctorId, person)
  await orderConsultation(page, illness)
  await tapButton(page, '进入诊室')
  await waitForPath(page, '/h5/internet/tim/index')
  await deskOpen(desk, '待接诊', masked)
  await desk.getByRole('button', { name: '接诊', exact: true }).click()
  await seeText(page, '医生已接诊')
}

/** 提交审方 of the open draft: it shows 待审核 in the consultation's prescriptions; answers the prescription. */
async function submitForReview(desk: Page) {
  const written = desk.waitForResponse((r) => r.request().method() === 'POST' && /\/dld-doctor\/api\/inquiries\/\d+\/prescriptions$/.test(new URL(r.url()).pathname))
  await desk.getByRole('button', { name: '提交审方' }).click()
  const body = (await (await written).json()) as { code: number; msg: string; data: { presNo: string; diagnoses: { name: string }[]; lines: { drugName: string; totalCount: number; days: number }[] } }
  assert.equal(body.code, 200, body.msg)
  await desk.locator('#pres-list li', { hasText: body.data.presNo }).filter({ hasText: '待审核' }).waitFor()
  return body.data
}

/** The labels of the chooser's options in one group (我的模板 or 医院模板). */
const groupOptions = (desk: Page, group: string) => desk.locator(`#pres-template optgroup[label="${group}"] option`).allInnerTexts()

describe('a doctor’s own diagnosis templates at the workbench', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('the doctor saves a prescription as a template, fills the next patient’s from it, renames and deletes it', async () => {
    const desk = await newDesk()
    const { doctorId } = await deskSignIn(desk, DOCTOR_LOGIN)

    // the first patient: the doctor writes the prescription by hand
    await consultationStarted(desk, doctorId!, { name: '孙丽华', idCard: '110105198805122718' }, '孙*华', '咽痛发热两天')
    await desk.getByRole('button', { name: '开处方' }).click()
    // before anything is written there is nothing to keep
    await desk.getByRole('button', { name: '保存为模板' }).click()
    await seeText(desk, '请选择诊断')
    assert.equal(await desk.getByRole('group', { name: '保存为模板' }).isVisible(), false)
    // the chooser's templates come after the form opens: the hospital's first, then nothing of the doctor's own
    await desk.locator('#pres-template optgroup[label="医院模板"] option', { hasText: '社区获得性肺炎（轻症）（全院）' }).waitFor({ state: 'attached' })
    assert.deepEqual(await groupOptions(desk, '我的模板'), [])

    await desk.getByLabel('处方类型').selectOption({ label: '西药' })
    await desk.locator('#pres-disease-search').fill('肺炎')
    await desk.locator('#pres-disease-results button', { hasText: '肺炎' }).first().click()
    await desk.locator('#pres-diagnoses li', { hasText: '肺炎' }).waitFor()
    await desk.locator('#pres-drug-search').fill('阿莫西林')
    await desk.getByRole('button', { name: '添加阿莫西林胶囊' }).click()
    await desk.getByLabel('阿莫西林胶囊天数').fill('5')
    await desk.getByLabel('阿莫西林胶囊数量（盒）').fill('2')

    // 保存为模板: a name is asked for; Enter saves it and leaves the prescription unsubmitted
    await desk.getByRole('button', { name: '保存为模板' }).click()
    const saveBox = desk.getByRole('group', { name: '保存为模板' })
    await saveBox.waitFor()
    await desk.getByLabel('模板名称').fill(TEMPLATE)
    await shot(desk, 'template-1-save')
    await assertAccessible(desk, '保存为模板')
    await desk.getByLabel('模板名称').press('Enter')
    await seeText(desk, `已保存为模板“${TEMPLATE}”`)
    await saveBox.waitFor({ state: 'hidden' })
    assert.deepEqual(await groupOptions(desk, '我的模板'), [TEMPLATE])
    assert.equal(await desk.getByLabel('诊断模板').locator('option:checked').innerText(), TEMPLATE)
    assert.equal(await desk.locator('#pres-list li').filter({ hasText: '待审核' }).count(), 0)
    const first = await submitForReview(desk)
    assert.deepEqual(first.lines.map((l) => [l.drugName, l.days, l.totalCount]), [['阿莫西林胶囊', 5, 2]])

    // another patient: the template fills the category, the diagnosis and the line as they were kept
    await consultationStarted(desk, doctorId!, { name: '钱志远', idCard: '310104197501014511' }, '钱*远', '发热咽痛一天')
    await desk.getByRole('button', { name: '开处方' }).click()
    await desk.getByLabel('处方类型').selectOption({ label: '中成药' })
    await desk.getByLabel('诊断模板').selectOption({ label: TEMPLATE })
    await desk.locator('#pres-diagnoses li', { hasText: '肺炎' }).waitFor()
    assert.equal(await desk.getByLabel('处方类型').locator('option:checked').innerText(), '西药')
    assert.equal(await desk.getByLabel('阿莫西林胶囊天数').inputValue(), '5')
    assert.equal(await desk.getByLabel('阿莫西林胶囊数量（盒）').inputValue(), '2')
    const second = await submitForReview(desk)
    assert.deepEqual(second.diagnoses.map((x) => x.name), ['肺炎'])
    assert.deepEqual(second.lines.map((l) => [l.drugName, l.days, l.totalCount]), [['阿莫西林胶囊', 5, 2]])

    // 管理模板: only the doctor's own are listed; rename, then delete after confirming
    await desk.getByRole('button', { name: '开处方' }).click()
    await desk.getByRole('button', { name: '管理模板' }).click()
    const manage = desk.getByRole('group', { name: '管理模板' })
    await manage.waitFor()
    assert.equal(await desk.getByRole('button', { name: '管理模板' }).getAttribute('aria-expanded'), 'true')
    assert.equal(await manage.getByText('社区获得性肺炎（轻症）').count(), 0)
    await manage.getByRole('button', { name: `重命名模板${TEMPLATE}` }).click()
    await manage.getByLabel(`模板${TEMPLATE}的新名称`).fill(RENAMED)
    await manage.getByRole('button', { name: '保存', exact: true }).click()
    await seeText(desk, `模板已重命名为“${RENAMED}”`)
    await manage.getByRole('button', { name: `删除模板${RENAMED}` }).waitFor()
    assert.deepEqual(await groupOptions(desk, '我的模板'), [RENAMED])
    await shot(desk, 'template-2-manage')
    await assertAccessible(desk, '管理模板')

    // dismissing the confirmation keeps it; accepting deletes it
    desk.once('dialog', (d) => void d.dismiss())
    await manage.getByRole('button', { name: `删除模板${RENAMED}` }).click()
    assert.deepEqual(await groupOptions(desk, '我的模板'), [RENAMED])
    desk.once('dialog', (d) => {
      assert.match(d.message(), new RegExp(`删除模板“${RENAMED}”`))
      void d.accept()
    })
    await manage.getByRole('button', { name: `删除模板${RENAMED}` }).click()
    await seeText(desk, `模板“${RENAMED}”已删除`)
    await manage.getByText('暂无我的模板').waitFor()
    assert.deepEqual(await groupOptions(desk, '我的模板'), [])
    assert.ok((await groupOptions(desk, '医院模板')).includes('社区获得性肺炎（轻症）（全院）'))
    await shot(desk, 'template-3-deleted')
  })
})
