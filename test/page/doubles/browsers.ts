/**
 * The in-app browsers the H5 build runs in, for a page test under jsdom: the user agent, and a stand-in for what the
 * browser gives the page — WeChat's JS-SDK on window.wx (as WeChat's own script tag leaves it), Alipay's
 * AlipayJSBridge — each recording what the app asks of it.
 */

export const UA = {
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160083 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
  alipay:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Ariver/1.1.0 AliApp(AP/10.5.36.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|844|3.0) AlipayClient/10.5.36.6000 Language/zh-Hans Region/CN',
  plain: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
}

const w = window as unknown as { wx?: unknown; AlipayJSBridge?: unknown }

function useAgent(ua: string) {
  Object.defineProperty(window.navigator, 'userAgent', { value: ua, configurable: true })
  delete w.wx
  delete w.AlipayJSBridge
}

/** What WeChat's scanner reads next: a code's text, the patient closing it, or WeChat refusing (no valid config). */
export type WxScan = { resultStr: string } | 'cancel' | 'fail'

export interface WxStandIn {
  configs: Record<string, unknown>[]
  scans: Record<string, unknown>[]
  /** updateAppMessageShareData (`friend`) and updateTimelineShareData (`timeline`), in order */
  shares: ({ to: 'friend' | 'timeline' } & Record<string, unknown>)[]
  next: WxScan
}

/** WeChat's browser: its user agent and the JS-SDK on window.wx; every wx.config is verified a moment later. */
export function wechatBrowser(ua = UA.wechatAndroid): WxStandIn {
  useAgent(ua)
  type Callbacks = { success?(res: unknown): void; cancel?(): void; fail?(res: unknown): void }
  const standIn: WxStandIn = { configs: [], scans: [], shares: [], next: 'cancel' }
  const plain = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function'))
  w.wx = {
    config: (o: object) => void standIn.configs.push(plain(o)),
    ready: (fn: () => void) => void setTimeout(fn, 0),
    error: () => undefined,
    scanQRCode(o: Callbacks) {
      standIn.scans.push(plain(o))
      const next = standIn.next
      if (next === 'cancel') o.cancel?.()
      else if (next === 'fail') o.fail?.({ errMsg: 'scanQRCode:permission denied' })
      else o.success?.(next)
    },
    updateAppMessageShareData: (o: object) => void standIn.shares.push({ to: 'friend', ...plain(o) }),
    updateTimelineShareData: (o: object) => void standIn.shares.push({ to: 'timeline', ...plain(o) }),
  }
  return standIn
}

/** What Alipay's scanner answers next: `{ qrCode }`, or `{ error: 10 }` when the patient closed it. */
export interface AlipayStandIn {
  calls: { name: string; options: unknown }[]
  next: { qrCode?: string; error?: number; errorMessage?: string }
  /** Alipay injects its bridge after the page has loaded, and says so with the AlipayJSBridgeReady event. */
  inject(): void
}

/** Alipay's browser: its user agent, and AlipayJSBridge once `inject()` has run. */
export function alipayBrowser(): AlipayStandIn {
  useAgent(UA.alipay)
  const standIn: AlipayStandIn = {
    calls: [],
    next: { error: 10 },
    inject() {
      w.AlipayJSBridge = {
        call(name: string, options: unknown, cb: (res: unknown) => void) {
          standIn.calls.push({ name, options })
          setTimeout(() => cb(standIn.next), 0)
        },
      }
      document.dispatchEvent(new Event('AlipayJSBridgeReady'))
    },
  }
  return standIn
}

/** Any other browser (Safari, Chrome): no scanner, no JS-SDK. */
export function plainBrowser() {
  useAgent(UA.plain)
}
