/**
 * 长辈模式 in the browser: switched on under 我的 and remembered; text at least 1.25x on every tab page, nothing
 * cut off or spilling sideways, and the registration and payment flow in both modes. Screenshots of each page in
 * both modes go to test-results/e2e/elder-*.png.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { DEMO_DOCTOR, appCall, bindMobile, bindPatient, deskCall, newPhone, orderConsultation, patientAtDoctor, seeText, setup, shot, tapButton, teardown, uniqueMobile, visible, waitForPath } from './support'

const HOSPITAL = '10392'
/** The pharmacist of 10392 (seed/staff.ts). */
const PHARMACIST_LOGIN = '10392P01'
const TABS: Checked[] = [
  ['home', `/pages/sys/merge/index?hospitalCode=${HOSPITAL}`],
  ['consultations', '/pages/sys/conversation/index'],
  ['knowledge', '/pages/sys/knowledge/index'],
  ['mine', '/pages/sys/user/index'],
]

async function settled(page: Page) {
  await visible(page.locator('.page-shell .nav-bar')).first().waitFor({ state: 'visible' })
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await page.waitForTimeout(300)
}

/**
 * What the page on show draws as text: the median font size (CSS px) of its visible text, and the text boxes that
 * spill out of their own box sideways or out of the screen (a name, a price or a time cut off), whose lines overlap,
 * or that are squeezed to one character a line, other than the navigation bar's title, which may end in an ellipsis.
 */
async function measure(page: Page): Promise<{ median: number; spills: string[]; pageWider: boolean }> {
  return page.evaluate(() => {
    const current = [...document.querySelectorAll<HTMLElement>('.taro_page')].find((p) => getComputedStyle(p).display !== 'none') ?? document.body
    const sizes: number[] = []
    const spills: string[] = []
    const walker = document.createTreeWalker(current, NodeFilter.SHOW_TEXT)
    const seen = new Set<HTMLElement>()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      if (!el || seen.has(el) || !node.textContent?.trim()) continue
      seen.add(el)
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      // the bars fixed to the screen's edges keep their size at a large browser text size (tokens.scss)
      if (!el.closest('.nav-bar, .tab-bar, .demo-mark')) sizes.push(parseFloat(getComputedStyle(el).fontSize))
      // the navigation title may end in an ellipsis; a banner slide waits off screen in its carousel
      if (el.closest('.nav-bar__title, .banners__track')) continue
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') spills.push(`${el.className}: ${node.textContent.trim().slice(0, 20)}`)
      if (box.right > window.innerWidth + 1) spills.push(`${el.className} (off screen): ${node.textContent.trim().slice(0, 20)}`)
      // lines drawn on top of each other: a line height below the text's own size
      const style = getComputedStyle(el)
      if (style.lineHeight !== 'normal' && parseFloat(style.lineHeight) < parseFloat(style.fontSize) - 0.5) spills.push(`${el.className} (lines overlap): ${node.textContent.trim().slice(0, 20)}`)
      // a name squeezed to one character a line
      const size = parseFloat(style.fontSize)
      if (node.textContent.trim().length >= 3 && box.width < size * 1.8 && box.height > size * 2.5) spills.push(`${el.className} (one character a line): ${node.textContent.trim().slice(0, 20)}`)
    }
    sizes.sort((a, b) => a - b)
    return { median: sizes[Math.floor(sizes.length / 2)] ?? 0, spills, pageWider: document.documentElement.scrollWidth > window.innerWidth + 1 }
  })
}

/**
 * The page's one action sits in the bar at the foot of the screen without scrolling, with the amount beside it, and
 * is 44 to 48 CSS pixels tall (more in elder mode).
 */
async function inActionBar(page: Page, label: string, mode: string) {
  const button = visible(page.locator('.action-bar .taro-button-core', { hasText: label })).first()
  await button.waitFor()
  const box = (await button.boundingBox())!
  const viewport = page.viewportSize()!
  assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `${label} is off screen (y ${box.y}) in the ${mode} mode`)
  assert.ok(box.height >= 44, `${label} is ${box.height}px tall in the ${mode} mode`)
  if (mode === 'standard') assert.ok(box.height <= 52, `${label} is ${box.height}px tall`)
  assert.match((await visible(page.locator('.action-bar__amount')).first().textContent()) ?? '', /^应付 ¥\d+\.\d{2}$/)
}

