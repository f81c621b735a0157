import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { randomToken } from '../../crypto'
import { PHONE_SCOPE, createOAuthCode } from '../../domain/auth'
import { findHospitalByAppId } from '../../domain/hospital'
import { escapeHtml } from './healthCard'

/**
 * Sandbox WeChat and Alipay authorisation pages, under the real services' redirect contract:
 * the browser leaves the app, and comes back to `redirect_uri` with a one-time code and the state it sent.
 * A cookie stands for "who is signed in to WeChat on this phone"; each browser is one WeChat user.
 */
const BROWSER_COOKIE = 'sandbox_wx_browser'


function browserId(req: FastifyRequest, reply: FastifyReply): string {
  const cookies = Object.fromEntries(
    (req.headers.cookie ?? '').split(';').map((c) => {
      const i = c.indexOf('=')
      return [c.slice(0, i).trim(), c.slice(i + 1).trim()]
    }),
  )
  const existing = cookies[BROWSER_COOKIE]
  if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return existing
  const id = randomToken(16)
  reply.header('set-cookie', `${BROWSER_COOKIE}=${id}; Path=/sandbox; HttpOnly; SameSite=Lax; Max-Age=31536000`)
  return id
}

/** The per-app subject a real provider would give this browser's user (openid differs per app id, as in WeChat). */
const subjectFor = (provider: string, browser: string, appId: string) =>
  `${provider === 'wechat' ? 'o' : '2088'}${createHash('sha256').update(`${provider}:${browser}:${appId}`).digest('base64url').slice(0, 27)}`

/** The person behind a browser or a phone across the provider's apps (WeChat's unionid), the same in H5 and the mini-program. */
const unionFor = (provider: string, person: string) => `${provider === 'wechat' ? 'u' : 'U'}${createHash('sha256').update(`union:${provider}:${person}`).digest('base64url').slice(0, 27)}`

/** Only redirects back to this server (a real provider only to the app's registered domain). */
function safeRedirect(req: FastifyRequest, uri: string): URL | null {
  try {
    const url = new URL(uri, `${req.protocol}://${req.host}`)
    return url.host === req.host ? url : null
  } catch {
    return null
  }
}

/** WeChat returns `code`; Alipay returns `auth_code` and its `app_id`. */
function withCode(target: URL, provider: 'wechat' | 'alipay', code: string, state: string, appId: string): string {
  target.searchParams.set(provider === 'wechat' ? 'code' : 'auth_code', code)
  target.searchParams.set('state', state)
  if (provider === 'alipay') target.searchParams.set('app_id', appId)
  return target.toString()
}


