import { get } from './request'

/** `/dld-weixin`: what WeChat's JS-SDK needs from the server (spec §7 Auth and wechat). */

/** wx.config's signature of one page address (server/src/routes/patient/wechat.ts). */
export interface JsapiSignature {
  appId: string
  timestamp: number
  nonceStr: string
  signature: string
}

/**
 * The signature of the page at `url` (without its `#…`) under the official account `appId`. Silent and without the
 * loading indicator: it is made on the way to scanning or sharing, whose caller says what failed.
 */
export const getJsapiSignature = (appId: string, url: string) =>
  get<JsapiSignature>(`/dld-weixin/jsapi/jsapiSignature/${encodeURIComponent(appId)}`, { url }, { silent: true, noLoading: true })
