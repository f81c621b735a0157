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
    session: sessionCache(memoryBackend()),
  }
}
