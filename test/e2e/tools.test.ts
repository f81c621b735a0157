/**
 * Browser journey through the health tools of the internet hospital (spec §2 /internet/hepatitisTest,
 * /internet/babyBlood, /internet/inspectRead): from the home's 健康工具 entries, a patient reads a hepatitis B result,
 * works out a baby's blood type and reads one examination item; the pages pass axe-core (WCAG 2.2 A/AA, no critical or
 * serious violation) and still fit the screen at 200 % text. The real server, the built H5 app, Chromium.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { newPhone, see, seeText, setup, shot, tapButton, teardown, visible, waitForPath } from './support'
import { audit, describeViolations, type Violation } from './axe'

const HOSPITAL = '10412'
const HOME = '/h5/pages/sys/internet/index'
const HB_TEST = '/h5/internet/hepatitisTest/hepatitis-test'
const HB_RESULT = '/h5/internet/hepatitisTest/hepatitis-result'
const BABY = '/h5/internet/babyBlood/index'
const READ = '/h5/internet/inspectRead/inspect-read'
const DETAIL = '/h5/internet/inspectRead/inspect-detail'
const DISCLAIMER = '结果仅供参考，不能替代医生诊断'

async function settled(page: Page) {
  await visible(page.locator('.page-shell .nav-bar')).first().waitFor({ state: 'visible' })
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await page.waitForTimeout(300)
}

/** Taps a radio of a named group (乙肝表面抗原（HBsAg）, 爸爸的ABO血型 …) and sees it checked. */
async function choose(page: Page, group: string, option: string) {
  const radio = visible(page.getByRole('radiogroup', { name: group })).first().getByRole('radio', { name: option, exact: true })
  await radio.click()
  assert.equal(await radio.getAttribute('aria-checked'), 'true', `${group}: ${option} is checked`)
}

