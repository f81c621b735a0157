/**
 * Browser journey through 扫一扫 and sharing in WeChat's browser: Chromium with WeChat's user agent, a stand-in for the
 * JS-SDK put on window.wx before the app loads (WeChat's own script would; nothing reaches outside), the real server
 * (its sandbox WeChat sign-in and jsapi signature) and the built H5 app. The patient scans a doctor's card on the
 * internet hospital's home and lands on that doctor's home, which sets WeChat's share card. In an ordinary browser
 * the JS-SDK's code never loads, and 扫一扫 is the camera's: Chromium's fake camera plays a bill's QR code.
 */
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page, Request } from 'playwright-core'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { WAIT_MS, baseUrl, bindMobile, newPhone, seeText, setup, shot, teardown, uniqueMobile, visible, waitForPath } from './support'
import { qrLuma } from '../page/doubles/qrImage'

const HOSPITAL = '10412'
const HOME = '/h5/pages/sys/internet/index'
/** A seeded online doctor of 10412 (server/src/seed/internet.ts). */
const TAN = { id: 145, name: '谭振华' }
const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160083 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'

/** What the stand-in JS-SDK was asked: every wx.config, scan and share card. */
interface WxRecord {
  configs: Record<string, unknown>[]
  scans: Record<string, unknown>[]
  shares: Record<string, unknown>[]
  /** what the scanner reads next; null: the patient closes it */
  next: string | null
}

/**
 * The JS-SDK as WeChat's script tag leaves it on window.wx, recording into window.wxRecord; it runs in the page before
 * the app (page.addInitScript). Plain JavaScript in a string: a function would be serialised after tsx has compiled it,
 * with helpers the page does not have.
 */
const WX_STAND_IN = `
  const record = { configs: [], scans: [], shares: [], next: null }
  const data = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function'))
  window.wxRecord = record
  window.wx = {
    config: (o) => record.configs.push(data(o)),
    ready: (fn) => setTimeout(fn, 0),
    error: () => undefined,
    scanQRCode: (o) => {
      record.scans.push(data(o))
      if (record.next === null) o.cancel()
      else o.success({ resultStr: record.next })
    },
    updateAppMessageShareData: (o) => record.shares.push({ to: 'friend', ...data(o) }),
    updateTimelineShareData: (o) => record.shares.push({ to: 'timeline', ...data(o) }),
  }
`

const wxRecord = (page: Page) => page.evaluate(() => (window as unknown as { wxRecord: WxRecord }).wxRecord)

const isSignatureCall = (r: Request) => new URL(r.url()).pathname.startsWith('/dld-weixin/jsapi/jsapiSignature/')

/** The app's own storage, as Taro.setStorageSync writes it: `{"data": value}` per key. */
async function readStorage<T>(page: Page, key: string): Promise<T | undefined> {
  const raw = await page.evaluate((k) => localStorage.getItem(k), key)
  return raw ? (JSON.parse(raw) as { data: T }).data : undefined
}

