import { render, screen } from '@testing-library/react'
import { StoresContext } from '../../src/stores'
import { calls, testing } from '../page/doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore, rootStore } from '../../src/stores/RootStore'
import { authEvents } from '../../src/services/request'
import { LOCAL, SESSION, local, session } from '../../src/services/storage'
import TabBar from '../../src/components/TabBar'

const hospitals: Record<string, { isInternet: boolean; isPalm: boolean }> = {
  '10392': { isInternet: true, isPalm: true },
  '10388': { isInternet: false, isPalm: true },
  '10412': { isInternet: true, isPalm: false },
}

type Answer = Parameters<typeof testing.answer>[0]

/** The real server's answers for the calls startup makes, reduced to what the rules read; `extra` answers others first. */
function answers(userId: number, extra?: (url: string, data: unknown) => object | undefined, consentNeeded = false): Answer {
  return ({ url, data }) => {
    const own = extra?.(url, data)
    if (own) return { statusCode: 200, data: own }
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const q = (data ?? {}) as Record<string, string>
    if (url.startsWith('/dld-auth/oauth/')) return ok({ url: `/sandbox/wechat/authorize?scope=${q.scope}&state=${q.state}` })
    if (url === '/dld-hospital/userinfo') return ok({ id: userId, nickname: '张三', wechatAvatar: '', mobile: '', roles: [], appId: q.appId, provider: 'wechat', consentNeeded })
    if (url === '/dld-hospital/hospital/getByAppId') {
      const code = q.hospitalCode ?? (q.appId === 'wx10388demo00000' ? '10388' : null)
      return ok(code ? { id: 1, hospitalCode: code, hospitalName: `医院${code}`, configDto: hospitals[code] } : null)
    }
    if (url === '/dld-hospital/common/homePageConfig') return ok({ main: !q.hospitalCode, hospital: null, menus: [] })
    if (url === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: q.imAccount, userSig: 's', expire: 1 })
    return { statusCode: 404, data: '' }
  }
}

function serve(...args: Parameters<typeof answers>) {
  testing.answer(answers(...args))
}

function signedIn(appId: string, expire = Date.now() + 3_600_000) {
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId, expire })
}

/** The browser back from authorisation at its return address with `code` and `state`, the home of 10392 remembered as the page to go back to; answers that address. */
function backFromAuthorization(code: string, state: string) {
  session.set(SESSION.authState, state)
  session.set(SESSION.appId, 'wx10392demo00000')
  session.set(SESSION.redirectUrl, '/pages/sys/index?hospitalCode=10392')
  const url = `/pages/login/login?code=${code}&state=${state}`
  window.history.replaceState(null, '', `/h5${url}`)
  return url
}

/** The server's answer to a redeemed code. */
const SIGNED_IN = { code: 200, msg: 'success', data: { token: 't1', refreshToken: 'r1', expireTime: Date.now() + 3_600_000, appId: 'wx10392demo00000' } }

/** The router's loaders of the entry, the homes, 我的 and the bind page (window.__taroAppConfig), recording the pages loaded; `stop` takes them away. */
function homeLoads() {
  const paths: string[] = []
  const route = (path: string) => ({
    path,
    load: () => {
      paths.push(path)
      return [Promise.reject(new Error('chunk failed')), undefined, undefined]
    },
  })
  const w = window as { __taroAppConfig?: unknown }
  w.__taroAppConfig = {
    routes: ['pages/sys/index', 'pages/sys/merge/index', 'pages/sys/palm/index', 'pages/sys/internet/index', 'pages/sys/user/index', 'pages/login/index'].map(route),
  }
  return { paths, stop: () => delete w.__taroAppConfig }
}

/** Startup's answers (user 5), the hospital's held back until `release`. */
function heldHospital(extra?: Parameters<typeof answers>[1]) {
  let release = () => undefined as void
  const held = new Promise<void>((resolve) => (release = resolve))
  const answer = answers(5, extra)
  testing.answer(async (req) => {
    if (req.url === '/dld-hospital/hospital/getByAppId') await held
    return answer(req)
  })
  return { release }
}

let leaveTo: jest.SpyInstance
beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  leaveTo = jest.spyOn(platform, 'leaveTo').mockImplementation(() => undefined)
})
afterEach(() => leaveTo.mockRestore())

