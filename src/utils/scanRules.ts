import { HOME_URL } from '@/pageUrls'
import { isBuiltPage } from '@/routes'

/** The base path the H5 app is served under (spec §9). */
const H5_BASE = '/h5'

/** A scheme (`weixin:`, `alipays:`, `tel:` …) or `//host`: an address that is not a page path of the app. */
const OTHER_ADDRESS = /^([a-z][a-z0-9+.-]*:|\/\/)/i

const underBase = (path: string) => path === H5_BASE || path.startsWith(`${H5_BASE}/`)

/** The path and query a code stands for: an address of the H5 app at `webOrigin`, or a path as it is. */
function addressOf(code: string, webOrigin: string): string | null {
  if (/^https?:\/\//i.test(code)) {
    let url: URL
    try {
      url = new URL(code)
    } catch {
      return null
    }
    return url.origin === webOrigin && underBase(url.pathname) ? `${url.pathname}${url.search}` : null
  }
  if (!code || OTHER_ADDRESS.test(code)) return null
  const path = code.split('#')[0]!
  return path.startsWith('/') ? path : `/${path}`
}

/**
 * Which page of the app a scanned code opens (扫一扫 on the home page), or null when the code is not one of ours:
 * - a web address of the H5 app at `webOrigin` (`https://hospital.example/h5/internet/doctor/index?id=5`, a doctor's
 *   card), which opens the same page here with its query (its `#…` left out);
 * - a page path of the app (`/internet/doctor/index?id=5`; without the leading slash, as WeChat reports the path of a
 *   mini-program code; or with the H5 base `/h5` in front).
 * Either way only a page of this build opens (routes.ts); `/h5/` alone is the home entry (with `?hospitalCode=`, that
 * hospital's home).
 */
export function pageOfScannedCode(text: string, webOrigin: string): string | null {
  const address = addressOf(text.trim(), webOrigin)
  if (address === null) return null
  const mark = address.indexOf('?')
  const path = mark < 0 ? address : address.slice(0, mark)
  const query = mark < 0 ? '' : address.slice(mark + 1)
  const inApp = underBase(path) ? path.slice(H5_BASE.length) : path
  const page = inApp === '' || inApp === '/' ? HOME_URL : inApp
  if (!isBuiltPage(page)) return null
  return query ? `${page}?${query}` : page
}
