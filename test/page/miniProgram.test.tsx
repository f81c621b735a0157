/**
 * The WeChat and Alipay mini-programs (the stores, the platform file and the navigation bar, under the mini-program
 * doubles). Signing in: no browser to leave, so startup signs in where it is, with wx.login / my.getAuthCode or, on
 * a sandbox server, its stand-in (the first time on a phone, through the sandbox's login page in the web-view); every
 * request goes to the absolute API origin; choosing a hospital keeps the sign-in. The navigation bar sits under the
 * status bar and clear of the capsule menu button.
 */
import { render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { calls, testing } from './doubles/taro'
import { WEBVIEW_CLOSED } from '../../src/pageUrls'
import NavBar from '../../src/components/NavBar'
import { AddressStore } from '../../src/stores/AddressStore'
import type { Platform } from '../../src/platform'
import { miniProgram } from '../../src/platform/miniProgram'
import { LOCAL, local } from '../../src/services/storage'

// the app's platform file is the mini-program's; each describe picks WeChat's or Alipay's
jest.mock('@/platform', () => {
  const holder = { current: jest.requireActual('../../src/platform/miniProgram').miniProgram('weapp', 'wechat') }
  return { __esModule: true, holder, default: new Proxy({}, { get: (_t, key) => holder.current[key] }) }
})
import { RootStore } from '../../src/stores/RootStore'
import { usePatientStore } from '../../src/stores/PatientStore'
const { holder } = jest.requireMock('@/platform') as { holder: { current: Platform } }

const ORIGIN = 'https://api.hospital.example'
const MINI_APP_ID = 'wxdemo0000000000' // DEFAULT_APP_ID under jest: the build's own app id
const g = globalThis as unknown as { API_BASE: string; my?: unknown }
let sandbox = true
let signIns: { url: string; data: Record<string, string> }[] = []
/**
 * The sandbox server's memory of phones: with `everyPhoneConfirmed`, every phone has confirmed its login page before
 * (its code call is silent); otherwise only those in `confirmedPhones`, and a nonce's code only once the tester has
 * tapped 确认登录 on the page opened with it (`confirmedNonces`).
 */
let everyPhoneConfirmed = true
const confirmedPhones = new Set<string>()
const confirmedNonces = new Set<string>()

/** The sandbox's stand-in for the codes, as server/src/routes/sandbox/authorize.ts answers. */
function sandboxCode({ device, nonce }: Record<string, string>) {
  if (!sandbox) return { statusCode: 404, data: { code: 404, msg: 'Not Found', data: null } }
  if (nonce) {
    const confirmed = confirmedNonces.delete(nonce)
    if (confirmed) confirmedPhones.add(device!)
    return { statusCode: 200, data: { code: confirmed ? `sbx-${device}` : null } }
  }
  const known = everyPhoneConfirmed || confirmedPhones.has(device!)
  return { statusCode: 200, data: known ? { code: `sbx-${device}` } : { code: null, needsLogin: true } }
}

/** The server: a sandbox one (its stand-in for the codes answers) or a real one (404 there). */
function serve(userId: number) {
  testing.answer(({ url, data }) => {
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const path = url.slice(ORIGIN.length)
    // POST bodies go form-encoded (spec §7), GET queries as an object
    const q = (typeof data === 'string' ? Object.fromEntries(new URLSearchParams(data)) : (data ?? {})) as Record<string, string>
    if (path === '/sandbox/wechat/mini-code' || path === '/sandbox/alipay/mini-code') return sandboxCode(q)
    if (path === '/dld-auth/token/weapp' || path === '/dld-auth/token/alipay/mini') {
      signIns.push({ url: path, data: q })
      return ok({ token: `tok-${signIns.length}`, refreshToken: 'r', expireTime: Date.now() + 7_200_000, appId: q.appId, userId })
    }
    if (path === '/dld-hospital/userinfo') return ok({ id: userId, nickname: '张三', wechatAvatar: '', mobile: '', roles: [], appId: MINI_APP_ID, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok(q.hospitalCode ? { id: 1, hospitalCode: q.hospitalCode, hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } } : null)
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: !q.hospitalCode, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: q.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return { statusCode: 200, data: { code: 401, msg: '登录已过期', data: null } }
    return { statusCode: 404, data: '' }
  })
}

beforeAll(() => {
  g.API_BASE = ORIGIN
})
afterAll(() => {
  g.API_BASE = ''
  delete g.my
})
beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  signIns = []
  everyPhoneConfirmed = true
  confirmedPhones.clear()
  confirmedNonces.clear()
})

/** Waits until the app has opened `count` pages with navigateTo in all, and answers the last one. */
async function opened(count: number) {
  for (let i = 0; i < 100 && calls.navigations.filter((n) => n.kind === 'navigateTo').length < count; i++) await new Promise((r) => setTimeout(r, 0))
  const pages = calls.navigations.filter((n) => n.kind === 'navigateTo')
  expect(pages).toHaveLength(count)
  return pages.at(-1)!.url
}

