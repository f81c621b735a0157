import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { oauthCodes, reportVerifications, sessions, smsCodes, staffAccounts, staffSessions } from '../../server/src/db/schema'
import { FieldCipher, sha256 } from '../../server/src/crypto'
import { REFRESH_REUSE_GRACE_MS, SMS_CODE_EXPIRED, SMS_DAILY_LIMIT, SMS_PER_MOBILE_PER_DAY, pruneOneTimeCodes, pruneSessions } from '../../server/src/domain/auth'
import { pruneStaffSessions } from '../../server/src/domain/staff'
import { addPatient } from './fixtures'
import { startTestApp, signInWechat, signInUser, envelopeOf, randomIp, DEMO, type TestApp } from './harness'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const RETURN_TO = 'http://localhost/h5/pages/login/login'
const CODE_REFUSED = '授权码无效或已使用，请重新授权'
const newBrowser = () => randomBytes(16).toString('base64url')
const newMobile = () => `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
/** A 6-digit code that is certainly not `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

type Provider = 'wechat' | 'alipay'

/** The sandbox authorisation page, as a browser on this server would open it. */
function openAuthorize(provider: Provider, query: Record<string, string>, cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url: `/sandbox/${provider}/authorize`,
    query,
    headers: { host: 'localhost', ...(cookie ? { cookie: `sandbox_wx_browser=${cookie}` } : {}) },
  })
}

