/**
 * Browser-test support: the real server (a child process on a fresh data directory, serving dist/h5 at /h5/),
 * Debian Chromium driven by playwright-core, and the few patient gestures several journeys share.
 *
 * One browser context is one phone, and therefore one sandbox WeChat user (the sandbox knows the browser by a cookie).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import assert from 'node:assert/strict'
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request } from 'playwright-core'
import { removeStaleTemplates, seedTemplateKey } from '../seedTemplate'

export const ROOT = resolve(__dirname, '..', '..')
/** The H5 build the server serves (config/index.ts puts it under BUILD_ROOT, dist by default). */
export const H5_DIR = resolve(ROOT, process.env.BUILD_ROOT ?? 'dist', 'h5')
export const SHOT_DIR = join(ROOT, 'test-results', 'e2e')

/** Explicit waits never exceed this. */
export const WAIT_MS = 20_000
/** The template's start migrates the embedded database and seeds it (seededTemplate). */
const SERVER_START_MS = 60_000

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

let child: ChildProcess | null = null
let dataDir: string | null = null
let browser: Browser | null = null
const contexts = new Set<BrowserContext>()
export let baseUrl = ''

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', rej)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => res(port))
    })
  })
}

const killChild = () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
/** Interrupted (Ctrl-C, or the test runner giving up): the server goes too. */
const killChildAndExit = (signal: NodeJS.Signals) => {
  killChild()
  process.exit(signal === 'SIGINT' ? 130 : 143)
}

let serverPort = 0

/**
 * Starts `node --import tsx server/src/server.ts` on a fresh data directory, a copy of the seeded template, and waits
 * until it answers.
 */
export async function startServer(): Promise<string> {
  assert.ok(existsSync(join(H5_DIR, 'index.html')), 'dist/h5 is missing: run `npx taro build --type h5` first')
  const template = await seededTemplate()
  serverPort = await freePort()
  dataDir = mkdtempSync(join(tmpdir(), 'hospital-h5-e2e-'))
  cpSync(template, dataDir, { recursive: true })
  baseUrl = `http://127.0.0.1:${serverPort}`
  process.once('exit', killChild)
  process.once('SIGINT', killChildAndExit)
  process.once('SIGTERM', killChildAndExit)
  return spawnServer()
}

/** The server process on `dataDir` and `serverPort`, answered once it serves the hospital list. */
async function spawnServer(): Promise<string> {
  child = await launch(dataDir!, serverPort)
  return baseUrl
}

