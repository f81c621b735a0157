import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash, createHmac } from 'node:crypto'
import { inflateSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { consultations, hospitals } from '../../server/src/db/schema'
import { sandboxTicket } from '../../server/src/plugins/providers'
import { jsapiSignature } from '../../server/src/routes/patient/wechat'
import { verifyLocalSig } from '../../server/src/plugins/providers/im'
import { startTestApp, signInWechat, signInUser, envelopeOf, DEMO, type TestApp } from './harness'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const get = (url: string, headers?: Record<string, string>, app = t.app) => app.inject({ method: 'GET', url, headers }).then((r) => envelopeOf(r))

describe('jsapiSignature()', () => {
  it('gives WeChat’s documented example signature', () => {
    const signature = jsapiSignature(
      'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
      'Wm3WZYTPz0wzccnW',
      1414587457,
      'http://mp.weixin.qq.com?params=value',
    )
    assert.equal(signature, '0f9de62fce790f9a083d5c99e95740ceb90c27ed')
  })

  it('signs the URL without its #fragment', () => {
    const ticket = 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg'
    assert.equal(
      jsapiSignature(ticket, 'Wm3WZYTPz0wzccnW', 1414587457, 'http://mp.weixin.qq.com?params=value#/pages/index'),
      '0f9de62fce790f9a083d5c99e95740ceb90c27ed',
    )
  })
})

describe('GET /dld-weixin/jsapi/jsapiSignature/:appId', () => {
  const url = `/dld-weixin/jsapi/jsapiSignature/${DEMO.both.appId}`

  it('rejects a missing or malformed page URL', async () => {
    for (const query of [{}, { url: 'not a url' }, { url: `http://x/${'a'.repeat(2001)}` }] as Record<string, string>[]) {
      const env = envelopeOf(await t.app.inject({ method: 'GET', url, query }))
      assert.equal(env.code, 400, JSON.stringify(query).slice(0, 40))
      assert.match(env.msg, /^参数错误/)
    }
  })

  it('signs the page URL (without its hash) with the app’s ticket, as WeChat would check it', async () => {
    const page = 'http://localhost/h5/pages/register/index?hospitalCode=10392&x=a%20b#/section'
    const before = Math.floor(Date.now() / 1000)
    const env = envelopeOf(await t.app.inject({ method: 'GET', url, query: { url: page } }))
    assert.equal(env.code, 200)
    assert.equal(env.data.appId, DEMO.both.appId)
    assert.ok(env.data.timestamp >= before && env.data.timestamp <= Math.floor(Date.now() / 1000))
    assert.match(env.data.nonceStr, /^[A-Za-z0-9_-]{8,32}$/)
    const ticket = sandboxTicket(t.config.secret, DEMO.both.appId)
    const plain = `jsapi_ticket=${ticket}&noncestr=${env.data.nonceStr}&timestamp=${env.data.timestamp}&url=${page.split('#')[0]}`
    assert.equal(env.data.signature, createHash('sha1').update(plain).digest('hex'))
  })

  it('uses each official account’s own ticket and a fresh nonce', async () => {
    const page = 'http://localhost/h5/'
    const a = envelopeOf(await t.app.inject({ method: 'GET', url: `/dld-weixin/jsapi/jsapiSignature/${DEMO.palm.appId}`, query: { url: page } }))
    const b = envelopeOf(await t.app.inject({ method: 'GET', url, query: { url: page } }))
    assert.notEqual(a.data.nonceStr, b.data.nonceStr)
    const palmTicket = sandboxTicket(t.config.secret, DEMO.palm.appId)
    assert.notEqual(palmTicket, sandboxTicket(t.config.secret, DEMO.both.appId))
    assert.equal(a.data.signature, jsapiSignature(palmTicket, a.data.nonceStr, a.data.timestamp, page))
  })
})

describe('GET /dld-im/im/user-sig', () => {
  it('answers 401 without a token', async () => {
    const env = await get('/dld-im/im/user-sig')
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await get('/dld-im/im/user-sig', s.headers)
    assert.equal(env.code, 403)
    assert.equal(env.msg, '请先绑定手机号')
  })

  it('rejects an over-long account', async () => {
    const u = await signInUser(t.app)
    const env = await get(`/dld-im/im/user-sig?imAccount=${'0'.repeat(65)}`, u.headers)
    assert.equal(env.code, 400)
  })

  it('refuses to sign someone else’s account', async () => {
    const u = await signInUser(t.app)
    const env = await get('/dld-im/im/user-sig?imAccount=0_999999', u.headers)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
  })

  it('signs the caller’s own account with the local driver, verifiable with the server secret', async () => {
    const u = await signInUser(t.app)
    for (const query of ['', `?imAccount=0_${u.userId}`]) {
      const env = await get(`/dld-im/im/user-sig${query}`, u.headers)
      assert.equal(env.code, 200)
      assert.equal(env.data.driver, 'local')
      assert.equal(env.data.sdkAppId, 0)
      assert.equal(env.data.imAccount, `0_${u.userId}`)
      const now = Math.floor(Date.now() / 1000)
      assert.ok(Math.abs(env.data.expire - (now + 7 * 24 * 3600)) < 60)
      assert.equal(verifyLocalSig(t.config.secret, env.data.userSig), `0_${u.userId}`)
      // only valid for the server that signed it
      assert.equal(verifyLocalSig('another secret', env.data.userSig), null)
    }
  })

  it('a tampered signature fails verification', async () => {
    const u = await signInUser(t.app)
    const sig: string = (await get('/dld-im/im/user-sig', u.headers)).data.userSig
    const [account, expire, mac] = sig.split('.') as [string, string, string]
    const otherAccount = Buffer.from('0_1').toString('base64url')
    assert.equal(verifyLocalSig(t.config.secret, `${otherAccount}.${expire}.${mac}`), null)
    assert.equal(verifyLocalSig(t.config.secret, `${account}.${Number(expire) + 3600}.${mac}`), null)
    const flipped = mac.slice(0, -1) + (mac.endsWith('0') ? '1' : '0')
    assert.equal(verifyLocalSig(t.config.secret, `${account}.${expire}.${flipped}`), null)
    // and it expires
    assert.equal(verifyLocalSig(t.config.secret, sig, Number(expire) + 1), null)
  })

  it('with Tencent IM configured, answers a TLSSigAPIv2 signature', async () => {
    const tim = await startTestApp({ config: { tim: { sdkAppId: 1400000000, secretKey: 'k' } } })
    try {
      const u = await signInUser(tim.app)
      const env = await get('/dld-im/im/user-sig', u.headers, tim.app)
      assert.equal(env.code, 200)
      assert.equal(env.data.driver, 'tim')
      assert.equal(env.data.sdkAppId, 1400000000)
      assert.equal(env.data.imAccount, `0_${u.userId}`)
      const b64 = String(env.data.userSig).replace(/\*/g, '+').replace(/-/g, '/').replace(/_/g, '=')
      const doc = JSON.parse(inflateSync(Buffer.from(b64, 'base64')).toString('utf8'))
      assert.equal(doc['TLS.identifier'], `0_${u.userId}`)
      assert.equal(doc['TLS.sdkappid'], 1400000000)
      assert.equal(doc['TLS.ver'], '2.0')
      assert.equal(doc['TLS.expire'], 7 * 24 * 3600)
      assert.equal(doc['TLS.time'] + doc['TLS.expire'], env.data.expire)
      const content =
        `TLS.identifier:${doc['TLS.identifier']}\nTLS.sdkappid:${doc['TLS.sdkappid']}\n` + `TLS.time:${doc['TLS.time']}\nTLS.expire:${doc['TLS.expire']}\n`
      assert.equal(doc['TLS.sig'], createHmac('sha256', 'k').update(content).digest('base64'))
      // someone else's account is still refused
      assert.equal((await get('/dld-im/im/user-sig?imAccount=0_999999', u.headers, tim.app)).code, 2999)
    } finally {
      await tim.close()
    }
  })
})

describe('GET /dld-im/im/update-unread-count', () => {
  it('answers 401 without a token', async () => {
    assert.equal((await get('/dld-im/im/update-unread-count')).code, 401)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await get('/dld-im/im/update-unread-count', s.headers)
    assert.equal(env.code, 403)
    assert.equal(env.msg, '请先绑定手机号')
  })

  it('sums the caller’s own unread messages only', async () => {
    const me = await signInUser(t.app)
    const other = await signInUser(t.app)
    assert.deepEqual((await get('/dld-im/im/update-unread-count', me.headers)).data, { unreadCount: 0 })

    const [h] = await t.database.db.select().from(hospitals).where(eq(hospitals.code, DEMO.internet.code))
    const row = (userId: number, orderNo: string, unreadCount: number) => ({
      userId,
      hospitalId: h!.id,
      orderNo,
      doctorName: '王医生',
      status: 'ongoing',
      unreadCount,
    })
    await t.database.db.insert(consultations).values([row(me.userId, 'IMU-1', 2), row(me.userId, 'IMU-2', 3), row(other.userId, 'IMU-3', 7)])

    const env = await get('/dld-im/im/update-unread-count', me.headers)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { unreadCount: 5 })
    assert.deepEqual((await get('/dld-im/im/update-unread-count', other.headers)).data, { unreadCount: 7 })
  })
})
