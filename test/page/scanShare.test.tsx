/**
 * 扫一扫 on the home page and sharing a doctor's home or a health-knowledge article, in each build: the WeChat and
 * Alipay mini-programs (their platform file, Taro's scanCode and share menu as the doubles give them), and the H5 app
 * in WeChat's browser (the JS-SDK configured with the server's signature of the page's address), in Alipay's browser
 * (AlipayJSBridge) and in any other browser (no scanner).
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { alipayBrowser, plainBrowser, UA, wechatBrowser } from './doubles/browsers'
import type { Platform, ShareContent } from '../../src/platform'
import { miniProgram, useShare as miniShare } from '../../src/platform/miniProgram'
import { RootStore } from '../../src/stores/RootStore'
import { ELDER_CLASS } from '../../src/stores/PreferencesStore'
import { LOCAL, local } from '../../src/services/storage'
import Home from '../../src/pages/sys/merge'
import OnlineDoctorHome from '../../src/internet/doctor'
import KnowledgeDetail from '../../src/pages/sys/knowledge/detail'
import { SCAN_FAILED, UNKNOWN_CODE } from '../../src/components/HomePage/ScanEntry'
import type { OnlineDoctorInfo } from '../../types/api/internet'
import type { Article } from '../../types/api/hospital'

// the build's platform file: the H5 one unless a describe picks a mini-program's
jest.mock('@/platform', () => {
  const h5 = jest.requireActual('../../src/platform/index.h5')
  const holder = { current: h5.default, useShare: h5.useShare, h5 }
  return {
    __esModule: true,
    holder,
    default: new Proxy({}, { get: (_t, key) => holder.current[key] }),
    useShare: (content: ShareContent | null) => holder.useShare(content),
  }
})
const { holder } = jest.requireMock('@/platform') as {
  holder: { current: Platform; useShare: (c: ShareContent | null) => void; h5: { default: Platform; useShare: (c: ShareContent | null) => void } }
}

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const MINI_ORIGIN = 'https://api.hospital.example'
const H5_APP_ID = 'wx10392demo00000'
const g = globalThis as unknown as { API_BASE: string }

const DOCTOR: OnlineDoctorInfo = {
  id: 100,
  doctorName: '李明',
  title: '主任医师',
  avatar: '/static/doctors/100.svg',
  deptId: 11,
  deptName: '心血管内科',
  hospitalCode: '10392',
  hospitalName: '示范市第一人民医院',
  level: 5,
  stars: { full: 5, half: false, empty: 0 },
  priceFen: 3000,
  avgReplySeconds: 900,
  replyTimeText: '15分钟',
  servedCount: 1000,
  goodRate: 98,
  online: true,
  speciality: '冠心病',
  imAccount: 'd_100',
  intro: '从事临床工作二十年。',
  services: [{ type: 'text', name: '图文问诊', priceFen: 3000 }],
  fansCount: 10,
  followed: false,
}
const ARTICLE: Article = {
  id: 3,
  title: '高血压患者的日常饮食',
  summary: '少盐、少油、多蔬果',
  cover: '/static/covers/3.png',
  category: '慢病管理',
  author: '营养科',
  doctorId: null,
  views: 120,
  publishedAt: '2026-03-01T08:00:00Z',
  content: '<p>每日食盐不超过5克。</p>',
}

const SIGNATURE = { appId: H5_APP_ID, timestamp: 1767225600, nonceStr: 'n0nce', signature: 'f00dfeed' }

/** The server: startup's calls, the doctor, the article, and the JS-SDK signature (requests kept in calls.requests). */
function serve() {
  testing.answer(({ url, method, data }) => {
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const path = url.replace(MINI_ORIGIN, '').split('?')[0]!
    const query = (method === 'GET' ? (data ?? {}) : {}) as Record<string, string>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: H5_APP_ID, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: '10392', hospitalName: '示范市第一人民医院', level: '三级甲等', address: '示范路1号', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-hospital/common/ad') return ok([])
    if (path === '/dld-hospital/common/isSupervision') return ok({ supervised: false, platformName: '' })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-hospital/hospital/list') return ok([])
    if (path === '/dld-hospital/doctor/info') return ok(DOCTOR)
    if (path === `/dld-hospital/api/patient/article/${ARTICLE.id}`) return ok(ARTICLE)
    if (path === `/dld-weixin/jsapi/jsapiSignature/${H5_APP_ID}`) return ok(SIGNATURE)
    return { statusCode: 404, data: '' }
  })
}