/** A server process on `dir` and `port`, once it serves the hospital list. */
async function launch(dir: string, port: number): Promise<ChildProcess> {
  // every phone of a run comes from 127.0.0.1, like patients on one hospital Wi-Fi; unpaid orders close within 2 s
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', SMS_PER_ADDRESS_PER_MINUTE: '30', ORDER_SWEEP_SECONDS: '2', DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', H5_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  proc.stdout?.on('data', (c) => (output += c))
  proc.stderr?.on('data', (c) => (output += c))
  const deadline = Date.now() + SERVER_START_MS
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${output}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/dld-hospital/hospital/list`, { signal: AbortSignal.timeout(2000) })
      if (res.ok) return proc
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  await stop(proc, 'SIGTERM')
  throw new Error(`server did not answer within ${SERVER_START_MS / 1000} s:\n${output}`)
}

/** Ends a server process: `signal`, then SIGKILL if it is still there after 5 s. */
async function stop(proc: ChildProcess, signal: NodeJS.Signals) {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise<void>((r) => proc.once('exit', () => r()))
  proc.kill(signal)
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

async function stopChild(signal: NodeJS.Signals) {
  const proc = child
  child = null
  if (proc) await stop(proc, signal)
}

/** Where the seeded data directories live, one per test/seedTemplate.ts key. */
const TEMPLATE_ROOT = join(tmpdir(), 'hospital-h5-e2e-templates')

/**
 * The data directory of a server that started once on an empty one and stopped cleanly: migrated, seeded and with its
 * keys. Each test file's server starts on a copy of it (about 4 s a start on this project's 2-core machines, against
 * about 11 s migrating and seeding an empty one). Built by whichever test file needs it first; two building at
 * once each build one, and the first renamed into place is kept.
 */
async function seededTemplate(): Promise<string> {
  const ready = join(TEMPLATE_ROOT, seedTemplateKey)
  if (existsSync(ready)) return ready
  mkdirSync(TEMPLATE_ROOT, { recursive: true })
  const building = mkdtempSync(join(TEMPLATE_ROOT, 'building-'))
  try {
    await stop(await launch(building, await freePort()), 'SIGTERM')
    renameSync(building, ready)
  } catch (e) {
    rmSync(building, { recursive: true, force: true })
    if (!existsSync(ready)) throw e // otherwise another test file was first
  }
  // the templates of other keys, and ones left half-built
  removeStaleTemplates(TEMPLATE_ROOT, ready)
  return ready
}

/**
 * The server goes away (killed outright, as in a crash or a deploy that does not drain) and comes back on the same
 * address and database after `downMs`; `whileDown` runs in between.
 */
export async function restartServer(downMs: number, whileDown?: () => Promise<void>): Promise<void> {
  await stopChild('SIGKILL')
  await whileDown?.()
  await new Promise((r) => setTimeout(r, downMs))
  await spawnServer()
}

/** Stops the server child (SIGTERM, then SIGKILL) and removes its data directory. */
export async function stopServer(): Promise<void> {
  await stopChild('SIGTERM')
  process.removeListener('exit', killChild)
  process.removeListener('SIGINT', killChildAndExit)
  process.removeListener('SIGTERM', killChildAndExit)
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  dataDir = null
}

export async function launchBrowser(): Promise<Browser> {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  return browser
}

export async function closeBrowser(): Promise<void> {
  for (const ctx of contexts) await ctx.close().catch(() => undefined)
  contexts.clear()
  await browser?.close()
  browser = null
}

/** Server and browser for one test file: call in `before`, and `teardown` in `after`. */
export async function setup(): Promise<void> {
  await startServer()
  try {
    await launchBrowser()
  } catch (e) {
    await stopServer()
    throw e
  }
}

export async function teardown(): Promise<void> {
  try {
    await closeBrowser()
  } finally {
    await stopServer()
  }
}

export interface Phone {
  page: Page
  context: BrowserContext
  /** Every request the page made, in order (sandbox authorisation trips included). */
  requests: Request[]
  /** How many times the phone went to the sandbox WeChat authorisation page so far. */
  authorizeTrips(): number
}

/** A new phone: its own browser context (cookies, storage), 390x844, zh-CN. */
export async function newPhone(): Promise<Phone> {
  assert.ok(browser, 'launchBrowser() first')
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 }, locale: 'zh-CN', deviceScaleFactor: 1 })
  contexts.add(context)
  context.setDefaultTimeout(WAIT_MS)
  context.setDefaultNavigationTimeout(WAIT_MS)
  const page = await context.newPage()
  const requests: Request[] = []
  page.on('request', (r) => requests.push(r))
  return {
    page,
    context,
    requests,
    authorizeTrips: () => requests.filter((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/sandbox/wechat/authorize').length,
  }
}

/** A doctor's desk: a desktop browser context (1280x800) for the workbench the server serves at /workbench/. */
export async function newDesk(): Promise<Page> {
  assert.ok(browser, 'launchBrowser() first')
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' })
  contexts.add(context)
  context.setDefaultTimeout(WAIT_MS)
  context.setDefaultNavigationTimeout(WAIT_MS)
  return context.newPage()
}

/** Saves a full-page screenshot to test-results/e2e/<name>.png. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOT_DIR, { recursive: true })
  const path = join(SHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** The path (and query) of the page's address, e.g. `/h5/pages/sys/user/index`. */
export const pathOf = (page: Page) => new URL(page.url()).pathname

/** Waits until the address has this path (and, optionally, a query that passes `query`). */
export async function waitForPath(page: Page, path: string, query?: (q: URLSearchParams) => boolean, timeout = WAIT_MS) {
  await page.waitForURL((u) => u.pathname === path && (!query || query(u.searchParams)), { timeout })
}

/**
 * The visible matches of a locator. Taro's H5 router keeps the pages below the current one in the DOM (hidden),
 * so every look at the screen goes through this.
 */
export const visible = (locator: Locator) => locator.filter({ visible: true })

/** Waits until a visible element holds this text (exactly, for a string). */
export async function seeText(page: Page, text: string | RegExp, timeout = WAIT_MS) {
  await visible(page.getByText(text, { exact: typeof text === 'string' ? true : undefined })).first().waitFor({ state: 'visible', timeout })
}

/** Waits until a visible element matching `selector` holds this text. */
export async function see(page: Page, selector: string, hasText: string | RegExp, timeout = WAIT_MS) {
  await visible(page.locator(selector, { hasText })).first().waitFor({ state: 'visible', timeout })
}

/** How many visible elements hold this text. */
export const countVisibleText = (page: Page, text: string | RegExp) => visible(page.getByText(text)).count()

/** The labels of the bottom tab bar of the current page, in order. */
export async function tabLabels(page: Page): Promise<string[]> {
  const bar = visible(page.locator('.tab-bar')).first()
  await bar.waitFor({ state: 'visible', timeout: WAIT_MS })
  return (await bar.locator('.tab-bar__text').allInnerTexts()).map((t) => t.trim())
}

/** Taps a NutUI Button by its text: Taro's `.taro-button-core` element takes the pointer events. */
export async function tapButton(page: Page, text: string) {
  await visible(page.locator('.taro-button-core', { hasText: text })).first().click()
}

/** The mobile as the app shows it: first 3, four stars, last 4. */
export const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(-4)}`

let mobileSeq = 0
/** A mobile number no other journey of this run uses. */
export const uniqueMobile = () => `139${String(process.pid % 10_000).padStart(4, '0')}${String(++mobileSeq).padStart(4, '0')}`

/**
 * On the bind page (/pages/login/index): types the mobile, asks for a code, reads `devCode` from the
 * POST /dld-auth/token/smsBindCode answer (NODE_ENV=test), types it, agrees to the agreement and policy and taps 绑定并登录.
 */
export async function bindMobile(page: Page, mobile: string): Promise<void> {
  await waitForPath(page, '/h5/pages/login/index')
  const mobileInput = visible(page.getByPlaceholder('请输入手机号')).first()
  await mobileInput.waitFor({ state: 'visible', timeout: WAIT_MS })
  await mobileInput.click()
  await mobileInput.pressSequentially(mobile)
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dld-auth/token/smsBindCode', {
    timeout: WAIT_MS,
  })
  await visible(page.getByText('获取验证码', { exact: true })).first().click()
  const body = (await (await answer).json()) as { code: number; msg: string; data: { devCode?: string } | null }
  assert.equal(body.code, 200, `smsBindCode answered ${body.code} ${body.msg}`)
  const devCode = body.data?.devCode
  assert.match(devCode ?? '', /^\d{6}$/, 'the test server answers the bind code as devCode')
  const codeInput = visible(page.getByPlaceholder('请输入验证码')).first()
  await codeInput.click()
  await codeInput.pressSequentially(devCode!)
  // PIPL: the agreement and the policy are agreed to before binding (the consent is recorded for the account)
  const agree = visible(page.getByRole('checkbox', { name: '我已阅读并同意用户协议和隐私政策' })).first()
  if ((await agree.getAttribute('aria-checked')) !== 'true') await agree.click()
  await tapButton(page, '绑定并登录')
}