/** Text that spills out of its box or off the screen, and whether the page is wider than the screen. */
async function spills(page: Page): Promise<{ spills: string[]; pageWider: boolean }> {
  return page.evaluate(() => {
    const current = [...document.querySelectorAll<HTMLElement>('.taro_page')].find((p) => getComputedStyle(p).display !== 'none') ?? document.body
    const out: string[] = []
    const walker = document.createTreeWalker(current, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      if (!el || !node.textContent?.trim() || el.closest('.nav-bar__title')) continue
      const box = el.getBoundingClientRect()
      if (box.width === 0) continue
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${el.className}: ${node.textContent.trim().slice(0, 20)}`)
      if (box.right > window.innerWidth + 1) out.push(`${el.className} (off screen): ${node.textContent.trim().slice(0, 20)}`)
    }
    return { spills: out, pageWider: document.documentElement.scrollWidth > window.innerWidth + 1 }
  })
}

describe('the health tools in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('from the home: a hepatitis B self-test, a baby’s blood type and one examination item', { timeout: 300_000 }, async () => {
    const { page } = await newPhone()
    const found: Violation[] = []
    const check = async (name: string) => {
      await settled(page)
      found.push(...(await audit(page, name)))
    }

    // the internet hospital's home lists the tools under 健康工具; they open (no 该服务暂未开放)
    await page.goto(`/h5/?hospitalCode=${HOSPITAL}`)
    await waitForPath(page, HOME)
    await see(page, '.home__group-title', '健康工具')
    for (const name of ['乙肝自测', '宝宝血型', '化验单解读']) await see(page, '.home__entry', name)
    await visible(page.locator('.home__entry', { hasText: '乙肝自测' })).first().click()
    // the tools answer anyone: a visitor who has bound no mobile goes straight to the tool
    await waitForPath(page, HB_TEST)

    // 乙肝两对半: 查看解读 waits for all five, then shows 小三阳
    await seeText(page, '对照检验单，选择每一项的结果')
    await seeText(page, new RegExp(DISCLAIMER))
    await seeText(page, '请选择乙肝表面抗原（HBsAg）的结果')
    await check('hepatitis test')
    const picks: [string, string][] = [
      ['乙肝表面抗原（HBsAg）', '阳性（+）'],
      ['乙肝表面抗体（抗-HBs）', '阴性（-）'],
      ['乙肝e抗原（HBeAg）', '阴性（-）'],
      ['乙肝e抗体（抗-HBe）', '阳性（+）'],
      ['乙肝核心抗体（抗-HBc）', '阳性（+）'],
    ]
    for (const [group, option] of picks) await choose(page, group, option)
    await shot(page, 'tools-1-hepatitis-test')
    await tapButton(page, '查看解读')
    await waitForPath(page, HB_RESULT, (q) => q.get('HBsAg') === 'positive' && q.get('HBeAb') === 'positive')
    await see(page, '.hb-result__title', '小三阳')
    await seeText(page, '乙肝病毒感染')
    await see(page, '.hb-result__row', '乙肝e抗原（HBeAg）阴性（-）')
    await seeText(page, /“小三阳”不等于病情轻/)
    await seeText(page, new RegExp(`^${DISCLAIMER}`))
    await check('hepatitis result')
    await shot(page, 'tools-2-hepatitis-result')
    // 重新自测 goes back to the form, the choices still there
    await tapButton(page, '重新自测')
    await waitForPath(page, HB_TEST)
    const kept = visible(page.getByRole('radiogroup', { name: '乙肝表面抗原（HBsAg）' })).first().getByRole('radio', { name: '阳性（+）' })
    assert.equal(await kept.getAttribute('aria-checked'), 'true')

    // 宝宝血型, from the home
    await page.goto(HOME)
    await visible(page.locator('.home__entry', { hasText: '宝宝血型' })).first().click()
    await waitForPath(page, BABY)
    await seeText(page, '宝宝可能是什么血型？')
    await choose(page, '爸爸的ABO血型', 'A型')
    await choose(page, '爸爸的Rh血型', 'Rh阳性')
    await choose(page, '妈妈的ABO血型', 'B型')
    await seeText(page, '请选择妈妈的Rh血型')
    await choose(page, '妈妈的Rh血型', 'Rh阳性')
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-hospital/healthTools/babyBlood')
    await tapButton(page, '查看宝宝可能的血型')
    assert.equal((await answered).status(), 200)
    await seeText(page, '宝宝可能是A型、B型、O型、AB型，Rh阳性或Rh阴性')
    const lines = await visible(page.locator('.baby-blood__chance-line')).allInnerTexts()
    assert.equal(lines.length, 6)
    for (const line of lines) assert.match(line.replace(/\s+/g, ''), /^(A|B|O|AB)型可能，约\d+%$|^Rh阳性可能，>99%$|^Rh阴性可能，约0\.3%$/, line)
    await seeText(page, /中国人群的血型基因频率/)
    await check('baby blood')
    await shot(page, 'tools-3-baby-blood')

    // 化验单解读: the list, a search, one item
    await page.goto(HOME)
    await visible(page.locator('.home__entry', { hasText: '化验单解读' })).first().click()
    await waitForPath(page, READ)
    for (const heading of ['血常规', '肝功能', '肾功能', '血脂', '血糖', '尿常规', '甲状腺功能']) await see(page, '.inspect-read__heading', heading)
    assert.ok((await visible(page.locator('.inspect-read__item')).count()) >= 35, 'about 40 items')
    await check('inspect read')
    await shot(page, 'tools-4-inspect-read')
    const search = visible(page.getByRole('textbox', { name: '搜索检查项目' })).first()
    await search.click()
    await search.pressSequentially('ALT')
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('.inspect-read__item')].filter((e) => e.offsetParent !== null).length === 1)
    await visible(page.locator('.inspect-read__item', { hasText: '丙氨酸氨基转移酶' })).first().click()
    await waitForPath(page, DETAIL, (q) => q.get('id') === 'alt')
    await see(page, '.inspect-detail__name', '丙氨酸氨基转移酶')
    await seeText(page, '参考范围（成人）：男 9–50；女 7–40 U/L')
    for (const heading of ['这项检查查什么', '偏高可能见于', '偏低可能见于', '怎么办']) await see(page, '.inspect-detail__heading', heading)
    await seeText(page, new RegExp(`^${DISCLAIMER}`))
    await check('inspect detail')
    await shot(page, 'tools-5-inspect-detail')

    const blocking = found.filter((v) => v.impact === 'critical' || v.impact === 'serious')
    assert.deepEqual(blocking, [], `critical or serious violations:\n${describeViolations(blocking)}`)
  })

  test('at 200 % text and in elder mode the tool pages still fit the screen', { timeout: 300_000 }, async () => {
    const { page } = await newPhone()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32 } })
    // signed in first (the silent authorisation leaves the page and comes back): the home, then the tools
    await page.goto(`/h5/?hospitalCode=${HOSPITAL}`)
    await waitForPath(page, HOME)
    await see(page, '.home__group-title', '健康工具')
    await page.goto(HB_TEST)
    await waitForPath(page, HB_TEST)
    await seeText(page, '对照检验单，选择每一项的结果')
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--text-scale').trim()), '2')

    const pages: [string, string][] = [
      ['hepatitis-test', HB_TEST],
      ['hepatitis-result', `${HB_RESULT}?HBsAg=positive&HBsAb=negative&HBeAg=positive&HBeAb=negative&HBcAb=positive`],
      ['baby-blood', BABY],
      ['inspect-read', READ],
      ['inspect-detail', `${DETAIL}?id=egfr`],
    ]
    for (const elder of [false, true]) {
      if (elder) {
        await page.goto('/h5/pages/sys/user/index')
        await settled(page)
        await visible(page.getByRole('switch', { name: '长辈模式' })).first().click()
        await page.waitForFunction(() => document.documentElement.classList.contains('elder'))
      }
      for (const [name, path] of pages) {
        await page.goto(path)
        await settled(page)
        if (name === 'baby-blood') {
          for (const [group, option] of [
            ['爸爸的ABO血型', 'AB型'],
            ['爸爸的Rh血型', 'Rh阳性'],
            ['妈妈的ABO血型', 'O型'],
            ['妈妈的Rh血型', 'Rh阴性'],
          ] as const)
            await choose(page, group, option)
          await tapButton(page, '查看宝宝可能的血型')
          await seeText(page, '宝宝可能是A型、B型，Rh阳性或Rh阴性')
        }
        const m = await spills(page)
        const mode = elder ? 'elder mode' : 'standard'
        assert.deepEqual(m.spills, [], `${name}: text spills at 200 % (${mode})`)
        assert.equal(m.pageWider, false, `${name}: the page is wider than the screen at 200 % (${mode})`)
        await shot(page, `tools-text-200-${elder ? 'elder-' : ''}${name}`)
      }
    }
  })
})