/** Signed in under `appId` (a mini-program's own, or the hospital's official account on H5), at `page`. */
function signedInAt(appId: string, page: string, params: Record<string, string> = {}) {
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId, expire: Date.now() + 3_600_000 })
  testing.setRouter(page, params)
  mockRoot = new RootStore()
}

const signatureRequests = () => calls.requests.filter((r) => r.url.includes('/dld-weixin/jsapi/jsapiSignature/'))

/** Lets the promises under way (the JS-SDK's chunk, its configuration, a scan) settle. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 10)))

/** Taps 扫一扫 and waits until the scanner has answered (`scans` counts its openings) and the app has acted on it. */
async function tapScan(scans: () => number) {
  const before = scans()
  fireEvent.click(await screen.findByRole('button', { name: '扫一扫' }))
  await waitFor(() => expect(scans()).toBe(before + 1))
  await settle()
}
const miniScans = () => calls.scans.length

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  serve()
})

describe.each([
  { name: 'the WeChat mini-program', build: 'weapp' as const, provider: 'wechat' as const, closed: { errMsg: 'scanCode:fail cancel' } },
  // Taro maps my.scan's `code` to `result`; closing it is Alipay's error 10
  { name: 'the Alipay mini-program', build: 'alipay' as const, provider: 'alipay' as const, closed: { error: 10, errorMessage: '用户取消' } },
])('$name', ({ build, provider, closed }) => {
  beforeAll(() => {
    g.API_BASE = MINI_ORIGIN
    holder.current = miniProgram(build, provider)
    holder.useShare = miniShare
  })
  afterAll(() => {
    g.API_BASE = ''
    holder.current = holder.h5.default
    holder.useShare = holder.h5.useShare
  })

  test('扫一扫 on the home scans a QR code and opens the page of the app it stands for', async () => {
    signedInAt(DEFAULT_APP_ID, '/pages/sys/merge/index')
    render(<Home />)
    // the web address of a doctor's card (the server serves the H5 app at the API origin)
    testing.answerScan(() => ({ result: `${MINI_ORIGIN}/h5/internet/doctor/index?id=100` }))
    await tapScan(miniScans)
    expect(calls.scans).toEqual([{ scanType: ['qrCode'] }])
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctor/index?id=100' }])
    expect(calls.toasts).toEqual([])
  })

  test('closing the scanner does nothing; a code that is not ours says so; a scanner that fails says so', async () => {
    signedInAt(DEFAULT_APP_ID, '/pages/sys/merge/index')
    render(<Home />)
    testing.answerScan(() => {
      throw closed
    })
    await tapScan(miniScans)
    expect(calls.navigations).toEqual([])
    expect(calls.toasts).toEqual([])

    testing.answerScan(() => ({ result: 'https://evil.example/h5/internet/doctor/index?id=100' }))
    await tapScan(miniScans)
    testing.answerScan(() => {
      throw { errMsg: 'scanCode:fail camera not authorized', error: 11 }
    })
    await tapScan(miniScans)
    expect(calls.navigations).toEqual([])
    expect(calls.toasts.map((t) => t.title)).toEqual([UNKNOWN_CODE, SCAN_FAILED])
  })

  test("the doctor's home shares the doctor's card, which opens that page", async () => {
    signedInAt(DEFAULT_APP_ID, '/internet/doctor/index', { id: String(DOCTOR.id) })
    render(<OnlineDoctorHome />)
    await screen.findByText('冠心病')
    expect(testing.openShareMenu()).toEqual({ title: '李明 主任医师', path: '/internet/doctor/index?id=100' })
  })

  test("an article shares its title, and opens the article; before it has loaded, the mini-program's own card", async () => {
    signedInAt(DEFAULT_APP_ID, '/pages/sys/knowledge/detail', { id: String(ARTICLE.id) })
    render(<KnowledgeDetail />)
    expect(testing.openShareMenu()).toEqual({})
    await screen.findByText(ARTICLE.title)
    expect(testing.openShareMenu()).toEqual({ title: ARTICLE.title, path: '/pages/sys/knowledge/detail?id=3' })
  })
})

