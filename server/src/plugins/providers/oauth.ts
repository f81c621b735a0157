import type { AlipaySettings, Config } from '../../config'
import { alipayGateway } from './alipay'
import { AppError, Code, badInput } from '../../errors'

/** What an authorisation provider tells us about the person who authorised. */
export interface OAuthProfile {
  subject: string
  scope: string
  nickname?: string
  avatar?: string
  /** The same person across the hospital's apps of this provider (WeChat's unionid), where the provider says. */
  unionId?: string
}

export interface AuthorizeRequest {
  appId: string
  redirectUri: string
  scope: string
  state: string
}

/** WeChat or Alipay web authorisation: where to send the browser, and how to turn the returned code into a person. */
export interface OAuthProvider {
  /** disabled: a channel the hospital does not use, on a server that is not a demo (productionCheck.ts). */
  readonly kind: 'sandbox' | 'real' | 'disabled'
  authorizeUrl(req: AuthorizeRequest): string
  exchangeCode(appId: string, code: string): Promise<OAuthProfile>
  /**
   * Sign-in inside the mini-program `appId`: the code of `wx.login` (WeChat's code2session) or of `my.getAuthCode`
   * with the base scope (Alipay's token exchange). Each code works once.
   */
  miniLogin(appId: string, code: string): Promise<OAuthProfile>
}