describe('startup (spec §2)', () => {
  test('without a login it remembers the page and leaves for authorisation with the base scope', async () => {
    serve(0)
    const root = new RootStore()
    await expect(root.startup({ appId: 'wx10392demo00000' })).resolves.toBe('redirecting')
    expect(leaveTo).toHaveBeenCalledWith(expect.stringContaining('scope=snsapi_base'))
    expect(session.get(SESSION.redirectUrl)).toBe('/')
  })

  test('an expired login or another app id authorises again', async () => {
    serve(5)
    signedIn('wx10392demo00000', Date.now() - 1)
    expect(await new RootStore().startup({ appId: 'wx10392demo00000' })).toBe('redirecting')
    signedIn('wx10392demo00000')
    expect(await new RootStore().startup({ appId: 'wx10388demo00000' })).toBe('redirecting')
    expect(leaveTo).toHaveBeenCalledTimes(2)
  })

  test('an expired login is renewed with its refresh token instead of authorising again; a refused renewal authorises', async () => {
    const renewals: string[] = []
    let refuse = false
    serve(5, (url, data) => {
      if (url !== '/dld-auth/token/refresh/force') return undefined
      renewals.push(String(data))
      return refuse
        ? { code: 401, msg: '登录已过期，请重新登录', data: null }
        : { code: 200, msg: 'success', data: { token: 'tok-2', refreshToken: 'ref-2', expireTime: Date.now() + 7_200_000, appId: 'wx10392demo00000', userId: 5 } }
    })
    signedIn('wx10392demo00000', Date.now() - 1)
    local.set(LOCAL.refreshToken, 'ref-1')
    const root = new RootStore()
    await expect(root.startup({ appId: 'wx10392demo00000' })).resolves.toBe('ready')
    expect(renewals).toEqual(['refreshToken=ref-1'])
    expect(leaveTo).not.toHaveBeenCalled()
    expect(local.get(LOCAL.token)).toBe('tok-2')
    expect(local.get(LOCAL.refreshToken)).toBe('ref-2')
    expect(root.user.user?.id).toBe(5)

    refuse = true
    signedIn('wx10392demo00000', Date.now() - 1)
    const next = new RootStore()
    // watching the request layer's 401 path (the store has just set its own handler)
    const onUnauthorized = jest.fn()
    authEvents.onUnauthorized = onUnauthorized
    await expect(next.startup({ appId: 'wx10392demo00000' })).resolves.toBe('redirecting')
    expect(renewals).toEqual(['refreshToken=ref-1', 'refreshToken=ref-2'])
    expect(leaveTo).toHaveBeenCalledTimes(1)
    // the refused renewal is handled by startup, not by the request layer's 401 path (no second authorisation)
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  test('a valid login loads the user and the hospital, and the role picks the tab bar (index reset to 0)', async () => {
    serve(5)
    signedIn('wx10388demo00000')
    local.set(LOCAL.tabBarIndex, 1)
    const root = new RootStore()
    expect(await root.startup({ appId: 'wx10388demo00000' })).toBe('ready')
    expect(root.user.user?.id).toBe(5)
    expect(root.hospital.role).toBe('palm')
    expect(root.hospital.tabBar.map((t) => t.text)).toEqual(['首页', '我的'])
    expect(root.hospital.tabBarIndex).toBe(0)
    await new Promise((r) => setTimeout(r, 0))
    expect(root.chat.userID).toBe('0_5') // the chat signature of IM account 0_ + user id
  })

  test('the default app id without a cached hospital is main mode with the merged tab bar', async () => {
    serve(5)
    signedIn('wxdemo0000000000')
    const root = new RootStore()
    await root.startup({})
    expect(root.hospital.main).toBe(true)
    expect(root.hospital.tabBar.map((t) => t.text)).toEqual(['首页', '我的问诊', '健康知识', '我的'])
  })

  test('a changed hospital parameter clears the tokens and authorises again', async () => {
    serve(5)
    signedIn('wxdemo0000000000')
    local.set(LOCAL.cachedHospital, '10392')
    const root = new RootStore()
    expect(await root.startup({ hospitalCode: '10412' })).toBe('redirecting')
    expect(local.get(LOCAL.token)).toBeUndefined()
    expect(local.get(LOCAL.cachedHospital)).toBe('10412')
  })

  test('opening on a home page reads its banners beside the config, once; another page or 长辈模式 reads none', async () => {
    serve(5, (url) => (url === '/dld-hospital/common/ad' ? { code: 200, msg: 'success', data: [{ id: 1, title: '义诊', imageUrl: '/a.png', linkUrl: '' }] } : undefined))
    signedIn('wx10388demo00000')
    const adReads = () => calls.requests.filter((r) => r.url === '/dld-hospital/common/ad').map((r) => r.data)
    const root = new RootStore()
    expect(await root.enterPage('/pages/sys/index', { appId: 'wx10388demo00000' })).toBe('ready')
    await new Promise((r) => setTimeout(r, 0))
    expect(adReads()).toEqual([{ hospitalCode: '10388' }])
    expect(root.hospital.ads.value?.map((b) => b.title)).toEqual(['义诊'])
    // the home page, drawn after, takes them rather than reading them again
    root.hospital.loadBanners('10388')
    expect(adReads()).toHaveLength(1)

    calls.requests.length = 0
    expect(await new RootStore().enterPage('/pages/sys/knowledge/index', { appId: 'wx10388demo00000' })).toBe('ready')
    local.set(LOCAL.elderMode, true)
    expect(await new RootStore().enterPage('/pages/sys/palm/index', { appId: 'wx10388demo00000' })).toBe('ready')
    expect(adReads()).toEqual([])
  })

  test('the entry fetches its hospital’s home’s code through the router once the hospital answers, while startup reads on; a home tab or a trip to authorisation does not', async () => {
    const loaded = homeLoads()
    const query = { appId: 'wx10388demo00000', hospitalCode: '10388' }
    try {
      signedIn('wx10388demo00000')
      local.set(LOCAL.cachedHospital, '10388')
      // 10388 is a palm-only hospital, which its answer says before its config is read
      const held = heldHospital()
      const entering = new RootStore().enterPage('/pages/sys/index', query)
      await new Promise((r) => setTimeout(r, 0))
      expect(loaded.paths).toEqual([])
      held.release()
      expect(await entering).toBe('ready')
      expect(loaded.paths).toEqual(['pages/sys/palm/index'])

      loaded.paths.length = 0
      expect(await new RootStore().enterPage('/pages/sys/palm/index', query)).toBe('ready')
      local.remove(LOCAL.token)
      expect(await new RootStore().enterPage('/pages/sys/index', query)).toBe('redirecting')
      expect(loaded.paths).toEqual([])
    } finally {
      loaded.stop()
    }
  })

  test('H5’s entry fetches the home’s code as the app’s script runs: for a phone signed in here, and back from authorisation (the merged home when the hospital is new to the phone, which shares its code with the others); not before a new visitor’s trip to authorisation', async () => {
    const loaded = homeLoads()
    try {
      // a new visitor leaves first: nothing is fetched that the trip would throw away
      serve(0)
      new RootStore().startEarly('/?hospitalCode=10392')
      await new Promise((r) => setTimeout(r, 0))
      expect(leaveTo).toHaveBeenCalledTimes(1)
      expect(loaded.paths).toEqual([])

      // back from that trip: the homes come while the code is redeemed and the hospital asked for
      const held = heldHospital((url) => (url === '/dld-auth/token/wxH5' ? SIGNED_IN : undefined))
      const root = new RootStore()
      root.startEarly(backFromAuthorization('c1', 'st1'))
      await new Promise((r) => setTimeout(r, 0))
      expect(calls.requests.map((r) => r.url)).toContain('/dld-hospital/hospital/getByAppId')
      expect(loaded.paths).toEqual(['pages/sys/merge/index'])
      held.release()
      expect(await root.enterPage('/pages/sys/index', { hospitalCode: '10392' })).toBe('ready')

      // the hospital's answer names the home guessed: it is not fetched twice
      expect(loaded.paths).toEqual(['pages/sys/merge/index'])

      // signed in here, the hospital seen (10388, palm only): its own home, before the hospital answers
      signedIn('wx10388demo00000')
      local.set(LOCAL.cachedHospital, '10388')
      serve(5)
      const palm = { appId: 'wx10388demo00000', hospitalCode: '10388' }
      expect(await new RootStore().enterPage('/pages/sys/index', palm)).toBe('ready')
      loaded.paths.length = 0
      const seen = heldHospital()
      const next = new RootStore()
      next.startEarly('/?appId=wx10388demo00000&hospitalCode=10388')
      await new Promise((r) => setTimeout(r, 0))
      expect(loaded.paths).toEqual(['pages/sys/palm/index'])
      seen.release()
      expect(await next.enterPage('/pages/sys/index', palm)).toBe('ready')
      expect(loaded.paths).toEqual(['pages/sys/palm/index'])
      // another hospital asked for is another sign-in first
      loaded.paths.length = 0
      new RootStore().startEarly('/?hospitalCode=10392')
      await new Promise((r) => setTimeout(r, 0))
      expect(loaded.paths).toEqual([])
    } finally {
      loaded.stop()
    }
  })

  test('back from authorisation to a page that needs a bound account, the bind page’s code is fetched beside the startup when the session redeemed has no mobile bound; not for a bound account', async () => {
    const loaded = homeLoads()
    const DEPT_LIST = '/palm/register/deptList/index'
    /** Back from authorisation to the department list, the code redeemed for account `userId`, userinfo held back. */
    const back = async (userId: number) => {
      loaded.paths.length = 0
      window.sessionStorage.clear()
      local.remove(LOCAL.user)
      let release = () => undefined as void
      const held = new Promise<void>((resolve) => (release = resolve))
      const answer = answers(userId, (url) => (url === '/dld-auth/token/wxH5' ? { ...SIGNED_IN, data: { ...SIGNED_IN.data, userId } } : undefined))
      testing.answer(async (req) => {
        if (req.url === '/dld-hospital/userinfo') await held
        return answer(req)
      })
      const url = backFromAuthorization('c1', 'st1')
      session.set(SESSION.redirectUrl, DEPT_LIST)
      const root = new RootStore()
      expect(root.startEarly(url)).toBe(DEPT_LIST)
      await new Promise((r) => setTimeout(r, 0))
      // the code is redeemed and userinfo asked for, not answered yet
      expect(calls.requests.map((r) => r.url)).toContain('/dld-hospital/userinfo')
      const fetched = [...loaded.paths]
      release()
      return { fetched, entered: await root.enterPage(DEPT_LIST, {}) }
    }
    try {
      expect(await back(0)).toEqual({ fetched: ['pages/login/index'], entered: 'redirecting' })
      expect(calls.navigations.at(-1)).toEqual({ kind: 'redirectTo', url: '/pages/login/index?sourceType=0' })
      expect(await back(5)).toEqual({ fetched: [], entered: 'ready' })
    } finally {
      loaded.stop()
    }
  })

  test('a later load of a phone whose visitor had no mobile bound opens the bind page at once for a page that needs one, remembering the page; should userinfo find the account bound, the page opens after all', async () => {
    const DEPT_LIST = '/palm/register/deptList/index?hospitalCode=10392'
    const unbound = { id: 0, nickname: '', wechatAvatar: '', mobile: '', roles: [], appId: 'wx10392demo00000' }
    /** This phone signed in at 10392 with the user last read `user`; answers what the entry opens for `url`. */
    const opened = async (url: string, userId: number, user: object = unbound) => {
      testing.reset()
      window.sessionStorage.clear()
      serve(userId)
      signedIn('wx10392demo00000')
      local.set(LOCAL.refreshToken, 'r1')
      local.set(LOCAL.cachedHospital, '10392')
      local.set(LOCAL.user, user)
      const root = new RootStore()
      const opens = root.startEarly(url)
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
      return { root, opens }
    }

    const still = await opened(DEPT_LIST, 0)
    expect(still.opens).toBe('/pages/login/index?sourceType=0')
    expect(calls.requests.map((r) => r.url)).toContain('/dld-hospital/userinfo')
    expect(calls.navigations).toEqual([])
    expect(still.root.user.takeRedirect()).toBe(DEPT_LIST)

    const boundMeanwhile = await opened(DEPT_LIST, 9)
    expect(boundMeanwhile.opens).toBe('/pages/login/index?sourceType=0')
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: DEPT_LIST }])
    expect(boundMeanwhile.root.user.redirectTarget).toBeNull()

    // an open page, a bound account last read, another hospital asked for (another sign-in first): the page as asked
    expect((await opened('/pages/sys/knowledge/index', 0)).opens).toBe('/pages/sys/knowledge/index')
    expect((await opened(DEPT_LIST, 9, { ...unbound, id: 9, mobile: '13800000000' })).opens).toBe(DEPT_LIST)
    expect((await opened('/palm/register/deptList/index?hospitalCode=10388', 0)).opens).toBe('/palm/register/deptList/index?hospitalCode=10388')
    expect(calls.navigations).toEqual([])
  })

  test('the home-page config and banners of the hospital asked for are read while the hospital is asked for, not after its answer; again when it answers another hospital', async () => {
    const reads = (url: string) => calls.requests.filter((r) => r.url === url).map((r) => r.data)
    const configReads = () => reads('/dld-hospital/common/homePageConfig')
    const query = { appId: 'wx10388demo00000', hospitalCode: '10388' }
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const base = answers(5)
    // the hospital answers only when the test lets it
    testing.answer(((req) => (req.url === '/dld-hospital/hospital/getByAppId' ? held.then(() => base(req)) : base(req))) as Answer)
    signedIn('wx10388demo00000')
    local.set(LOCAL.cachedHospital, '10388')
    const root = new RootStore()
    const entered = root.enterPage('/pages/sys/index', query)
    await new Promise((r) => setTimeout(r, 0))
    expect(configReads()).toEqual([{ hospitalCode: '10388' }])
    expect(reads('/dld-hospital/common/ad')).toEqual([{ hospitalCode: '10388' }])
    release()
    expect(await entered).toBe('ready')
    expect(root.hospital.hospital?.hospitalCode).toBe('10388')
    expect(configReads()).toHaveLength(1)

    // the app id's own hospital when the code asked for is none of its: its config and banners are read for it
    calls.requests.length = 0
    serve(5, (url) => (url === '/dld-hospital/hospital/getByAppId' ? { code: 200, msg: 'success', data: { id: 2, hospitalCode: '10412', hospitalName: '医院10412', configDto: hospitals['10412'] } } : undefined))
    const other = new RootStore()
    expect(await other.enterPage('/pages/sys/index', query)).toBe('ready')
    expect(configReads()).toEqual([{ hospitalCode: '10388' }, { hospitalCode: '10412' }])
    expect(reads('/dld-hospital/common/ad')).toEqual([{ hospitalCode: '10388' }, { hospitalCode: '10412' }])
    expect(other.hospital.hospital?.hospitalCode).toBe('10412')
  })

  test('back from authorisation, the code is redeemed once however often the return is asked for (the entry starts it, the login page takes it)', async () => {
    serve(5, (url) => (url === '/dld-auth/token/wxH5' ? SIGNED_IN : undefined))
    backFromAuthorization('c1', 'st1')
    const root = new RootStore()
    const first = root.user.returnFromAuthorization()
    const second = root.user.returnFromAuthorization()
    expect(await first).toBe('/pages/sys/index?hospitalCode=10392')
    expect(await second).toBe('/pages/sys/index?hospitalCode=10392')
    expect(calls.requests.filter((r) => r.url === '/dld-auth/token/wxH5').map((r) => r.data)).toEqual(['code=c1&appId=wx10392demo00000'])
    expect(local.get(LOCAL.token)).toBe('t1')
    expect(window.location.search).toBe('')
  })

  test('H5’s entry starts the startup of the page opened before the page’s code has come; the page takes it; a page without startup starts none', async () => {
    serve(5)
    signedIn('wx10388demo00000')
    local.set(LOCAL.cachedHospital, '10388')
    const urls = () => calls.requests.map((r) => r.url)
    const root = new RootStore()
    expect(root.startEarly('/?appId=wx10388demo00000&hospitalCode=10388')).toBe('/?appId=wx10388demo00000&hospitalCode=10388')
    await new Promise((r) => setTimeout(r, 0))
    expect(urls()).toContain('/dld-hospital/userinfo')
    expect(await root.enterPage('/pages/sys/index', { appId: 'wx10388demo00000', hospitalCode: '10388' })).toBe('ready')
    expect(urls().filter((u) => u === '/dld-hospital/userinfo')).toHaveLength(1)
    expect(urls().filter((u) => u === '/dld-hospital/hospital/getByAppId')).toHaveLength(1)
    // the entry is a home: its banners came with the startup
    expect(urls()).toContain('/dld-hospital/common/ad')

    calls.requests.length = 0
    expect(new RootStore().startEarly('/pages/about/index')).toBe('/pages/about/index')
    await new Promise((r) => setTimeout(r, 0))
    expect(calls.requests).toEqual([])
  })

  test('back from authorisation, H5’s entry redeems the code and starts the startup of the page it goes back to', async () => {
    serve(5, (url) => (url === '/dld-auth/token/wxH5' ? SIGNED_IN : undefined))
    local.set(LOCAL.cachedHospital, '10392')
    const url = backFromAuthorization('c1', 'st1')
    const root = new RootStore()
    // the page the patient was on opens at once, not the login page
    expect(root.startEarly(url)).toBe('/pages/sys/index?hospitalCode=10392')
    // its startup waits for the code to be redeemed, then goes on as signed in
    expect(await root.enterPage('/pages/sys/index', { hospitalCode: '10392' })).toBe('ready')
    expect(calls.requests.map((r) => r.url)).toEqual(expect.arrayContaining(['/dld-auth/token/wxH5', '/dld-hospital/userinfo', '/dld-hospital/hospital/getByAppId']))
    expect(calls.requests.filter((r) => r.url === '/dld-hospital/userinfo')).toHaveLength(1)
    expect(leaveTo).not.toHaveBeenCalled()
    expect(local.get(LOCAL.token)).toBe('t1')
    expect(calls.navigations).toEqual([])
  })

  test('back from authorisation with a code the server refuses, the page opened goes to the login page, which says why', async () => {
    serve(0, (url) => (url === '/dld-auth/token/wxH5' ? { code: 500, msg: '授权码已失效', data: null } : undefined))
    const url = backFromAuthorization('c2', 'st2')
    const root = new RootStore()
    expect(root.startEarly(url)).toBe('/pages/sys/index?hospitalCode=10392')
    expect(await root.enterPage('/pages/sys/index', { hospitalCode: '10392' })).toBe('redirecting')
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/login/login' }])
    // no second trip to authorisation on its own: the login page shows the failure and the way home
    expect(leaveTo).not.toHaveBeenCalled()
    await expect(root.user.returnFromAuthorization()).rejects.toThrow('授权码已失效')
    // 重新进入: the home authorises afresh
    expect(await root.enterPage('/pages/sys/index', { hospitalCode: '10392' })).toBe('redirecting')
    expect(leaveTo).toHaveBeenCalledTimes(1)
  })

  test('back from authorisation with no page to go back to (the return address opened again), the login page shows the failure and 重新进入 goes home signed in', async () => {
    serve(5)
    signedIn('wx10392demo00000')
    local.set(LOCAL.cachedHospital, '10392')
    window.history.replaceState(null, '', '/h5/pages/login/login?code=used&state=old')
    const root = new RootStore()
    expect(root.startEarly('/pages/login/login?code=used&state=old')).toBe('/pages/login/login?code=used&state=old')
    await expect(root.user.returnFromAuthorization()).rejects.toThrow('授权状态不一致，请重新进入')
    expect(await root.enterPage('/pages/sys/index', { hospitalCode: '10392' })).toBe('ready')
    expect(calls.navigations).toEqual([])
    expect(leaveTo).not.toHaveBeenCalled()
  })

  test('a page that asks for startup once the entry’s trip to authorisation has begun is told so, without a second trip', async () => {
    serve(0)
    window.history.replaceState(null, '', '/h5/pages/address/list')
    const root = new RootStore()
    root.startEarly('/pages/address/list')
    await new Promise((r) => setTimeout(r, 0))
    expect(leaveTo).toHaveBeenCalledTimes(1)
    const state = session.get(SESSION.authState)
    expect(await root.enterPage('/pages/address/list', {})).toBe('redirecting')
    expect(leaveTo).toHaveBeenCalledTimes(1)
    expect(session.get(SESSION.authState)).toBe(state)
    expect(session.get(SESSION.redirectUrl)).toBe('/pages/address/list')
  })

  test('brought back from the browser’s back-forward cache while it was leaving for authorisation (the back button there), the app loads afresh; one that was not leaving stays as it is', async () => {
    const shown = (persisted: boolean) => {
      const event = new Event('pageshow')
      Object.defineProperty(event, 'persisted', { value: persisted })
      window.dispatchEvent(event)
    }
    const seen: boolean[] = []
    platform.onBroughtBack(() => seen.push(true))
    shown(false)
    expect(seen).toEqual([])
    shown(true)
    expect(seen).toEqual([true])

    const watch = jest.spyOn(platform, 'onBroughtBack').mockImplementation(() => undefined)
    const reload = jest.spyOn(platform, 'reload').mockImplementation(() => undefined)
    try {
      serve(5)
      signedIn('wx10392demo00000')
      const stays = new RootStore()
      expect(await stays.startup({ appId: 'wx10392demo00000' })).toBe('ready')
      local.remove(LOCAL.token)
      const leaves = new RootStore()
      expect(await leaves.startup({ appId: 'wx10392demo00000' })).toBe('redirecting')
      expect(leaveTo).toHaveBeenCalledTimes(1)
      const [broughtBackStays, broughtBackLeaves] = watch.mock.calls.map(([back]) => back)
      broughtBackStays!()
      expect(reload).not.toHaveBeenCalled()
      broughtBackLeaves!()
      expect(reload).toHaveBeenCalledTimes(1)
    } finally {
      watch.mockRestore()
      reload.mockRestore()
    }
  })

  test('calls answered 401 together make one trip to authorisation', async () => {
    serve(5, (url) => (url === '/dld-palm/api/patient/list' ? { code: 401, msg: '登录已过期，请重新登录', data: null } : undefined))
    signedIn('wx10392demo00000')
    const root = new RootStore()
    const { get } = await import('../../src/services/request')
    await Promise.all([1, 2, 3].map(() => get('/dld-palm/api/patient/list').catch(() => undefined)))
    await new Promise((r) => setTimeout(r, 0))
    expect(leaveTo).toHaveBeenCalledTimes(1)
    expect(leaveTo).toHaveBeenCalledWith(expect.stringContaining('scope=snsapi_userinfo'))
    expect(calls.requests.filter((r) => r.url.startsWith('/dld-auth/oauth/'))).toHaveLength(1)
    expect(root.started).toBe(false)
  })

  test('more than three trips to authorisation in a minute stop with a message instead of looping', async () => {
    serve(0)
    for (let i = 0; i < 4; i++) await new RootStore().startup({ appId: 'wx10392demo00000' })
    expect(leaveTo).toHaveBeenCalledTimes(3)
    expect(calls.toasts.map((t) => t.title)).toContain('授权未完成，请稍后重试')
  })
})

