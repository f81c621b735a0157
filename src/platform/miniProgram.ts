import Taro from '@tarojs/taro'
import type { Platform } from './index'
import { memoryBackend, sessionCache } from './sessionCache'

/**
 * The mini-program builds: there is no browser to send away, so web authorisation does not apply; signing in
 * inside a mini-program (Taro.login and a code2session call) is not part of the spec's calls yet.
 */
export function miniProgram(name: 'weapp' | 'alipay', provider: 'wechat' | 'alipay'): Platform {
  return {
    name,
    authProvider: () => provider,
    currentUrl() {
      const pages = Taro.getCurrentPages()
      const page = pages[pages.length - 1]
      if (!page) return '/'
      const query = Object.entries(page.options ?? {})
        .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
        .join('&')
      return `/${page.route}${query ? `?${query}` : ''}`
    },
    authReturnUrl: () => '/pages/login/login',
    leaveTo() {
      void Taro.showModal({ title: '提示', content: '请在浏览器中打开完成授权', showCancel: false })
    },
    authReturnParams: () => ({}),
    stripAuthParams: () => undefined,
    stripParams: () => undefined,
    async pay(action) {
      if (action.kind === 'redirect') {
        // a mini-program cannot open the web cashier
        void Taro.showModal({ title: '提示', content: '请在浏览器中打开完成支付', showCancel: false })
        return 'failed'
      }
      const { timeStamp, nonceStr, package: pkg, signType, paySign } = action.params
      try {
        await Taro.requestPayment({ timeStamp, nonceStr, package: pkg, signType: signType as keyof Taro.requestPayment.SignType, paySign })
        return 'paid'
      } catch (e) {
        return /cancel/i.test((e as { errMsg?: string }).errMsg ?? '') ? 'cancelled' : 'failed'
      }
    },
    async saveTextFile(_name, text) {
      await Taro.setClipboardData({ data: text })
      return 'copied'
    },
    markDocument() {},
    session: sessionCache(memoryBackend()),
    keyboard: false,
    announce: () => undefined,
    focusTitle: () => undefined,
    labelModal: () => () => undefined,
  }
}
