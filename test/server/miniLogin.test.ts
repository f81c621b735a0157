/**
 * Signing in inside the WeChat and Alipay mini-programs: the code of wx.login / my.getAuthCode exchanged once for
 * our tokens (POST /dld-auth/token/weapp, /dld-auth/token/alipay/mini), the same user as the H5 sign-in where the
 * unionid links them; the sandbox's stand-in for the codes; the real code2session against a WeChat double.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { realWechat, MINI_CODE_USED, PHONE_CODE_USED, WECHAT_SIGN_IN_OFF } from '../../server/src/plugins/providers/oauth'
import { bindWechatPhone } from '../../server/src/domain/auth'
import { AppError, Code } from '../../server/src/errors'
import { startTestApp, signInUser, envelopeOf, randomIp, miniCodeThroughLoginPage, openMiniLoginPage, type TestApp } from './harness'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const WEAPP_ID = 'wxmini0000000001'
const ALIPAY_MINI_ID = '2021000000000001'
const CODE_REFUSED = '授权码无效或已使用，请重新授权'
const newDevice = () => randomBytes(16).toString('base64url')
type Provider = 'wechat' | 'alipay'

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: randomIp() })

/**
 * What wx.login / my.getAuthCode give the mini-program on a sandbox server: silently for a phone that confirmed the
 * sandbox login page before, through that page the first time.
 */
async function miniCode(provider: Provider, appId: string, device = newDevice()) {
  const res = await post(`/sandbox/${provider}/mini-code`, { appId, device })
  assert.equal(res.statusCode, 200, res.body)
  const { code } = res.json() as { code: string | null }
  return code ?? miniCodeThroughLoginPage(t.app, provider, appId, device)
}

const signInWeapp = (code: string, appId = WEAPP_ID) => post('/dld-auth/token/weapp', { code, appId }).then(envelopeOf)
const signInAlipayMini = (authCode: string, appId = ALIPAY_MINI_ID) => post('/dld-auth/token/alipay/mini', { authCode, appId }).then(envelopeOf)
const userinfo = (token: string) => t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo', headers: { authorization: `Bearer ${token}` } }).then(envelopeOf)

describe('POST /dld-auth/token/weapp (WeChat mini-program)', () => {
  it('refuses a call without a code or an app id, with the reason', async () => {
    for (const body of [{ appId: WEAPP_ID }, { code: '', appId: WEAPP_ID }, { code: 'abc' }]) {
      const env = await post('/dld-auth/token/weapp', body).then(envelopeOf)
      assert.equal(env.code, 400, JSON.stringify(env))
      assert.match(env.msg, /参数错误/)
    }
  })

  it('refuses a code the sandbox never gave, one given to another app, and one used before', async () => {
    assert.equal((await signInWeapp('not-a-code')).msg, CODE_REFUSED)
    const forOtherApp = await miniCode('wechat', 'wxmini0000000002')
    const other = await signInWeapp(forOtherApp)
    assert.equal(other.code, 401)
    assert.equal(other.msg, CODE_REFUSED)

    const code = await miniCode('wechat', WEAPP_ID)
    const first = await signInWeapp(code)
    assert.equal(first.code, 200)
    const replay = await signInWeapp(code)
    assert.equal(replay.code, 401)
    assert.equal(replay.msg, CODE_REFUSED)
  })

  it('a new phone gets a session for an account with no mobile yet; the same phone signs in to the same identity', async () => {
    const device = newDevice()
    const first = await signInWeapp(await miniCode('wechat', WEAPP_ID, device))
    assert.equal(first.code, 200)
    assert.equal(first.data.userId, 0)
    assert.equal(first.data.appId, WEAPP_ID)
    assert.ok(first.data.expireTime > Date.now())
    const me = await userinfo(first.data.token)
    assert.equal(me.code, 200)
    assert.equal(me.data.id, 0)

    const again = await signInWeapp(await miniCode('wechat', WEAPP_ID, device))
    assert.notEqual(again.data.token, first.data.token)
    // the refresh token renews the mini-program's session like the H5 one's
    const renewed = await post('/dld-auth/token/refresh/force', { refreshToken: again.data.refreshToken }).then(envelopeOf)
    assert.equal(renewed.code, 200)
    assert.equal(renewed.data.appId, WEAPP_ID)
  })

  it('the person who bound a mobile in the H5 app finds the same account in the mini-program (unionid)', async () => {
    const h5 = await signInUser(t.app)
    // the sandbox's phone id is the browser cookie of the same person
    const mini = await signInWeapp(await miniCode('wechat', WEAPP_ID, h5.browser))
    assert.equal(mini.code, 200)
    assert.equal(mini.data.userId, h5.userId)
    assert.equal((await userinfo(mini.data.token)).data.id, h5.userId)

    // someone else's phone does not
    const stranger = await signInWeapp(await miniCode('wechat', WEAPP_ID))
    assert.equal(stranger.data.userId, 0)

    // unbound in the mini-program, it stays unbound: linking happens only for a new identity
    const cancelled = await t.app
      .inject({ method: 'GET', url: '/dld-hospital/cancelBind', headers: { authorization: `Bearer ${mini.data.token}` } })
      .then(envelopeOf)
    assert.equal(cancelled.code, 200)
    const after = await signInWeapp(await miniCode('wechat', WEAPP_ID, h5.browser))
    assert.equal(after.data.userId, 0)
    // the H5 identity keeps its user
    assert.equal((await userinfo(h5.token)).data.id, h5.userId)
  })
})

