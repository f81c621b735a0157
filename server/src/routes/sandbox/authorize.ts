import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { and, eq, lt } from 'drizzle-orm'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hmacHex, randomToken, safeEqual } from '../../crypto'
import type { Db, Tx } from '../../db'
import { sandboxMiniDevices, sandboxMiniLogins } from '../../db/schema'
import { PHONE_SCOPE, createOAuthCode } from '../../domain/auth'
import { findHospitalByAppId } from '../../domain/hospital'
import { escapeHtml } from './healthCard'

/**
 * Sandbox WeChat and Alipay authorisation pages, under the real services' redirect contract:
 * the browser leaves the app, and comes back to `redirect_uri` with a one-time code and the state it sent.
 * A cookie stands for "who is signed in to WeChat on this phone"; each browser is one WeChat user.
 */
const BROWSER_COOKIE = 'sandbox_wx_browser'
/**
 * The sandbox login page's half of its form token (double submit): SameSite=Strict, so a form posted from another
 * site arrives without it and is refused.
 */
const MINI_LOGIN_COOKIE = 'sandbox_mini_login'
/** How long a sign-in confirmed on the sandbox login page waits for the mini-program to collect it. */
const MINI_LOGIN_TTL_MS = 5 * 60 * 1000
const ID = /^[A-Za-z0-9_-]{16,64}$/

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  const cookies = Object.fromEntries(
    (req.headers.cookie ?? '').split(';').map((c) => {
      const i = c.indexOf('=')
      return [c.slice(0, i).trim(), c.slice(i + 1).trim()]
    }),
  )
  const value = cookies[name]
  return value && ID.test(value) ? value : undefined
}

