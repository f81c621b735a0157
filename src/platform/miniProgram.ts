import Taro, { useShareAppMessage } from '@tarojs/taro'
import type { PayOutcome, Platform, ShareContent } from './index'
import { AUTH_RETURN_URL, WEBVIEW_CLOSED, webviewUrl } from '@/pageUrls'
import { memoryBackend, sessionCache } from './sessionCache'

/** Alipay's own API (Taro has neither): the base-scope code of the signed-in Alipay user, and the payment sheet. */
declare const my: {
  getAuthCode(o: { scopes: string; success(r: { authCode: string }): void; fail(e: unknown): void }): void
  tradePay(o: { tradeNO: string; success(r: { resultCode: string }): void; fail(e: unknown): void }): void
}

/**
 * Alipay's payment sheet for a trade the server created: 9000 paid; 8000 and 6004 still being processed (the server
 * hears the outcome, so as paid: the order page asks it); 6001 the patient closed it; anything else failed.
 */
function alipayTradePay(tradeNo: string): Promise<PayOutcome> {
  return new Promise((resolve) =>
    my.tradePay({
      tradeNO: tradeNo,
      success: ({ resultCode }) => resolve(['9000', '8000', '6004'].includes(resultCode) ? 'paid' : resultCode === '6001' ? 'cancelled' : 'failed'),
      fail: () => resolve('failed'),
    }),
  )
}

const randomId = () => Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('')

/** A random id standing for "the WeChat / Alipay user of this phone" towards a sandbox server, kept on the phone. */
const DEVICE_KEY = 'sandboxDevice'
function deviceId(): string {
  const kept = Taro.getStorageSync(DEVICE_KEY) as string
  if (kept) return kept
  const id = randomId()
  Taro.setStorageSync(DEVICE_KEY, id)
  return id
}

/** A sandbox server's answer for the codes: a code, none (a login page not confirmed), or that this phone must sign in on its login page first. */
type SandboxAnswer = { code: string | null; needsLogin?: boolean }

/** Opens a page of the server in the web-view page, and resolves when the patient has come back from it. */
function openServerPage(path: string): Promise<void> {
  return new Promise((resolve) => {
    Taro.eventCenter.once(WEBVIEW_CLOSED, () => resolve())
    void Taro.navigateTo({ url: webviewUrl(`${API_BASE}${path}`) })
  })
}

/**
 * A sandbox server cannot redeem WeChat's or Alipay's real codes; it hands out its own, one-time like theirs, for
 * this phone's device id (server/src/routes/sandbox/authorize.ts). A real server answers 404: ask WeChat / Alipay.
 */
function sandboxCodes(provider: 'wechat' | 'alipay') {
  /** Whether the server is a sandbox, learnt from its first answer (it serves the stand-in for the codes, a real one does not). */
  let sandboxServer: boolean | undefined

  async function ask(what: 'mini-code' | 'phone-code', data: Record<string, string>): Promise<SandboxAnswer | null> {
    if (sandboxServer === false) return null
    const res = await Taro.request<SandboxAnswer>({
      url: `${API_BASE}/sandbox/${provider}/${what}`,
      method: 'POST',
      data: { ...data, device: deviceId() },
      header: { 'content-type': 'application/json' },
    })
    const answer = res.statusCode === 200 && res.data && typeof res.data === 'object' ? res.data : null
    const code = typeof answer?.code === 'string' ? answer.code : null
    // an envelope's numeric code (a refused call) is no answer of the sandbox
    sandboxServer = code !== null || answer?.code === null
    return sandboxServer ? { code, needsLogin: answer?.needsLogin === true } : null
  }

  return {
    /**
     * The first time a phone signs in, the tester confirms on the sandbox's login page (it stands in for WeChat's /
     * Alipay's sign-in) in the web-view, and the code confirmed there is collected with the page's nonce; later
     * sign-ins are silent, as wx.login is. Null from a real server.
     */
    async signIn(appId: string): Promise<string | null> {
      const silent = await ask('mini-code', { appId })
      if (!silent?.needsLogin) return silent?.code ?? null
      for (;;) {
        const nonce = randomId()
        // (the mini-programs' JavaScript has no URLSearchParams)
        const query = Object.entries({ appId, device: deviceId(), nonce }).map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        await openServerPage(`/sandbox/${provider}/mini-login?${query.join('&')}`)
        const collected = await ask('mini-code', { appId, nonce })
        if (collected?.code) return collected.code
        const { confirm } = await Taro.showModal({ title: '提示', content: '登录未完成：请在登录页点击“确认登录”后返回', confirmText: '重试', cancelText: '取消' })
        if (!confirm) throw new Error('登录未完成')
      }
    },
    /** What WeChat's phone-number button stands for on a sandbox server; null from a real one. */
    phone: async (appId: string) => (await ask('phone-code', { appId }))?.code ?? null,
  }
}

/**
 * The mini-program's scanner (wx.scanCode, my.scan through Taro): a code of this mini-program itself comes with the
 * page path it carries (WeChat), which is what it stands for; other codes with their text. Closing the scanner is
 * WeChat's `scanCode:fail cancel` and Alipay's error 10.
 */
async function scanCode(): Promise<string | null> {
  try {
    const res = await Taro.scanCode({ scanType: ['qrCode'] })
    return res.path || res.result
  } catch (e) {
    const { errMsg = '', error } = e as { errMsg?: string; error?: number }
    if (/cancel/i.test(errMsg) || error === 10) return null
    throw e
  }
}

