/**
 * Browser journeys through 报告查询 (spec §2 /palm/report/*, /pages/common/pacsRedirect): the real server with the
 * sandbox HIS's seeded reports, a new report released at the workbench console, the built H5 app.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { audit, describeViolations, type Violation } from './axe'
import { DEMO_DOCTOR, WAIT_MS, bindMobile, bindPatient, bookVisit, deskCall, newPhone, seeText, setup, shot, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
const INDEX = '/h5/palm/report/index'
/** The identity-card photo's 张三丰: the sandbox HIS has blood counts and a chest CT of his (README, demo people). */
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }
/** 李秀英, bound as his relative with her own mobile: her reports need her code. */
const LI = { name: '李秀英', idCard: '440305199208170027' }

/** Binds a relative (父母) with her own mobile, through the calls the add-patient page makes. */
async function bindRelative(page: Page, person: { name: string; idCard: string }, mobile: string) {
  const answer = await page.evaluate(
    async ({ person, mobile, hospitalCode }) => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const sms = await (await fetch('/dld-auth/token/smsBindCode', { method: 'POST', headers, body: JSON.stringify({ mobile, purpose: 'patient' }) })).json()
      const body = { name: person.name, idCard: btoa(person.idCard), mobile, code: sms.data?.devCode, relation: '父母', hospitalCode }
      return (await fetch('/dld-palm/api/patient/bind', { method: 'POST', headers, body: JSON.stringify(body) })).json()
    },
    { person, mobile, hospitalCode: HOSPITAL },
  )
  assert.equal(answer.code, 200, `bind ${person.name}: ${answer.msg}`)
}

/** Whether the chart's canvas has been drawn on (some pixel is not blank). */
const chartDrawn = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('#lab-trend-chart canvas, canvas#lab-trend-chart')
    const ctx = canvas?.getContext('2d')
    if (!canvas || !ctx || !canvas.width) return false
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
    let inked = 0
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200)) inked += 1
    return inked > 200
  })

describe('reports in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a new lab report shows unread, its abnormal items say so in words, an item opens its trend; a CT opens its film; a relative’s reports ask for her code', async () => {
    const { page } = await newPhone()
    const found: Violation[] = []
    const check = async (name: string) => void found.push(...(await audit(page, name)))
    const mobile = uniqueMobile()
    await page.goto(`${INDEX}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, mobile)
    await waitForPath(page, INDEX)
    await bindPatient(page, HOSPITAL, ZHANG, mobile)

    // he books a visit; the laboratory releases his liver panel, with raised enzymes, at the workbench console
    const regNo = await bookVisit(page, HOSPITAL)
    const { token } = await deskCall<{ token: string }>('', 'POST', '/login', DEMO_DOCTOR)
    const [visit] = await deskCall<{ registrationId: number }[]>(token, 'GET', `/his/visits?regNo=${regNo}`)
    const released = await deskCall<{ title: string; abnormalCount: number }>(token, 'POST', '/his/reports', { registrationId: visit!.registrationId, template: 'liver', abnormal: true })
    assert.equal(released.title, '肝功能')
    assert.ok(released.abnormalCount > 0)

    // 报告查询: the new report first, marked 未读 in words
    await page.goto(INDEX)
    const newest = visible(page.locator('.report-item')).first()
    await newest.waitFor()
    assert.match(await newest.innerText(), /肝功能[\s\S]*未读[\s\S]*异常 \d 项/)
    await shot(page, 'reports-1-unread')
    await check('report list')

    // the report: abnormal values marked ↑ 偏高 in text
    await newest.click()
    await waitForPath(page, '/h5/palm/report/result/showResult')
    await seeText(page, /检验结果（异常 \d 项）/)
    assert.ok((await visible(page.getByText('↑ 偏高')).count()) >= 1)
    await seeText(page, '丙氨酸氨基转移酶')
    await shot(page, 'reports-2-lab')
    await check('lab report')

    // back on the list it is read; the blood count of two days ago opens, its white cells over two reports as a chart
    await page.goBack()
    await waitForPath(page, INDEX)
    await visible(page.locator('.report-item', { hasText: '肝功能' })).first().waitFor()
    assert.doesNotMatch(await visible(page.locator('.report-item', { hasText: '肝功能' })).first().innerText(), /未读/)
    await visible(page.locator('.report-item', { hasText: '血常规' })).first().click()
    await waitForPath(page, '/h5/palm/report/result/showResult')
    await visible(page.locator('.lab-item', { hasText: '白细胞计数' })).first().click()
    await waitForPath(page, '/h5/palm/report/trend/index')
    await seeText(page, '历次结果（共 2 次）')
    await seeText(page, '↑ 偏高')
    await page.waitForFunction(() => !!document.querySelector('#lab-trend-chart'))
    let drawn = false
    for (let i = 0; i < 20 && !drawn; i += 1) {
      drawn = await chartDrawn(page)
      if (!drawn) await page.waitForTimeout(250)
    }
    assert.ok(drawn, 'the trend chart is drawn on its canvas')
    await shot(page, 'reports-3-trend')
    await check('lab trend')

    // the chest CT: findings and impression, then its cloud film in the sandbox viewer
    await page.goto(INDEX)
    await visible(page.getByRole('tab', { name: '检查' })).first().click()
    await visible(page.locator('.report-item', { hasText: '胸部CT平扫' })).first().click()
    await waitForPath(page, '/h5/palm/report/result/inspect')
    await seeText(page, '诊断意见')
    await seeText(page, '胸部CT平扫未见明显异常。')
    await shot(page, 'reports-4-ct')
    await check('imaging report')
    await visible(page.getByText('查看云影像', { exact: true })).first().click()
    await page.waitForURL((u) => u.pathname === '/sandbox/pacs/viewer', { timeout: WAIT_MS })
    await page.getByRole('img', { name: '示例影像 第1层' }).waitFor()
    await shot(page, 'reports-5-film')

    // his mother's reports: a code goes to her mobile first
    await page.goto(INDEX)
    await visible(page.locator('.report-item')).first().waitFor()
    await bindRelative(page, LI, '13811112003')
    await page.goto(INDEX)
    await visible(page.getByText('李*英', { exact: true })).first().click()
    await seeText(page, '查看家人的报告需要短信验证')
    await seeText(page, /验证码将发送至就诊人手机 138\*\*\*\*2003/)
    await shot(page, 'reports-6-relative')
    await check('relative’s code')
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-palm/api/verifyCode')
    await visible(page.getByText('获取验证码', { exact: true })).first().click()
    const body = (await (await answer).json()) as { code: number; data: { devCode?: string } }
    assert.equal(body.code, 200)
    const code = visible(page.getByPlaceholder('请输入验证码')).first()
    await code.click()
    await code.pressSequentially(body.data.devCode!)
    await visible(page.locator('.taro-button-core', { hasText: '验证并查看报告' })).first().click()
    await visible(page.locator('.report-item', { hasText: '血常规' })).first().waitFor()
    await shot(page, 'reports-7-relative-verified')

    // none of the report pages has a critical or serious WCAG 2.2 A/AA violation (axe-core)
    const blocking = found.filter((v) => v.impact === 'critical' || v.impact === 'serious')
    assert.deepEqual(blocking, [], `critical or serious violations:\n${describeViolations(blocking)}`)
  })
})
