import Taro from '@tarojs/taro'
import type { PayAction } from '../../types/api/payment'
import type { PayOutcome, Platform } from './index'
import { sessionCache } from './sessionCache'
import { announce, focusTitle, labelModal } from './screenReader'

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

const platform: Platform = {
  name: 'h5',
  authProvider: () => (/AlipayClient/i.test(navigator.userAgent) ? 'alipay' : 'wechat'),
  fixedAppId: () => null,
  // the browser leaves for the authorisation page (UserStore.authorize)
  signInCode: async () => null,
  navBarFrame: () => null,
  phoneButton: false,
  phoneNumberCode: async () => null,
  currentUrl() {
    const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname
    return `${path || '/'}${window.location.search}`
  },
  authReturnUrl: () => `${window.location.origin}${BASE}/pages/login/login`,
  leaveTo(url) {
    window.location.href = url
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
  markDocument(className, on) {
    document.documentElement.classList.toggle(className, on)
  },
  session: sessionCache(window.sessionStorage),
  keyboard: true,
  announce,
  focusTitle,
  labelModal,
}

export default platform