describe("the H5 app in WeChat's browser", () => {
  afterEach(() => window.history.replaceState(null, '', '/'))

  test('扫一扫 configures the JS-SDK with the signature of the page’s address, then a doctor’s card opens the doctor’s home', async () => {
    const wx = wechatBrowser()
    window.history.replaceState(null, '', '/h5/pages/sys/merge/index#top')
    signedInAt(H5_APP_ID, '/pages/sys/merge/index')
    render(<Home />)
    wx.next = { resultStr: 'http://localhost/h5/internet/doctor/index?id=100' }
    await tapScan(() => wx.scans.length)
    // the address without its #
    expect(signatureRequests().map((r) => [r.url, r.data])).toEqual([[`/dld-weixin/jsapi/jsapiSignature/${H5_APP_ID}`, { url: 'http://localhost/h5/pages/sys/merge/index' }]])
    expect(wx.configs).toEqual([{ ...SIGNATURE, jsApiList: ['scanQRCode', 'updateAppMessageShareData', 'updateTimelineShareData'] }])
    expect(wx.scans).toEqual([{ needResult: 1, scanType: ['qrCode'] }])
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctor/index?id=100' }])
    expect(calls.toasts).toEqual([])
  })

  test('扫一扫 is a named button in the Tab order, in 长辈模式 too', async () => {
    wechatBrowser()
    signedInAt(H5_APP_ID, '/pages/sys/merge/index')
    mockRoot.preferences.setElderMode(true)
    render(<Home />)
    const button = await screen.findByRole('button', { name: '扫一扫' })
    expect(button.getAttribute('tabindex')).toBe('0')
    expect(button.closest(`.${ELDER_CLASS}`)).not.toBeNull()
  })

  test('closing the scanner does nothing; another site’s code says 无法识别该二维码; the same address is not signed again', async () => {
    const wx = wechatBrowser()
    window.history.replaceState(null, '', '/h5/pages/sys/internet/index')
    signedInAt(H5_APP_ID, '/pages/sys/internet/index')
    render(<Home />)
    wx.next = 'cancel'
    await tapScan(() => wx.scans.length)
    expect(calls.navigations).toEqual([])
    expect(calls.toasts).toEqual([])
    wx.next = { resultStr: 'https://evil.example/h5/internet/doctor/index?id=100' }
    await tapScan(() => wx.scans.length)
    expect(calls.navigations).toEqual([])
    expect(calls.toasts.map((t) => t.title)).toEqual([UNKNOWN_CODE])
    // WeChat refusing the scanner (a configuration it did not accept)
    wx.next = 'fail'
    await tapScan(() => wx.scans.length)
    expect(calls.toasts.map((t) => t.title)).toEqual([UNKNOWN_CODE, SCAN_FAILED])
    expect(wx.scans).toHaveLength(3)
    expect(signatureRequests()).toHaveLength(1)
    expect(wx.configs).toHaveLength(1)
  })

  test('Android: after history-mode navigation the new address is signed; iOS: the address the app was loaded at, signed once', async () => {
    const wx = wechatBrowser(UA.wechatAndroid)
    window.history.replaceState(null, '', '/h5/pages/sys/palm/index')
    signedInAt(H5_APP_ID, '/pages/sys/palm/index')
    const home = render(<Home />)
    await tapScan(() => wx.scans.length)
    window.history.pushState(null, '', '/h5/pages/sys/palm/index?hospitalCode=10392')
    await tapScan(() => wx.scans.length)
    expect(signatureRequests().map((r) => (r.data as { url: string }).url)).toEqual([
      'http://localhost/h5/pages/sys/palm/index',
      'http://localhost/h5/pages/sys/palm/index?hospitalCode=10392',
    ])
    expect(wx.configs).toHaveLength(2)
    home.unmount()

    calls.requests.length = 0
    const ios = wechatBrowser(UA.wechatIos)
    render(<Home />)
    await tapScan(() => ios.scans.length)
    window.history.pushState(null, '', '/h5/pages/sys/merge/index')
    await tapScan(() => ios.scans.length)
    // jsdom's page was loaded at http://localhost/ (the app's platform file read it when it loaded)
    expect(signatureRequests().map((r) => (r.data as { url: string }).url)).toEqual(['http://localhost/'])
    expect(ios.configs).toHaveLength(1)
    expect(ios.scans).toHaveLength(2)
  })

  test("the doctor's home sets WeChat's share card; once the page is left, WeChat shares the page on screen instead", async () => {
    const wx = wechatBrowser()
    window.history.replaceState(null, '', '/h5/internet/doctor/index?id=100')
    signedInAt(H5_APP_ID, '/internet/doctor/index', { id: String(DOCTOR.id) })
    render(<OnlineDoctorHome />)
    await screen.findByText('冠心病')
    await waitFor(() => expect(wx.shares).toHaveLength(2))
    expect(signatureRequests().map((r) => (r.data as { url: string }).url)).toEqual(['http://localhost/h5/internet/doctor/index?id=100'])
    const card = {
      title: '李明 主任医师',
      link: `http://localhost/h5/internet/doctor/index?id=100&appId=${H5_APP_ID}`,
      imgUrl: 'http://localhost/static/doctors/100.svg',
    }
    expect(wx.shares).toEqual([
      { to: 'friend', ...card, desc: '示范市第一人民医院 · 心血管内科' },
      { to: 'timeline', ...card },
    ])

    // the patient goes on to the inquiry page: the doctor's page is hidden behind it
    wx.shares.length = 0
    window.history.pushState(null, '', '/h5/internet/inquiry/index?doctorId=100')
    document.title = '图文问诊'
    testing.hidePage()
    await waitFor(() => expect(wx.shares).toHaveLength(2))
    const onScreen = { title: '图文问诊', link: `http://localhost/h5/internet/inquiry/index?doctorId=100&appId=${H5_APP_ID}`, imgUrl: '' }
    expect(wx.shares).toEqual([
      { to: 'friend', ...onScreen, desc: '' },
      { to: 'timeline', ...onScreen },
    ])

    // and back on the doctor's page, its card again
    wx.shares.length = 0
    window.history.back()
    await waitFor(() => expect(window.location.pathname).toBe('/h5/internet/doctor/index'))
    testing.showPage()
    await waitFor(() => expect(wx.shares).toHaveLength(2))
    expect(wx.shares.map((s) => [s.to, s.title])).toEqual([
      ['friend', '李明 主任医师'],
      ['timeline', '李明 主任医师'],
    ])
  })

  test('an article sets its card: its title, its summary and cover, the address of the article', async () => {
    const wx = wechatBrowser()
    window.history.replaceState(null, '', '/h5/pages/sys/knowledge/detail?id=3')
    signedInAt(H5_APP_ID, '/pages/sys/knowledge/detail', { id: String(ARTICLE.id) })
    render(<KnowledgeDetail />)
    await screen.findByText(ARTICLE.title)
    await waitFor(() => expect(wx.shares).toHaveLength(2))
    const card = { title: ARTICLE.title, link: `http://localhost/h5/pages/sys/knowledge/detail?id=3&appId=${H5_APP_ID}`, imgUrl: 'http://localhost/static/covers/3.png' }
    expect(wx.shares).toEqual([
      { to: 'friend', ...card, desc: ARTICLE.summary },
      { to: 'timeline', ...card },
    ])
  })
})

