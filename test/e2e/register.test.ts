/**
 * Browser journeys through appointment registration (spec §2 /palm/register/*, /pages/order/register/*): the real
 * server with its seeded schedules and the sandbox cashier and payment notifications, the built H5 app, Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { WAIT_MS, bindMobile, bindPatient, confirmModal, newPhone, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const CONFIRM = '/h5/palm/register/confirm/index'
const DETAIL = '/h5/pages/order/register/detail'

/** Fictional people with valid identity numbers (adults under 65: they pay the fee). */
const PEOPLE = [
  { name: '李建国', idCard: '110105198805122718' },
  { name: '陈美玲', idCard: '440305199208233622' },
  { name: '周文博', idCard: '310104197501014511' },
]

/** Signs a new phone in at the registration notice of the demo hospital. */
async function signIn(page: Page, mobile = uniqueMobile()) {
  await page.goto(`/h5/palm/register/index?hospitalCode=${HOSPITAL}`)
  await bindMobile(page, mobile)
  await waitForPath(page, '/h5/palm/register/index')
}

/** The time ranges on the confirm page: [time, what is left] as the patient reads them. */
async function ranges(page: Page): Promise<[string, string][]> {
  await visible(page.locator('.confirm__range')).first().waitFor()
  const rows = await visible(page.locator('.confirm__range')).all()
  return Promise.all(rows.map(async (r) => [await r.locator('.confirm__range-time').innerText(), await r.locator('.confirm__range-left').innerText()] as [string, string]))
}

const range = (page: Page, time: string) => visible(page.locator('.confirm__range', { hasText: time })).first()

/** What a range shows with `n` places left. */
const left = (n: number) => (n > 0 ? `余${n}` : '已约满')
const placesIn = (text: string) => (text === '已约满' ? 0 : Number(text.replace('余', '')))