export interface WechatProvider extends OAuthProvider {
  /** The JS-SDK ticket of the official account, cached for its 7200 s lifetime. */
  jsapiTicket(appId: string): Promise<string>
  /**
   * The mobile number behind the code of the mini-program's phone-number button (`open-type="getPhoneNumber"`),
   * which WeChat has verified: national number and country code. Each code works once.
   */
  miniPhone(appId: string, code: string): Promise<{ mobile: string; countryCode: string }>
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString()
/** The union id where the provider gave one (the app is bound to an open-platform account). */
const unionOf = (unionId: string | undefined) => (unionId ? { unionId } : {})

type Redeem = (appId: string, code: string) => Promise<OAuthProfile>

/** The sandbox pages live on our own server (`/sandbox/...`); codes are redeemed once from the database. */
export function sandboxWechat(redeem: Redeem, ticketFor: (appId: string) => string, redeemPhone: (appId: string, code: string) => Promise<string>): WechatProvider {
  return {
    kind: 'sandbox',
    miniPhone: async (appId, code) => ({ mobile: await redeemPhone(appId, code), countryCode: '86' }),
    authorizeUrl: (r) =>
      `/sandbox/wechat/authorize?${qs({ appid: r.appId, redirect_uri: r.redirectUri, response_type: 'code', scope: r.scope, state: r.state })}`,
    exchangeCode: redeem,
    miniLogin: redeem,
    jsapiTicket: async (appId) => ticketFor(appId),
  }
}

export function sandboxAlipay(redeem: Redeem): OAuthProvider {
  return {
    kind: 'sandbox',
    authorizeUrl: (r) => `/sandbox/alipay/authorize?${qs({ app_id: r.appId, redirect_uri: r.redirectUri, scope: r.scope, state: r.state })}`,
    exchangeCode: redeem,
    miniLogin: redeem,
  }
}

export const WECHAT_SIGN_IN_OFF = '暂不支持微信登录'
export const MINI_CODE_USED = '登录凭证无效或已使用，请重新登录'
export const PHONE_CODE_USED = '手机号授权已失效，请重新获取'
export const ALIPAY_SIGN_IN_OFF = '暂不支持支付宝登录'

/**
 * A sign-in channel without its settings on a server that is not a demo: it answers that the channel is not offered,
 * instead of a sandbox page that would let anyone in as anybody.
 */
export function disabledWechat(): WechatProvider {
  return {
    kind: 'disabled',
    authorizeUrl: () => {
      throw badInput(WECHAT_SIGN_IN_OFF)
    },
    exchangeCode: async () => {
      throw badInput(WECHAT_SIGN_IN_OFF)
    },
    miniLogin: async () => {
      throw badInput(WECHAT_SIGN_IN_OFF)
    },
    miniPhone: async () => {
      throw badInput(WECHAT_SIGN_IN_OFF)
    },
    jsapiTicket: async () => {
      throw badInput(WECHAT_SIGN_IN_OFF)
    },
  }
}

export function disabledAlipay(): OAuthProvider {
  return {
    kind: 'disabled',
    authorizeUrl: () => {
      throw badInput(ALIPAY_SIGN_IN_OFF)
    },
    exchangeCode: async () => {
      throw badInput(ALIPAY_SIGN_IN_OFF)
    },
    miniLogin: async () => {
      throw badInput(ALIPAY_SIGN_IN_OFF)
    },
  }
}

async function getJsonWith<T>(fetchImpl: typeof fetch, url: string): Promise<T> {
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${new URL(url).host}`)
  return (await res.json()) as T
}

interface WxError {
  errcode?: number
  errmsg?: string
}

/**
 * The real WeChat web authorisation (snsapi_base / snsapi_userinfo), the mini-program's code2session and the JS-SDK
 * ticket. `apps` are the official accounts' secrets (WECHAT_APPS), `miniApps` the mini-programs' (WECHAT_MINI_APPS).
 */
export function realWechat(apps: Config['wechat'], miniApps: Config['wechatMini'] = {}, fetchImpl: typeof fetch = fetch): WechatProvider {
  const cache = new Map<string, { value: string; until: number }>()
  const getJson = <T>(url: string) => getJsonWith<T>(fetchImpl, url)
  const secretOf = (appId: string) => {
    const secret = apps[appId]
    if (!secret) throw new Error(`no WeChat secret configured for ${appId}`)
    return secret
  }
  const cached = async (key: string, load: () => Promise<{ value: string; ttl: number }>) => {
    const hit = cache.get(key)
    if (hit && hit.until > Date.now()) return hit.value
    const { value, ttl } = await load()
    cache.set(key, { value, until: Date.now() + (ttl - 300) * 1000 })
    return value
  }
  const miniSecretOf = (appId: string) => {
    const secret = miniApps[appId]
    if (!secret) throw badInput(WECHAT_SIGN_IN_OFF)
    return secret
  }
  /**
   * The stable access token (cgi-bin/stable_token without force_refresh): WeChat hands every caller the same token
   * until it expires, so several server processes each keeping their own copy never invalidate one another's, as
   * cgi-bin/token would (each fetch there ends the previous token five minutes later).
   */
  const accessToken = (appId: string, secret = secretOf(appId)) =>
    cached(`token:${appId}`, async () => {
      const res = await fetchImpl('https://api.weixin.qq.com/cgi-bin/stable_token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credential', appid: appId, secret, force_refresh: false }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) throw new Error(`HTTP ${res.status} from api.weixin.qq.com`)
      const r = (await res.json()) as WxError & { access_token?: string; expires_in?: number }
      if (!r.access_token) throw new Error(`WeChat token: ${r.errcode} ${r.errmsg}`)
      return { value: r.access_token, ttl: r.expires_in ?? 7200 }
    })
  return {
    kind: 'real',
    authorizeUrl: (r) =>
      `https://open.weixin.qq.com/connect/oauth2/authorize?${qs({ appid: r.appId, redirect_uri: r.redirectUri, response_type: 'code', scope: r.scope, state: r.state })}#wechat_redirect`,
    async exchangeCode(appId, code) {
      const t = await getJson<WxError & { access_token?: string; openid?: string; scope?: string; unionid?: string }>(
        `https://api.weixin.qq.com/sns/oauth2/access_token?${qs({ appid: appId, secret: secretOf(appId), code, grant_type: 'authorization_code' })}`,
      )
      if (!t.openid || !t.access_token) throw new Error(`WeChat code exchange: ${t.errcode} ${t.errmsg}`)
      const profile: OAuthProfile = { subject: t.openid, scope: t.scope ?? 'snsapi_base', ...unionOf(t.unionid) }
      if (profile.scope.includes('snsapi_userinfo')) {
        const u = await getJson<WxError & { nickname?: string; headimgurl?: string }>(
          `https://api.weixin.qq.com/sns/userinfo?${qs({ access_token: t.access_token, openid: t.openid, lang: 'zh_CN' })}`,
        )
        profile.nickname = u.nickname
        profile.avatar = u.headimgurl
      }
      return profile
    },
    async miniLogin(appId, code) {
      const secret = miniSecretOf(appId)
      // the session_key in the answer stays here: nothing of ours decrypts WeChat's encrypted data with it
      const r = await getJson<WxError & { openid?: string; unionid?: string }>(
        `https://api.weixin.qq.com/sns/jscode2session?${qs({ appid: appId, secret, js_code: code, grant_type: 'authorization_code' })}`,
      )
      // 40029 invalid code, 40163 code already used: the patient signs in again
      if (r.errcode === 40029 || r.errcode === 40163) throw new AppError(Code.UNAUTHENTICATED, MINI_CODE_USED)
      if (!r.openid) throw new Error(`WeChat code2session: ${r.errcode} ${r.errmsg}`)
      return { subject: r.openid, scope: 'mini', ...unionOf(r.unionid) }
    },
    async miniPhone(appId, code) {
      const token = await accessToken(appId, miniSecretOf(appId))
      const res = await fetchImpl(`https://api.weixin.qq.com/wxa/business/getuserphonenumber?${qs({ access_token: token })}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) throw new Error(`HTTP ${res.status} from api.weixin.qq.com`)
      const r = (await res.json()) as WxError & { phone_info?: { purePhoneNumber?: string; countryCode?: string } }
      // 40029 invalid code: the patient taps the button again
      if (r.errcode === 40029) throw badInput(PHONE_CODE_USED)
      if (!r.phone_info?.purePhoneNumber) throw new Error(`WeChat phone number: ${r.errcode} ${r.errmsg}`)
      return { mobile: r.phone_info.purePhoneNumber, countryCode: r.phone_info.countryCode ?? '86' }
    },
    jsapiTicket: (appId) =>
      cached(`ticket:${appId}`, async () => {
        const r = await getJson<WxError & { ticket?: string; expires_in?: number }>(
          `https://api.weixin.qq.com/cgi-bin/ticket/getticket?${qs({ access_token: await accessToken(appId), type: 'jsapi' })}`,
        )
        if (!r.ticket) throw new Error(`WeChat ticket: ${r.errcode} ${r.errmsg}`)
        return { value: r.ticket, ttl: r.expires_in ?? 7200 }
      }),
  }
}