/** The server page a navigateTo opened in the web-view page (`/pages/webview/index?url=`). */
function webPage(url: string): URL {
  const [path, query] = url.split('?')
  expect(path).toBe('/pages/webview/index')
  return new URL(new URLSearchParams(query).get('url')!)
}

describe.each([
  { name: 'weapp', provider: 'wechat', signIn: '/dld-auth/token/weapp', field: 'code' },
  { name: 'alipay', provider: 'alipay', signIn: '/dld-auth/token/alipay/mini', field: 'authCode' },
] as const)('the sandbox login page ($name)', ({ name, provider, signIn, field }) => {
  beforeEach(() => {
    holder.current = miniProgram(name, provider)
    sandbox = true
    everyPhoneConfirmed = false
    serve(0)
  })

  test('a phone\'s first sign-in opens the login page in the web-view, and signs in once it closes; the next sign-in opens none', async () => {
    const started = new RootStore().startup({})
    const page = webPage(await opened(1))
    expect(`${page.origin}${page.pathname}`).toBe(`${ORIGIN}/sandbox/${provider}/mini-login`)
    const device = Taro.getStorageSync('sandboxDevice') as string
    const nonce = page.searchParams.get('nonce')!
    expect(Object.fromEntries(page.searchParams)).toEqual({ appId: MINI_APP_ID, device, nonce })
    expect(nonce).toMatch(/^[a-z0-9]{24}$/)
    // not signed in while the page is open
    expect(signIns).toEqual([])

    // the tester taps 确认登录 and comes back
    confirmedNonces.add(nonce)
    Taro.eventCenter.trigger(WEBVIEW_CLOSED)
    await expect(started).resolves.toBe('ready')
    expect(signIns).toEqual([{ url: signIn, data: { [field]: `sbx-${device}`, appId: MINI_APP_ID } }])
    expect(calls.requests.filter((r) => r.url.endsWith('/mini-code')).map((r) => r.data)).toEqual([
      { appId: MINI_APP_ID, device },
      { appId: MINI_APP_ID, device, nonce },
    ])
    expect(calls.modals).toEqual([])

    // signed out (its login expired): the phone signs in again silently, as wx.login does
    local.remove(LOCAL.lifeData)
    await expect(new RootStore().startup({})).resolves.toBe('ready')
    expect(calls.navigations.filter((n) => n.kind === 'navigateTo')).toHaveLength(1)
    expect(signIns[1]).toEqual({ url: signIn, data: { [field]: `sbx-${device}`, appId: MINI_APP_ID } })
  })

  test('coming back without 确认登录 says 登录未完成 and retries with a new login page', async () => {
    const started = new RootStore().startup({})
    const first = webPage(await opened(1)).searchParams.get('nonce')!
    Taro.eventCenter.trigger(WEBVIEW_CLOSED)
    const second = webPage(await opened(2)).searchParams.get('nonce')!
    expect(calls.modals).toEqual(['登录未完成：请在登录页点击“确认登录”后返回'])
    expect(second).not.toBe(first)
    expect(signIns).toEqual([])
    confirmedNonces.add(second)
    Taro.eventCenter.trigger(WEBVIEW_CLOSED)
    await expect(started).resolves.toBe('ready')
    expect(signIns).toHaveLength(1)
  })
})

describe('the WeChat mini-program', () => {
  beforeEach(() => {
    holder.current = miniProgram('weapp', 'wechat')
  })

  test('on a sandbox server: startup signs in where it is with the sandbox code for this phone, then loads; no browser, no relative URL', async () => {
    sandbox = true
    serve(0)
    const root = new RootStore()
    await expect(root.startup({ appId: 'wx-some-official-account', hospitalCode: '10392' })).resolves.toBe('ready')
    const [first, second] = calls.requests
    expect(first!.url).toBe(`${ORIGIN}/sandbox/wechat/mini-code`)
    const device = (first!.data as { device: string }).device
    expect(device).toMatch(/^[a-z0-9]{24}$/)
    // the identity is the mini-program's, whatever app id the address names
    expect(first!.data).toEqual({ appId: MINI_APP_ID, device })
    expect(second!.url).toBe(`${ORIGIN}/dld-auth/token/weapp`)
    expect(signIns).toEqual([{ url: '/dld-auth/token/weapp', data: { code: `sbx-${device}`, appId: MINI_APP_ID } }])
    expect(calls.logins).toBe(0)
    expect(calls.modals).toEqual([]) // not 请在浏览器中打开完成授权
    expect(calls.requests.every((r) => r.url.startsWith(`${ORIGIN}/`))).toBe(true)
    expect(local.get(LOCAL.lifeData)).toEqual({ appId: MINI_APP_ID, expire: expect.any(Number) })

    // the same phone keeps its id: the next sign-in is the same person
    await new RootStore().startup({})
    expect(signIns).toHaveLength(1) // still signed in
    local.remove(LOCAL.lifeData)
    await new RootStore().startup({})
    expect(signIns[1]!.data.code).toBe(`sbx-${device}`)
  })

  test('choosing another hospital keeps the sign-in (the identity belongs to the mini-program)', async () => {
    sandbox = true
    serve(7)
    const root = new RootStore()
    await root.startup({ hospitalCode: '10392' })
    expect(signIns).toHaveLength(1)
    await expect(root.startup({ hospitalCode: '10412' })).resolves.toBe('ready')
    expect(signIns).toHaveLength(1)
    expect(root.user.token).toBe('tok-1')
  })

  test('a 401 signs in again where it is and opens the page the patient was on afresh', async () => {
    sandbox = true
    serve(7)
    testing.setRouter('/pages/patient/index')
    const root = new RootStore()
    await root.startup({})
    await usePatientStore.of(root).load().catch(() => undefined)
    await new Promise((r) => setTimeout(r, 0))
    await new Promise((r) => setTimeout(r, 0))
    expect(signIns).toHaveLength(2)
    expect(root.user.token).toBe('tok-2')
    expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/pages/patient/index' }])
  })

  test('on a real server: the code of wx.login, exchanged once', async () => {
    sandbox = false
    serve(0)
    await expect(new RootStore().startup({})).resolves.toBe('ready')
    expect(calls.logins).toBe(1)
    expect(signIns).toEqual([{ url: '/dld-auth/token/weapp', data: { code: 'wx-login-1', appId: MINI_APP_ID } }])
    // the server is known to be real now: the sandbox is not asked again
    local.remove(LOCAL.lifeData)
    const before = calls.requests.length
    await new RootStore().startup({})
    expect(calls.requests.slice(before).some((r) => r.url.includes('/sandbox/'))).toBe(false)
    expect(signIns[1]!.data.code).toBe('wx-login-2')
  })
})

