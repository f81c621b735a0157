/**
 * Browser journeys through outpatient payment (spec §2 /palm/payment/*, /pages/order/payment/*, /palm/priceDisclosure):
 * the real server with the sandbox HIS's seeded bills, the sandbox cashier and its notifications, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { audit, describeViolations } from './axe'
import { DEMO_DOCTOR, WAIT_MS, bookVisit, deskCall, bindMobile, bindPatient, confirmModal, newPhone, see, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const LIST = '/h5/palm/payment/list'
const DETAIL = '/h5/pages/order/payment/detail'
/** The identity-card photo's 张三丰: the sandbox HIS has unpaid bills of his (README, demo people). */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }

describe('outpatient payment in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('the patient pays two bills as one order in the cashier, sees where to go, and refunds it', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await bindPatient(page, HOSPITAL, ZHANG, '13811112001')

    // he books a visit; at the workbench the doctor orders a test and a medicine for it: two bills, lab and pharmacy
    const regNo = await bookVisit(page, HOSPITAL)
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const [visit] = await deskCall<{ registrationId: number; patientName: string }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    assert.equal(visit?.patientName, '张*丰', 'his booked visit is on the console')
    const find = async (keyword: string) =>
      (await deskCall<{ records: { code: string; name: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}`)).records[0]!
    const [test, drug] = [await find('血常规'), await find('阿莫西林')]
    const ordered = await deskCall<{ bills: { title: string }[] }>(token, 'POST', '/his/orders', {
      registrationId: visit.registrationId,
      items: [
        { code: test.code, quantity: 1 },
        { code: drug.code, quantity: 2 },
      ],
    })
    assert.equal(ordered.bills.length, 2)

    // the newest visit's bills are chosen: the two the doctor just ordered
    await page.goto(LIST)
    const boxes = visible(page.getByRole('checkbox'))
    await boxes.first().waitFor()
    for (const bill of ordered.bills) await see(page, '.bill', bill.title)
    await seeText(page, '已选2项')
    await shot(page, 'bills-1-list')
    await tapButton(page, '去缴费')

    await waitForPath(page, '/h5/palm/payment/mergeList')
    await visible(page.locator('.bill-items__item')).first().waitFor()
    await tapButton(page, '确认支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()

    // back on the record: paid, two bills, where to go next
    await waitForPath(page, DETAIL)
    await seeText(page, '已支付', WAIT_MS)
    assert.equal(await visible(page.locator('.pay-detail__title')).count(), 2)
    await seeText(page, '下一步去哪里')
    await visible(page.locator('.pay-ticket__guide')).first().waitFor()
    await shot(page, 'bills-1-paid')

    // the record is among the paid records
    await page.goto('/h5/pages/order/payment/index')
    await visible(page.locator('.pay-record', { hasText: '已支付' })).first().click()
    await waitForPath(page, DETAIL)
    await tapButton(page, '申请退款')
    await confirmModal(page)
    await seeText(page, /^(已退款|退款中)$/, WAIT_MS)
    await shot(page, 'bills-1-refunded')
  })

  test('合并支付 pays every bill one department ordered at the visit as one order', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await bindPatient(page, HOSPITAL, ZHANG, '13811112002')
    const regNo = await bookVisit(page, HOSPITAL)
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const [visit] = await deskCall<{ registrationId: number }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    const find = async (keyword: string) => (await deskCall<{ records: { code: string }[] }>(token, 'GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}`)).records[0]!
    const ordered = await deskCall<{ bills: { billNo: string; title: string; amountFen: number }[] }>(token, 'POST', '/his/orders', {
      registrationId: visit!.registrationId,
      items: [
        { code: (await find('尿常规')).code, quantity: 1 },
        { code: (await find('阿莫西林')).code, quantity: 1 },
      ],
    })
    assert.equal(ordered.bills.length, 2)

    // on the list only one of them is ticked: 合并支付 of the department takes both anyway
    await page.goto(LIST)
    await visible(page.getByRole('checkbox')).first().waitFor()
    // his visit to 心血管内科 (his seeded bills are of another department)
    const group = visible(page.locator('.bill-visit', { hasText: '心血管内科' })).first()
    for (const bill of ordered.bills) await group.getByText(bill.title).first().waitFor()
    const boxes = visible(page.getByRole('checkbox'))
    for (let i = 0; i < (await boxes.count()); i++) if ((await boxes.nth(i).getAttribute('aria-checked')) === 'true') await boxes.nth(i).click()
    await visible(group.getByRole('checkbox')).first().click()
    await seeText(page, '已选1项')
    await visible(group.getByRole('link', { name: /合并支付$/ })).first().click()
    await waitForPath(page, '/h5/palm/payment/deptMergeList', (q) => !!q.get('visitNo') && !!q.get('deptName'))
    await seeText(page, '2项')
    const total = ordered.bills.reduce((sum, b) => sum + b.amountFen, 0)
    await seeText(page, `¥${(total / 100).toFixed(2)}`)
    await shot(page, 'bills-3-dept-merge')
    const blocking = (await audit(page, 'department merge')).filter((v) => v.impact === 'critical' || v.impact === 'serious')
    assert.deepEqual(blocking, [], `critical or serious violations:\n${describeViolations(blocking)}`)
    await tapButton(page, '确认支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, DETAIL)
    await seeText(page, '已支付', WAIT_MS)
    assert.equal(await visible(page.locator('.pay-detail__title')).count(), 2)
    await shot(page, 'bills-3-dept-paid')
  })

  test('price search finds an item with its price', async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/priceDisclosure/index?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/priceDisclosure/index')
    await visible(page.locator('.price')).first().waitFor()
    const box = visible(page.getByPlaceholder('搜索药品、检查、治疗项目名称')).first()
    await box.click()
    await box.pressSequentially('白带常规')
    await visible(page.locator('.price', { hasText: '白带常规' })).first().waitFor()
    const text = await visible(page.locator('.price', { hasText: '白带常规' })).first().innerText()
    assert.match(text, /¥\d+\.\d{2}/)
    await shot(page, 'bills-2-prices')
  })
})