function browserId(req: FastifyRequest, reply: FastifyReply): string {
  const existing = cookieOf(req, BROWSER_COOKIE)
  if (existing) return existing
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
.tag{font-size:12px;color:#999;margin-top:20px}
a.no,a.ok{display:block;box-sizing:border-box;width:100%;padding:12px;border-radius:6px;font-size:16px;margin-top:10px;text-decoration:none}
.account{font-size:16px;color:#222}</style></head><body>${body}</body></html>`
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
  device: z.string().regex(ID),
})
/** The login page's sign-in, collected once: `nonce` is the one the mini-program opened the page with. */
const miniSignInBody = miniCodeBody.extend({ nonce: z.string().regex(ID).optional() })
const miniLoginQuery = miniCodeBody.extend({
  nonce: z.string().regex(ID),
  /** 1: the tester asked for a new test account instead of this phone's */
  fresh: z.literal('1').optional(),
})
const miniLoginBody = miniCodeBody.extend({
  nonce: z.string().regex(ID),
  /** the test account shown on the page (a person id), covered by the form token */
  account: z.string().regex(ID),
  /** optional here so that a form without it gets the same refusal page as a forged one */
  token: z.string().max(128).default(''),
})

/** The form token of the sandbox login page: binds what the page showed to the browser's cookie. */
const miniLoginToken = (secret: string, provider: string, b: { appId: string; device: string; nonce: string; account: string }, cookie: string) =>
  hmacHex(secret, `sandbox-mini-login:${provider}:${b.appId}:${b.device}:${b.nonce}:${b.account}:${cookie}`)

/** The test account a phone signs in as: the one chosen on the login page, or none yet (the page has not been confirmed). */
async function chosenPerson(db: Db, provider: 'wechat' | 'alipay', device: string): Promise<string | null> {
  const [row] = await db
    .select({ person: sandboxMiniDevices.person })
    .from(sandboxMiniDevices)
    .where(and(eq(sandboxMiniDevices.provider, provider), eq(sandboxMiniDevices.device, device)))
  return row?.person ?? null
}

/** What a tester recognises a test account by: a short name made from it, never the id itself. */
const accountLabel = (provider: 'wechat' | 'alipay', person: string) =>
  `${provider === 'wechat' ? '微信' : '支付宝'}测试用户 ${createHash('sha256').update(`label:${person}`).digest('hex').slice(0, 6).toUpperCase()}`

export async function sandboxRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  for (const provider of ['wechat', 'alipay'] as const) {
    const brand = provider === 'wechat' ? '微信' : '支付宝'
    /** A sandbox sign-in code for a phone's test account in a mini-program (what wx.login / my.getAuthCode give). */
    const miniSignInCode = (db: Tx, appId: string, person: string) =>
      createOAuthCode(db, {
        provider,
        appId,
        subject: subjectFor(provider, person, appId),
        unionId: unionFor(provider, person),
        scope: provider === 'wechat' ? 'mini' : 'auth_base',
      })

    /**
     * What wx.login / my.getAuthCode give a mini-program: a one-time code for the phone's WeChat / Alipay user in
     * that app. The sandbox's stand-in, which the mini-program builds call while the server is a sandbox; the phone's
     * `device` id plays the browser cookie's part, so the same id in a browser's cookie is the same person (unionid).
     * Without `nonce`: silent, as wx.login is, for a phone that confirmed the login page once; `needsLogin` for one
     * that has not. With the `nonce` the phone opened the login page with: the sign-in confirmed there, once.
     */
    r.post(`/sandbox/${provider}/mini-code`, { schema: { hide: true, body: miniSignInBody } }, async (req) => {
      const { appId, device, nonce } = req.body
      const db = app.ctx.db
      if (!nonce) {
        const person = await chosenPerson(db, provider, device)
        return person ? { code: await miniSignInCode(db, appId, person) } : { code: null, needsLogin: true }
      }
      // taking the confirmation and minting its code in one transaction: two collects of one nonce get one code
      const code = await db.transaction(async (tx) => {
        const [taken] = await tx
          .delete(sandboxMiniLogins)
          .where(
            and(
              eq(sandboxMiniLogins.provider, provider),
              eq(sandboxMiniLogins.device, device),
              eq(sandboxMiniLogins.nonce, nonce),
              eq(sandboxMiniLogins.appId, appId),
            ),
          )
          .returning()
        return taken && taken.expiresAt > new Date() ? miniSignInCode(tx, appId, taken.person) : null
      })
      return { code }
    })

    const loginPage = (body: string) =>
      page(`沙箱${brand}登录`, `<div class="card ${provider}"><div class="logo">${provider === 'wechat' ? '微' : '支'}</div>${body}
<p class="tag">${brand}登录沙箱 · 不会连接真实${brand}</p></div>`)
    const refuseLogin = (reply: FastifyReply, why: string) =>
      reply.status(403).type('text/html; charset=utf-8').send(loginPage(`<h1>登录失败</h1><p>${escapeHtml(why)}</p><p>请返回小程序重新登录</p>`))

    /**
     * The sandbox login page a mini-program opens in its web-view the first time its phone signs in to this server:
     * it stands in for WeChat's / Alipay's own sign-in, shows the phone's test account (or a new one, `fresh=1`), and
     * 确认登录 records the sign-in for the mini-program to collect with its nonce.
     */
    r.get(`/sandbox/${provider}/mini-login`, { schema: { hide: true, querystring: miniLoginQuery } }, async (req, reply) => {
      const { appId, device, nonce, fresh } = req.query
      let cookie = cookieOf(req, MINI_LOGIN_COOKIE)
      if (!cookie) {
        cookie = randomToken(16)
        reply.header('set-cookie', `${MINI_LOGIN_COOKIE}=${cookie}; Path=/sandbox; HttpOnly; SameSite=Strict; Max-Age=86400`)
      }
      const current = await chosenPerson(app.ctx.db, provider, device)
      // a phone's first account is its device id, so the same id in a browser's cookie is the same person
      const account = fresh ? randomToken(16) : (current ?? device)
      const token = miniLoginToken(app.ctx.config.secret, provider, { appId, device, nonce, account }, cookie)
      const hidden = (k: string, v: string) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`
      const switchUrl = `/sandbox/${provider}/mini-login?${new URLSearchParams({ appId, device, nonce, fresh: '1' })}`
      const which = fresh ? '新的测试账号' : current ? '本机的测试账号' : '本机首次登录，将使用本机的测试账号'
      return reply.type('text/html; charset=utf-8').send(
        loginPage(`<h1>沙箱${brand}登录</h1><p>此页代替${brand}登录，确认后小程序以下面的测试账号登录</p>
<p>${which}</p><p class="account"><b>${escapeHtml(accountLabel(provider, account))}</b></p>
<form method="post" action="/sandbox/${provider}/mini-login">
${hidden('appId', appId)}${hidden('device', device)}${hidden('nonce', nonce)}${hidden('account', account)}${hidden('token', token)}
<button class="ok" type="submit">确认登录</button></form>
<a class="no switch" href="${escapeHtml(switchUrl)}">换一个新的测试账号</a>`),
      )
    })

    r.post(`/sandbox/${provider}/mini-login`, { schema: { hide: true, body: miniLoginBody } }, async (req, reply) => {
      const b = req.body
      const cookie = cookieOf(req, MINI_LOGIN_COOKIE)
      if (!cookie || !b.token || !safeEqual(b.token, miniLoginToken(app.ctx.config.secret, provider, b, cookie))) {
        return refuseLogin(reply, '登录页已失效')
      }
      const now = new Date()
      await app.ctx.db.transaction(async (tx) => {
        // this phone's test account from now on: its later sign-ins are silent
        await tx
          .insert(sandboxMiniDevices)
          .values({ provider, device: b.device, person: b.account, confirmedAt: now })
          .onConflictDoUpdate({ target: [sandboxMiniDevices.provider, sandboxMiniDevices.device], set: { person: b.account, confirmedAt: now } })
        await tx.delete(sandboxMiniLogins).where(lt(sandboxMiniLogins.expiresAt, now))
        await tx
          .insert(sandboxMiniLogins)
          .values({ provider, device: b.device, nonce: b.nonce, appId: b.appId, person: b.account, expiresAt: new Date(now.getTime() + MINI_LOGIN_TTL_MS) })
          .onConflictDoUpdate({
            target: [sandboxMiniLogins.provider, sandboxMiniLogins.device, sandboxMiniLogins.nonce],
            set: { appId: b.appId, person: b.account, expiresAt: new Date(now.getTime() + MINI_LOGIN_TTL_MS) },
          })
      })
      // the web-view page closes itself when it reaches an address of the app (src/pages/webview)
      return reply.type('text/html; charset=utf-8').send(
        loginPage(`<h1>已确认登录</h1><p>${escapeHtml(accountLabel(provider, b.account))}</p><p>请返回小程序，继续使用</p>
<a class="ok back" href="/h5/">返回小程序</a>`),
      )
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
