/**
 * Browser journey of medicines (issue 19): a patient consults on a phone, the treating doctor prescribes at the
 * workbench, the hospital's pharmacist reviews it at the same workbench, and the patient orders the approved
 * prescription for delivery, pays in the sandbox cashier and follows the order until the pharmacy ships it. A rejected
 * prescription never reaches the patient. A chronic patient's renewable prescription, once its order is completed, is
 * bought again from the order (再次购药). Three browser contexts on the real server with its seeded doctors,
 * pharmacist, formulary and pharmacy.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { DEMO_DOCTOR, appCall, deskCall, deskOpen, deskSignIn, newDesk, orderConsultation, patientAtDoctor, seeText, setup, shot, tapButton, teardown, visible, waitForPath } from './support'
import { assertAccessible } from './axe'

const HOSPITAL = '10392'
/** The demo hospital's first doctor and its pharmacist (README, demo data). */
const DOCTOR_LOGIN = '10392001'
const PHARMACIST_LOGIN = '10392P01'
/** 深圳 is among the demo pharmacy's delivery cities. */
const ADDRESS = { name: '孙丽华', mobile: '13812345678', provinceCode: 440000, cityCode: 440300, districtCode: 440305, detail: '科技园科苑路15号', isDefault: true }

/** The patient's address book gets one address, through the call the address page makes (address.test.ts has its own journeys). */
async function addAddress(page: Page) {
  await appCall(page, 'POST', '/dld-hospital/addAddress', ADDRESS)
}

/** The patient enters the room from the paid consultation; the doctor opens and accepts it. */
async function consultationStarted(page: Page, desk: Page, patientMasked: string) {
  await tapButton(page, '进入诊室')
  await waitForPath(page, '/h5/internet/tim/index')
  await deskOpen(desk, '待接诊', patientMasked)
  await desk.getByRole('button', { name: '接诊', exact: true }).click()
  await seeText(page, '医生已接诊')
}

/**
 * The doctor writes a prescription of one western drug at the desk (可续方 for a chronic patient's) and submits it for
 * review; answers its number.
 */
async function prescribe(desk: Page, diagnosis: string, drug: { keyword: string; name: string; quantity: number }, renewable = false): Promise<string> {
  await desk.getByRole('button', { name: '开处方' }).click()
  await desk.getByLabel('处方类型').selectOption({ label: '西药' })
  await desk.locator('#pres-disease-search').fill(diagnosis)
  await desk.locator('#pres-disease-results button', { hasText: diagnosis }).first().click()
  await desk.locator('#pres-diagnoses li', { hasText: diagnosis }).waitFor()
  await desk.locator('#pres-drug-search').fill(drug.keyword)
  await desk.getByRole('button', { name: `添加${drug.name}` }).click()
  // the line starts from the drug's usual usage
  assert.notEqual(await desk.getByLabel(`${drug.name}单次用量`).inputValue(), '')
  assert.notEqual(await desk.getByLabel(`${drug.name}频次`).inputValue(), '')
  await desk.getByLabel(`${drug.name}数量（盒）`).fill(String(drug.quantity))
  await desk.locator('#pres-advice').fill('饭后服用，多饮水')
  if (renewable) await desk.locator('#pres-renewable').check()
  await shot(desk, 'pharmacy-desk-draft')
  await assertAccessible(desk, '开处方')
  return submitForReview(desk)
}

/** The doctor writes a prescription from one of the hospital's diagnosis templates; answers its number. */
async function prescribeFromTemplate(desk: Page, template: string, expected: { category: string; diagnosis: string; drug: string; unit: string; quantity: string }): Promise<string> {
  await desk.getByRole('button', { name: '开处方' }).click()
  await desk.getByLabel('诊断模板').selectOption({ label: `${template}（全院）` })
  // the template fills the category, the diagnoses and the lines
  await desk.locator('#pres-diagnoses li', { hasText: expected.diagnosis }).waitFor()
  assert.equal(await desk.getByLabel('处方类型').locator('option:checked').innerText(), expected.category)
  assert.equal(await desk.getByLabel(`${expected.drug}数量（${expected.unit}）`).inputValue(), expected.quantity)
  return submitForReview(desk)
}

