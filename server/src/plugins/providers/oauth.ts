import type { AlipaySettings, Config } from '../../config'
import { alipayGateway } from './alipay'
import { badInput } from '../../errors'

/** What an authorisation provider tells us about the person who authorised. */
export interface OAuthProfile {
  subject: string
  scope: string
  nickname?: string
  avatar?: string
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
}

export interface WechatProvider extends OAuthProvider {
  /** The JS-SDK ticket of the official account, cached for its 7200 s lifetime. */
  jsapiTicket(appId: string): Promise<string>
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString()

type Redeem = (appId: string, code: string) => Promise<OAuthProfile>

/** The sandbox pages live on our own server (`/sandbox/...`); codes are redeemed once from the database. */
export function sandboxWechat(redeem: Redeem, ticketFor: (appId: string) => string): WechatProvider {
  return {
    kind: 'sandbox',
    authorizeUrl: (r) =>
      `/sandbox/wechat/authorize?${qs({ appid: r.appId, redirect_uri: r.redirectUri, response_type: 'code', scope: r.scope, state: r.state })}`,
    exchangeCode: redeem,
    jsapiTicket: async (appId) => ticketFor(appId),
  }
}

export function sandboxAlipay(redeem: Redeem): OAuthProvider {
  return {
    kind: 'sandbox',
    authorizeUrl: (r) => `/sandbox/alipay/authorize?${qs({ app_id: r.appId, redirect_uri: r.redirectUri, scope: r.scope, state: r.state })}`,
    exchangeCode: redeem,
  }
}

export const WECHAT_SIGN_IN_OFF = '暂不支持微信登录'
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
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${new URL(url).host}`)
  return (await res.json()) as T
}

interface WxError {
  errcode?: number
  errmsg?: string
}

/** The real WeChat web authorisation (snsapi_base / snsapi_userinfo) and JS-SDK ticket. */
export function realWechat(apps: Config['wechat']): WechatProvider {
  const cache = new Map<string, { value: string; until: number }>()
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
  const accessToken = (appId: string) =>
    cached(`token:${appId}`, async () => {
      const r = await getJson<WxError & { access_token?: string; expires_in?: number }>(
        `https://api.weixin.qq.com/cgi-bin/token?${qs({ grant_type: 'client_credential', appid: appId, secret: secretOf(appId) })}`,
      )
      if (!r.access_token) throw new Error(`WeChat token: ${r.errcode} ${r.errmsg}`)
      return { value: r.access_token, ttl: r.expires_in ?? 7200 }
    })
  return {
    kind: 'real',
    authorizeUrl: (r) =>
      `https://open.weixin.qq.com/connect/oauth2/authorize?${qs({ appid: r.appId, redirect_uri: r.redirectUri, response_type: 'code', scope: r.scope, state: r.state })}#wechat_redirect`,
    async exchangeCode(appId, code) {
      const t = await getJson<WxError & { access_token?: string; openid?: string; scope?: string }>(
        `https://api.weixin.qq.com/sns/oauth2/access_token?${qs({ appid: appId, secret: secretOf(appId), code, grant_type: 'authorization_code' })}`,
      )
      if (!t.openid || !t.access_token) throw new Error(`WeChat code exchange: ${t.errcode} ${t.errmsg}`)
      const profile: OAuthProfile = { subject: t.openid, scope: t.scope ?? 'snsapi_base' }
      if (profile.scope.includes('snsapi_userinfo')) {
        const u = await getJson<WxError & { nickname?: string; headimgurl?: string }>(
          `https://api.weixin.qq.com/sns/userinfo?${qs({ access_token: t.access_token, openid: t.openid, lang: 'zh_CN' })}`,
        )
        profile.nickname = u.nickname
        profile.avatar = u.headimgurl
      }
      return profile
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
export function realAlipay(cfg: AlipaySettings, fetchImpl: typeof fetch = fetch): OAuthProvider {
  const gateway = alipayGateway(cfg, fetchImpl)
  return {
    kind: 'real',
    authorizeUrl: (r) =>
      `https://openauth.alipay.com/oauth2/publicAppAuthorize.htm?${qs({ app_id: r.appId, scope: r.scope, redirect_uri: r.redirectUri, state: r.state })}`,
    async exchangeCode(_appId, code) {
      const t = await gateway.call('alipay.system.oauth.token', { grant_type: 'authorization_code', code })
      const userId = t.user_id ?? t.open_id
      if (!t.access_token || !userId) throw new Error(`Alipay code exchange: ${t.code} ${t.sub_msg ?? t.msg}`)
      const u = await gateway.call('alipay.user.info.share', { auth_token: t.access_token })
      return { subject: userId, scope: 'auth_user', nickname: u.nick_name, avatar: u.avatar }
    },
  }
}