/**
 * A page's share in a mini-program: the share menu asks the page when the patient opens it (the page's config sets
 * `enableShareAppMessage: true`); until the page knows what it shares, the mini-program's own card of the page.
 */
export function useShare(content: ShareContent | null) {
  useShareAppMessage(() => (content ? { title: content.title, path: content.path } : {}))
}

type Frame = { top: number; height: number; right: number }
let frame: Frame | undefined

/**
 * The status bar's height, and the capsule menu button (WeChat's and Alipay's ··· ◎ in the top right corner) as the
 * system reports it once: the bar is as tall as the capsule with the same margin above and below it.
 */
function measureNavBar(): Frame {
  const info = Taro.getSystemInfoSync() as Taro.getSystemInfoSync.Result & { titleBarHeight?: number }
  const top = info.statusBarHeight ?? 20
  let capsule: Taro.getMenuButtonBoundingClientRect.Rect | null = null
  try {
    capsule = Taro.getMenuButtonBoundingClientRect?.() ?? null
  } catch {
    capsule = null
  }
  if (!capsule || !capsule.height) return { top, height: info.titleBarHeight ?? 44, right: 0 }
  const gap = Math.max(capsule.top - top, 4)
  return { top, height: capsule.height + gap * 2, right: Math.max(info.windowWidth - capsule.left, 0) }
}

/**
 * The mini-program builds: the patient signs in where they are (wx.login / my.getAuthCode, exchanged on the server),
 * under the mini-program's own app id. Web authorisation for other services (insurance, the health card) and the
 * web cashier need a browser.
 */
export function miniProgram(name: 'weapp' | 'alipay', provider: 'wechat' | 'alipay'): Platform {
  const sandbox = sandboxCodes(provider)
  return {
    name,
    authProvider: () => provider,
    fixedAppId: () => DEFAULT_APP_ID,
    async signInCode(appId) {
      const code = await sandbox.signIn(appId)
      if (code) return code
      if (name === 'weapp') return (await Taro.login()).code
      return new Promise<string>((resolve, reject) => my.getAuthCode({ scopes: 'auth_base', success: (r) => resolve(r.authCode), fail: reject }))
    },
    currentUrl() {
      const pages = Taro.getCurrentPages()
      const page = pages[pages.length - 1]
      if (!page) return '/'
      const query = Object.entries(page.options ?? {})
        .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
        .join('&')
      return `/${page.route}${query ? `?${query}` : ''}`
    },
    authReturnUrl: () => AUTH_RETURN_URL,
    onBroughtBack: () => undefined,
    reload: () => undefined,
    leaveTo() {
      void Taro.showModal({ title: '提示', content: '请在浏览器中打开完成授权', showCancel: false })
    },
    authReturnParams: () => ({}),
    stripAuthParams: () => undefined,
    stripParams: () => undefined,
    openInstead: () => undefined,
    async pay(action) {
      if (action.kind === 'redirect') {
        // the sandbox cashier is a page of the server: it opens in the web-view page, and once that closes the
        // patient is back from the cashier, like a browser at the return URL; the order's page asks the server
        if (!action.url.startsWith('/')) {
          void Taro.showModal({ title: '提示', content: '请在浏览器中打开完成支付', showCancel: false })
          return 'failed'
        }
        await openServerPage(action.url)
        return 'paid'
      }
      if (action.kind === 'tradePay') return alipayTradePay(action.tradeNo)
      const { timeStamp, nonceStr, package: pkg, signType, paySign } = action.params
      try {
        await Taro.requestPayment({ timeStamp, nonceStr, package: pkg, signType: signType as keyof Taro.requestPayment.SignType, paySign })
        return 'paid'
      } catch (e) {
        return /cancel/i.test((e as { errMsg?: string }).errMsg ?? '') ? 'cancelled' : 'failed'
      }
    },
    async openDocument({ download, fileType }) {
      const filePath = await download()
      await Taro.openDocument({ filePath, fileType, showMenu: true } as Taro.openDocument.Option)
    },
    async saveTextFile(_name, text) {
      await Taro.setClipboardData({ data: text })
      return 'copied'
    },
    async pickPlace() {
      try {
        const { latitude, longitude, name: placeName, address } = await Taro.chooseLocation({})
        return { latitude, longitude, name: placeName, address }
      } catch {
        // closed without choosing, or location not allowed: the form keeps what it had
        return null
      }
    },
    showPlace: async ({ latitude, longitude, name: placeName, address }) => {
      await Taro.openLocation({ latitude, longitude, name: placeName, address, scale: 16 })
    },
    scanCode,
    webOrigin: () => API_BASE,
    phoneButton: name === 'weapp',
    async phoneNumberCode(appId, eventCode) {
      // declined in WeChat's sheet: no code; on a sandbox server the sheet's code means nothing to it
      if (!eventCode) return null
      return (await sandbox.phone(appId)) ?? eventCode
    },
    navBarFrame: () => (frame ??= measureNavBar()),
    markDocument() {},
    preloadPages: () => undefined,
    session: sessionCache(memoryBackend()),
    keyboard: false,
    announce: () => undefined,
    focusTitle: () => undefined,
    labelModal: () => () => undefined,
  }
}
