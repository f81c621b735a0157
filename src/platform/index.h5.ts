import type { Platform } from './index'
import { sessionCache } from './sessionCache'

const BASE = '/h5'
const AUTH_PARAMS = ['code', 'state', 'auth_code', 'app_id', 'scope']

const platform: Platform = {
  name: 'h5',
  authProvider: () => (/AlipayClient/i.test(navigator.userAgent) ? 'alipay' : 'wechat'),
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
  session: sessionCache(window.sessionStorage),
}

export default platform
