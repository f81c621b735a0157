/**
 * Do the WeChat and Alipay builds run? Loads dist/weapp and dist/alipay (scripts/test.mjs builds both, with
 * TARO_APP_API_BASE=https://api.hospital.example, first) in ./harness.ts, which stands in for the `wx` / `my` API and the
 * mini-program framework, and a small fake server below. Checks, for each platform: every page of app.json loads and
 * renders; the first page signs in as src/platform/miniProgram.ts says (a sandbox server's own code, through its login
 * page in the web-view the first time, else wx.login / my.getAuthCode), with absolute request URLs only; and the home page then shows the patient the hospital's services.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, test } from 'node:test'
import type { Session, UserInfo, UserSig } from '../../types/api/auth'
import type { AdBanner, HomePageConfig, Hospital, MenuEntry } from '../../types/api/hospital'
import { loadMiniProgram, type Answer, type MiniPlatform, type MiniProgram, type MiniRequest } from './harness'

const API = 'https://api.hospital.example'
/** The app id the builds sign in with: DEFAULT_APP_ID of config/index.ts. */
const APP_ID = process.env.TARO_APP_DEFAULT_APP_ID ?? 'wxdemo0000000000'
/** The page the app opens first (app.json's first page); it relaunches into the home tab of the hospital's role. */
const ENTRY = 'pages/sys/index'
const SANDBOX_CODE = 'sandbox-code-for-this-phone'

const PLATFORMS = [
  { name: 'weapp', provider: 'wechat', login: 'login', codeField: 'code', signIn: '/dld-auth/token/weapp' },
  { name: 'alipay', provider: 'alipay', login: 'getAuthCode', codeField: 'authCode', signIn: '/dld-auth/token/alipay/mini' },
] as const

const HOSPITAL: Hospital = {
  id: 1,
  hospitalCode: 'H0001',
  hospitalName: '测试市第一人民医院',
  shortName: '市一院',
  brandId: null,
  appId: null,
  level: '三级甲等',
  address: '测试市中山路1号',
  logo: '',
  phone: '0571-00000000',
  intro: '',
  configDto: { isInternet: false, isPalm: true },
}
const MENUS: MenuEntry[] = [
  { name: '预约挂号', icon: 'register', url: '/palm/register/index', role: 'palm', group: '门诊服务' },
  { name: '智能导诊', icon: 'guide', url: '/palm/ds/index', role: 'all', group: '门诊服务' },
  { name: '在线问诊', icon: 'inquiry', url: '/internet/doctorList/index', role: 'internet', group: '互联网医院' },
]
const USER: UserInfo = { id: 7, nickname: '王小明', wechatAvatar: '', mobile: '138****0000', roles: [], appId: APP_ID, provider: 'wechat', identity: null, consentNeeded: false }

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const NOT_FOUND = { statusCode: 404, data: { code: 404, msg: 'Not Found' } }

/** What the sandbox's login page does for the test: whether the tester has tapped 确认登录 on it. */
interface LoginPage {
  confirmed: boolean
}

/**
 * The server, as server/src/routes answers: a sandbox one hands out its own sign-in codes, a real one answers 404
 * there. On a sandbox server the phone has confirmed the sandbox login page before (its code comes silently), unless
 * `loginPage` is given: then it is the phone's first sign-in, and the code comes for the page's nonce once the tester
 * has confirmed there. `chosen` is the hospital the phone chose before (its code in storage), else the app runs in
 * main mode.
 */
function server({ sandbox, chosen, loginPage }: { sandbox: boolean; chosen?: Hospital; loginPage?: LoginPage }): Answer {
  return (req) => {
    const { pathname } = new URL(req.url)
    if (/^\/sandbox\/(wechat|alipay)\/mini-code$/.test(pathname)) {
      if (!sandbox) return NOT_FOUND
      if (!loginPage) return { statusCode: 200, data: { code: SANDBOX_CODE } }
      const { nonce } = req.data as { nonce?: string }
      if (!nonce) return { statusCode: 200, data: { code: null, needsLogin: true } }
      return { statusCode: 200, data: { code: loginPage.confirmed ? SANDBOX_CODE : null } }
    }
    switch (pathname) {
      case '/dld-auth/token/weapp':
      case '/dld-auth/token/alipay/mini':
        return ok({ token: 'token-1', refreshToken: 'refresh-1', expireTime: Date.now() + 7_200_000, appId: APP_ID, userId: USER.id } satisfies Session)
      case '/dld-hospital/userinfo':
        return ok(USER)
      case '/dld-hospital/hospital/getByAppId':
        return ok(chosen ?? null)
      case '/dld-hospital/common/homePageConfig':
        return ok({ main: !chosen, hospital: chosen ?? null, menus: MENUS, demo: sandbox } satisfies HomePageConfig)
      case '/dld-hospital/common/ad':
        return ok([] satisfies AdBanner[])
      case '/dld-hospital/hospital/list':
        return ok([HOSPITAL])
      case '/dld-im/im/user-sig':
        return ok({ driver: 'local', sdkAppId: 0, imAccount: `0_${USER.id}`, userSig: 'sig-1', expire: 0 } satisfies UserSig)
      default:
        return NOT_FOUND
    }
  }
}