describe('POST /dld-auth/token/alipay/mini (Alipay mini-program)', () => {
  it('refuses a missing code, and a code used before; signs in with a fresh one', async () => {
    const missing = await post('/dld-auth/token/alipay/mini', { appId: ALIPAY_MINI_ID }).then(envelopeOf)
    assert.equal(missing.code, 400)
    const code = await miniCode('alipay', ALIPAY_MINI_ID)
    const first = await signInAlipayMini(code)
    assert.equal(first.code, 200)
    assert.equal(first.data.userId, 0)
    assert.equal(first.data.appId, ALIPAY_MINI_ID)
    const replay = await signInAlipayMini(code)
    assert.equal(replay.code, 401)
    assert.equal(replay.msg, CODE_REFUSED)
    // a WeChat code is not an Alipay one
    assert.equal((await signInAlipayMini(await miniCode('wechat', ALIPAY_MINI_ID))).code, 401)
  })
})

describe('POST /dld-hospital/wxPhoneBind (WeChat\'s phone-number button)', () => {
  const phoneCode = async (device: string, appId = WEAPP_ID) => {
    const res = await post('/sandbox/wechat/phone-code', { appId, device })
    assert.equal(res.statusCode, 200, res.body)
    return (res.json() as { code: string }).code
  }
  const bindPhone = (token: string | null, body: object) =>
    post('/dld-hospital/wxPhoneBind', body, token ? { authorization: `Bearer ${token}` } : {}).then(envelopeOf)

  it('needs a signed-in identity and a code', async () => {
    assert.equal((await bindPhone(null, { code: 'x' })).code, 401)
    const s = await signInWeapp(await miniCode('wechat', WEAPP_ID))
    const env = await bindPhone(s.data.token, {})
    assert.equal(env.code, 400)
    assert.match(env.msg, /参数错误：code/)
  })

  it('binds the mobile WeChat verified, with no SMS code; the code works once, and only as a phone code', async () => {
    const device = newDevice()
    const s = await signInWeapp(await miniCode('wechat', WEAPP_ID, device))
    const code = await phoneCode(device)
    // a phone code is not a sign-in code
    assert.equal((await signInWeapp(code)).code, 401)
    const bound = await bindPhone(s.data.token, { code: await phoneCode(device), sourceType: 5 })
    assert.equal(bound.code, 200, JSON.stringify(bound))
    assert.ok(bound.data.userId > 0)
    const me = await userinfo(s.data.token)
    assert.equal(me.data.id, bound.data.userId)
    assert.match(me.data.mobile, /^199\*{4}\d{4}$/)
    // bound already; and the used code is refused
    assert.equal((await bindPhone(s.data.token, { code: await phoneCode(device) })).msg, '当前账号已绑定手机号')
    // a code is good once: the next phone to send it is refused
    const fresh = await phoneCode(device)
    assert.equal((await bindPhone((await signInWeapp(await miniCode('wechat', WEAPP_ID))).data.token, { code: fresh })).code, 200)
    const replay = await bindPhone((await signInWeapp(await miniCode('wechat', WEAPP_ID))).data.token, { code: fresh })
    assert.equal(replay.code, 400)
    assert.equal(replay.msg, PHONE_CODE_USED)
  })

  it('the same phone number on another phone finds the same account; a sign-in code is no phone code', async () => {
    const device = newDevice()
    const first = await signInWeapp(await miniCode('wechat', WEAPP_ID, device))
    const bound = await bindPhone(first.data.token, { code: await phoneCode(device) })
    // another WeChat user whose button gives the same number (the sandbox number follows the device id)
    const second = await signInWeapp(await miniCode('wechat', 'wxmini0000000003'), 'wxmini0000000003')
    assert.equal(second.code, 200, JSON.stringify(second))
    const again = await bindPhone(second.data.token, { code: await phoneCode(device, 'wxmini0000000003') })
    assert.equal(again.data.userId, bound.data.userId)
    const loginCode = await miniCode('wechat', WEAPP_ID)
    const refused = await bindPhone((await signInWeapp(await miniCode('wechat', WEAPP_ID))).data.token, { code: loginCode })
    assert.equal(refused.code, 400)
    assert.equal(refused.msg, PHONE_CODE_USED)
  })

  it('an Alipay identity is refused', async () => {
    const s = await signInAlipayMini(await miniCode('alipay', ALIPAY_MINI_ID))
    assert.equal((await bindPhone(s.data.token, { code: 'x' })).msg, '请在微信中使用')
  })

  it('a number outside the mainland is refused, and nothing is bound', async () => {
    const auth = { sessionId: 1, identityId: 1, provider: 'wechat' as const, appId: WEAPP_ID, userId: null }
    const abroad = { miniPhone: async () => ({ mobile: '91234567', countryCode: '852' }) }
    await assert.rejects(bindWechatPhone(t.app.ctx.db, t.app.ctx.cipher, abroad, auth, { code: 'c', sourceType: 8 }), /请使用中国大陆手机号/)
  })
})

