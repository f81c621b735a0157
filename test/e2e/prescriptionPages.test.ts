/**
 * The patient's prescription pages in the browser (spec §2 /internet/prescription/index, /internet/usedMedicine/index,
 * /pages/order/prescription/hospital) on the real server and the built H5 app: a patient with no prescription yet is
 * told so on each, the calls answer, and the pages pass the accessibility check. The journey with a prescription (the
 * doctor writes it, the pharmacist approves it, the room's card opens it) is the medicine flow's own browser test.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { audit, describeViolations } from './axe'
import { bindMobile, bindPatient, newPhone, seeText, setup, shot, teardown, uniqueMobile, waitForPath } from './support'

const HOSPITAL = '10392'
const ZHANG = { name: '张三丰', idCard: '11010519800512001X' }
const LIST = '/h5/internet/prescription/index'

async function accessible(page: Page, name: string) {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `${name}: critical or serious violations:\n${describeViolations(blocking)}`)
}

/** Opens a page and waits for the server's answer to the call it makes. */
async function openAnswered(page: Page, url: string, call: string) {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === call)
  await page.goto(url)
  const body = (await (await answer).json()) as { code: number; msg: string }
  assert.equal(body.code, 200, `${call}: ${body.msg}`)
}

describe('the prescription pages in the browser', () => {
  before(setup, { timeout: 60_000 })
  after(teardown, { timeout: 30_000 })

  test('a patient with no prescription yet: 我的处方, 用药记录 and 处方流转 say so, and read well', async () => {
    const { page } = await newPhone()
    await page.goto(`${LIST}?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, LIST)
    await bindPatient(page, HOSPITAL, ZHANG, uniqueMobile())

    await openAnswered(page, LIST, '/dld-hospital/outflow/getPresList')
    await seeText(page, '暂无处方')
    await seeText(page, '用药记录 · 选择用过的药品申请续方')
    await shot(page, 'prescription-1-list-empty')
    await accessible(page, '我的处方')

    await page.getByText('用药记录 · 选择用过的药品申请续方').click()
    await waitForPath(page, '/h5/internet/usedMedicine/index')
    await seeText(page, '暂无用药记录')
    await seeText(page, '请选择需要续方的药品')
    await accessible(page, '用药记录')

    await openAnswered(page, '/h5/pages/order/prescription/hospital', '/dld-hospital/outflow/getPresList')
    await seeText(page, '暂无处方')
    await accessible(page, '处方流转')
  })
})
