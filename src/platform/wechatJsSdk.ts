import { getJsapiSignature } from '@/services/wechat'
import { SESSION, session } from '@/services/storage'
import type { ShareContent } from './index'

/**
 * WeChat's JS-SDK in WeChat's own browser (H5). index.h5.ts loads this module there, and only there, the first time
 * the patient scans or a page shares. Every use waits for wx.config with the server's signature of the address WeChat
 * checks (spec §7 GET /dld-weixin/jsapi/jsapiSignature/{appId}?url=), and signs again when that address has changed.
 *
 * The SDK is the npm copy of WeChat's jweixin 1.6.0 (weixin-js-sdk, MIT; 4.4 KB gzip as built), in a chunk of its own
 * that only WeChat's browser fetches, rather than a script tag for res.wx.qq.com: the server's Content-Security-Policy
 * lets scripts come from our own origin only (server/src/app.ts). A page that has the SDK on window.wx already
 * (WeChat's own script tag, a test's stand-in) keeps it.
 */

/** What the app uses of the SDK (https://developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/JS-SDK.html). */
export interface WxJsSdk {
  config(options: { appId: string; timestamp: number; nonceStr: string; signature: string; jsApiList: string[] }): void
  ready(fn: () => void): void
  error(fn: (res: { errMsg: string }) => void): void
  scanQRCode(options: {
    needResult: 0 | 1
    scanType: ('qrCode' | 'barCode')[]
    success(res: { resultStr: string }): void
    cancel(): void
    fail(res: { errMsg: string }): void
  }): void
  updateAppMessageShareData(options: { title: string; desc: string; link: string; imgUrl: string; success(): void }): void
  updateTimelineShareData(options: { title: string; link: string; imgUrl: string; success(): void }): void
}

const JS_API_LIST = ['scanQRCode', 'updateAppMessageShareData', 'updateTimelineShareData']

const IOS = /iPhone|iPad|iPod/i

const withoutHash = (href: string) => href.split('#')[0]!

/**
 * The address WeChat checks the signature against. On iOS WeChat keeps the address the page was loaded at through
 * history-mode navigation (pushState), so that one; on Android the current one, which changes with every page.
 */
function checkedAddress(entryUrl: string): string {
  return IOS.test(navigator.userAgent) ? entryUrl : withoutHash(window.location.href)
}

/** The official account the page runs under: startup keeps it in the session (spec §2). */
const appId = () => session.get<string>(SESSION.appId) ?? DEFAULT_APP_ID

function loadSdk(): Promise<WxJsSdk> {
  const present = (window as unknown as { wx?: WxJsSdk }).wx
  return present ? Promise.resolve(present) : import('weixin-js-sdk').then((m) => m.default as WxJsSdk)
}

/** The configuration in force (or under way), for the address it was signed for. */
let configured: { url: string; sdk: Promise<WxJsSdk> } | undefined

/** The SDK configured for `url`; a configuration that failed is made afresh next time. */
function configuredFor(url: string): Promise<WxJsSdk> {
  if (configured?.url === url) return configured.sdk
  const attempt = {
    url,
    sdk: (async () => {
      const [wx, signed] = await Promise.all([loadSdk(), getJsapiSignature(appId(), url)])
      await new Promise<void>((resolve, reject) => {
        wx.error((res) => reject(new Error(res.errMsg)))
        wx.ready(resolve)
        wx.config({ appId: signed.appId, timestamp: signed.timestamp, nonceStr: signed.nonceStr, signature: signed.signature, jsApiList: JS_API_LIST })
      })
      return wx
    })(),
  }
  configured = attempt
  attempt.sdk.catch(() => {
    if (configured === attempt) configured = undefined
  })
  return attempt.sdk
}

/** WeChat's scanner (needResult 1: the text comes back to the page): the text, or null when the patient closed it. */
export async function scanQRCode(entryUrl: string): Promise<string | null> {
  const wx = await configuredFor(checkedAddress(entryUrl))
  return new Promise((resolve, reject) =>
    wx.scanQRCode({
      needResult: 1,
      scanType: ['qrCode'],
      success: (res) => resolve(res.resultStr),
      cancel: () => resolve(null),
      fail: (res) => reject(new Error(res.errMsg)),
    }),
  )
}

/** An address of the app to share: absolute, with the official account a recipient signs in with (spec §2). */
function shareLink(href: string): string {
  const url = new URL(withoutHash(href), window.location.origin)
  url.searchParams.set('appId', appId())
  return url.toString()
}

/** Share settings in the order the pages made them (a page that closes, then the one it goes back to). */
let shares: Promise<unknown> = Promise.resolve()

/**
 * What WeChat's ··· menu shares (to a friend, to Moments) from now on: `content`, or for null the page on screen as
 * itself (its title and address), so that a page that shared something does not go on sharing it after it is left.
 */
export function share(entryUrl: string, content: ShareContent | null): Promise<unknown> {
  shares = shares
    .then(async () => {
      const wx = await configuredFor(checkedAddress(entryUrl))
      const card = content
        ? { title: content.title, link: shareLink(`/h5${content.path}`), imgUrl: content.image ? new URL(content.image, window.location.origin).toString() : '' }
        : { title: document.title, link: shareLink(window.location.href), imgUrl: '' }
      wx.updateAppMessageShareData({ ...card, desc: content?.summary ?? '', success: () => undefined })
      wx.updateTimelineShareData({ ...card, success: () => undefined })
    })
    // a share that could not be set leaves WeChat's own (the page as it is); the patient asked for nothing
    .catch(() => undefined)
  return shares
}