describe('login gate (spec §4)', () => {
  test('a protected page sends an unbound visitor to the bind page with its sourceType, remembering the page', async () => {
    serve(0)
    signedIn('wx10392demo00000')
    const root = new RootStore()
    expect(await root.enterPage('/pages/editUser/index', { appId: 'wx10392demo00000' })).toBe('redirecting')
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/login/index?sourceType=8' }])
    expect(root.user.takeRedirect()).toBe('/pages/editUser/index')
  })

  test('open pages and bound users pass', async () => {
    serve(0)
    signedIn('wx10392demo00000')
    expect(await new RootStore().enterPage('/pages/sys/knowledge/index', {})).toBe('ready')
    serve(9)
    expect(await new RootStore().enterPage('/pages/editUser/index', {})).toBe('ready')
    expect(calls.navigations).toHaveLength(0)
  })

  test('a bound user who has not agreed to the texts in force agrees first, then comes back; the consent page itself passes', async () => {
    serve(9, undefined, true)
    signedIn('wx10392demo00000')
    const root = new RootStore()
    expect(await root.enterPage('/pages/sys/index', {})).toBe('redirecting')
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/about/consent' }])
    expect(root.user.takeRedirect()).toBe('/pages/sys/index')
    expect(await root.enterPage('/pages/about/consent', {})).toBe('ready')
    // an unbound visitor has nothing to agree to yet: the bind page asks before binding
    serve(0, undefined, true)
    expect(await new RootStore().enterPage('/pages/sys/knowledge/index', {})).toBe('ready')
  })
})

describe('tab bar', () => {
  test('shows the role’s tabs and the unread count on 我的问诊', () => {
    rootStore.hospital.setRole('internet')
    rootStore.chat.conversations.list = [{ unreadCount: 2 }, { unreadCount: 3 }] as never
    testing.setRouter('/h5/pages/sys/internet/index')
    render(
      <StoresContext.Provider value={rootStore}>
        <TabBar />
      </StoresContext.Provider>,
    )
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['首页', '5我的问诊', '健康知识', '我的'])
    expect(screen.getAllByRole('tab')[0]!.getAttribute('aria-selected')).toBe('true')
  })
})
