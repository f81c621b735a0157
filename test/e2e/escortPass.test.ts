/**
 * Browser journeys for 电子陪护证 (/palm/hospitalization/escort/eleAttend) and 扫码缴费 (/palm/scanCode/index): the real
 * server with the sandbox HIS's seeded demo stay and bills (王小明 in hospital at 10392 with unpaid bills there, README
 * demo people), the built H5 app in a plain browser (no scanner: the bill number is typed).
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { bindMobile, bindPatient, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
/** The health card's 王小明: in hospital at 10392, 心内科一病区 12床. */
const WANG = { name: '王小明', idCard: '310104198511030034' }
const ESCORT = { name: '周文博', idCard: '310104197501014511', mobile: '13700001111' }
const ESCORTS = '/h5/palm/hospitalization/escort/index'

const field = (page: Page, placeholder: string) => visible(page.locator(`input[placeholder="${placeholder}"]`)).first()
async function type(page: Page, placeholder: string, text: string) {
  const input = field(page, placeholder)
  await input.click()
  await input.fill('')
  await input.pressSequentially(text)
}

/** A call of the app's API with the page's own sign-in. */
async function api<T>(page: Page, path: string, body?: object): Promise<T> {
  const answer = await page.evaluate(
    async ({ path, body }) => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const res = await fetch(path, body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers })
      return res.json()
    },
    { path, body },
  )
  assert.equal(answer.code, 200, `${path}: ${answer.msg}`)
  return answer.data as T
}

/** A new phone signed in at 10392 with 王小明 bound; answers the page and his patient id. */
async function wangsRelative(start: string, mobile: string) {
  const { page } = await newPhone()
  await page.goto(`${start}?hospitalCode=${HOSPITAL}`)
  await bindMobile(page, uniqueMobile())
  await bindPatient(page, HOSPITAL, WANG, mobile)
  const patients = await api<{ id: number; name: string }[]>(page, `/dld-palm/api/patient/list?hospitalCode=${HOSPITAL}`)
  assert.equal(patients.length, 1)
  return { page, patientId: patients[0]!.id }
}

describe('电子陪护证 and 扫码缴费 in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('王小明’s relative adds an escort and shows the electronic escort pass', async () => {
    const { page, patientId } = await wangsRelative('/h5/pages/patient/index', '13811112301')
    await page.goto(`${ESCORTS}?patientId=${patientId}`)
    await waitForPath(page, ESCORTS)
    await tapButton(page, '添加陪护人')
    await type(page, '请输入陪护人姓名', ESCORT.name)
    await type(page, '请输入陪护人身份证号', ESCORT.idCard)
    await type(page, '请输入陪护人手机号', ESCORT.mobile)
    await visible(page.locator('[role=radio]', { hasText: '子女' })).first().click()
    await tapButton(page, '确认添加')
    await waitForPath(page, ESCORTS)
    const escort = visible(page.locator('.escort-card', { hasText: '周*博' })).first()
    await escort.waitFor()

    await escort.locator('.escort-card__action', { hasText: '电子陪护证' }).click()
    await waitForPath(page, '/h5/palm/hospitalization/escort/eleAttend', (q) => q.get('patientId') === String(patientId) && !!q.get('escortId'))
    const qr = visible(page.getByRole('img', { name: /电子陪护证二维码/ })).first()
    await qr.waitFor()
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/)
    const box = await qr.boundingBox()
    assert.ok(box && box.width >= 200, `the QR code is large: ${box?.width}px`)
    await seeText(page, '周*博（子女）')
    await seeText(page, '王*明')
    await seeText(page, '心内科一病区 12床')
    await seeText(page, /^有效期至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    await shot(page, 'escort-pass-1')

    // 刷新 asks for a fresh pass
    const fresh = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-palm/api/accompany/pass')
    await tapButton(page, '刷新')
    assert.equal((await (await fresh).json()).code, 200)
    await qr.waitFor()
  })

  test('a patient types a bill number on 扫码缴费 and 待缴费 shows the bill', async () => {
    const { page, patientId } = await wangsRelative('/h5/palm/scanCode/index', '13811112302')
    const visits = await api<{ bills: { billNo: string; title: string }[] }[]>(page, '/dld-palm/api/payment/unpaid/list', { hospitalCode: HOSPITAL, patientId })
    const bill = visits[0]!.bills[0]!
    await page.goto('/h5/palm/scanCode/index')
    await waitForPath(page, '/h5/palm/scanCode/index')
    // a plain browser scans with the camera (scan.test.ts); typing the number is always there
    await visible(page.getByText('或输入缴费单号', { exact: true })).first().waitFor()
    await visible(page.getByText('扫一扫', { exact: true })).first().waitFor()
    await type(page, '如 B202601010123456789', 'B123')
    await tapButton(page, '查询')
    await seeText(page, '缴费单号格式不正确：以B开头，后接18位数字')
    await type(page, '如 B202601010123456789', bill.billNo)
    await tapButton(page, '查询')
    await waitForPath(page, '/h5/palm/payment/waitPay', (q) => q.get('billNo') === bill.billNo && q.get('source') === 'scanCode')
    await seeText(page, bill.title)
    await visible(page.getByText('立即支付', { exact: true })).first().waitFor()
    await shot(page, 'scan-pay-1')
  })
})