/**
 * Not steps of sign-in: reading and writing the phone's storage, the device reads the navigation bar lays itself out
 * by, Taro's own `canIUse('request')` before each Alipay request, and the loading indicator.
 */
const QUIET = new Set([
  'getStorageSync',
  'setStorageSync',
  'removeStorageSync',
  'getSystemInfoSync',
  'getMenuButtonBoundingClientRect',
  'canIUse',
  'showLoading',
  'hideLoading',
])

/** The app's platform calls up to its sign-in request, QUIET ones left out. */
function signInSteps(mp: MiniProgram, signIn: string): string[] {
  const steps = mp.calls
    .filter((c) => !QUIET.has(c.api))
    .map((c) => {
      if (c.api !== 'request') return c.api
      const { method = 'GET', url } = c.args[0] as { method?: string; url: string }
      return `${method.toUpperCase()} ${url}`
    })
  const end = steps.indexOf(`POST ${API}${signIn}`)
  return end < 0 ? steps : steps.slice(0, end + 1)
}

function requestTo(mp: MiniProgram, path: string): MiniRequest {
  const req = mp.requests.find((r) => r.url === `${API}${path}`)
  assert.ok(req, `no request to ${path}; requests: ${mp.requests.map((r) => r.url).join(', ')}`)
  return req
}

const header = (req: MiniRequest, name: string) => Object.entries(req.header).find(([k]) => k.toLowerCase() === name)?.[1]

/** What every run must also be: only absolute URLs of the API origin, no error in the app, no API without a stand-in. */
function assertSound(mp: MiniProgram) {
  const relative = mp.requests.filter((r) => !r.url.startsWith(r.method === 'SOCKET' ? `${API.replace(/^http/, 'ws')}/` : `${API}/`))
  assert.deepEqual(relative.map((r) => `${r.method} ${r.url}`), [], `requests not to ${API}/`)
  assert.deepEqual(mp.errors.map(String), [], 'errors thrown or logged in the app')
  assert.deepEqual([...new Set(mp.missing)], [], 'APIs the app called that test/build/harness.ts has no stand-in for: add them there')
}

