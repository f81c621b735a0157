import Taro from '@tarojs/taro'
import type { Platform } from './index'
import { memoryBackend, sessionCache } from './sessionCache'

/**
 * Mini-program build: there is no browser to send away, so web authorisation does not apply; signing in
 * inside the mini-program (Taro.login and a code2session call) is not part of the spec's calls yet.
 */
const platform: Platform = {
  name: 'alipay',
  authProvider: () => 'alipay',
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
  session: sessionCache(memoryBackend()),
}

export default platform