async function setElderMode(page: Page, on: boolean) {
  await page.goto('/h5/pages/sys/user/index')
  await settled(page)
  const toggle = visible(page.getByRole('switch', { name: '长辈模式' })).first()
  if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click()
  await page.waitForFunction((want) => document.documentElement.classList.contains('elder') === want, on)
}

/** A page to check: a name for its screenshots, its path, and what it shows once loaded (a page with data). */
type Checked = [name: string, path: string, shows?: RegExp]

/**
 * Each page in the standard mode, then each in elder mode (switched on under 我的): text at least 1.25x, nothing
 * spilling, nothing wider than the screen. Leaves the phone in elder mode.
 */
async function compareModes(page: Page, pages: Checked[]) {
  const normal: Record<string, number> = {}
  for (const [name, path, shows] of pages) {
    await page.goto(`/h5${path}`)
    if (shows) await seeText(page, shows)
    await settled(page)
    const m = await measure(page)
    assert.deepEqual(m.spills, [], `${name}: text spills in the standard mode`)
    assert.equal(m.pageWider, false, `${name}: the page is wider than the screen`)
    normal[name] = m.median
    await shot(page, `elder-${name}-standard`)
  }

  await setElderMode(page, true)
  for (const [name, path, shows] of pages) {
    await page.goto(`/h5${path}`)
    if (shows) await seeText(page, shows)
    await settled(page)
    const m = await measure(page)
    console.info(`elder mode, ${name}: body text ${normal[name]} px standard, ${m.median} px elder (${(m.median / normal[name]!).toFixed(2)}x)`)
    assert.ok(m.median >= normal[name]! * 1.25, `${name}: body text ${m.median}px in elder mode, ${normal[name]}px standard`)
    assert.deepEqual(m.spills, [], `${name}: text spills in elder mode`)
    assert.equal(m.pageWider, false, `${name}: the page is wider than the screen in elder mode`)
    await shot(page, `elder-${name}-elder`)
  }
}