/** 提交审方 of the open draft: it shows 待审核 in the consultation's prescriptions; answers its number. */
async function submitForReview(desk: Page): Promise<string> {
  const written = desk.waitForResponse((r) => r.request().method() === 'POST' && /\/dld-doctor\/api\/inquiries\/\d+\/prescriptions$/.test(new URL(r.url()).pathname))
  await desk.getByRole('button', { name: '提交审方' }).click()
  const body = (await (await written).json()) as { code: number; msg: string; data: { presNo: string } }
  assert.equal(body.code, 200, body.msg)
  await desk.locator('#pres-list li', { hasText: body.data.presNo }).filter({ hasText: '待审核' }).waitFor()
  return body.data.presNo
}

/** The pharmacist's queue card of a prescription. */
const queued = (pharmacist: Page, presNo: string) => pharmacist.locator('#review-list > li', { hasText: presNo })

/** The pharmacist approves a prescription from the review queue. */
async function approve(pharmacist: Page, presNo: string) {
  await pharmacist.locator('#review').getByRole('button', { name: '刷新' }).click()
  const card = queued(pharmacist, presNo)
  await card.getByRole('button', { name: '通过' }).click()
  await card.waitFor({ state: 'detached' })
}

/** The patient pays the order just submitted in the sandbox cashier; answers the order's id once it shows 待发货. */
async function payInCashier(page: Page): Promise<number> {
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await waitForPath(page, '/h5/pages/order/shop/detail', (q) => /^\d+$/.test(q.get('id') ?? ''))
  await seeText(page, '待发货')
  return Number(new URL(page.url()).searchParams.get('id'))
}