describe('appointment registration in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  let confirmUrl = ''
  let bookedRange = ''
  let placesBefore = 0

  test('1. pick a department, a doctor and a time, confirm, pay in the cashier, see the record and its detail', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await bindPatient(page, HOSPITAL, PEOPLE[0]!, '13811110001')
    await seeText(page, '挂号须知')
    await visible(page.getByText('我已阅读并同意')).first().click()
    await tapButton(page, '开始挂号')

    // clinic tree -> a department -> its doctors -> one doctor's week -> a morning or afternoon with room
    await waitForPath(page, '/h5/palm/register/deptList/index')
    await visible(page.getByText('心血管内科', { exact: true })).first().click()
    await waitForPath(page, '/h5/palm/register/deptSchedule/index')
    await visible(page.locator('.schedule-row')).first().waitFor()
    await visible(page.getByText('按医生', { exact: true })).first().click()
    await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click() // a doctor, not the general clinic
    await waitForPath(page, '/h5/palm/register/rowSchedule/index')
    await visible(page.locator('.schedule-grid__cell--open')).first().click()
    await waitForPath(page, CONFIRM, (q) => /^\d+$/.test(q.get('scheduleId') ?? ''))
    confirmUrl = new URL(page.url()).pathname + new URL(page.url()).search

    // the fullest range that still has room: after this booking it has one place fewer for everyone else
    const before = (await ranges(page)).filter(([, text]) => text !== '已约满')
    assert.ok(before.length > 0, 'a range with room')
    ;[bookedRange, placesBefore] = before.map(([time, text]) => [time, placesIn(text)] as [string, number]).sort((a, b) => a[1] - b[1])[0]!
    await range(page, bookedRange).click()
    await seeText(page, '李*国')
    await shot(page, 'register-1-confirm')
    await tapButton(page, '确认挂号')

    // the slot is held while the patient pays: a countdown and 去支付
    await visible(page.locator('.hold-pay')).first().waitFor()
    await seeText(page, /^(1[0-5]|0?\d):\d{2}$/)
    await tapButton(page, '去支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await seeText(page, '示范市第一人民医院')
    await shot(page, 'register-1-cashier')
    await page.getByText('确认支付', { exact: true }).click()

    // back in the app, the detail asks the server and shows the paid booking
    await waitForPath(page, DETAIL)
    await seeText(page, '预约成功', WAIT_MS)
    await seeText(page, '已支付')
    await seeText(page, new RegExp(bookedRange))
    await shot(page, 'register-1-paid')
    // back from the cashier there is no page to go back to: a way home instead
    await visible(page.locator('.nav-bar__home', { hasText: '返回首页' })).first().waitFor()

    await page.goto('/h5/pages/order/register/index')
    const record = visible(page.locator('.record')).first()
    await record.waitFor()
    const text = (await record.innerText()).replace(/\s+/g, ' ')
    assert.ok(text.includes('预约成功') && text.includes('心血管内科'), text)
  })

  test('2. a second patient finds that place taken', async () => {
    assert.ok(confirmUrl && bookedRange, 'journey 1 booked a place')
    const { page } = await newPhone()
    await signIn(page)
    await bindPatient(page, HOSPITAL, PEOPLE[1]!, '13811110002')
    await page.goto(confirmUrl)
    await waitForPath(page, CONFIRM)
    const now = await ranges(page)
    assert.deepEqual(
      now.find(([time]) => time === bookedRange),
      [bookedRange, left(placesBefore - 1)],
    )
    await shot(page, 'register-2-taken')
  })

  test('3. a patient cancels a paid booking before the deadline and sees the refund', async () => {
    const { page } = await newPhone()
    await signIn(page)
    await bindPatient(page, HOSPITAL, PEOPLE[2]!, '13811110003')
    // the doctor's last open morning or afternoon: days ahead, well before the cancellation deadline (17:00 the day before)
    await page.goto('/h5/palm/register/deptList/index')
    await visible(page.getByText('心血管内科', { exact: true })).first().click()
    await visible(page.getByText('按医生', { exact: true })).first().click()
    await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click() // a doctor, not the general clinic
    await waitForPath(page, '/h5/palm/register/rowSchedule/index')
    await visible(page.locator('.schedule-grid__cell--open')).last().click()
    await waitForPath(page, CONFIRM)
    const open = (await ranges(page)).find(([, left]) => left !== '已约满')
    assert.ok(open, 'a range with room')
    await range(page, open[0]).click()
    await tapButton(page, '确认挂号')
    await tapButton(page, '去支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, DETAIL)
    await seeText(page, '预约成功', WAIT_MS)

    await tapButton(page, '取消预约')
    // the modal keeps an amount whole on one line, and its 确定 is the app's blue, readable on white
    const text = visible(page.locator('.taro-modal__text')).first()
    await text.waitFor()
    const amount = (await text.innerText()).match(/¥\d+\.\d{2}/)?.[0]
    assert.ok(amount, 'the modal names the amount')
    const style = await text.evaluate((el) => ({ wordBreak: getComputedStyle(el).wordBreak, color: getComputedStyle(el).color }))
    assert.deepEqual(style, { wordBreak: 'normal', color: 'rgb(85, 85, 85)' })
    assert.equal(await visible(page.locator('.taro-model__confirm')).first().evaluate((el) => getComputedStyle(el).color), 'rgb(23, 107, 179)')
    await shot(page, 'register-3-cancel-modal')
    await confirmModal(page)
    await seeText(page, '已取消，退款将原路退回', WAIT_MS)
    // the sandbox refunds like a provider: first 退款中, then its notification says 已退款
    await page.reload()
    await seeText(page, /已退款¥\d+\.\d{2}，已原路退回/, WAIT_MS)
    await shot(page, 'register-3-refunded')
  })

  test('4. a patient of an insurance hospital authorises the insurance voucher and pays only the cash part', async () => {
    assert.ok(confirmUrl, 'journey 1 found a schedule')
    const { page } = await newPhone()
    await signIn(page)
    // the insurance platform's test person (a test platform's way to try insurance), bound as this phone's patient
    const person = await page.evaluate(async () => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const answer = await (await fetch('/dld-palm/api/yibao/getAuthTestUserInfo', { headers: { Authorization: `Bearer ${token}` } })).json()
      return { name: answer.data.name as string, idCard: atob(answer.data.idCard as string) }
    })
    await bindPatient(page, HOSPITAL, person, '13811110006')
    await page.goto(confirmUrl)
    await waitForPath(page, CONFIRM)
    const open = (await ranges(page)).find(([, text]) => text !== '已约满')
    assert.ok(open, 'a range with room')
    await range(page, open[0]).click()
    await visible(page.locator('.confirm__chip', { hasText: /^医保$/ })).first().click()
    await seeText(page, '医保支付部分以医院结算为准，个人自付部分需在线支付')
    await tapButton(page, '确认挂号')

    // the insurance payment page: first the patient's own insurance voucher, on the platform's page
    await waitForPath(page, '/h5/palm/chsPayment/index')
    await tapButton(page, '医保电子凭证授权')
    await page.waitForURL((u) => u.pathname === '/sandbox/insurance/authorize')
    await seeText(page, /申请使用你的医保电子凭证进行医保结算/)
    await shot(page, 'register-4-voucher')
    await page.locator('button.holder', { hasText: `${person.name[0]}*${person.name.slice(-1)}` }).click()

    // back with the one-time code: the fees are uploaded and the split shown; the cash part is what is left to pay
    await waitForPath(page, '/h5/palm/chsPayment/index', (q) => !q.has('authCode'))
    await seeText(page, '统筹基金支付', WAIT_MS)
    const fen = async (label: string) => {
      const text = await visible(page.locator('.chs__row', { hasText: label })).first().locator('.chs__value').innerText()
      return Math.round(Number(text.replace('¥', '')) * 100)
    }
    const totalText = await visible(page.locator('.chs__total-amount')).first().innerText()
    const total = Math.round(Number(totalText.replace('¥', '')) * 100)
    const fund = await fen('统筹基金支付')
    const cash = await fen('个人自付')
    // the sandbox platform's rule for employees: the fund pays 70 %, rounded down to the fen
    assert.deepEqual([fund, cash], [Math.floor((total * 70) / 100), total - Math.floor((total * 70) / 100)])
    await seeText(page, `应付 ¥${(cash / 100).toFixed(2)}`)
    await shot(page, 'register-4-split')

    await tapButton(page, '去支付')
    await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
    assert.equal((await page.locator('.amount').innerText()).replace(/\s+/g, ''), `¥${(cash / 100).toFixed(2)}`)
    await page.getByText('确认支付', { exact: true }).click()
    await waitForPath(page, DETAIL)
    await seeText(page, '预约成功', WAIT_MS)
    const row = (label: string) => visible(page.locator('.reg-detail__row', { hasText: label })).first().innerText()
    assert.match(await row('医保支付'), new RegExp(`¥${(fund / 100).toFixed(2)}`))
    assert.match(await row('个人支付'), new RegExp(`¥${(cash / 100).toFixed(2)}`))
    await shot(page, 'register-4-paid')
  })

  test('5. a hold that runs out gives the place back', { timeout: 180_000 }, async () => {
    // hospital staff shorten the hold to one minute (the admin setting of spec §7 /dld-palm/admin/hospital-config)
    const staff = await newPhone()
    await signIn(staff.page, '13800000000') // the seeded staff account
    const set = await staff.page.evaluate(async (hospitalCode) => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const body = JSON.stringify({ hospitalCode, key: 'register.holdMinutes', value: '1' })
      return (await fetch('/dld-palm/admin/hospital-config', { method: 'POST', headers, body })).json()
    }, HOSPITAL)
    assert.equal(set.code, 200, set.msg)

    const holder = await newPhone()
    await signIn(holder.page)
    await bindPatient(holder.page, HOSPITAL, { name: '王秀兰', idCard: '110101198003074528' }, '13811110004')
    await holder.page.goto(confirmUrl)
    await waitForPath(holder.page, CONFIRM)
    const one = (await ranges(holder.page)).find(([time, text]) => text !== '已约满' && time !== bookedRange)
    assert.ok(one, 'another range with room')
    const places = placesIn(one[1])
    await range(holder.page, one[0]).click()
    await tapButton(holder.page, '确认挂号')
    await seeText(holder.page, /^0?[01]:\d{2}$/)

    const other = await newPhone()
    await signIn(other.page)
    await bindPatient(other.page, HOSPITAL, { name: '赵志刚', idCard: '110101198506061219' }, '13811110005')
    await other.page.goto(confirmUrl)
    assert.deepEqual((await ranges(other.page)).find(([time]) => time === one[0]), [one[0], left(places - 1)], 'held for the first patient')

    // a minute later the holder's page says the time is up, and the place is free again
    await seeText(holder.page, '支付已超时，号源已释放，请重新预约', 100_000)
    await shot(holder.page, 'register-5-expired')
    // the server closes unpaid orders on its own sweep (every 2 s in this run); the other patient looks again
    let seen: [string, string] | undefined
    for (const until = Date.now() + 15_000; Date.now() < until; await other.page.waitForTimeout(1000)) {
      await other.page.reload()
      seen = (await ranges(other.page)).find(([time]) => time === one[0])
      if (seen?.[1] === left(places)) break
    }
    assert.deepEqual(seen, [one[0], left(places)])
  })
})
