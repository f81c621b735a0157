import { useEffect } from 'react'
import Taro, { useDidHide, useDidShow } from '@tarojs/taro'
import type { PayAction } from '../../types/api/payment'
import type { PayOutcome, Platform, ShareContent } from './index'
import { sessionCache } from './sessionCache'
import { announce, focusTitle, labelModal } from './screenReader'
import { AUTH_RETURN_URL } from '@/pageUrls'

const BASE = '/h5'
const AUTH_PARAMS = ['code', 'state', 'auth_code', 'app_id', 'scope']

type JsapiParams = Extract<PayAction, { kind: 'jsapi' }>['params']

interface WxJsSdk {
  chooseWXPay(opts: {
    timestamp: string
    nonceStr: string
    package: string
    signType: string
    paySign: string
    success: () => void
    cancel: () => void
    fail: (e: { errMsg?: string }) => void
  }): void
}
interface WeixinBridge {
  invoke(name: 'getBrandWCPayRequest', params: JsapiParams, cb: (res: { err_msg: string }) => void): void
}

/**
 * The address the page was loaded at, taken as the app starts (before the router or the sign-in changes it): WeChat on
 * iOS checks the JS-SDK's signature against it (wechatJsSdk.ts).
 */
const ENTRY_URL = window.location.href.split('#')[0]!

const inWechat = () => /MicroMessenger/i.test(navigator.userAgent)
const inAlipay = () => /AlipayClient/i.test(navigator.userAgent)

/** A secure page (https, or localhost) of a browser with getUserMedia: the camera may be asked for. */
const canAskForCamera = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function'

/** The camera and a QR decoder in a plain browser (cameraScan.ts): a chunk of its own, fetched when the patient taps 扫一扫. */
const cameraScan = async () => (await import(/* webpackChunkName: "camera-scan" */ './cameraScan')).scanWithCamera()

/** WeChat's JS-SDK and its configuration: a chunk of its own, fetched in WeChat's browser the first time it is needed. */
const wechatJsSdk = () => import('./wechatJsSdk')

const wechatScan = async () => (await wechatJsSdk()).scanQRCode(ENTRY_URL)

interface AlipayScanResult {
  error?: number
  errorMessage?: string
  qrCode?: string
}
interface AlipayBridge {
  call(name: 'scan', options: { type: 'qr' }, cb: (res: AlipayScanResult) => void): void
}

/** Alipay's bridge, which its browser injects into the page after it loads: there already, or when it says so. */
function alipayBridge(): Promise<AlipayBridge> {
  const w = window as unknown as { AlipayJSBridge?: AlipayBridge }
  if (w.AlipayJSBridge) return Promise.resolve(w.AlipayJSBridge)
  return new Promise((resolve) => document.addEventListener('AlipayJSBridgeReady', () => resolve(w.AlipayJSBridge!), { once: true }))
}

/** Alipay's scanner in its browser (AlipayJSBridge `scan`): error 10 is the patient closing it. */
async function alipayScan(): Promise<string | null> {
  const bridge = await alipayBridge()
  return new Promise((resolve, reject) =>
    bridge.call('scan', { type: 'qr' }, (res) => {
      if (res.error === 10) resolve(null)
      else if (res.error) reject(new Error(res.errorMessage ?? `scan failed: ${res.error}`))
      else resolve(res.qrCode ?? '')
    }),
  )
}

function wechatShare(content: ShareContent | null) {
  if (inWechat()) void wechatJsSdk().then((sdk) => sdk.share(ENTRY_URL, content))
}

/**
 * A page's share in a browser: WeChat's ··· menu in WeChat's browser; elsewhere the browser shares the address as it
 * is. Set once the page knows it and again when the patient is back on the page; once the page is left (hidden
 * behind the next one, or closed) WeChat shares what is on screen, not this page's card.
 */
export function useShare(content: ShareContent | null) {
  const { title, path, summary, image } = content ?? {}
  useEffect(() => {
    if (title !== undefined && path !== undefined) wechatShare({ title, path, summary, image })
  }, [title, path, summary, image])
  useDidShow(() => {
    if (content) wechatShare(content)
  })
  useDidHide(() => wechatShare(null))
  useEffect(() => () => wechatShare(null), [])
}

/** Shown when a WeChat payment is asked for outside WeChat's browser. */
export const NO_WECHAT_PAY = '请在微信中打开完成支付'

/**
 * WeChat JSAPI payment: the JS-SDK's chooseWXPay when the page has it, else WeChat's own browser bridge (present in
 * WeChat without the SDK); outside WeChat neither exists and the patient is told so.
 */