describe('长辈模式 (elder mode) in the browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('text is at least 1.25x on every tab page, nothing spills, and the choice is remembered', { timeout: 300_000 }, async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/pages/sys/user/index?hospitalCode=${HOSPITAL}`)
    await visible(page.getByText('绑定手机号，使用全部服务 ›')).first().click()
    await bindMobile(page, uniqueMobile())
    // bound from 我的, the patient is back on 我的 (it once landed on 首页)
    await waitForPath(page, '/h5/pages/sys/user/index')
    await bindPatient(page, HOSPITAL, { name: '周文博', idCard: '310104197501014511' }, '13811110003')

    await compareModes(page, TABS)

    // remembered on the phone: a new page load keeps it
    await page.reload()
    await settled(page)
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('elder')), true)
    await setElderMode(page, false)
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('elder')), false)
  })

  test('the medicine pages in both modes: prescriptions, the order of one, the shop, the cart, the orders, the pharmacy', { timeout: 300_000 }, async () => {
    // an approved prescription of this patient's consultation, written and reviewed through the workbench's calls
    const doctor = await deskCall<{ token: string; staff: { doctorId: number } }>('', 'POST', '/login', DEMO_DOCTOR)
    const { page } = await patientAtDoctor(HOSPITAL, doctor.staff.doctorId, { name: '吴桂芳', idCard: '330106195203124429' })
    await orderConsultation(page, '咳嗽三天，夜间加重')
    const waiting = await deskCall<{ records: { id: number; description: string }[] }>(doctor.token, 'GET', '/inquiries?status=waiting')
    const inquiry = waiting.records.find((i) => i.description === '咳嗽三天，夜间加重')!
    await deskCall(doctor.token, 'POST', `/inquiries/${inquiry.id}/accept`, {})
    const [drug] = await deskCall<{ id: number }[]>(doctor.token, 'GET', `/formulary?keyword=${encodeURIComponent('阿莫西林')}`)
    const [pneumonia] = await deskCall<{ code: string; name: string }[]>(doctor.token, 'GET', `/diseases?keyword=${encodeURIComponent('肺炎')}`)
    const written = await deskCall<{ id: number }>(doctor.token, 'POST', `/inquiries/${inquiry.id}/prescriptions`, {
      category: 'western',
      diagnoses: [{ code: pneumonia!.code, name: pneumonia!.name }],
      advice: '饭后服用',
      lines: [{ drugId: drug!.id, dose: '0.5g', frequency: '每日3次', days: 3, quantity: 2 }],
      idempotencyKey: `elder-${Date.now()}`,
    })
    const pharmacist = await deskCall<{ token: string }>('', 'POST', '/login', { login: PHARMACIST_LOGIN, password: DEMO_DOCTOR.password })
    await deskCall(pharmacist.token, 'POST', `/review/prescriptions/${written.id}/approve`, {})

    // a delivery address, a product in the cart and an order waiting for payment (the shop's own journeys click these)
    await appCall(page, 'POST', '/dld-hospital/addAddress', { name: '吴桂芳', mobile: '13800003333', provinceCode: 330000, cityCode: 330100, districtCode: 330106, detail: '文三路90号', isDefault: true })
    const shop = await appCall<{ records: { id: number; name: string; storeId: number }[] }>(page, 'GET', `/dld-rpflow/api/drugStore/shop/drugPage?keyword=${encodeURIComponent('布洛芬')}&page=1&size=10`)
    const product = shop.records[0]!
    const order = await appCall<{ id: number }>(page, 'POST', '/dld-rpflow/api/order/place', {
      source: 'shop',
      lines: [{ drugId: product.id, quantity: 1 }],
      storeId: product.storeId,
      delivery: 'express',
      addressId: (await appCall<{ id: number }[]>(page, 'GET', '/dld-hospital/addressList'))[0]!.id,
      idempotencyKey: `elder-shop-${Date.now()}`,
    })
    await page.goto('/h5/pages/shop/list/index')
    await visible(page.getByRole('button', { name: `${product.name}加入购物车` })).first().click()

    await compareModes(page, [
      ['prescriptions', '/internet/prescription/index', /药品：阿莫西林胶囊/],
      ['prescription-order', `/internet/sureOrder/index?prescriptionId=${written.id}`, /阿莫西林胶囊/],
      ['used-medicine', '/internet/usedMedicine/index', /阿莫西林胶囊/],
      ['shop', '/pages/shop/list/index', /布洛芬缓释胶囊/],
      ['cart', '/pages/shop/cart/index', /布洛芬缓释胶囊/],
      ['shop-orders', '/pages/order/shop/index', /布洛芬缓释胶囊/],
      ['shop-order', `/pages/order/shop/detail?id=${order.id}`, /待支付/],
      ['pharmacy', `/internet/store/index?id=${product.storeId}`, /互联网药房/],
    ])
  })

  test('each hospital’s own pages in both modes: add-patient variants, 10412’s card type, aixin’s doctor list', { timeout: 300_000 }, async () => {
    const own: [hospitalCode: string, pages: Checked[]][] = [
      [
        '10412',
        [
          ['10412-card-type', '/custom/10412/cardType/index', /请选择就诊人使用的证件/],
          ['10412-social-card', '/custom/10412/addPatient/index?cardType=socialCard', /社保卡号/],
        ],
      ],
      ['10392', [['10392-add-patient', '/custom/10392/addPatient/index', /本院核酸检测、医保结算均需实名/]]],
      ['10387', [['10387-add-patient', '/custom/10387/addPatient/index', /本院暂未接入电子健康卡/]]],
      ['aixin', [['aixin-doctors', '/custom/aixin/doctorList/index', /示范爱心医院/]]],
    ]
    for (const [code, pages] of own) {
      const { page } = await newPhone()
      await page.goto(`/h5/pages/sys/user/index?hospitalCode=${code}`)
      await visible(page.getByText('绑定手机号，使用全部服务 ›')).first().click()
      await bindMobile(page, uniqueMobile())
      await waitForPath(page, '/h5/pages/sys/user/index')
      await compareModes(page, pages)
    }
  })

  test('registration and payment in both modes: confirm, hold, paid detail', { timeout: 300_000 }, async () => {
    const { page } = await newPhone()
    await page.goto(`/h5/palm/register/index?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/palm/register/index')
    await bindPatient(page, HOSPITAL, { name: '陈美玲', idCard: '440305199208233622' }, '13811110002')
    // one booking per department and time of day: each mode books in its own department
    for (const [mode, dept] of [['standard', '心血管内科'], ['elder', '呼吸与危重症医学科']] as const) {
      await setElderMode(page, mode === 'elder')
      await page.goto('/h5/palm/register/deptList/index')
      await settled(page)
      await shot(page, `elder-register-depts-${mode}`)
      await visible(page.getByText(dept, { exact: true })).first().click()
      await visible(page.locator('.schedule-row')).first().waitFor()
      await visible(page.getByText('按医生', { exact: true })).first().click()
      await visible(page.locator('.dept-schedule__doctor', { hasText: '医师' })).first().click()
      await waitForPath(page, '/h5/palm/register/rowSchedule/index')
      await settled(page)
      await shot(page, `elder-register-doctor-${mode}`)
      await visible(page.locator('.schedule-grid__cell--open')).first().click()
      await waitForPath(page, '/h5/palm/register/confirm/index')
      await visible(page.locator('.confirm__range')).first().waitFor()
      await settled(page)
      const confirm = await measure(page)
      assert.deepEqual(confirm.spills, [], `confirm page spills in the ${mode} mode`)
      await shot(page, `elder-register-confirm-${mode}`)
      await visible(page.locator('.confirm__range', { hasNotText: '已约满' })).first().click()
      await inActionBar(page, '确认挂号', mode)
      await tapButton(page, '确认挂号')
      await visible(page.locator('.hold-pay')).first().waitFor()
      await inActionBar(page, '去支付', mode)
      await shot(page, `elder-register-hold-${mode}`)
      await tapButton(page, '去支付')
      await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
      await page.getByText('确认支付', { exact: true }).click()
      await waitForPath(page, '/h5/pages/order/register/detail')
      await seeText(page, '预约成功')
      await settled(page)
      const paid = await measure(page)
      assert.deepEqual(paid.spills, [], `paid detail spills in the ${mode} mode`)
      await shot(page, `elder-register-paid-${mode}`)
    }
  })

  test('at 200 % text size (the browser font-size setting) text doubles and still fits the screen', { timeout: 300_000 }, async () => {
    const { page } = await newPhone()
    // Chromium's font-size setting, as a patient sets it: 'medium' becomes 32px
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32 } })
    await page.goto(`/h5/pages/sys/user/index?hospitalCode=${HOSPITAL}`)
    await visible(page.getByText('绑定手机号，使用全部服务 ›')).first().click()
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/pages/sys/user/index')
    await bindPatient(page, HOSPITAL, { name: '林国栋', idCard: '350102194803150317' }, '13811110004')
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--text-scale').trim()), '2')

    const pages: Checked[] = [
      ...TABS,
      ['departments', '/palm/register/deptList/index'],
      ['patients', '/pages/patient/index'],
      ['add-patient', '/pages/addPatient/index'],
    ]
    for (const [name, path] of pages) {
      await page.goto(`/h5${path}`)
      await settled(page)
      const m = await measure(page)
      // the same page at the standard size, for comparison
      await page.evaluate(() => document.documentElement.style.setProperty('--text-scale', '1'))
      const base = await measure(page)
      await page.evaluate(() => document.documentElement.style.setProperty('--text-scale', '2'))
      console.info(`200 % text, ${name}: body text ${base.median} px standard, ${m.median} px (${(m.median / base.median).toFixed(2)}x)`)
      assert.ok(m.median >= base.median * 1.9, `${name}: body text ${m.median}px at 200 %, ${base.median}px standard`)
      assert.deepEqual(m.spills, [], `${name}: text spills at 200 %`)
      assert.equal(m.pageWider, false, `${name}: the page is wider than the screen at 200 %`)
      await shot(page, `text-200-${name}`)
    }
    // a form's input still shows a whole name and number at 200 %: at least 8 characters of its own font wide
    await page.goto('/h5/pages/addPatient/index')
    await settled(page)
    const fields = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('.taro_page input')]
        .filter((i) => i.getBoundingClientRect().width > 0)
        .map((i) => ({ placeholder: i.placeholder, chars: i.getBoundingClientRect().width / parseFloat(getComputedStyle(i).fontSize) })),
    )
    assert.ok(fields.length >= 3, 'the add-patient form shows its fields')
    for (const f of fields) assert.ok(f.chars >= 8, `${f.placeholder}: ${f.chars.toFixed(1)} characters wide at 200 %`)
  })
})