describe('medicines in the browser: prescribed at the workbench, reviewed by the pharmacist, ordered and shipped', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('an approved prescription reaches the room; the patient orders delivery, pays and sees it shipped', async () => {
    const desk = await newDesk()
    const { doctorId } = await deskSignIn(desk, DOCTOR_LOGIN)
    const pharmacist = await newDesk()
    await deskSignIn(pharmacist, PHARMACIST_LOGIN)
    // the pharmacist sees nothing of the consultations
    assert.equal(await pharmacist.locator('#inquiry-list').isVisible(), false)

    const { page } = await patientAtDoctor(HOSPITAL, doctorId!, { name: '孙丽华', idCard: '110105198805122718' })
    await addAddress(page)
    await orderConsultation(page, '咳嗽发热两天，咽痛')
    await consultationStarted(page, desk, '孙*华')

    const presNo = await prescribe(desk, '肺炎', { keyword: '阿莫西林', name: '阿莫西林胶囊', quantity: 2 })
    await shot(desk, 'pharmacy-1-desk-submitted')

    // the pharmacist reviews: the patient, the diagnosis, the lines, the doctor; approves
    await pharmacist.locator('#review').getByRole('button', { name: '刷新' }).click()
    const card = queued(pharmacist, presNo)
    await card.waitFor()
    for (const text of ['孙*华', '肺炎', '阿莫西林胶囊', '姚秀英']) assert.match(await card.innerText(), new RegExp(text.replace('*', '\\*')))
    await shot(pharmacist, 'pharmacy-2-review-queue')
    await assertAccessible(pharmacist, '审方')
    await card.getByRole('button', { name: '通过' }).click()
    await card.waitFor({ state: 'detached' })

    // the doctor sees it approved without reloading: the card in the chat, the status in the list
    await desk.locator('#messages li', { hasText: presNo }).filter({ hasText: '阿莫西林胶囊' }).waitFor()
    await desk.locator('#pres-list li', { hasText: presNo }).filter({ hasText: '审核通过' }).waitFor()

    // the patient: the prescription card in the room, live
    const roomCard = visible(page.locator('.room-msg', { hasText: '阿莫西林胶囊' })).first()
    await roomCard.waitFor()
    await shot(page, 'pharmacy-3-room-card')
    await roomCard.getByText('查看处方').click()
    await waitForPath(page, '/h5/internet/prescription/medicine', (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, /审核通过/)
    await seeText(page, /阿莫西林胶囊/)
    await seeText(page, /林药师/)
    await shot(page, 'pharmacy-4-prescription')

    // orders it for delivery to the address book's address: the fee tip shows
    await tapButton(page, '去购药')
    await waitForPath(page, '/h5/internet/sureOrder/index')
    await visible(page.getByText('快递配送', { exact: true })).first().click()
    await seeText(page, /配送费15元/)
    await seeText(page, /科技园科苑路15号/)
    await shot(page, 'pharmacy-5-sure-order')
    await tapButton(page, '提交订单')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, '/h5/pages/order/shop/detail', (q) => /^\d+$/.test(q.get('id') ?? ''))
    await seeText(page, '待发货')
    await shot(page, 'pharmacy-6-paid')

    // the pharmacy ships it with a carrier and a tracking number
    await pharmacist.getByRole('button', { name: '药房订单' }).click()
    const order = pharmacist.locator('#pharmacy-list > li', { hasText: '科技园科苑路15号' }).first()
    await order.waitFor()
    assert.match(await order.innerText(), /阿莫西林胶囊 .* × 2盒/)
    await shot(pharmacist, 'pharmacy-7-pharmacy-orders')
    await assertAccessible(pharmacist, '药房订单')
    await order.getByLabel('快递公司').fill('顺丰速运')
    await order.getByLabel('快递单号').fill('SF1234567890')
    await order.getByRole('button', { name: '发货' }).click()
    await order.waitFor({ state: 'detached' })
    await shot(pharmacist, 'pharmacy-8-shipped')

    // the patient sees it shipped, with its tracking number
    await page.reload()
    await seeText(page, '已发货')
    await seeText(page, /SF1234567890/)
    await shot(page, 'pharmacy-9-patient-shipped')
  })

  test('a rejected prescription never reaches the patient; the doctor sees 未通过 and the reason', async () => {
    const desk = await newDesk()
    const { doctorId } = await deskSignIn(desk, DOCTOR_LOGIN)
    const pharmacist = await newDesk()
    await deskSignIn(pharmacist, PHARMACIST_LOGIN)
    const { page } = await patientAtDoctor(HOSPITAL, doctorId!, { name: '钱志远', idCard: '310104197501014511' })
    await orderConsultation(page, '食欲差，乏力一月，大便溏')
    await consultationStarted(page, desk, '钱*远')

    const presNo = await prescribeFromTemplate(desk, '脾胃虚弱（中药饮片）', { category: '中药饮片', diagnosis: '脾胃虚弱', drug: '黄芪', unit: 'g', quantity: '105' })

    // the pharmacist rejects it: a reason is required
    await pharmacist.locator('#review').getByRole('button', { name: '刷新' }).click()
    const card = queued(pharmacist, presNo)
    await card.getByRole('button', { name: '驳回' }).click()
    await card.getByRole('button', { name: '确认驳回' }).click()
    await seeText(pharmacist, '请填写驳回原因')
    await card.getByLabel('驳回原因').fill('请补充舌象与脉象后再开具')
    await card.getByRole('button', { name: '确认驳回' }).click()
    await card.waitFor({ state: 'detached' })

    // the doctor sees it not passed, with the reason
    await desk.locator('#prescribe').getByRole('button', { name: '刷新' }).click()
    const mine = desk.locator('#pres-list li', { hasText: presNo })
    await mine.filter({ hasText: '未通过' }).waitFor()
    assert.match(await mine.innerText(), /请补充舌象与脉象后再开具/)
    await shot(desk, 'pharmacy-10-desk-rejected')

    // the patient never gets a card, nor the prescription: 我的处方 has none to order
    await page.reload()
    await seeText(page, '医生已接诊')
    assert.equal(await visible(page.locator('.room-msg', { hasText: '黄芪' })).count(), 0)
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/outflow/getPresList')
    await page.goto(`/h5/internet/prescription/index?hospitalCode=${HOSPITAL}`)
    await listed
    await seeText(page, '暂无处方')
    assert.equal(await visible(page.getByText(/黄芪/)).count(), 0)
  })

  test('a renewable prescription: 药品说明 and 配送范围 before buying, 查看处方 from the completed order, then 再次购药 places a repeat order', async () => {
    const desk = await newDesk()
    const { doctorId } = await deskSignIn(desk, DOCTOR_LOGIN)
    const pharmacist = await newDesk()
    await deskSignIn(pharmacist, PHARMACIST_LOGIN)
    const { page } = await patientAtDoctor(HOSPITAL, doctorId!, { name: '周建国', idCard: '11010519650315781X' })
    await addAddress(page)
    await orderConsultation(page, '慢性支气管炎，咳嗽咳痰反复，需继续用药')
    await consultationStarted(page, desk, '周*国')
    const presNo = await prescribe(desk, '肺炎', { keyword: '阿莫西林', name: '阿莫西林胶囊', quantity: 1 }, true)
    await approve(pharmacist, presNo)

    // the prescription, by its number as a message would carry it; a line opens its 药品说明
    await page.goto(`/h5/internet/prescription/medicine?presNo=${presNo}&hospitalCode=${HOSPITAL}`)
    await seeText(page, /审核通过/)
    await visible(page.getByRole('button', { name: '阿莫西林胶囊 药品说明' })).first().click()
    const sheet = page.getByRole('dialog', { name: '阿莫西林胶囊 药品说明' })
    await sheet.getByText('生产厂家').waitFor()
    await sheet.getByText('处方药', { exact: true }).waitFor()
    await shot(page, 'pharmacy-11-drug-sheet')
    await assertAccessible(page, '药品说明')
    await sheet.getByRole('button', { name: '关闭' }).click()
    await sheet.waitFor({ state: 'detached' })

    // 配送范围 at the checkout: the fee rule, the provinces, a province's cities
    await tapButton(page, '去购药')
    await waitForPath(page, '/h5/internet/sureOrder/index')
    await visible(page.getByText('快递配送', { exact: true })).first().click()
    await seeText(page, /科技园科苑路15号/)
    await visible(page.getByRole('link', { name: '配送范围' })).first().click()
    const range = page.getByRole('dialog', { name: '配送范围' })
    await range.getByText(/运费规则：配送费15元/).waitFor()
    await range.getByRole('button', { name: '广东省' }).click()
    await range.getByText(/深圳市/).waitFor()
    await shot(page, 'pharmacy-12-ship-range')
    await assertAccessible(page, '配送范围')
    await range.getByRole('button', { name: '关闭' }).click()
    await range.waitFor({ state: 'detached' })
    await tapButton(page, '提交订单')
    const first = await payInCashier(page)

    // the pharmacy ships it and it is delivered
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', { login: PHARMACIST_LOGIN, password: DEMO_DOCTOR.password })
    await deskCall(token, 'POST', `/pharmacy/orders/${first}/ship`, { carrier: '顺丰速运', trackingNo: 'SF2026112700001' })
    await deskCall(token, 'POST', `/pharmacy/orders/${first}/complete`, {})

    // the completed order: 查看处方 shows the prescription it was placed from
    await page.reload()
    await seeText(page, '已完成')
    await visible(page.getByRole('link', { name: '查看处方' })).first().click()
    await waitForPath(page, '/h5/internet/prescription/medicine', (q) => q.get('orderId') === String(first))
    await seeText(page, `处方号 ${presNo}`)
    await seeText(page, /阿莫西林胶囊/)
    await shot(page, 'pharmacy-13-order-prescription')
    await page.goBack()
    await waitForPath(page, '/h5/pages/order/shop/detail', (q) => q.get('id') === String(first))

    // 再次购药: the same checkout without the consultation fee, placed as a repeat order
    await tapButton(page, '再次购药')
    await waitForPath(page, '/h5/internet/sureOrder/index', (q) => q.get('repeat') === '1')
    await seeText(page, '再次购药按原处方配药，仅收取药品费和配送费')
    await visible(page.getByText('快递配送', { exact: true })).first().click()
    await seeText(page, /科技园科苑路15号/)
    assert.equal(await visible(page.getByText('诊查费', { exact: true })).count(), 0)
    await shot(page, 'pharmacy-14-plan-order')
    await tapButton(page, '提交订单')
    const again = await payInCashier(page)
    assert.notEqual(again, first)
    const repeat = await appCall<{ prescriptionId: number; diagnosisFeeFen: number; steps: { note: string; statusText: string }[] }>(page, 'GET', `/dld-rpflow/api/order/detail/${again}`)
    assert.equal(repeat.diagnosisFeeFen, 0)
    assert.ok(repeat.steps.some((s) => `${s.statusText}${s.note}`.includes('续方订单已提交')))
    await shot(page, 'pharmacy-15-repeat-paid')
  })
})