describe("the H5 app in Alipay's browser and in other browsers", () => {
  test("Alipay's scanner through AlipayJSBridge, once Alipay has injected it; closing it does nothing", async () => {
    const alipay = alipayBrowser()
    signedInAt(H5_APP_ID, '/pages/sys/merge/index')
    render(<Home />)
    alipay.next = { qrCode: '/internet/doctor/index?id=100' }
    // tapped before the bridge is there: the scan waits for AlipayJSBridgeReady
    fireEvent.click(await screen.findByRole('button', { name: '扫一扫' }))
    await settle()
    expect(alipay.calls).toEqual([])
    alipay.inject()
    await waitFor(() => expect(alipay.calls).toEqual([{ name: 'scan', options: { type: 'qr' } }]))
    await settle()
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctor/index?id=100' }])

    alipay.next = { error: 10 }
    await tapScan(() => alipay.calls.length)
    expect(alipay.calls).toHaveLength(2)
    expect(calls.navigations).toHaveLength(1)
    expect(calls.toasts).toEqual([])
    expect(signatureRequests()).toEqual([])
  })

  test('a plain browser has no scanner: no 扫一扫; sharing asks nothing of the server', async () => {
    plainBrowser()
    signedInAt(H5_APP_ID, '/pages/sys/merge/index')
    const home = render(<Home />)
    await screen.findByText('示范市第一人民医院')
    expect(screen.queryByRole('button', { name: '扫一扫' })).toBeNull()
    home.unmount()

    signedInAt(H5_APP_ID, '/internet/doctor/index', { id: String(DOCTOR.id) })
    render(<OnlineDoctorHome />)
    await screen.findByText('冠心病')
    await settle()
    expect(signatureRequests()).toEqual([])
  })
})