function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f2f2;color:#222}
.card{margin:48px 20px;background:#fff;border-radius:12px;padding:28px 20px;text-align:center}
.logo{width:64px;height:64px;border-radius:50%;background:#07c160;color:#fff;font-size:28px;line-height:64px;margin:0 auto 16px}
.alipay .logo{background:#1677ff}h1{font-size:18px;margin:0 0 8px}p{color:#666;font-size:14px;margin:6px 0}
input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #ddd;border-radius:6px;font-size:15px;margin:12px 0}
button{width:100%;padding:12px;border:0;border-radius:6px;font-size:16px;margin-top:10px}
.ok{background:#07c160;color:#fff}.alipay .ok{background:#1677ff}.no{background:#f2f2f2;color:#333}
.tag{font-size:12px;color:#999;margin-top:20px}</style></head><body>${body}</body></html>`
}

const authorizeQuery = z.object({
  appid: z.string().min(1).max(64).optional(),
  app_id: z.string().min(1).max(64).optional(),
  redirect_uri: z.string().min(1).max(2000),
  scope: z.string().max(64).default('snsapi_base'),
  state: z.string().max(128).default(''),
  response_type: z.string().optional(),
})

const consentBody = z.object({
  appid: z.string().min(1).max(64),
  redirect_uri: z.string().min(1).max(2000),
  scope: z.string().max(64),
  state: z.string().max(128).default(''),
  nickname: z.string().trim().min(1).max(32),
  decision: z.enum(['allow', 'deny']),
})

const miniCodeBody = z.object({
  appId: z.string().min(1).max(64),
  /** Stands for "who is signed in to WeChat / Alipay on this phone": a random id the mini-program keeps. */
  device: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
})

export async function sandboxRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  for (const provider of ['wechat', 'alipay'] as const) {
    const brand = provider === 'wechat' ? '微信' : '支付宝'
    /**
     * What wx.login / my.getAuthCode give a mini-program: a one-time code for the phone's WeChat / Alipay user in
     * that app. The sandbox's stand-in, which the mini-program builds call while the server is a sandbox; the phone's
     * `device` id plays the browser cookie's part, so the same id in a browser's cookie is the same person (unionid).
     */
    r.post(`/sandbox/${provider}/mini-code`, { schema: { hide: true, body: miniCodeBody } }, async (req) => {
      const { appId, device } = req.body
      const code = await createOAuthCode(app.ctx.db, {
        provider,
        appId,
        subject: subjectFor(provider, device, appId),
        unionId: unionFor(provider, device),
        scope: provider === 'wechat' ? 'mini' : 'auth_base',
      })
      return { code }
    })
    if (provider === 'wechat') {
      /**
       * What WeChat's phone-number button gives the mini-program: a one-time code for the mobile bound to the phone's
       * WeChat account, which the sandbox makes up from the device id (always the same number for the same phone).
       */
      r.post('/sandbox/wechat/phone-code', { schema: { hide: true, body: miniCodeBody } }, async (req) => {
        const { appId, device } = req.body
        const digits = BigInt(`0x${createHash('sha256').update(`phone:${device}`).digest('hex').slice(0, 12)}`) % 100_000_000n
        const code = await createOAuthCode(app.ctx.db, { provider, appId, subject: `199${String(digits).padStart(8, '0')}`, scope: PHONE_SCOPE })
        return { code }
      })
    }
    r.get(`/sandbox/${provider}/authorize`, { schema: { hide: true, querystring: authorizeQuery } }, async (req, reply) => {
      const appId = req.query.appid ?? req.query.app_id ?? ''
      const target = safeRedirect(req, req.query.redirect_uri)
      if (!appId || !target) return reply.status(400).type('text/html').send(page('授权失败', `<div class="card"><h1>${brand}授权失败</h1><p>redirect_uri 参数错误</p></div>`))
      const browser = browserId(req, reply)
      // base scope is silent, as in WeChat and Alipay: straight back with a code
      if (req.query.scope === 'snsapi_base' || req.query.scope === 'auth_base') {
        const code = await createOAuthCode(app.ctx.db, {
          provider,
          appId,
          subject: subjectFor(provider, browser, appId),
          unionId: unionFor(provider, browser),
          scope: req.query.scope,
        })
        return reply.redirect(withCode(target, provider, code, req.query.state, appId))
      }
      const hospital = await findHospitalByAppId(app.ctx.db, appId)
      const appName = hospital?.name ?? '掌上医院'
      const hidden = (k: string, v: string) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`
      return reply.type('text/html; charset=utf-8').send(
        page(
          `${brand}授权`,
          `<div class="card ${provider}"><div class="logo">${provider === 'wechat' ? '微' : '支'}</div>
<h1>${escapeHtml(appName)} 申请获得以下权限</h1><p>获得你的公开信息（昵称、头像）</p>
<form method="post" action="/sandbox/${provider}/authorize">
${hidden('appid', appId)}${hidden('redirect_uri', req.query.redirect_uri)}${hidden('scope', req.query.scope)}${hidden('state', req.query.state)}
<input name="nickname" aria-label="昵称" value="${provider === 'wechat' ? '微信用户' : '支付宝用户'}" maxlength="32">
<button class="ok" name="decision" value="allow" type="submit">允许</button>
<button class="no" name="decision" value="deny" type="submit">拒绝</button></form>
<p class="tag">${brand}授权沙箱 · 不会连接真实${brand}</p></div>`,
        ),
      )
    })
    r.post(`/sandbox/${provider}/authorize`, { schema: { hide: true, body: consentBody } }, async (req, reply) => {
      const target = safeRedirect(req, req.body.redirect_uri)
      if (!target) return reply.status(400).type('text/html').send(page('授权失败', '<div class="card"><h1>redirect_uri 参数错误</h1></div>'))
      if (req.body.decision === 'deny') {
        return reply.type('text/html; charset=utf-8').send(page('已拒绝', `<div class="card"><h1>你已拒绝授权</h1><p>关闭页面或返回重新进入</p></div>`))
      }
      const browser = browserId(req, reply)
      const code = await createOAuthCode(app.ctx.db, {
        provider,
        appId: req.body.appid,
        subject: subjectFor(provider, browser, req.body.appid),
        unionId: unionFor(provider, browser),
        scope: req.body.scope,
        nickname: req.body.nickname,
        avatar: '',
      })
      return reply.redirect(withCode(target, provider, code, req.body.state, req.body.appid), 303)
    })
  }
}