function postConsent(provider: Provider, form: Record<string, string>, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox/${provider}/authorize`,
    payload: new URLSearchParams(form).toString(),
    headers: {
      host: 'localhost',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie: `sandbox_wx_browser=${cookie}` } : {}),
    },
  })
}

const locationOf = (res: LightMyRequestResponse) => new URL(String(res.headers.location))

/** A fresh one-time code from the silent (base scope) authorisation. */
async function baseCode(provider: Provider, appId: string, browser = newBrowser()) {
  const res =
    provider === 'wechat'
      ? await openAuthorize('wechat', { appid: appId, redirect_uri: RETURN_TO, scope: 'snsapi_base', state: 's' }, browser)
      : await openAuthorize('alipay', { app_id: appId, redirect_uri: RETURN_TO, scope: 'auth_base', state: 's' }, browser)
  assert.equal(res.statusCode, 302)
  const code = locationOf(res).searchParams.get(provider === 'wechat' ? 'code' : 'auth_code')
  assert.ok(code)
  return code
}

function post(url: string, payload: unknown, opts: { headers?: Record<string, string>; ip?: string } = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: opts.headers, remoteAddress: opts.ip ?? randomIp() })
}

const userinfo = (token: string) => t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo', headers: bearer(token) })

async function alipaySignIn(browser = newBrowser()) {
  const code = await baseCode('alipay', DEMO.both.appId, browser)
  const env = envelopeOf(await post('/dld-auth/token/alipay/H5', { authCode: code, appId: DEMO.both.appId }))
  assert.equal(env.code, 200)
  return env.data as { token: string; refreshToken: string; userId: number }
}

describe('GET /dld-auth/oauth/:provider/authorize-url', () => {
  const query = { appId: DEMO.both.appId, redirectUri: RETURN_TO, scope: 'snsapi_userinfo', state: 'abc' }

  it('rejects a scope the providers do not have', async () => {
    const env = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/wechat/authorize-url', query: { ...query, scope: 'snsapi_all' } }))
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
    assert.equal(env.data, null)
  })

  it('rejects an unknown provider and a missing redirect URI', async () => {
    const qq = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/qq/authorize-url', query }))
    assert.equal(qq.code, 400)
    assert.match(qq.msg, /^参数错误/)
    const { redirectUri: _omit, ...rest } = query
    const missing = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/wechat/authorize-url', query: rest }))
    assert.equal(missing.code, 400)
    assert.match(missing.msg, /^参数错误/)
  })

  it('answers the sandbox WeChat page with the request in WeChat’s parameter names', async () => {
    const env = envelopeOf<{ url: string }>(await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/wechat/authorize-url', query }))
    assert.equal(env.code, 200)
    const url = new URL(env.data.url, 'http://localhost')
    assert.equal(url.pathname, '/sandbox/wechat/authorize')
    assert.equal(url.searchParams.get('appid'), DEMO.both.appId)
    assert.equal(url.searchParams.get('redirect_uri'), RETURN_TO)
    assert.equal(url.searchParams.get('scope'), 'snsapi_userinfo')
    assert.equal(url.searchParams.get('state'), 'abc')
    assert.equal(url.searchParams.get('response_type'), 'code')
  })

  it('answers the sandbox Alipay page with app_id', async () => {
    const env = envelopeOf<{ url: string }>(
      await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/alipay/authorize-url', query: { ...query, scope: 'auth_user' } }),
    )
    assert.equal(env.code, 200)
    const url = new URL(env.data.url, 'http://localhost')
    assert.equal(url.pathname, '/sandbox/alipay/authorize')
    assert.equal(url.searchParams.get('app_id'), DEMO.both.appId)
    assert.equal(url.searchParams.get('scope'), 'auth_user')
    assert.equal(url.searchParams.get('redirect_uri'), RETURN_TO)
  })

  it('gives a URL a browser can follow back to the app with a code', async () => {
    const env = envelopeOf<{ url: string }>(
      await t.app.inject({ method: 'GET', url: '/dld-auth/oauth/wechat/authorize-url', query: { ...query, scope: 'snsapi_base' } }),
    )
    const res = await t.app.inject({ method: 'GET', url: env.data.url.split('#')[0]!, headers: { host: 'localhost' } })
    assert.equal(res.statusCode, 302)
    const back = locationOf(res)
    assert.equal(`${back.origin}${back.pathname}`, RETURN_TO)
    assert.equal(back.searchParams.get('state'), 'abc')
    assert.match(back.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{16,}$/)
  })
})

describe('GET /sandbox/wechat/authorize', () => {
  it('refuses a redirect_uri on another host', async () => {
    for (const uri of ['https://evil.example/steal', '//evil.example/x', 'http://localhost.evil.example/', 'javascript:alert(1)', 'http://localhost:8081/']) {
      for (const scope of ['snsapi_base', 'snsapi_userinfo']) {
        const res = await openAuthorize('wechat', { appid: DEMO.both.appId, redirect_uri: uri, scope })
        assert.equal(res.statusCode, 400, `${uri} ${scope}`)
        assert.equal(res.headers.location, undefined)
        assert.match(res.body, /redirect_uri 参数错误/)
      }
    }
  })

  it('refuses a request without an app id', async () => {
    const res = await openAuthorize('wechat', { redirect_uri: RETURN_TO, scope: 'snsapi_base' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.headers.location, undefined)
  })

  it('base scope goes straight back with a code and the state, and gives a new browser its cookie', async () => {
    const res = await openAuthorize('wechat', { appid: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'snsapi_base', state: 'xyz' })
    assert.equal(res.statusCode, 302)
    const back = locationOf(res)
    assert.equal(`${back.origin}${back.pathname}`, RETURN_TO)
    assert.equal(back.searchParams.get('state'), 'xyz')
    assert.ok(back.searchParams.get('code'))
    assert.match(String(res.headers['set-cookie']), /^sandbox_wx_browser=[A-Za-z0-9_-]{16,64};/)
  })

  it('a relative redirect_uri stays on this server', async () => {
    const res = await openAuthorize('wechat', { appid: DEMO.both.appId, redirect_uri: '/h5/pages/index/index', scope: 'snsapi_base' })
    assert.equal(res.statusCode, 302)
    const back = locationOf(res)
    assert.equal(back.host, 'localhost')
    assert.equal(back.pathname, '/h5/pages/index/index')
  })

  it('user-info scope shows a consent page naming the hospital of the app id', async () => {
    const res = await openAuthorize('wechat', { appid: DEMO.palm.appId, redirect_uri: RETURN_TO, scope: 'snsapi_userinfo', state: 's' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^text\/html/)
    assert.match(res.body, /允许/)
    assert.match(res.body, /拒绝/)
    assert.match(res.body, /示范市中医院/)
    assert.equal(res.headers.location, undefined)
  })

  it('escapes what the request puts into the page', async () => {
    const res = await openAuthorize('wechat', {
      appid: DEMO.both.appId,
      redirect_uri: RETURN_TO,
      scope: 'snsapi_userinfo',
      state: '"><script>alert(1)</script>',
    })
    assert.equal(res.statusCode, 200)
    assert.doesNotMatch(res.body, /<script>alert/)
  })

  it('the same browser is the same person, in every app of the hospital (unionid); another browser is someone else', async () => {
    const first = await openAuthorize('wechat', { appid: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'snsapi_base' })
    const cookie = /sandbox_wx_browser=([^;]+)/.exec(String(first.headers['set-cookie']))![1]!
    const ip = randomIp()
    const session = envelopeOf(
      await post('/dld-auth/token/wxH5', { code: locationOf(first).searchParams.get('code'), appId: DEMO.both.appId }, { ip }),
    ).data
    assert.equal(session.userId, 0)
    const mobile = newMobile()
    const sms = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: bearer(session.token), ip }))
    const bound = envelopeOf(await post('/dld-hospital/bind', { mobile, code: sms.data.devCode }, { headers: bearer(session.token), ip }))
    assert.equal(bound.code, 200)
    assert.ok(bound.data.userId > 0)

    const again = await signInWechat(t.app, { browser: cookie })
    assert.equal(again.userId, bound.data.userId)
    const other = await signInWechat(t.app, { browser: newBrowser() })
    assert.equal(other.userId, 0)
    // WeChat gives each official account its own openid for the same person, and one unionid across the apps bound
    // to the hospital's open-platform account: the sandbox binds all of this server's apps to one
    const otherApp = await signInWechat(t.app, { browser: cookie, appId: DEMO.palm.appId })
    assert.notEqual(otherApp.token, again.token)
    assert.equal(otherApp.userId, bound.data.userId)
  })
})

describe('POST /sandbox/wechat/authorize', () => {
  const form = { appid: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'snsapi_userinfo', state: 'st', nickname: '张小花' }

  it('refuses a redirect_uri on another host', async () => {
    const res = await postConsent('wechat', { ...form, redirect_uri: 'http://evil.example/', decision: 'allow' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.headers.location, undefined)
  })

  it('refuses a decision that is neither allow nor deny', async () => {
    const res = await postConsent('wechat', { ...form, decision: 'maybe' })
    assert.equal(res.headers.location, undefined)
    const env = envelopeOf(res)
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('deny shows the refusal page and hands out no code', async () => {
    const res = await postConsent('wechat', { ...form, decision: 'deny' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers.location, undefined)
    assert.match(res.body, /你已拒绝授权/)
  })

  it('allow redirects (303) with a code and the state; the nickname lands in userinfo', async () => {
    const res = await postConsent('wechat', { ...form, decision: 'allow' }, newBrowser())
    assert.equal(res.statusCode, 303)
    const back = locationOf(res)
    assert.equal(`${back.origin}${back.pathname}`, RETURN_TO)
    assert.equal(back.searchParams.get('state'), 'st')
    const login = envelopeOf(await post('/dld-auth/token/getWxAccessToken', { code: back.searchParams.get('code'), appId: DEMO.both.appId }))
    assert.equal(login.code, 200)
    const me = envelopeOf(await userinfo(login.data.token))
    assert.equal(me.code, 200)
    assert.equal(me.data.nickname, '张小花')
    assert.equal(me.data.provider, 'wechat')
    assert.equal(me.data.appId, DEMO.both.appId)
  })
})

describe('GET /sandbox/alipay/authorize', () => {
  it('refuses a redirect_uri on another host', async () => {
    const res = await openAuthorize('alipay', { app_id: DEMO.both.appId, redirect_uri: 'https://evil.example/', scope: 'auth_base' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.headers.location, undefined)
  })

  it('base scope goes back with auth_code, state and app_id', async () => {
    const res = await openAuthorize('alipay', { app_id: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'auth_base', state: 'ali' })
    assert.equal(res.statusCode, 302)
    const back = locationOf(res)
    assert.ok(back.searchParams.get('auth_code'))
    assert.equal(back.searchParams.get('state'), 'ali')
    assert.equal(back.searchParams.get('app_id'), DEMO.both.appId)
    assert.equal(back.searchParams.get('code'), null)
  })

  it('user scope shows the Alipay consent page', async () => {
    const res = await openAuthorize('alipay', { app_id: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'auth_user' })
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /允许/)
    assert.match(res.body, /支付宝/)
  })
})

describe('POST /sandbox/alipay/authorize', () => {
  const form = { appid: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'auth_user', state: 'a1', nickname: '支付宝小王' }

  it('deny shows the refusal page', async () => {
    const res = await postConsent('alipay', { ...form, decision: 'deny' })
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /你已拒绝授权/)
    assert.equal(res.headers.location, undefined)
  })

  it('allow redirects with auth_code; the nickname lands in userinfo', async () => {
    const res = await postConsent('alipay', { ...form, decision: 'allow' })
    assert.equal(res.statusCode, 303)
    const back = locationOf(res)
    assert.equal(back.searchParams.get('state'), 'a1')
    const login = envelopeOf(await post('/dld-auth/token/alipay/H5', { authCode: back.searchParams.get('auth_code'), appId: DEMO.both.appId }))
    assert.equal(login.code, 200)
    const me = envelopeOf(await userinfo(login.data.token))
    assert.equal(me.data.nickname, '支付宝小王')
    assert.equal(me.data.provider, 'alipay')
  })
})

describe('POST /dld-auth/token/wxH5', () => {
  it('rejects an empty body', async () => {
    const empty = envelopeOf(await post('/dld-auth/token/wxH5', {}))
    assert.equal(empty.code, 400)
    assert.match(empty.msg, /^参数错误/)
    const blank = envelopeOf(await post('/dld-auth/token/wxH5', { code: '   ', appId: DEMO.both.appId }))
    assert.equal(blank.code, 400)
    const none = envelopeOf(await t.app.inject({ method: 'POST', url: '/dld-auth/token/wxH5', remoteAddress: randomIp() }))
    assert.equal(none.code, 400)
  })

  it('refuses a code it never issued', async () => {
    const env = envelopeOf(await post('/dld-auth/token/wxH5', { code: 'made-up-code', appId: DEMO.both.appId }))
    assert.equal(env.code, 401)
    assert.equal(env.msg, CODE_REFUSED)
  })

  it('refuses a code issued for another app id, which stays usable for its own', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    const wrong = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.palm.appId }))
    assert.equal(wrong.code, 401)
    assert.equal(wrong.msg, CODE_REFUSED)
    const right = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId }))
    assert.equal(right.code, 200)
  })

  it('refuses an Alipay code', async () => {
    const code = await baseCode('alipay', DEMO.both.appId)
    const env = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId }))
    assert.equal(env.code, 401)
  })

  it('refuses an expired code', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    await t.database.db.update(oauthCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthCodes.codeHash, sha256(code)))
    const env = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId }))
    assert.equal(env.code, 401)
    assert.equal(env.msg, CODE_REFUSED)
  })

  it('of several simultaneous redemptions of one code, exactly one succeeds', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId })))
    assert.deepEqual(answers.map((r) => envelopeOf(r).code).sort(), [200, 401, 401, 401, 401])
  })

  it('a code works exactly once', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    const first = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId }))
    assert.equal(first.code, 200)
    assert.equal(first.msg, 'success')
    assert.equal(first.data.appId, DEMO.both.appId)
    assert.equal(first.data.userId, 0)
    assert.notEqual(first.data.token, first.data.refreshToken)
    // two hours, as the app's lifeData expiry stamp
    assert.ok(Math.abs(first.data.expireTime - (Date.now() + 2 * 3600_000)) < 60_000)
    assert.equal((await userinfo(first.data.token)).json().code, 200)

    const second = envelopeOf(await post('/dld-auth/token/wxH5', { code, appId: DEMO.both.appId }))
    assert.equal(second.code, 401)
    assert.equal(second.msg, CODE_REFUSED)
    assert.equal(second.data, null)
  })
})

describe('POST /dld-auth/token/getWxAccessToken', () => {
  it('rejects an empty body', async () => {
    const env = envelopeOf(await post('/dld-auth/token/getWxAccessToken', {}))
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('refuses a used code', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    assert.equal(envelopeOf(await post('/dld-auth/token/getWxAccessToken', { code, appId: DEMO.both.appId })).code, 200)
    const again = envelopeOf(await post('/dld-auth/token/getWxAccessToken', { code, appId: DEMO.both.appId }))
    assert.equal(again.code, 401)
    assert.equal(again.msg, CODE_REFUSED)
  })

  it('stores the nickname, which a later silent sign-in keeps', async () => {
    const browser = newBrowser()
    const res = await postConsent(
      'wechat',
      { appid: DEMO.both.appId, redirect_uri: RETURN_TO, scope: 'snsapi_userinfo', state: '', nickname: '李四', decision: 'allow' },
      browser,
    )
    const login = envelopeOf(await post('/dld-auth/token/getWxAccessToken', { code: locationOf(res).searchParams.get('code'), appId: DEMO.both.appId }))
    assert.equal(envelopeOf(await userinfo(login.data.token)).data.nickname, '李四')
    const silent = await signInWechat(t.app, { browser })
    assert.equal(envelopeOf(await userinfo(silent.token)).data.nickname, '李四')
  })
})

describe('POST /dld-auth/token/alipay/H5', () => {
  it('rejects a body without authCode', async () => {
    const code = await baseCode('alipay', DEMO.both.appId)
    const env = envelopeOf(await post('/dld-auth/token/alipay/H5', { code, appId: DEMO.both.appId }))
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('refuses a WeChat code', async () => {
    const code = await baseCode('wechat', DEMO.both.appId)
    const env = envelopeOf(await post('/dld-auth/token/alipay/H5', { authCode: code, appId: DEMO.both.appId }))
    assert.equal(env.code, 401)
    assert.equal(env.msg, CODE_REFUSED)
  })

  it('signs in an Alipay identity once per code', async () => {
    const authCode = await baseCode('alipay', DEMO.both.appId)
    const env = envelopeOf(await post('/dld-auth/token/alipay/H5', { authCode, appId: DEMO.both.appId }))
    assert.equal(env.code, 200)
    assert.equal(env.data.userId, 0)
    const me = envelopeOf(await userinfo(env.data.token))
    assert.equal(me.data.provider, 'alipay')
    assert.equal(me.data.appId, DEMO.both.appId)
    assert.equal(me.data.id, 0)
    const again = envelopeOf(await post('/dld-auth/token/alipay/H5', { authCode, appId: DEMO.both.appId }))
    assert.equal(again.code, 401)
  })
})

describe('POST /dld-auth/token/refresh/force', () => {
  it('rejects an empty body and an unknown refresh token', async () => {
    const empty = envelopeOf(await post('/dld-auth/token/refresh/force', {}))
    assert.equal(empty.code, 400)
    assert.match(empty.msg, /^参数错误/)
    const unknown = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: 'nope' }))
    assert.equal(unknown.code, 401)
  })

  it('refuses an Alipay refresh token', async () => {
    const ali = await alipaySignIn()
    const env = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: ali.refreshToken }))
    assert.equal(env.code, 401)
    // the refusal revoked nothing: the Alipay session still works
    assert.equal(envelopeOf(await userinfo(ali.token)).code, 200)
  })

  it('replaces the session: old access token stops working, new one works, refresh token is single-use', async () => {
    const u = await signInUser(t.app)
    const env = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: u.refreshToken }))
    assert.equal(env.code, 200)
    assert.equal(env.data.userId, u.userId)
    assert.equal(env.data.appId, DEMO.both.appId)
    assert.notEqual(env.data.token, u.token)
    assert.notEqual(env.data.refreshToken, u.refreshToken)

    const old = envelopeOf(await userinfo(u.token))
    assert.equal(old.code, 401)
    const fresh = envelopeOf(await userinfo(env.data.token))
    assert.equal(fresh.code, 200)
    assert.equal(fresh.data.id, u.userId)

    const reused = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: u.refreshToken }))
    assert.equal(reused.code, 401)
    const next = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: env.data.refreshToken }))
    assert.equal(next.code, 200)
  })

  it('a rotated refresh token used again later ends the session it was rotated into (a copied token)', async () => {
    const u = await signInUser(t.app)
    const rotated = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: u.refreshToken }))
    assert.equal(rotated.code, 200)
    // past the retry grace
    await t.database.db
      .update(sessions)
      .set({ revokedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
      .where(eq(sessions.refreshHash, sha256(u.refreshToken)))
    assert.equal(envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: u.refreshToken })).code, 401)
    assert.equal(envelopeOf(await userinfo(rotated.data.token)).code, 401)
    assert.equal(envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: rotated.data.refreshToken })).code, 401)
  })

  it('of several simultaneous refreshes with one token, exactly one succeeds', async () => {
    const s = await signInWechat(t.app)
    const answers = await Promise.all(Array.from({ length: 4 }, () => post('/dld-auth/token/refresh/force', { refreshToken: s.refreshToken })))
    assert.deepEqual(answers.map((r) => envelopeOf(r).code).sort(), [200, 401, 401, 401])
  })

  it('refuses an expired refresh token', async () => {
    const s = await signInWechat(t.app)
    await t.database.db.update(sessions).set({ refreshExpiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.refreshHash, sha256(s.refreshToken)))
    const env = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: s.refreshToken }))
    assert.equal(env.code, 401)
  })
})

describe('POST /dld-auth/token/alipay/refresh/force', () => {
  it('rejects an empty body', async () => {
    const env = envelopeOf(await post('/dld-auth/token/alipay/refresh/force', {}))
    assert.equal(env.code, 400)
  })

  it('refuses a WeChat refresh token without burning it', async () => {
    const s = await signInWechat(t.app)
    const env = envelopeOf(await post('/dld-auth/token/alipay/refresh/force', { refreshToken: s.refreshToken }))
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
    // still a valid WeChat session and refresh token
    assert.equal(envelopeOf(await userinfo(s.token)).code, 200)
    assert.equal(envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: s.refreshToken })).code, 200)
  })

  it('replaces an Alipay session once', async () => {
    const ali = await alipaySignIn()
    const env = envelopeOf(await post('/dld-auth/token/alipay/refresh/force', { refreshToken: ali.refreshToken }))
    assert.equal(env.code, 200)
    assert.equal(envelopeOf(await userinfo(ali.token)).code, 401)
    const me = envelopeOf(await userinfo(env.data.token))
    assert.equal(me.code, 200)
    assert.equal(me.data.provider, 'alipay')
    assert.equal(envelopeOf(await post('/dld-auth/token/alipay/refresh/force', { refreshToken: ali.refreshToken })).code, 401)
  })
})

describe('Bearer access token', () => {
  it('an expired access token answers 401, and the refresh token still renews the session', async () => {
    const s = await signInWechat(t.app)
    assert.equal(envelopeOf(await userinfo(s.token)).code, 200)
    await t.database.db.update(sessions).set({ accessExpiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.accessHash, sha256(s.token)))
    const expired = envelopeOf(await userinfo(s.token))
    assert.equal(expired.code, 401)
    assert.equal(expired.msg, '登录已失效，请重新登录')
    const renewed = envelopeOf(await post('/dld-auth/token/refresh/force', { refreshToken: s.refreshToken }))
    assert.equal(renewed.code, 200)
    assert.equal(envelopeOf(await userinfo(renewed.data.token)).code, 200)
  })

  it('a made-up token or another scheme answers 401', async () => {
    const s = await signInWechat(t.app)
    for (const authorization of ['Bearer not-a-token', `Token ${s.token}`, s.token, 'Bearer ']) {
      const env = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo', headers: { authorization } }))
      assert.equal(env.code, 401, authorization)
    }
  })
})

describe('POST /dld-auth/token/smsBindCode', () => {
  it('answers 401 without a token', async () => {
    const env = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile: newMobile() }))
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('rejects a malformed mobile number', async () => {
    const s = await signInWechat(t.app)
    for (const mobile of ['1380000000', '23800000000', '12800000000', '1380000000a', '']) {
      const env = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip }))
      assert.equal(env.code, 400, mobile)
      assert.match(env.msg, /^参数错误/)
      assert.match(env.msg, /手机号格式不正确/)
    }
  })

  it('sends a code (shown in test mode), and refuses a second one for the same mobile within 60 s', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const env = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip }))
    assert.equal(env.code, 200)
    assert.equal(env.data.sent, true)
    assert.equal(env.data.resendAfter, 60)
    assert.match(env.data.devCode, /^\d{6}$/)

    const again = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip }))
    assert.equal(again.code, 429)
    assert.equal(again.msg, '验证码已发送，请60秒后再试')
    // also from someone else, somewhere else
    const other = await signInWechat(t.app)
    const elsewhere = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: other.headers }))
    assert.equal(elsewhere.code, 429)
    // another mobile is fine
    assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile: newMobile() }, { headers: s.headers, ip: s.ip })).code, 200)
  })

  it('the order sweep forgets SMS codes past the day they count in and sandbox sign-in codes a day past expiry; fresher ones stay', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip })).code, 200)
    const db = t.database.db
    const hour = 3_600_000
    const [old] = await db
      .insert(smsCodes)
      .values({ mobileIndex: 'pruned-mobile', codeHash: sha256(`old:${mobile}`), purpose: 'bind', expiresAt: new Date(Date.now() - 25 * hour), createdAt: new Date(Date.now() - 25 * hour) })
      .returning()
    const [withinDay] = await db
      .insert(smsCodes)
      .values({ mobileIndex: 'pruned-mobile', codeHash: sha256(`day:${mobile}`), purpose: 'bind', expiresAt: new Date(Date.now() - 23 * hour), createdAt: new Date(Date.now() - 23 * hour) })
      .returning()
    const oauth = (name: string, expiresAt: Date) => ({ codeHash: sha256(`${name}:${mobile}`), provider: 'wechat' as const, appId: DEMO.both.appId, subject: name, scope: 'snsapi_base', expiresAt })
    await db.insert(oauthCodes).values([oauth('stale', new Date(Date.now() - 25 * hour)), oauth('recent', new Date(Date.now() - hour))])

    await pruneOneTimeCodes(db)
    const sms = await db.select({ id: smsCodes.id }).from(smsCodes).where(inArray(smsCodes.id, [old!.id, withinDay!.id]))
    assert.deepEqual(sms.map((r) => r.id), [withinDay!.id])
    const codes = await db.select({ subject: oauthCodes.subject }).from(oauthCodes).where(inArray(oauthCodes.codeHash, [sha256(`stale:${mobile}`), sha256(`recent:${mobile}`)]))
    assert.deepEqual(codes.map((r) => r.subject), ['recent'])
    // the code just sent still counts: a second one within 60 s is refused
    assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip })).code, 429)
  })

  it('the order sweep forgets sessions a day past their refresh token’s expiry with their report verifications, and workbench sessions a day past expiry; the rest stay', async () => {
    const db = t.database.db
    const hour = 3_600_000
    const caller = await signInUser(t.app)
    const [own] = await db.select().from(sessions).where(eq(sessions.accessHash, sha256(caller.token)))
    const patientId = await addPatient(t, caller.userId, { name: '王五', sex: 1, birthday: '1960-01-01', mobile: '13612345670' })
    const session = (name: string, refreshExpiresAt: Date, revokedAt: Date | null = null) => ({
      identityId: own!.identityId,
      accessHash: sha256(`access:${name}:${caller.token}`),
      refreshHash: sha256(`refresh:${name}:${caller.token}`),
      accessExpiresAt: new Date(refreshExpiresAt.getTime() - 29 * 24 * hour),
      refreshExpiresAt,
      revokedAt,
    })
    const [gone, rotated, lately] = await db
      .insert(sessions)
      .values([session('gone', new Date(Date.now() - 25 * hour)), session('rotated', new Date(Date.now() + 10 * 24 * hour), new Date(Date.now() - hour)), session('lately', new Date(Date.now() - 23 * hour))])
      .returning({ id: sessions.id })
    await db.insert(reportVerifications).values([
      { sessionId: gone!.id, patientId },
      { sessionId: own!.id, patientId },
    ])
    const [staff] = await db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1)
    const staffSession = (name: string, expiresAt: Date) => ({ staffId: staff!.id, tokenHash: sha256(`staff:${name}:${caller.token}`), expiresAt })
    const [staffGone, staffLately] = await db
      .insert(staffSessions)
      .values([staffSession('gone', new Date(Date.now() - 25 * hour)), staffSession('lately', new Date(Date.now() - 23 * hour))])
      .returning({ id: staffSessions.id })

    await pruneSessions(db)
    await pruneStaffSessions(db)
    const left = await db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, [own!.id, gone!.id, rotated!.id, lately!.id]))
    assert.deepEqual(left.map((r) => r.id).sort((a, b) => a - b), [own!.id, rotated!.id, lately!.id].sort((a, b) => a - b))
    const verified = await db.select({ sessionId: reportVerifications.sessionId }).from(reportVerifications).where(eq(reportVerifications.patientId, patientId))
    assert.deepEqual(verified.map((r) => r.sessionId), [own!.id])
    const staffLeft = await db.select({ id: staffSessions.id }).from(staffSessions).where(inArray(staffSessions.id, [staffGone!.id, staffLately!.id]))
    assert.deepEqual(staffLeft.map((r) => r.id), [staffLately!.id])
    // the caller is still signed in
    const me = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo', headers: caller.headers, remoteAddress: randomIp() }))
    assert.equal(me.code, 200)
  })

  it('limits one address to 5 calls a minute', async () => {
    const s = await signInWechat(t.app)
    const ip = randomIp()
    for (let i = 0; i < 5; i++) {
      const env = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile: newMobile() }, { headers: s.headers, ip }))
      assert.equal(env.code, 200, `call ${i + 1}`)
    }
    const res = await post('/dld-auth/token/smsBindCode', { mobile: newMobile() }, { headers: s.headers, ip })
    const env = envelopeOf(res)
    assert.equal(env.code, 429)
    assert.match(env.msg, /^操作过于频繁，请\d+秒后再试$/)
    assert.equal(env.data, null)
    // another address is not affected
    assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile: newMobile() }, { headers: s.headers })).code, 200)
  })

  it('a burst of requests for one mobile sends one code (a race shows on the PostgreSQL run)', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers }).then(envelopeOf)))
    assert.deepEqual(answers.map((a) => a.code).sort(), [200, ...Array(9).fill(429)])
    const stored = await t.database.db.select().from(smsCodes).where(eq(smsCodes.mobileIndex, new FieldCipher(t.config.dataKey).blindIndex(mobile)))
    assert.equal(stored.length, 1)
  })

  it(`one mobile is sent at most ${SMS_PER_MOBILE_PER_DAY} codes a day, from any address`, async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const mobileIndex = new FieldCipher(t.config.dataKey).blindIndex(mobile)
    for (let i = 0; i < SMS_PER_MOBILE_PER_DAY; i++) {
      assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers })).code, 200)
      // past the 60 s resend window
      await t.database.db.update(smsCodes).set({ createdAt: new Date(Date.now() - (i + 2) * 60_000) }).where(eq(smsCodes.mobileIndex, mobileIndex))
    }
    const refused = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers }))
    assert.equal(refused.code, 429)
    assert.equal(refused.msg, SMS_DAILY_LIMIT)
    // a day later it may be sent again
    await t.database.db.update(smsCodes).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(smsCodes.mobileIndex, mobileIndex))
    assert.equal(envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers })).code, 200)
  })

  it('a client cannot escape the limit by claiming another address in X-Forwarded-For, from any peer (no proxy is trusted by default)', async () => {
    for (const peer of ['203.0.113.9', '10.20.30.40', '192.168.1.20', '127.0.0.1']) {
      const s = await signInWechat(t.app)
      const codes: number[] = []
      for (let i = 1; i <= 6; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/dld-auth/token/smsBindCode',
          remoteAddress: peer,
          headers: { ...s.headers, 'x-forwarded-for': `198.51.100.${i}` },
          payload: { mobile: newMobile() },
        })
        codes.push(envelopeOf(res).code)
      }
      assert.deepEqual(codes, [200, 200, 200, 200, 200, 429], peer)
    }
  })

  it('behind a reverse proxy named in TRUST_PROXY, each forwarded client has its own limit', async () => {
    const proxied = await startTestApp({ config: { trustProxy: ['127.0.0.1'] } })
    try {
      const s = await signInWechat(proxied.app)
      const viaProxy = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/dld-auth/token/smsBindCode',
          remoteAddress: '127.0.0.1',
          headers: { ...s.headers, 'x-forwarded-for': client },
          payload: { mobile: newMobile() },
        })
      for (let i = 0; i < 5; i++) assert.equal(envelopeOf(await viaProxy('198.51.100.77')).code, 200)
      assert.equal(envelopeOf(await viaProxy('198.51.100.77')).code, 429)
      assert.equal(envelopeOf(await viaProxy('198.51.100.78')).code, 200)
    } finally {
      await proxied.close()
    }
  })
})

describe('POST /dld-hospital/bind', () => {
  const cipher = () => new FieldCipher(t.config.dataKey)

  async function requestCode(s: { headers: Record<string, string>; ip: string }, mobile: string) {
    const env = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, { headers: s.headers, ip: s.ip }))
    assert.equal(env.code, 200)
    return env.data.devCode as string
  }
  const bind = (s: { headers: Record<string, string>; ip: string }, body: Record<string, unknown>) =>
    post('/dld-hospital/bind', body, { headers: s.headers, ip: s.ip }).then((r) => envelopeOf(r))

  it('answers 401 without a token', async () => {
    const env = envelopeOf(await post('/dld-hospital/bind', { mobile: newMobile(), code: '123456' }))
    assert.equal(env.code, 401)
  })

  it('rejects a malformed code, mobile or source type', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    for (const code of ['12345', '1234567', '12a456', '']) {
      const env = await bind(s, { mobile, code })
      assert.equal(env.code, 400, code)
      assert.match(env.msg, /^参数错误/)
    }
    assert.match((await bind(s, { mobile, code: '12ab56' })).msg, /请输入6位验证码/)
    assert.match((await bind(s, { mobile: '123', code: '123456' })).msg, /手机号格式不正确/)
    assert.match((await bind(s, { mobile, code: '123456', sourceType: 3 })).msg, /来源类型不正确/)
  })

  it('refuses when no code was sent to the mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await bind(s, { mobile: newMobile(), code: '123456' })
    assert.equal(env.code, 400)
    assert.equal(env.msg, '验证码已失效，请重新获取')
  })

  it('a wrong code answers 验证码错误 and binds nothing', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await requestCode(s, mobile)
    const env = await bind(s, { mobile, code: wrongCode(code) })
    assert.equal(env.code, 400)
    assert.equal(env.msg, '验证码错误')
    assert.equal(envelopeOf(await userinfo(s.token)).data.id, 0)
    // the right one still works after a single miss
    assert.equal((await bind(s, { mobile, code })).code, 200)
  })

  it('after 5 wrong codes even the right one fails', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await requestCode(s, mobile)
    for (let i = 0; i < 5; i++) assert.equal((await bind(s, { mobile, code: wrongCode(code) })).msg, '验证码错误')
    const env = await bind(s, { mobile, code })
    assert.equal(env.code, 400)
    assert.equal(env.msg, '验证码已失效，请重新获取')
    assert.equal(envelopeOf(await userinfo(s.token)).data.id, 0)
  })

  it('a burst of wrong guesses from many addresses at once is compared at most 5 times; the right code is then refused (a race shows on the PostgreSQL run)', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await requestCode(s, mobile)
    const guesses = Array.from({ length: 100 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))
    const answers = await Promise.all(guesses.map((guess) => post('/dld-hospital/bind', { mobile, code: guess }, { headers: s.headers }).then(envelopeOf)))
    assert.equal(answers.filter((a) => a.msg === '验证码错误').length, 5)
    assert.equal(answers.filter((a) => a.msg === SMS_CODE_EXPIRED).length, 95)
    const right = await bind(s, { mobile, code })
    assert.equal(right.code, 400)
    assert.equal(right.msg, SMS_CODE_EXPIRED)
    assert.equal(envelopeOf(await userinfo(s.token)).data.id, 0)
  })

  it('refuses an expired code', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await requestCode(s, mobile)
    await t.database.db.update(smsCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(smsCodes.mobileIndex, cipher().blindIndex(mobile)))
    const env = await bind(s, { mobile, code })
    assert.equal(env.msg, '验证码已失效，请重新获取')
  })

  it('binds: userinfo gets an id and the masked mobile; a code works once; a second bind is refused', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await requestCode(s, mobile)
    const env = await bind(s, { mobile, code, sourceType: 2 })
    assert.equal(env.code, 200)
    assert.ok(env.data.userId > 0)
    assert.equal(typeof env.data.nickname, 'string')

    const me = envelopeOf(await userinfo(s.token))
    assert.equal(me.data.id, env.data.userId)
    assert.equal(me.data.mobile, `${mobile.slice(0, 3)}****${mobile.slice(-4)}`)

    const again = await bind(s, { mobile, code })
    assert.equal(again.code, 400)
    assert.equal(again.msg, '当前账号已绑定手机号')

    // the same code cannot bind another identity
    const other = await signInWechat(t.app)
    const reuse = await bind(other, { mobile, code })
    assert.equal(reuse.code, 400)
    assert.equal(reuse.msg, '验证码已失效，请重新获取')
    assert.equal(envelopeOf(await userinfo(other.token)).data.id, 0)
  })

  it('the same mobile from a second browser binds to the same user', async () => {
    const mobile = newMobile()
    const first = await signInWechat(t.app)
    const firstBind = await bind(first, { mobile, code: await requestCode(first, mobile) })
    assert.equal(firstBind.code, 200)
    // a minute later (the resend window)
    await t.database.db
      .update(smsCodes)
      .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(smsCodes.mobileIndex, cipher().blindIndex(mobile)))

    const second = await signInWechat(t.app)
    assert.equal(second.userId, 0)
    const secondBind = await bind(second, { mobile, code: await requestCode(second, mobile) })
    assert.equal(secondBind.code, 200)
    assert.equal(secondBind.data.userId, firstBind.data.userId)
    assert.equal(envelopeOf(await userinfo(second.token)).data.id, firstBind.data.userId)
    // and the first browser is still signed in as that user
    assert.equal(envelopeOf(await userinfo(first.token)).data.id, firstBind.data.userId)
  })
})