for (const platform of PLATFORMS) {
  describe(platform.name, () => {
    if (!existsSync(resolve(__dirname, '..', '..', process.env.BUILD_ROOT ?? 'dist', platform.name, 'app.json'))) {
      test('build output', () =>
        assert.fail(`dist/${platform.name}/app.json is missing: build it first (TARO_APP_API_BASE=${API} npx taro build --type ${platform.name})`),
      )
      return
    }
    const load = (answer: Answer) => loadMiniProgram(platform.name as MiniPlatform, answer)

    test('every page of app.json loads and renders', async (t) => {
      const mp = load(server({ sandbox: true }))
      // each page as it is, without following where it would lead
      mp.follow = false
      const pages = mp.allPages()
      const failures: string[] = []
      for (const route of pages) {
        const errorsBefore = mp.errors.length
        try {
          const options = mp.load(route)
          assert.equal(typeof options.onLoad, 'function', 'its options have no onLoad')
          await mp.open(route)
          assert.deepEqual(mp.errors.slice(errorsBefore).map(String), [], 'errors thrown or logged')
          assert.ok(mp.current()!.renders > 0, 'it never rendered (no setData)')
          assert.ok(mp.text().length > 0, 'it shows no text')
        } catch (e) {
          failures.push(`${route}: ${e instanceof Error ? e.message : String(e)}`)
        }
      }
      t.diagnostic(`${platform.name}: ${pages.length - failures.length} of ${pages.length} pages load and render`)
      assert.deepEqual(failures, [])
      assertSound(mp)
    })

    test(`sandbox server: signs in with the sandbox's code, never calls ${platform.login}`, async () => {
      const mp = load(server({ sandbox: true }))
      await mp.open(ENTRY)
      assert.deepEqual(signInSteps(mp, platform.signIn), [`POST ${API}/sandbox/${platform.provider}/mini-code`, `POST ${API}${platform.signIn}`])
      const probe = requestTo(mp, `/sandbox/${platform.provider}/mini-code`)
      assert.deepEqual(probe.data, { appId: APP_ID, device: mp.storage.get('sandboxDevice') })
      assert.equal(header(probe, 'content-type'), 'application/json')
      const signIn = requestTo(mp, platform.signIn)
      assert.equal(header(signIn, 'content-type'), 'application/x-www-form-urlencoded')
      assert.deepEqual(Object.fromEntries(new URLSearchParams(signIn.data as string)), { [platform.codeField]: SANDBOX_CODE, appId: APP_ID })
      assert.deepEqual(mp.calls.filter((c) => c.api === 'login' || c.api === 'getAuthCode'), [])
      assertSound(mp)
    })

    test("sandbox server, a phone's first sign-in: the login page in the web-view, then signed in when the tester comes back", async () => {
      const loginPage: LoginPage = { confirmed: false }
      const mp = load(server({ sandbox: true, loginPage }))
      await mp.open(ENTRY)
      assert.deepEqual(mp.pages().map((p) => p.route), [ENTRY, 'pages/webview/index'])
      const shown = new URL(decodeURIComponent(mp.current()!.options.url!))
      const device = mp.storage.get('sandboxDevice') as string
      const nonce = shown.searchParams.get('nonce')
      assert.equal(`${shown.origin}${shown.pathname}`, `${API}/sandbox/${platform.provider}/mini-login`)
      assert.deepEqual(Object.fromEntries(shown.searchParams), { appId: APP_ID, device, nonce })
      assert.ok(!mp.requests.some((r) => r.url === `${API}${platform.signIn}`), 'signed in before the login page was confirmed')

      loginPage.confirmed = true
      await mp.back()
      const collect = mp.requests.filter((r) => r.url === `${API}/sandbox/${platform.provider}/mini-code`)
      assert.deepEqual(collect.map((r) => r.data), [{ appId: APP_ID, device }, { appId: APP_ID, nonce, device }])
      const signIn = requestTo(mp, platform.signIn)
      assert.deepEqual(Object.fromEntries(new URLSearchParams(signIn.data as string)), { [platform.codeField]: SANDBOX_CODE, appId: APP_ID })
      assert.deepEqual(mp.pages().map((p) => p.route), ['pages/sys/merge/index'])
      assert.ok(mp.text().includes('智慧医疗服务平台'), `the home page is not shown: ${mp.text().join(' | ')}`)
      assert.deepEqual(mp.calls.filter((c) => c.api === 'login' || c.api === 'getAuthCode'), [])
      assertSound(mp)
    })

    test(`real server (no sandbox): signs in with the code of ${platform.login}`, async () => {
      const mp = load(server({ sandbox: false }))
      await mp.open(ENTRY)
      assert.deepEqual(signInSteps(mp, platform.signIn), [`POST ${API}/sandbox/${platform.provider}/mini-code`, platform.login, `POST ${API}${platform.signIn}`])
      const login = mp.calls.find((c) => c.api === platform.login)!
      if (platform.name === 'alipay') assert.deepEqual(login.args, [{ scopes: 'auth_base' }])
      const code = (login.result as Record<string, string> | undefined)?.[platform.codeField]
      assert.ok(code, `${platform.login} answered no ${platform.codeField}`)
      const signIn = requestTo(mp, platform.signIn)
      assert.deepEqual(Object.fromEntries(new URLSearchParams(signIn.data as string)), { [platform.codeField]: code, appId: APP_ID })
      // the probe's 404 is how the app learns it is a real server: nothing for the patient to see
      assert.deepEqual(mp.calls.filter((c) => c.api === 'showToast' || c.api === 'showModal'), [], 'messages shown at launch')
      assertSound(mp)
    })

    test('after sign-in, the first launch shows the platform home: its services and the hospitals to choose from', async () => {
      const mp = load(server({ sandbox: true }))
      await mp.open(ENTRY)
      // main mode has the role 'all': the home tab of 首页 / 我的问诊 / 健康知识 / 我的
      assert.deepEqual(mp.pages().map((p) => p.route), ['pages/sys/merge/index'])
      const text = mp.text()
      for (const shown of ['智慧医疗服务平台', ...MENUS.map((m) => m.name), '合作医院', HOSPITAL.hospitalName, '我的问诊']) {
        assert.ok(text.includes(shown), `"${shown}" is not shown; the page shows: ${text.join(' | ')}`)
      }
      assertSound(mp)
    })

    test("after sign-in, a chosen hospital's home shows its name and the services of its role", async () => {
      const mp = load(server({ sandbox: true, chosen: HOSPITAL }))
      // the phone chose this hospital before (选择医院 keeps its code)
      mp.storage.set('cachedHospitalCode', HOSPITAL.hospitalCode)
      await mp.open(ENTRY)
      assert.deepEqual(requestTo(mp, '/dld-hospital/hospital/getByAppId').data, { appId: APP_ID, hospitalCode: HOSPITAL.hospitalCode })
      // a palm-only hospital: the 掌上医院 home, without the internet hospital's services
      assert.deepEqual(mp.pages().map((p) => p.route), ['pages/sys/palm/index'])
      const text = mp.text()
      for (const shown of [HOSPITAL.hospitalName, `${HOSPITAL.level} · ${HOSPITAL.address}`, '预约挂号', '智能导诊']) {
        assert.ok(text.includes(shown), `"${shown}" is not shown; the page shows: ${text.join(' | ')}`)
      }
      assert.ok(!text.includes('在线问诊'), `an internet-hospital service is shown on a palm-only hospital's home: ${text.join(' | ')}`)
      assertSound(mp)
    })
  })
}