/**
 * Binds a patient through the same calls the add-patient page makes (that page has its own journeys in
 * patient.test.ts); the identity number travels base64-encoded (spec §3).
 */
export async function bindPatient(page: Page, hospitalCode: string, person: { name: string; idCard: string }, mobile: string) {
  const answer = await page.evaluate(
    async ({ person, mobile, hospitalCode }) => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const sms = await (await fetch('/dld-auth/token/smsBindCode', { method: 'POST', headers, body: JSON.stringify({ mobile, purpose: 'patient' }) })).json()
      const body = { name: person.name, idCard: btoa(person.idCard), mobile, code: sms.data?.devCode, relation: '本人', hospitalCode }
      return (await fetch('/dld-palm/api/patient/bind', { method: 'POST', headers, body: JSON.stringify(body) })).json()
    },
    { person, mobile, hospitalCode },
  )
  assert.equal(answer.code, 200, `bind ${person.name}: ${answer.msg}`)
}

/** Taps a button of the confirm modal (Taro's or NutUI's). */
export async function confirmModal(page: Page, button = '确定') {
  await visible(page.locator('.taro-modal__foot, .nut-dialog-footer').getByText(button, { exact: true })).first().click()
}

/** A doctor of 10392 at the workbench: the demo seed's account and password. */
export const DEMO_DOCTOR = { login: '10392001', password: 'demo1234' }

/** A workbench call as the workbench page makes it (JSON, the staff token); answers the data of a 200 envelope. */
export async function deskCall<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/dld-doctor/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  assert.equal(env.code, 200, `${path}: ${env.msg}`)
  return env.data
}

/**
 * The phone's patient books the first free place of 心血管内科 at a hospital and pays for it in the cashier (as the
 * registration test does); answers the booking's number, by which the workbench console finds the visit.
 */
export async function bookVisit(page: Page, hospitalCode: string): Promise<string> {
  await page.goto(`/h5/palm/register/index?hospitalCode=${hospitalCode}`)
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
  return page.evaluate(async () => {
    const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
    const token = typeof stored === 'string' ? stored : stored?.data
    const answer = await (await fetch('/dld-palm/api/register/list?page=1&size=1', { headers: { Authorization: `Bearer ${token}` } })).json()
    return answer.data.records[0].regNo as string
  })
}


