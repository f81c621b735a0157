import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { appId, mobile, session, smsCode } from '../schemas'
import { bindAlipay, bindMobile, bindWechatPhone, cancelBind, changeMobile, codeSentAnswer, refreshSession, sendBindCode, signIn } from '../../domain/auth'
import { saveIdentity } from '../../domain/user'

/** Sign-in calls are limited per client address; SMS more tightly (spec: rate limits on sign-in and SMS). */
const SIGN_IN_LIMIT = { max: 30, timeWindow: 60_000 }
const codeBody = z.object({ code: z.string().trim().min(1).max(512), appId })
/** Alipay names its one-time code auth_code. */
const authCodeBody = z.object({ authCode: z.string().trim().min(1).max(512), appId })
const bindBody = z.object({
  mobile,
  code: smsCode,
  sourceType: z.coerce.number().int().refine((n) => [0, 2, 4, 5, 8, 9].includes(n), '来源类型不正确').default(8),
})

export async function authRoutes(app: FastifyInstance) {
  const { providers, config, cipher } = app.ctx

  /** Where the app sends the browser to authorise: the real WeChat / Alipay page, or the sandbox one. */
  route(app, {
    method: 'GET',
    url: '/dld-auth/oauth/:provider/authorize-url',
    summary: 'Build the authorisation URL the browser is sent to',
    auth: 'none',
    params: z.object({ provider: z.enum(['wechat', 'alipay']) }),
    query: z.object({
      appId,
      redirectUri: z.string().min(1).max(2000),
      scope: z.enum(['snsapi_base', 'snsapi_userinfo', 'auth_base', 'auth_user']),
      state: z.string().max(128),
    }),
    data: z.object({ url: z.string() }),
    handler: async ({ params, query }) => ({ url: providers[params.provider].authorizeUrl(query) }),
  })

  // the two scopes sign in alike; a user-info-scope code's profile carries the nickname and avatar
  for (const [url, summary] of [
    ['/dld-auth/token/wxH5', 'Sign in with a WeChat web-authorisation code (base scope)'],
    ['/dld-auth/token/getWxAccessToken', 'Sign in with a WeChat user-info-scope code; stores the nickname and avatar'],
  ] as const) {
    route(app, {
      method: 'POST',
      url,
      summary,
      auth: 'none',
      rateLimit: SIGN_IN_LIMIT,
      body: codeBody,
      data: session,
      handler: async ({ body }) => signIn(app.ctx.db, 'wechat', body.appId, await providers.wechat.exchangeCode(body.appId, body.code)),
    })
  }

  route(app, {
    method: 'POST',
    url: '/dld-auth/token/alipay/H5',
    summary: 'Sign in with an Alipay web-authorisation code',
    auth: 'none',
    rateLimit: SIGN_IN_LIMIT,
    body: authCodeBody,
    data: session,
    handler: async ({ body }) => signIn(app.ctx.db, 'alipay', body.appId, await providers.alipay.exchangeCode(body.appId, body.authCode)),
  })

  // inside a mini-program: the code of wx.login / my.getAuthCode, for the mini-program's own app id
  route(app, {
    method: 'POST',
    url: '/dld-auth/token/weapp',
    summary: 'Sign in inside the WeChat mini-program with the code of wx.login (code2session); same user as H5 where the unionid links them',
    auth: 'none',
    rateLimit: SIGN_IN_LIMIT,
    body: codeBody,
    data: session,
    handler: async ({ body }) => signIn(app.ctx.db, 'wechat', body.appId, await providers.wechat.miniLogin(body.appId, body.code)),
  })

  route(app, {
    method: 'POST',
    url: '/dld-auth/token/alipay/mini',
    summary: 'Sign in inside the Alipay mini-program with the code of my.getAuthCode (base scope)',
    auth: 'none',
    rateLimit: SIGN_IN_LIMIT,
    body: authCodeBody,
    data: session,
    handler: async ({ body }) => signIn(app.ctx.db, 'alipay', body.appId, await providers.alipay.miniLogin(body.appId, body.authCode)),
  })

  for (const provider of ['wechat', 'alipay'] as const) {
    route(app, {
      method: 'POST',
      url: provider === 'wechat' ? '/dld-auth/token/refresh/force' : '/dld-auth/token/alipay/refresh/force',
      summary: `Exchange a ${provider} refresh token for a new session (the old one is revoked)`,
      auth: 'none',
      rateLimit: SIGN_IN_LIMIT,
      body: z.object({ refreshToken: z.string().trim().min(1).max(256) }),
      data: session,
      handler: async ({ body }) => refreshSession(app.ctx.db, body.refreshToken, provider),
    })
  }

  route(app, {
    method: 'POST',
    url: '/dld-auth/token/smsBindCode',
    callerLimit: CALLER_LIMITS.sms,
    summary: "Send a 6-digit code to bind a mobile number ('bind') or to verify a patient's mobile ('patient')",
    auth: 'identity',
    rateLimit: { max: config.smsPerAddressPerMinute, timeWindow: 60_000 },
    body: z.object({ mobile, purpose: z.enum(['bind', 'patient']).default('bind') }),
    data: z.object({ sent: z.boolean(), resendAfter: z.number(), devCode: z.string().optional() }),
    handler: async ({ body }) => {
      const code = await sendBindCode(app.ctx.db, cipher, providers.sms, body.mobile, body.purpose)
      return codeSentAnswer(code, config.mode)
    },
  })

  /** Binding the signed-in identity to a mobile number; `bind` adds the channel's own rule (alipayBind: Alipay only). */
  const bindRoute = (url: string, summary: string, bind: typeof bindMobile) =>
    route(app, {
      method: 'POST',
      url,
      summary,
      auth: 'identity',
      rateLimit: SIGN_IN_LIMIT,
      body: bindBody,
      data: z.object({ userId: z.number(), nickname: z.string() }),
      handler: async ({ body, auth }) => {
        const user = await bind(app.ctx.db, cipher, auth, body)
        return { userId: user.id, nickname: user.nickname }
      },
    })

  bindRoute('/dld-hospital/bind', 'Bind the signed-in WeChat/Alipay identity to a mobile number (creates the user on first bind)', bindMobile)

  route(app, {
    method: 'GET',
    url: '/dld-hospital/cancelBind',
    summary: 'Unbind the signed-in WeChat/Alipay identity from its user (the user and their patients stay)',
    auth: 'user',
    data: z.object({ userId: z.literal(0) }),
    handler: async ({ auth }) => cancelBind(app.ctx.db, auth),
  })

  route(app, {
    method: 'POST',
    url: '/dld-hospital/changeBind',
    summary: "Move the signed-in user to a new mobile number, proven by an SMS code (purpose 'bind')",
    auth: 'user',
    rateLimit: SIGN_IN_LIMIT,
    body: z.object({ mobile, code: smsCode }),
    data: z.object({ userId: z.number(), mobile: z.string() }),
    handler: async ({ auth, body }) => changeMobile(app.ctx.db, cipher, auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: '/dld-hospital/wxPhoneBind',
    summary: "Bind the signed-in WeChat mini-program identity to the mobile of WeChat's phone-number button (its code, exchanged here); no SMS code",
    auth: 'identity',
    rateLimit: SIGN_IN_LIMIT,
    body: z.object({ code: z.string().trim().min(1).max(512), sourceType: bindBody.shape.sourceType }),
    data: z.object({ userId: z.number(), nickname: z.string() }),
    handler: async ({ body, auth }) => {
      const user = await bindWechatPhone(app.ctx.db, cipher, providers.wechat, auth, body)
      return { userId: user.id, nickname: user.nickname }
    },
  })

  bindRoute('/dld-hospital/alipayBind', 'Bind the signed-in Alipay identity to a mobile number (the rules of /dld-hospital/bind)', bindAlipay)

  route(app, {
    method: 'POST',
    url: '/dld-user/user/modifyiIdentify',
    summary: 'Declare the account holder’s own real name and identity number (stored encrypted; answered masked)',
    auth: 'user',
    body: z.object({
      name: z.string().trim().min(1, '请输入真实姓名').max(20, '姓名不能超过20个字'),
      // checked by the identity-card rules in the domain, for a message the patient can act on
      idCard: z.string().trim().min(1, '请输入身份证号').max(32, '身份证号码不正确'),
    }),
    data: z.object({ name: z.string(), idCard: z.string(), verified: z.boolean() }),
    handler: async ({ auth, body }) => saveIdentity(app.ctx.db, cipher, auth.userId, body),
  })
}