describe('the Alipay mini-program', () => {
  beforeEach(() => {
    holder.current = miniProgram('alipay', 'alipay')
  })

  test('on a real server: the base-scope code of my.getAuthCode, for the Alipay mini-program endpoint', async () => {
    sandbox = false
    serve(0)
    const scopes: string[] = []
    g.my = {
      getAuthCode: (o: { scopes: string; success(r: { authCode: string }): void }) => {
        scopes.push(o.scopes)
        o.success({ authCode: 'ali-code-1' })
      },
    }
    await expect(new RootStore().startup({})).resolves.toBe('ready')
    expect(scopes).toEqual(['auth_base'])
    expect(signIns).toEqual([{ url: '/dld-auth/token/alipay/mini', data: { authCode: 'ali-code-1', appId: MINI_APP_ID } }])
    expect(calls.logins).toBe(0)
  })

  test('binding a mobile with an SMS code goes through the Alipay call (spec §7 alipayBind)', async () => {
    sandbox = false
    serve(0)
    const root = new RootStore()
    await root.user.bind('13800138000', '123456', 8).catch(() => undefined)
    const sent = calls.requests.find((r) => r.url.includes('Bind') || r.url.endsWith('/bind'))
    expect(sent?.url).toBe(`${ORIGIN}/dld-hospital/alipayBind`)
    expect(sent?.data).toBe('mobile=13800138000&code=123456&sourceType=8')
  })
})

describe('the navigation bar in a mini-program', () => {
  test('sits below the status bar, as tall as the capsule row, and keeps clear of the capsule', () => {
    holder.current = miniProgram('weapp', 'wechat')
    expect(holder.current.navBarFrame()).toEqual({ top: 44, height: 40, right: 94 })
    render(<NavBar title='确认挂号' />)
    const title = screen.getByRole('heading', { name: '确认挂号' })
    const bar = title.parentElement!
    expect(bar.style.height).toBe('40px')
    expect(bar.style.padding).toBe('0px 94px')
    expect(bar.parentElement!.style.paddingTop).toBe('44px')
  })
})

describe('places in a mini-program', () => {
  test('定位 on the address form uses the system map: the chosen place with the region the server finds there', async () => {
    holder.current = miniProgram('weapp', 'wechat')
    testing.answer(({ url }) =>
      url === `${ORIGIN}/dld-system/map/getLocation`
        ? { statusCode: 200, data: { code: 200, msg: 'success', data: { latitude: 22.54, longitude: 114.05, name: '附近地标', address: '深圳市福田区', province: '广东省', city: '深圳市', district: '福田区', provinceCode: 440000, cityCode: 440300, districtCode: 440304 } } }
        : { statusCode: 404, data: '' },
    )
    const store = new AddressStore()
    await expect(store.locate()).resolves.toBe('picked')
    expect(store.takeLocation()).toEqual({
      latitude: 22.543096,
      longitude: 114.057865,
      name: '市民中心',
      address: '广东省深圳市福田区福中三路',
      province: '广东省',
      city: '深圳市',
      district: '福田区',
      provinceCode: 440000,
      cityCode: 440300,
      districtCode: 440304,
    })
    // the place page opens the system map at a place
    await holder.current.showPlace!({ latitude: 22.5, longitude: 114.1, name: '示范医院', address: '中山路1号' })
    expect(calls.navigations.at(-1)).toEqual({ kind: 'openLocation', url: JSON.stringify({ latitude: 22.5, longitude: 114.1, name: '示范医院', address: '中山路1号', scale: 16 }) })
  })
})