/** A 1x1 PNG: the "photo of the throat" a patient attaches to a consultation. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

/**
 * Signs a workbench account in (the demo password); answers its profile. A doctor's desk is ready once its chat is
 * connected; a pharmacist's (who does not chat) once the 审方 panel shows.
 */
export async function deskSignIn(desk: Page, login: string, password = DEMO_DOCTOR.password): Promise<{ kind: string; doctorId: number | null }> {
  await desk.goto('/workbench/')
  await desk.getByPlaceholder('请输入账号（工号）').fill(login)
  await desk.getByPlaceholder('请输入密码').fill(password)
  const answer = desk.waitForResponse((r) => new URL(r.url()).pathname === '/dld-doctor/api/login')
  await desk.getByRole('button', { name: '登录' }).click()
  const body = (await (await answer).json()) as { code: number; msg: string; data: { staff: { kind: string; doctorId: number | null } } }
  assert.equal(body.code, 200, body.msg)
  if (body.data.staff.kind === 'pharmacist') await desk.locator('#review').waitFor()
  else await desk.locator('#chat-state').filter({ hasText: /已连接/ }).waitFor()
  return body.data.staff
}

/** The desk opens the newest consultation of a tab. */
export async function deskOpen(desk: Page, tab: '待接诊' | '问诊中' | '已结束', patientName: string) {
  await desk.getByRole('tab', { name: tab }).click()
  await desk.locator('#inquiry-list a.item', { hasText: patientName }).first().click()
  await desk.locator('#detail').waitFor({ state: 'visible' })
}

/** A new phone signed in, with a bound patient, at the internet doctor's home page. */
export async function patientAtDoctor(hospitalCode: string, doctorId: number, person: { name: string; idCard: string }): Promise<Phone> {
  const phone = await newPhone()
  const { page } = phone
  const home = `/h5/internet/doctor/index?id=${doctorId}&hospitalCode=${hospitalCode}`
  await page.goto(home)
  await bindMobile(page, uniqueMobile())
  await waitForPath(page, '/h5/internet/doctor/index')
  // the patient's own mobile (a second code for the account's mobile would wait out the 60 s resend rule)
  await bindPatient(page, hospitalCode, person, uniqueMobile())
  await page.goto(home)
  return phone
}

/**
 * On the doctor's home page: orders a 图文问诊 with a picture and pays it in the sandbox cashier; ends on the
 * inquiry's detail. `shotName` names a screenshot of the filled-in form.
 */
export async function orderConsultation(page: Page, illness: string, shotName?: string) {
  await tapButton(page, '图文问诊')
  await waitForPath(page, '/h5/internet/inquiry/index')
  const chip = visible(page.getByRole('radio')).first()
  await chip.waitFor()
  if ((await chip.getAttribute('aria-checked')) !== 'true') await chip.click()
  const description = visible(page.getByPlaceholder(/请详细描述症状/)).first()
  await description.click()
  await description.pressSequentially(illness)
  const chooser = page.waitForEvent('filechooser')
  await visible(page.getByRole('button', { name: '添加图片' })).first().click()
  const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/dld-file/files-upload')
  await (await chooser).setFiles({ name: 'throat.png', mimeType: 'image/png', buffer: PNG_1X1 })
  assert.equal(((await (await uploaded).json()) as { code: number }).code, 200)
  await visible(page.getByRole('button', { name: '删除第1张图片' })).first().waitFor()
  await visible(page.locator('.inquiry__consent').getByText('我已阅读并同意', { exact: true })).first().click()
  assert.equal(await visible(page.getByRole('checkbox')).first().getAttribute('aria-checked'), 'true')
  if (shotName) await shot(page, shotName)
  await tapButton(page, '提交并支付')
  await page.waitForURL((u) => u.pathname === '/sandbox/pay/cashier')
  await page.getByText('确认支付', { exact: true }).click()
  await waitForPath(page, '/h5/pages/order/inquiry/detail', (q) => /^\d+$/.test(q.get('id') ?? ''))
  await seeText(page, '待接诊')
}

/** Calls the server as the signed-in app does (its token from storage); answers the envelope's data. */
export async function appCall<T>(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const stored = JSON.parse(localStorage.getItem('token') ?? 'null')
      const token = typeof stored === 'string' ? stored : stored?.data
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
      if (body) headers['Content-Type'] = 'application/json'
      return (await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined })).json()
    },
    { method, path, body },
  )
  assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`)
  return answer.data as T
}