describe("扫一扫 and sharing in WeChat's browser", () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test("scanning a doctor's card on the home signs the page's address with the server, configures wx, and opens the doctor's home", async () => {
    const phone = await newPhone()
    const { page, requests } = phone
    const cdp = await phone.context.newCDPSession(page)
    await cdp.send('Emulation.setUserAgentOverride', { userAgent: WECHAT_UA })
    await page.addInitScript(WX_STAND_IN)

    // signed in and bound (internet pages need a bound user, spec §4), then at the internet hospital's home
    await page.goto(`/h5/internet/doctorList/index?hospitalCode=${HOSPITAL}`)
    await bindMobile(page, uniqueMobile())
    await waitForPath(page, '/h5/internet/doctorList/index')
    await page.goto(HOME)
    await waitForPath(page, HOME)
    const scan = visible(page.getByRole('button', { name: '扫一扫' })).first()
    await scan.waitFor()
    await shot(page, 'scan-0-home')
    assert.equal(requests.filter(isSignatureCall).length, 0, 'nothing is signed before the patient scans')

    // the patient closes the scanner: nothing happens
    const signed = page.waitForResponse((r) => isSignatureCall(r.request()))
    await scan.click()
    const answer = await signed
    await page.waitForFunction(() => (window as unknown as { wxRecord: WxRecord }).wxRecord.scans.length === 1)
    assert.equal(new URL(page.url()).pathname, HOME)

    // the signature of the page's address (without #), for the official account the patient signed in with
    const signatureCall = new URL(answer.url())
    const appId = await readStorage<string>(page, 'appId')
    assert.ok(appId, 'signed in under an app id')
    assert.equal(signatureCall.pathname, `/dld-weixin/jsapi/jsapiSignature/${appId}`)
    assert.equal(signatureCall.searchParams.get('url'), `${baseUrl}${HOME}`)
    const body = (await answer.json()) as { code: number; data: { appId: string; timestamp: number; nonceStr: string; signature: string } }
    assert.equal(body.code, 200)
    assert.match(body.data.signature, /^[0-9a-f]{40}$/)
    // wx.config with exactly what the server signed
    let record = await wxRecord(page)
    assert.deepEqual(record.configs, [{ ...body.data, jsApiList: ['scanQRCode', 'updateAppMessageShareData', 'updateTimelineShareData'] }])
    assert.deepEqual(record.scans, [{ needResult: 1, scanType: ['qrCode'] }])

    // a doctor's card: the web address of the doctor's home
    await page.evaluate((code) => void ((window as unknown as { wxRecord: WxRecord }).wxRecord.next = code), `${baseUrl}/h5/internet/doctor/index?id=${TAN.id}`)
    await scan.click()
    await waitForPath(page, '/h5/internet/doctor/index', (q) => q.get('id') === String(TAN.id))
    await seeText(page, TAN.name)
    await shot(page, 'scan-1-doctor-from-card')

    // the doctor's home sets WeChat's share card; after the history-mode navigation its own address is signed (the
    // home's was signed once, for both scans)
    await page.waitForFunction(() => (window as unknown as { wxRecord: WxRecord }).wxRecord.shares.length >= 2)
    const signatures = requests.filter(isSignatureCall).map((r) => new URL(r.url()).searchParams.get('url'))
    assert.deepEqual(signatures, [`${baseUrl}${HOME}`, `${baseUrl}/h5/internet/doctor/index?id=${TAN.id}`])
    record = await wxRecord(page)
    assert.equal(record.scans.length, 2)
    assert.equal(record.configs.length, 2)
    const link = `${baseUrl}/h5/internet/doctor/index?id=${TAN.id}&appId=${appId}`
    for (const to of ['friend', 'timeline']) {
      const card = record.shares.find((s) => s.to === to)
      assert.ok(card, `a ${to} card`)
      assert.match(String(card.title), new RegExp(`^${TAN.name} `))
      assert.equal(card.link, link)
    }
  })

  test('an ordinary browser’s 扫一扫 is the camera’s: no signature, no JS-SDK, and no QR decoder before it is tapped', async () => {
    const { page, requests } = await newPhone()
    const scripts: string[] = []
    page.on('response', async (r) => {
      if (r.request().resourceType() === 'script') scripts.push(await r.text().catch(() => ''))
    })
    await page.goto(`/h5/?hospitalCode=${HOSPITAL}`)
    await waitForPath(page, HOME)
    await visible(page.getByRole('region', { name: '热门医生' })).first().locator('.doctor-card').first().waitFor()
    await page.waitForLoadState('networkidle')
    await visible(page.getByRole('button', { name: '扫一扫' })).first().waitFor()
    assert.equal(requests.filter(isSignatureCall).length, 0)
    assert.ok(scripts.length > 0, 'the app’s scripts were seen')
    // jweixin's own name for wx.config, and our signature call: neither is in what an ordinary browser loads
    assert.ok(!scripts.some((s) => s.includes('preVerifyJSAPI')), 'the JS-SDK was loaded')
    assert.ok(!scripts.some((s) => s.includes('jsapiSignature')), 'the JS-SDK configuration was loaded')
    // jsQR's own option name: the decoder is not in the first load
    assert.ok(!scripts.some((s) => s.includes('inversionAttempts')), 'the QR decoder was loaded before 扫一扫')
  })
})

/**
 * A phone's rear camera, as Chromium fakes one: a Y4M video (one frame, played in a loop) of a bill's printed QR code.
 * 4:2:0, the code in the luma plane, the colour planes neutral.
 */
function fakeCameraFile(text: string): string {
  const [width, height] = [640, 480]
  const luma = qrLuma(text, width, height, 6)
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128)
  const file = join(mkdtempSync(join(tmpdir(), 'fake-camera-')), 'bill.y4m')
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), Buffer.from(luma), chroma]))
  return file
}

describe('扫一扫 with the camera in an ordinary browser', () => {
  before(setup, { timeout: 90_000 })
  after(teardown, { timeout: 30_000 })

  test('the camera reads a bill’s QR code on 扫码缴费 and the bill opens', async () => {
    const billNo = 'B202611230123456789'
    const camera = fakeCameraFile(`${baseUrl}/h5/palm/payment/waitPay?billNo=${billNo}`)
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${camera}`,
      ],
    })
    try {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 }, locale: 'zh-CN' })
      context.setDefaultTimeout(WAIT_MS)
      await context.grantPermissions(['camera'], { origin: baseUrl })
      const page = await context.newPage()
      await page.goto('/h5/palm/scanCode/index?hospitalCode=10392')
      await bindMobile(page, uniqueMobile())
      await waitForPath(page, '/h5/palm/scanCode/index')
      await visible(page.getByRole('button', { name: /扫一扫/ })).first().click()
      await visible(page.getByRole('dialog', { name: '扫一扫' })).first().waitFor()
      await shot(page, 'scan-camera')
      await waitForPath(page, '/h5/palm/payment/waitPay', (q) => q.get('billNo') === billNo && q.get('source') === 'scanCode')
      assert.equal(await page.locator('.camera-scan').count(), 0, 'the camera layer is gone')
    } finally {
      await browser.close()
    }
  })
})