/**
 * Alipay web authorisation: `alipay.system.oauth.token` and `alipay.user.info.share` through the one Alipay gateway
 * (providers/alipay.ts), which signs with RSA2 in Beijing time and checks the answers' signatures.
 */
export function realAlipay(cfg: AlipaySettings | null, fetchImpl: typeof fetch = fetch, mini: AlipaySettings | null = null): OAuthProvider {
  const gateway = cfg ? alipayGateway(cfg, fetchImpl) : null
  const miniGateway = mini ? alipayGateway(mini, fetchImpl) : null
  // a server with only the mini-program configured offers no web sign-in
  const web = () => {
    if (!gateway) throw badInput(ALIPAY_SIGN_IN_OFF)
    return gateway
  }
  return {
    kind: 'real',
    authorizeUrl(r) {
      web()
      return `https://openauth.alipay.com/oauth2/publicAppAuthorize.htm?${qs({ app_id: r.appId, scope: r.scope, redirect_uri: r.redirectUri, state: r.state })}`
    },
    async exchangeCode(_appId, code) {
      const t = await web().call('alipay.system.oauth.token', { grant_type: 'authorization_code', code })
      const userId = t.user_id ?? t.open_id
      if (!t.access_token || !userId) throw new Error(`Alipay code exchange: ${t.code} ${t.sub_msg ?? t.msg}`)
      const u = await web().call('alipay.user.info.share', { auth_token: t.access_token })
      return { subject: userId, scope: 'auth_user', nickname: u.nick_name, avatar: u.avatar, ...unionOf(t.union_id) }
    },
    async miniLogin(appId, code) {
      if (!miniGateway || mini?.appId !== appId) throw badInput(ALIPAY_SIGN_IN_OFF)
      const t = await miniGateway.call('alipay.system.oauth.token', { grant_type: 'authorization_code', code })
      const userId = t.user_id ?? t.open_id
      // 40002 invalid or used code: the patient signs in again
      if (t.code === '40002') throw new AppError(Code.UNAUTHENTICATED, MINI_CODE_USED)
      if (!t.access_token || !userId) throw new Error(`Alipay code exchange: ${t.code} ${t.sub_msg ?? t.msg}`)
      return { subject: userId, scope: 'auth_base', ...unionOf(t.union_id) }
    },
  }
}
