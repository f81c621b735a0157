import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { smsCodes, users } from '../../server/src/db/schema'
import { FieldCipher } from '../../server/src/crypto'
import { startTestApp, signInWechat, signInUser, envelopeOf, randomIp, DEMO, type TestApp, LogCapture, idCardFor, idCardEndingInX, b64, unb64 } from './harness'

const newMobile = () => `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

const log = new LogCapture()
let t: TestApp
let cipher: FieldCipher
before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  cipher = new FieldCipher(t.config.dataKey)
})
after(() => t.close())

type Headers = Record<string, string> | undefined
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: unknown, ip = randomIp()) =>
  t.app.inject({ method, url, headers, remoteAddress: ip, ...(payload === undefined ? {} : { payload: payload as object }) }).then((r) => envelopeOf(r))

/** One SMS per number per minute: moves the number's earlier codes back in time instead of waiting. */
async function letAMinutePass(mobile: string) {
  const earlier = new Date(Date.now() - 2 * 60 * 1000)
  await t.database.db.update(smsCodes).set({ createdAt: earlier }).where(eq(smsCodes.mobileIndex, cipher.blindIndex(mobile)))
}

/** A bind code sent to `mobile`, as the app asks for it before binding or changing the number. */
async function smsCode(headers: Record<string, string>, mobile: string): Promise<string> {
  await letAMinutePass(mobile)
  const env = await call('POST', '/dld-auth/token/smsBindCode', headers, { mobile })
  assert.equal(env.code, 200, env.msg)
  return env.data.devCode
}

const me = (headers: Headers) => call('GET', '/dld-hospital/userinfo', headers)

/** Signs in through the sandbox Alipay page as a new person. */
async function alipaySignIn() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/sandbox/alipay/authorize',
    query: { app_id: DEMO.both.appId, redirect_uri: 'http://localhost/h5/pages/login/login', scope: 'auth_base', state: 's' },
    headers: { host: 'localhost', cookie: `sandbox_wx_browser=${randomBytes(16).toString('base64url')}` },
  })
  const authCode = new URL(String(res.headers.location)).searchParams.get('auth_code')
  const env = await call('POST', '/dld-auth/token/alipay/H5', undefined, { authCode, appId: DEMO.both.appId })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

describe('GET /dld-hospital/cancelBind', () => {
  it('answers 401 without a token and 403 to an identity that is not bound', async () => {
    const anon = await call('GET', '/dld-hospital/cancelBind', undefined)
    assert.equal(anon.code, 401)
    assert.equal(anon.data, null)
    const unbound = await call('GET', '/dld-hospital/cancelBind', (await signInWechat(t.app)).headers)
    assert.equal(unbound.code, 403)
    assert.equal(unbound.msg, '请先绑定手机号')
  })

  it('unbinds the identity; the user and their data stay, and binding the mobile again brings them back', async () => {
    const u = await signInUser(t.app)
    const saved = await call('POST', '/dld-hospital/addAddress', u.headers, {
      name: '张三',
      mobile: '13812345678',
      provinceCode: 440000,
      cityCode: 440300,
      districtCode: 440305,
      detail: '深南大道1号',
    })
    assert.equal(saved.code, 200)
    const env = await call('GET', '/dld-hospital/cancelBind', u.headers)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { userId: 0 })
    assert.equal((await me(u.headers)).data.id, 0)
    assert.equal((await call('GET', '/dld-hospital/addressList', u.headers)).code, 403)
    // the user is still there
    assert.equal((await t.database.db.select().from(users).where(eq(users.id, u.userId))).length, 1)

    const code = await smsCode(u.headers, u.mobile)
    const again = await call('POST', '/dld-hospital/bind', u.headers, { mobile: u.mobile, code })
    assert.equal(again.code, 200)
    assert.equal(again.data.userId, u.userId)
    const list = await call('GET', '/dld-hospital/addressList', u.headers)
    assert.deepEqual(
      list.data.map((a: { id: number }) => a.id),
      [saved.data.id],
    )
  })
})

describe('POST /dld-hospital/changeBind', () => {
  it('answers 401 without a token and 403 to an identity that is not bound', async () => {
    assert.equal((await call('POST', '/dld-hospital/changeBind', undefined, { mobile: newMobile(), code: '123456' })).code, 401)
    const unbound = await call('POST', '/dld-hospital/changeBind', (await signInWechat(t.app)).headers, { mobile: newMobile(), code: '123456' })
    assert.equal(unbound.code, 403)
  })

  it('refuses bad input and a wrong or missing code, changing nothing', async () => {
    const u = await signInUser(t.app)
    const next = newMobile()
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ mobile: '1381234567', code: '123456' }, /手机号格式不正确/],
      [{ mobile: next, code: '12345' }, /请输入6位验证码/],
      [{ mobile: next, code: 123456 }, /^参数错误/],
      [{ mobile: next }, /^参数错误/],
      // no code was sent to this number
      [{ mobile: next, code: '123456' }, '验证码已失效，请重新获取'],
    ]
    for (const [body, msg] of cases) {
      const env = await call('POST', '/dld-hospital/changeBind', u.headers, body)
      assert.equal(env.code, 400, JSON.stringify(body))
      if (typeof msg === 'string') assert.equal(env.msg, msg)
      else assert.match(env.msg, msg)
      assert.equal(env.data, null)
    }
    const code = await smsCode(u.headers, next)
    const wrong = await call('POST', '/dld-hospital/changeBind', u.headers, { mobile: next, code: wrongCode(code) })
    assert.equal(wrong.code, 400)
    assert.equal(wrong.msg, '验证码错误')
    const same = await call('POST', '/dld-hospital/changeBind', u.headers, { mobile: u.mobile, code })
    assert.equal(same.code, 400)
    assert.equal(same.msg, '新手机号与当前绑定的手机号相同')
    assert.equal((await me(u.headers)).data.mobile, `${u.mobile.slice(0, 3)}****${u.mobile.slice(-4)}`)
  })

  it('answers 409 for a mobile that belongs to another user, and changes nothing', async () => {
    const u = await signInUser(t.app)
    const someoneElse = await signInUser(t.app)
    const code = await smsCode(u.headers, someoneElse.mobile)
    const env = await call('POST', '/dld-hospital/changeBind', u.headers, { mobile: someoneElse.mobile, code })
    assert.equal(env.code, 409)
    assert.equal(env.msg, '该手机号已绑定其他账号')
    assert.equal(env.data, null)
    assert.equal((await me(u.headers)).data.mobile, `${u.mobile.slice(0, 3)}****${u.mobile.slice(-4)}`)
    assert.equal((await me(someoneElse.headers)).data.id, someoneElse.userId)
  })

  it('moves the user to the new mobile; the old one is free, the new one finds the same user', async () => {
    const u = await signInUser(t.app)
    const next = newMobile()
    const code = await smsCode(u.headers, next)
    const env = await call('POST', '/dld-hospital/changeBind', u.headers, { mobile: next, code })
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { userId: u.userId, mobile: `${next.slice(0, 3)}****${next.slice(-4)}` })
    assert.equal((await me(u.headers)).data.mobile, `${next.slice(0, 3)}****${next.slice(-4)}`)
    // the code is spent
    assert.equal((await call('POST', '/dld-hospital/changeBind', u.headers, { mobile: next, code })).code, 400)

    // the new number finds the same user; the old one is free for someone new
    const viaNew = await signInWechat(t.app)
    const bindNew = await call('POST', '/dld-hospital/bind', viaNew.headers, { mobile: next, code: await smsCode(viaNew.headers, next) })
    assert.equal(bindNew.code, 200)
    assert.equal(bindNew.data.userId, u.userId)
    const viaOld = await signInWechat(t.app)
    const bindOld = await call('POST', '/dld-hospital/bind', viaOld.headers, { mobile: u.mobile, code: await smsCode(viaOld.headers, u.mobile) })
    assert.equal(bindOld.code, 200)
    assert.notEqual(bindOld.data.userId, u.userId)
  })
})

describe('POST /dld-hospital/alipayBind', () => {
  it('answers 401 without a token', async () => {
    const env = await call('POST', '/dld-hospital/alipayBind', undefined, { mobile: newMobile(), code: '123456', sourceType: 8 })
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('refuses a WeChat identity and binds nothing', async () => {
    const s = await signInWechat(t.app)
    const mobile = newMobile()
    const code = await smsCode(s.headers, mobile)
    const env = await call('POST', '/dld-hospital/alipayBind', s.headers, { mobile, code, sourceType: 8 })
    assert.equal(env.code, 400)
    assert.equal(env.msg, '请在支付宝中使用')
    assert.equal((await me(s.headers)).data.id, 0)
    // the code was not spent on the refused call
    assert.equal((await call('POST', '/dld-hospital/bind', s.headers, { mobile, code })).code, 200)
  })

  it('refuses bad input and a wrong code, binding nothing', async () => {
    const a = await alipaySignIn()
    const mobile = newMobile()
    for (const body of [
      { mobile: '123', code: '123456' },
      { mobile, code: 'abcdef' },
      { mobile, code: '123456', sourceType: 3 },
      { mobile, code: '123456', sourceType: 'x' },
    ]) {
      const env = await call('POST', '/dld-hospital/alipayBind', a.headers, body)
      assert.equal(env.code, 400, JSON.stringify(body))
      assert.match(env.msg, /^参数错误/)
    }
    const code = await smsCode(a.headers, mobile)
    const wrong = await call('POST', '/dld-hospital/alipayBind', a.headers, { mobile, code: wrongCode(code) })
    assert.equal(wrong.code, 400)
    assert.equal(wrong.msg, '验证码错误')
    assert.equal((await me(a.headers)).data.id, 0)
  })

  it('binds an Alipay identity to the mobile’s user, as /dld-hospital/bind does', async () => {
    const wechatUser = await signInUser(t.app)
    const a = await alipaySignIn()
    const env = await call('POST', '/dld-hospital/alipayBind', a.headers, { mobile: wechatUser.mobile, code: await smsCode(a.headers, wechatUser.mobile), sourceType: 9 })
    assert.equal(env.code, 200)
    assert.equal(env.data.userId, wechatUser.userId)
    const who = await me(a.headers)
    assert.equal(who.data.id, wechatUser.userId)
    assert.equal(who.data.provider, 'alipay')
    // a new mobile creates the user
    const b = await alipaySignIn()
    const fresh = await call('POST', '/dld-hospital/alipayBind', b.headers, { mobile: newMobile(), code: '000000' })
    assert.equal(fresh.code, 400)
    const mobile = newMobile()
    const created = await call('POST', '/dld-hospital/alipayBind', b.headers, { mobile, code: await smsCode(b.headers, mobile) })
    assert.equal(created.code, 200)
    assert.ok(created.data.userId > wechatUser.userId)
    const twice = await call('POST', '/dld-hospital/alipayBind', b.headers, { mobile, code: '123456' })
    assert.equal(twice.code, 400)
    assert.equal(twice.msg, '当前账号已绑定手机号')
  })
})

describe('POST /dld-user/user/modifyiIdentify', () => {
  const ID = idCardFor('19850612', '217', '440305')
  const ID_LOWER_X = idCardEndingInX('19920105', '330102')
  const url = '/dld-user/user/modifyiIdentify'
  const identityOf = async (userId: number) =>
    (await t.database.db.select({ name: users.realNameEnc, idCard: users.idCardEnc }).from(users).where(eq(users.id, userId)))[0]!

  it('answers 401 without a token and 403 to an identity that is not bound', async () => {
    assert.equal((await call('POST', url, undefined, { name: '王小明', idCard: b64(ID) })).code, 401)
    assert.equal((await call('POST', url, (await signInWechat(t.app)).headers, { name: '王小明', idCard: b64(ID) })).code, 403)
  })

  it('refuses bad input and stores nothing', async () => {
    const u = await signInUser(t.app)
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ name: '', idCard: b64(ID) }, /请输入真实姓名/],
      [{ name: '王'.repeat(21), idCard: b64(ID) }, /姓名不能超过20个字/],
      [{ name: '王小明', idCard: '' }, /请输入身份证号/],
      [{ name: '王小明', idCard: b64(ID.slice(0, 17)) }, '身份证号码不正确'],
      [{ name: '王小明', idCard: b64(ID.slice(0, 16)) }, '身份证号码不正确'],
      [{ name: '王小明', idCard: b64(ID.slice(0, 17) + (ID.endsWith('0') ? '1' : '0')) }, '身份证号码不正确'],
      [{ name: '王小明', idCard: b64('11010120991231123X') }, '身份证号码不正确'],
      [{ name: '王小明', idCard: 110101198506122171 }, /^参数错误/],
      [{ name: ['王小明'], idCard: b64(ID) }, /^参数错误/],
    ]
    for (const [body, msg] of cases) {
      const env = await call('POST', url, u.headers, body)
      assert.equal(env.code, 400, JSON.stringify(body))
      if (typeof msg === 'string') assert.equal(env.msg, msg)
      else assert.match(env.msg, msg)
      assert.equal(env.data, null)
    }
    assert.deepEqual(await identityOf(u.userId), { name: null, idCard: null })
  })

  it('stores name and identity number encrypted and answers them masked, then userinfo shows them masked too', async () => {
    const u = await signInUser(t.app)
    assert.equal((await call('GET', '/dld-hospital/userinfo', u.headers)).data.identity, null)
    const env = await call('POST', url, u.headers, { name: '王小明', idCard: b64(ID) })
    assert.equal(env.code, 200)
    assert.equal(env.data.name, '王*明')
    assert.equal(unb64(env.data.idCard), `${ID.slice(0, 6)}********${ID.slice(-4)}`)
    assert.equal(env.data.verified, true)
    const row = await identityOf(u.userId)
    assert.equal(cipher.decrypt(row.name!), '王小明')
    assert.equal(cipher.decrypt(row.idCard!), ID)
    const [raw] = await t.database.db.select().from(users).where(eq(users.id, u.userId))
    assert.ok(!JSON.stringify(raw).includes(ID))
    assert.ok(!JSON.stringify(raw).includes('王小明'))
    const info = (await call('GET', '/dld-hospital/userinfo', u.headers)).data.identity
    assert.deepEqual({ ...info, idCard: unb64(info.idCard) }, { name: '王*明', idCard: `${ID.slice(0, 6)}********${ID.slice(-4)}`, verified: true })
    // a later declaration replaces the first; a lower-case x is the same check character
    const again = await call('POST', url, u.headers, { name: '王晓明', idCard: b64(ID_LOWER_X.toLowerCase()) })
    assert.equal(again.code, 200)
    assert.equal(cipher.decrypt((await identityOf(u.userId)).idCard!), ID_LOWER_X)
  })

  it('never writes the identity number to the log', () => {
    assert.match(log.text, /modifyiIdentify/)
    for (const id of [ID, ID_LOWER_X, ID_LOWER_X.toLowerCase()]) {
      assert.ok(!log.text.includes(id), `log contains ${id.slice(0, 6)}…`)
      assert.ok(!log.text.includes(b64(id)))
    }
  })
})
