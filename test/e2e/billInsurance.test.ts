/**
 * Browser journey: an insured patient pays outpatient bills with health insurance (医保支付, issue 17, spec §6 chsList):
 * the insurance sandbox's test person, bound as the patient, authorises the voucher on the chsPayment page; the fund
 * pays its share and the sandbox cashier takes only the cash part.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, baseUrl, bindMobile, bindPatient, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/payment/list'
const DETAIL = '/h5/pages/order/payment/detail'
const CHS = '/h5/palm/chsPayment/index'

/** A doctor of the hospital at the workbench (the demo seed's account and password). */
const DOCTOR = { login: '10392001', password: 'demo1234' }

/** A workbench call, as the workbench page makes it: JSON, the staff token. */
async function desk<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/dld-doctor/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  assert.equal(env.code, 200, `${path}: ${env.msg}`)
  return env.data
}

/** The patient books the first free place of 心血管内科 and pays for it in the cashier (as the registration test does). */
async function bookVisit(page: Page) {
  await page.goto(`/h5/palm/register/index?hospitalCode=${HOSPITAL}`)
  await seeText(page, '挂号须知')
  await visible(page.getByText('我已阅读并同意')).first().click()
  await tapButton(page, '开始挂号')
  await waitForPath(page, '/h5/palm/register/deptList/index')
  await visible(page.getByText('心血管内科', { exact: true })).first().click()
  await waitForPath(page, '/h5/palm/register/deptSchedule/index')
  await visible(page.getByText('按医生', { exact: true })).first().click()
  await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click()
  await waitForPath(page, '/h5/palm/register/rowSchedule/index')
  await visible(page.locator('.schedule-grid__cell--open')).first().click()
  await waitForPath(page, '/h5/palm/register/confirm/index')
  await visible(page.locator('.confirm__range', { hasNotText: '已约满' })).first().click()
  await tapButton(page, '确认挂号')
  await tapButton(page, '去支付')
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await seeText(page, '预约成功', WAIT_MS)
  // its number, as his registration records give it
  return page.evaluate(async () => {
    const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
    const token = typeof stored === 'string' ? stored : stored?.data
    const answer = await (await fetch('/dld-palm/api/register/list?page=1&size=1', { headers: { Authorization: `Bearer ${token}` } })).json()
    return answer.data.records[0].regNo as string
  })
}

describe('outpatient payment with health insurance in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('an insured patient authorises the voucher and pays two bills, only the cash part in the cashier', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    // the insurance platform's test person (a test platform's way to try insurance), bound as this phone's patient
    const person = await page.evaluate(async () => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const answer = await (await fetch('/dld-palm/api/yibao/getAuthTestUserInfo', { headers: { Authorization: `Bearer ${token}` } })).json()
      return { name: answer.data.name as string, idCard: atob(answer.data.idCard as string) }
    })
    await bindPatient(page, HOSPITAL, person, '13811113001')

    // a visit, and the doctor's orders for it: a test and a medicine, two bills
    const regNo = await bookVisit(page)
    const { token } = await desk<{ token: string }>('', 'POST', '/login', DOCTOR)
    const [visit] = await desk<{ registrationId: number }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    assert.ok(visit, 'the booked visit is on the console')
    const find = async (keyword: string) =>
      (await desk<{ records: { code: string; name: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}`)).records[0]!
    const [lab, drug] = [await find('血常规'), await find('阿莫西林')]
    const ordered = await desk<{ bills: { title: string }[] }>(token, 'POST', '/his/orders', {
      registrationId: visit.registrationId,
      items: [
        { code: lab.code, quantity: 1 },
        { code: drug.code, quantity: 2 },
      ],
    })
    assert.equal(ordered.bills.length, 2)

    await page.goto(LIST)
    await visible(page.getByRole('checkbox')).first().waitFor()
    for (const bill of ordered.bills) await see(page, '.bill', bill.title)
    await seeText(page, '已选2项')
    await tapButton(page, '去缴费')
    await waitForPath(page, '/h5/palm/payment/mergeList')
    await visible(page.locator('.bill-items__item')).first().waitFor()
    await visible(page.getByRole('radio', { name: /医保支付/ })).first().click()
    await shot(page, 'bill-insurance-1-choice')
    await tapButton(page, '医保支付')

    // the insurance payment page: the patient's own voucher first, on the platform's page
    await waitForPath(page, CHS)
    await tapButton(page, '医保电子凭证授权')
    await page.waitForURL((u) => u.pathname === '/sandbox/insurance/authorize')
    await seeText(page, /申请使用你的医保电子凭证进行医保结算/)
    await page.locator('button.holder', { hasText: `${person.name[0]}*${person.name.slice(-1)}` }).click()

    // back with the one-time code: the bills are uploaded and split; the cash part is what is left to pay
    await waitForPath(page, CHS, (q) => !q.has('authCode') && q.get('type') === 'outpatient')
    await seeText(page, '统筹基金支付', WAIT_MS)
    const fen = async (label: string) => {
      const text = await visible(page.locator('.chs__row', { hasText: label })).first().locator('.chs__value').innerText()
      return Math.round(Number(text.replace('¥', '')) * 100)
    }
    const total = Math.round(Number((await visible(page.locator('.chs__total-amount')).first().innerText()).replace('¥', '')) * 100)
    const fund = await fen('统筹基金支付')
    const cash = await fen('个人自付')
    // the sandbox platform's rule for employees: the fund pays 70 %, rounded down to the fen
    assert.deepEqual([fund, cash], [Math.floor((total * 70) / 100), total - Math.floor((total * 70) / 100)])
    await shot(page, 'bill-insurance-2-split')

    await tapButton(page, '支付个人自付部分')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    assert.equal((await page.locator('.amount').innerText()).replace(/\s+/g, ''), `¥${(cash / 100).toFixed(2)}`)
    await page.getByText('确认支付', { exact: true }).click()

    // back on the record: paid, both bills, where to go next
    await waitForPath(page, DETAIL)
    await seeText(page, '已支付', WAIT_MS)
    assert.equal(await visible(page.locator('.pay-detail__title')).count(), 2)
    await seeText(page, '下一步去哪里')
    await shot(page, 'bill-insurance-3-paid')
  })
})