function wechatPay(params: JsapiParams): Promise<PayOutcome> {
  const w = window as unknown as { wx?: Partial<WxJsSdk>; WeixinJSBridge?: WeixinBridge }
  return new Promise((resolve) => {
    if (typeof w.wx?.chooseWXPay === 'function') {
      // the JS-SDK spells the time stamp in lower case, unlike the bridge and the server's parameters
      w.wx.chooseWXPay({
        timestamp: params.timeStamp,
        nonceStr: params.nonceStr,
        package: params.package,
        signType: params.signType,
        paySign: params.paySign,
        success: () => resolve('paid'),
        cancel: () => resolve('cancelled'),
        fail: () => resolve('failed'),
      })
      return
    }
    if (w.WeixinJSBridge) {
      w.WeixinJSBridge.invoke('getBrandWCPayRequest', params, (res) => {
        resolve(res.err_msg === 'get_brand_wcpay_request:ok' ? 'paid' : res.err_msg === 'get_brand_wcpay_request:cancel' ? 'cancelled' : 'failed')
      })
      return
    }
    void Taro.showToast({ title: NO_WECHAT_PAY, icon: 'none', duration: 3000 })
    announce(NO_WECHAT_PAY)
    resolve('failed')
  })
}

/** A page of Taro's H5 router (window.__taroAppConfig, set by the app's entry): its path without the leading slash. */
interface RouterPage {
  path: string
  load?: () => unknown
}

/**
 * Runs the router's own loader of each page: its chunks come, and opening the page later finds them. The loaders are
 * read a microtask later: the app's entry sets them after the app's module has run, and RootStore.startEarly asks from
 * there.
 */
function preloadPages(paths: string[]) {
  queueMicrotask(() => {
    const routes = (window as { __taroAppConfig?: { routes?: RouterPage[] } }).__taroAppConfig?.routes ?? []
    for (const route of routes) {
      if (!paths.includes(`/${route.path}`)) continue
      // what fails to come now is fetched again, and reported, when the page opens: a preload never stops the caller
      try {
        // the loader answers [the page's module, ...]
        const loaded = route.load?.()
        const page = Array.isArray(loaded) ? (loaded[0] as unknown) : null
        if (page instanceof Promise) page.catch(() => undefined)
      } catch {
        // as above
      }
    }
  })
}

const platform: Platform = {
  name: 'h5',
  authProvider: () => (inAlipay() ? 'alipay' : 'wechat'),
  fixedAppId: () => null,
  // the browser leaves for the authorisation page (UserStore.authorize)
  signInCode: async () => null,
  navBarFrame: () => null,
  phoneButton: false,
  phoneNumberCode: async () => null,
  // the browser it runs in: WeChat's and Alipay's have a scanner; any other, the camera where the page may use it
  get scanCode() {
    if (inWechat()) return wechatScan
    if (inAlipay()) return alipayScan
    return canAskForCamera() ? cameraScan : undefined
  },
  webOrigin: () => window.location.origin,
  currentUrl() {
    const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname
    return `${path || '/'}${window.location.search}`
  },
  authReturnUrl: () => `${window.location.origin}${BASE}${AUTH_RETURN_URL}`,
  leaveTo(url) {
    window.location.href = url
  },
  onBroughtBack(back) {
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) back()
    })
  },
  reload() {
    window.location.reload()
  },
  authReturnParams() {
    const params = new URLSearchParams(window.location.search)
    const out: Record<string, string> = {}
    params.forEach((v, k) => {
      out[k] = v
    })
    return out
  },
  stripAuthParams() {
    platform.stripParams(AUTH_PARAMS)
  },
  stripParams(names) {
    const url = new URL(window.location.href)
    names.forEach((p) => url.searchParams.delete(p))
    window.history.replaceState(window.history.state, '', url.toString())
  },
  openInstead(url) {
    window.history.replaceState(window.history.state, '', `${BASE}${url}`)
  },
  async pay(action) {
    if (action.kind === 'redirect') {
      // the cashier (sandbox, Alipay's) sends the browser back to the return URL given to the server
      window.location.assign(action.url)
      return 'left'
    }
    // a trade for my.tradePay is made only for a mini-program's buyer; a browser never gets one
    if (action.kind === 'tradePay') return 'failed'
    return wechatPay(action.params)
  },
  async saveTextFile(name, text, mime) {
    const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }))
    const link = document.createElement('a')
    link.href = url
    link.download = name
    document.body.appendChild(link)
    link.click()
    link.remove()
    // the download has its own copy; the page keeps no reference to the data
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    return 'downloaded'
  },
  async openDocument({ previewPage }) {
    await Taro.navigateTo({ url: previewPage })
  },
  markDocument(className, on) {
    document.documentElement.classList.toggle(className, on)
  },
  preloadPages,
  session: sessionCache(window.sessionStorage),
  keyboard: true,
  announce,
  focusTitle,
  labelModal,
}

export default platform