describe('the sandbox stand-in for wx.login / my.getAuthCode', () => {
  it('refuses a phone id that is not one and a missing app id', async () => {
    for (const body of [{ appId: WEAPP_ID, device: 'short' }, { appId: WEAPP_ID, device: '../../etc/passwd-xxxxxxxx' }, { device: newDevice() }]) {
      const env = envelopeOf(await post('/sandbox/wechat/mini-code', body))
      assert.equal(env.code, 400)
      assert.match(env.msg, /参数错误：(device|appId)/)
    }
  })
})

describe('the sandbox login page a mini-program opens the first time its phone signs in', () => {
  const newNonce = () => randomBytes(16).toString('base64url')
  const silent = (provider: Provider, appId: string, device: string) => post(`/sandbox/${provider}/mini-code`, { appId, device }).then((r) => r.json() as { code: string | null; needsLogin?: boolean })
  const collect = (provider: Provider, appId: string, device: string, nonce: string) =>
    post(`/sandbox/${provider}/mini-code`, { appId, device, nonce }).then((r) => r.json() as { code: string | null })
  /** Binds a new mobile to the session's identity by SMS code: the account's id. */
  const bindNewMobile = async (token: string) => {
    const headers = { authorization: `Bearer ${token}` }
    const mobile = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
    const sms = envelopeOf(await post('/dld-auth/token/smsBindCode', { mobile }, headers))
    const bound = envelopeOf(await post('/dld-hospital/bind', { mobile, code: sms.data.devCode, sourceType: 8 }, headers))
    assert.ok(bound.data?.userId > 0, JSON.stringify(bound))
    return bound.data.userId as number
  }
  const confirm = (provider: Provider, form: Record<string, string>, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/sandbox/${provider}/mini-login`,
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    })

  for (const [provider, appId, title, exchange] of [
    ['wechat', WEAPP_ID, '沙箱微信登录', signInWeapp],
    ['alipay', ALIPAY_MINI_ID, '沙箱支付宝登录', signInAlipayMini],
  ] as const) {
    it(`${provider}: a new phone is sent to the login page, whose 确认登录 gives one code that signs in; later sign-ins are silent`, async () => {
      const device = newDevice()
      assert.deepEqual(await silent(provider, appId, device), { code: null, needsLogin: true })

      const nonce = newNonce()
      const opened = await openMiniLoginPage(t.app, provider, { appId, device, nonce })
      assert.match(opened.html, new RegExp(`<h1>${title}</h1>`))
      assert.match(opened.html, new RegExp(`代替${provider === 'wechat' ? '微信' : '支付宝'}登录`))
      assert.match(opened.html, /本机首次登录/)
      assert.match(opened.html, />确认登录</)
      assert.match(opened.html, /换一个新的测试账号/)
      assert.match(opened.cookie, /^sandbox_mini_login=/)
      assert.equal(opened.form.account, device)
      // nothing to collect before the tester confirms
      assert.deepEqual(await collect(provider, appId, device, nonce), { code: null })

      const confirmed = await confirm(provider, opened.form, opened.cookie)
      assert.equal(confirmed.statusCode, 200, confirmed.body)
      assert.match(confirmed.body, /已确认登录/)
      assert.match(confirmed.body, /返回小程序/)

      const { code } = await collect(provider, appId, device, nonce)
      assert.ok(code)
      // the code is handed out once
      assert.deepEqual(await collect(provider, appId, device, nonce), { code: null })
      const first = await exchange(code)
      assert.equal(first.code, 200, JSON.stringify(first))
      // and is good once at the exchange
      const replay = await exchange(code)
      assert.equal(replay.code, 401)
      assert.equal(replay.msg, CODE_REFUSED)

      // this phone confirmed once: from now on wx.login's stand-in is silent, the same person each time
      const later = await silent(provider, appId, device)
      assert.ok(later.code)
      // the same person: the account bound in the first session is found again
      const userId = await bindNewMobile(first.data.token)
      const again = await exchange(later.code)
      assert.equal(again.code, 200)
      assert.equal(again.data.userId, userId)
    })
  }

  it('the phone on the login page is the person of the same id in a browser (unionid), until the tester switches to a new test account', async () => {
    const h5 = await signInUser(t.app)
    const nonce = newNonce()
    const opened = await openMiniLoginPage(t.app, 'wechat', { appId: WEAPP_ID, device: h5.browser, nonce })
    assert.equal((await confirm('wechat', opened.form, opened.cookie)).statusCode, 200)
    const mine = await signInWeapp((await collect('wechat', WEAPP_ID, h5.browser, nonce)).code!)
    assert.equal(mine.data.userId, h5.userId)

    // 换一个新的测试账号: a fresh person for this phone, with no account yet
    const switched = await openMiniLoginPage(t.app, 'wechat', { appId: WEAPP_ID, device: h5.browser, nonce: newNonce(), fresh: '1' })
    assert.match(switched.html, /新的测试账号/)
    assert.notEqual(switched.form.account, h5.browser)
    assert.equal((await confirm('wechat', switched.form, switched.cookie)).statusCode, 200)
    const other = await signInWeapp((await collect('wechat', WEAPP_ID, h5.browser, switched.form.nonce)).code!)
    assert.equal(other.data.userId, 0)
    // and the silent sign-ins that follow are the new person's
    const silentAfter = await signInWeapp((await silent('wechat', WEAPP_ID, h5.browser)).code!)
    assert.equal(silentAfter.data.userId, 0)
    // the page shows the phone's account now, not its first one
    const reopened = await openMiniLoginPage(t.app, 'wechat', { appId: WEAPP_ID, device: h5.browser, nonce: newNonce() })
    assert.equal(reopened.form.account, switched.form.account)
    assert.match(reopened.html, /本机的测试账号/)
  })

  it('refuses 确认登录 without the form token or its cookie, or with a forged one, and records nothing', async () => {
    const device = newDevice()
    const nonce = newNonce()
    const opened = await openMiniLoginPage(t.app, 'wechat', { appId: WEAPP_ID, device, nonce })
    const { token: _token, ...withoutToken } = opened.form
    const forged = opened.form.token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))
    const otherCookie = `sandbox_mini_login=${randomBytes(16).toString('base64url')}`
    for (const [form, cookie] of [
      [withoutToken, opened.cookie], // a form posted without the token
      [opened.form, undefined], // from another site: the SameSite=Strict cookie stays behind
      [opened.form, otherCookie], // the token of another browser
      [{ ...opened.form, token: forged }, opened.cookie],
      [{ ...opened.form, account: newDevice() }, opened.cookie], // another account than the page showed
    ] as const) {
      const res = await confirm('wechat', form, cookie)
      assert.equal(res.statusCode, 403, res.body)
      assert.match(res.body, /登录失败/)
    }
    assert.deepEqual(await collect('wechat', WEAPP_ID, device, nonce), { code: null })
    assert.deepEqual(await silent('wechat', WEAPP_ID, device), { code: null, needsLogin: true })
  })

  it('a nonce never confirmed, one confirmed for another app or phone, or a made-up one, gives no code', async () => {
    const device = newDevice()
    const nonce = newNonce()
    const opened = await openMiniLoginPage(t.app, 'wechat', { appId: WEAPP_ID, device, nonce })
    assert.equal((await confirm('wechat', opened.form, opened.cookie)).statusCode, 200)
    assert.deepEqual(await collect('wechat', WEAPP_ID, device, newNonce()), { code: null })
    assert.deepEqual(await collect('wechat', 'wxmini0000000002', device, nonce), { code: null })
    assert.deepEqual(await collect('wechat', WEAPP_ID, newDevice(), nonce), { code: null })
    assert.deepEqual(await collect('alipay', WEAPP_ID, device, nonce), { code: null })
    const env = envelopeOf(await post('/sandbox/wechat/mini-code', { appId: WEAPP_ID, device, nonce: 'short' }))
    assert.equal(env.code, 400)
    // the right one still works, once
    assert.ok((await collect('wechat', WEAPP_ID, device, nonce)).code)
  })

  it('the page refuses a phone id or nonce that is not one', async () => {
    for (const query of [{ appId: WEAPP_ID, device: 'short', nonce: newNonce() }, { appId: WEAPP_ID, device: newDevice(), nonce: '<script>' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/sandbox/wechat/mini-login', query })
      assert.equal(envelopeOf(res).code, 400)
    }
  })

  it('is not served in production without DEMO=1; DEMO=1 serves it', async () => {
    const device = newDevice()
    const query = { appId: WEAPP_ID, device, nonce: newNonce() }
    const production = await startTestApp({ config: { mode: 'production', demo: false, paySandbox: false } })
    try {
      assert.equal((await production.app.inject({ method: 'GET', url: '/sandbox/wechat/mini-login', query })).statusCode, 404)
      assert.equal((await production.app.inject({ method: 'POST', url: '/sandbox/wechat/mini-login', payload: { ...query, account: device, token: 'x' } })).statusCode, 404)
      assert.equal((await production.app.inject({ method: 'POST', url: '/sandbox/alipay/mini-code', payload: query })).statusCode, 404)
    } finally {
      await production.close()
    }
    const demo = await startTestApp({ config: { mode: 'production', demo: true, paySandbox: false } })
    try {
      assert.equal((await demo.app.inject({ method: 'GET', url: '/sandbox/wechat/mini-login', query })).statusCode, 200)
    } finally {
      await demo.close()
    }
  })
})

describe('the real code2session (WeChat, through a double of its API)', () => {
  const calls: string[] = []
  const answer = (body: object) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  const fetchImpl = (async (url: string | URL) => {
    calls.push(String(url))
    const code = new URL(String(url)).searchParams.get('js_code')
    if (code === 'used') return answer({ errcode: 40163, errmsg: 'code been used' })
    if (code === 'broken') return answer({ errcode: -1, errmsg: 'system error' })
    return answer({ openid: `o-${code}`, session_key: 'secret-session-key', unionid: 'u-person' })
  }) as typeof fetch
  const wechat = realWechat({}, { [WEAPP_ID]: 'mini-secret' }, fetchImpl)

  it('exchanges the code with the mini-program’s own secret, and answers the openid and unionid', async () => {
    const profile = await wechat.miniLogin(WEAPP_ID, 'c1')
    assert.deepEqual(profile, { subject: 'o-c1', scope: 'mini', unionId: 'u-person' })
    const sent = new URL(calls.at(-1)!)
    assert.equal(sent.pathname, '/sns/jscode2session')
    assert.equal(sent.searchParams.get('appid'), WEAPP_ID)
    assert.equal(sent.searchParams.get('secret'), 'mini-secret')
    assert.equal(sent.searchParams.get('grant_type'), 'authorization_code')
    // the session key is not handed on
    assert.equal(JSON.stringify(profile).includes('secret-session-key'), false)
  })

  it('the phone-number button: an access token of the mini-program, then the number WeChat verified', async () => {
    const phoneCalls: { url: string; body?: string }[] = []
    const phoneFetch = (async (url: string | URL, init?: RequestInit) => {
      phoneCalls.push({ url: String(url), body: init?.body as string | undefined })
      const u = new URL(String(url))
      if (u.pathname === '/cgi-bin/stable_token') return answer({ access_token: 'mini-token', expires_in: 7200 })
      const code = JSON.parse(String(init?.body)).code
      if (code === 'used') return answer({ errcode: 40029, errmsg: 'invalid code' })
      return answer({ errcode: 0, phone_info: { phoneNumber: '13800138000', purePhoneNumber: '13800138000', countryCode: '86' } })
    }) as typeof fetch
    const w = realWechat({}, { [WEAPP_ID]: 'mini-secret' }, phoneFetch)
    assert.deepEqual(await w.miniPhone(WEAPP_ID, 'p1'), { mobile: '13800138000', countryCode: '86' })
    // the stable token (the same for every server process), asked for with the mini-program's secret
    assert.equal(new URL(phoneCalls[0]!.url).pathname, '/cgi-bin/stable_token')
    assert.deepEqual(JSON.parse(phoneCalls[0]!.body!), { grant_type: 'client_credential', appid: WEAPP_ID, secret: 'mini-secret', force_refresh: false })
    assert.equal(new URL(phoneCalls[1]!.url).pathname, '/wxa/business/getuserphonenumber')
    assert.equal(new URL(phoneCalls[1]!.url).searchParams.get('access_token'), 'mini-token')
    assert.deepEqual(JSON.parse(phoneCalls[1]!.body!), { code: 'p1' })
    await assert.rejects(w.miniPhone(WEAPP_ID, 'used'), (e: unknown) => e instanceof AppError && e.message === PHONE_CODE_USED)
    // the token is kept for its lifetime
    assert.equal(phoneCalls.filter((c) => c.url.includes('/cgi-bin/stable_token')).length, 1)
  })

  it('the JS-SDK ticket of an official account: its stable access token, then the ticket, both kept for their lifetime', async () => {
    const sent: { url: URL; body?: string }[] = []
    const wxFetch = (async (url: string | URL, init?: RequestInit) => {
      const u = new URL(String(url))
      sent.push({ url: u, body: init?.body as string | undefined })
      if (u.pathname === '/cgi-bin/stable_token') return answer({ access_token: 'oa-token', expires_in: 7200 })
      return answer({ errcode: 0, ticket: `ticket-for-${u.searchParams.get('access_token')}`, expires_in: 7200 })
    }) as typeof fetch
    const w = realWechat({ wxofficial00000001: 'oa-secret' }, {}, wxFetch)
    assert.equal(await w.jsapiTicket('wxofficial00000001'), 'ticket-for-oa-token')
    assert.equal(await w.jsapiTicket('wxofficial00000001'), 'ticket-for-oa-token')
    assert.deepEqual(JSON.parse(sent[0]!.body!), { grant_type: 'client_credential', appid: 'wxofficial00000001', secret: 'oa-secret', force_refresh: false })
    assert.equal(sent[1]!.url.pathname, '/cgi-bin/ticket/getticket')
    assert.equal(sent[1]!.url.searchParams.get('type'), 'jsapi')
    assert.equal(sent.length, 2)
  })

  it('a used code asks the patient to sign in again; WeChat failing is an error; an app without a secret is refused', async () => {
    await assert.rejects(wechat.miniLogin(WEAPP_ID, 'used'), (e: unknown) => e instanceof AppError && e.code === Code.UNAUTHENTICATED && e.message === MINI_CODE_USED)
    await assert.rejects(wechat.miniLogin(WEAPP_ID, 'broken'), /code2session: -1/)
    const before = calls.length
    await assert.rejects(wechat.miniLogin('wxunknown', 'c2'), (e: unknown) => e instanceof AppError && e.message === WECHAT_SIGN_IN_OFF)
    assert.equal(calls.length, before)
  })
})
