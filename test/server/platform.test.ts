import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { route } from '../../server/src/route'
import type { WechatProvider } from '../../server/src/plugins/providers/oauth'
import { startTestApp, signInWechat, envelopeOf, randomIp, DEMO, type TestApp } from './harness'

/** Collects what the server logs. */
class LogCapture extends Writable {
  lines: string[] = []
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(chunk.toString('utf8'))
    done()
  }
  get text() {
    return this.lines.join('')
  }
}

const failingWechat: WechatProvider = {
  kind: 'sandbox',
  authorizeUrl: () => '/sandbox/wechat/authorize',
  exchangeCode: async () => {
    throw new Error('boom: upstream exploded')
  },
  miniLogin: async () => {
    throw new Error('boom: upstream exploded')
  },
  miniPhone: async () => {
    throw new Error('boom: upstream exploded')
  },
  jsapiTicket: async () => 'ticket',
}

let t: TestApp
let failing: TestApp
const failingLog = new LogCapture()
before(async () => {
  ;[t, failing] = await Promise.all([
    startTestApp(),
    startTestApp({ providers: { wechat: failingWechat }, config: { logLevel: 'info' }, logStream: failingLog }),
  ])
})
after(async () => {
  await Promise.all([t?.close(), failing?.close()])
})

/** Every API route of this issue, as OpenAPI names it. */
const API_ROUTES: [method: string, path: string][] = [
  ['get', '/dld-auth/oauth/{provider}/authorize-url'],
  ['post', '/dld-auth/token/wxH5'],
  ['post', '/dld-auth/token/getWxAccessToken'],
  ['post', '/dld-auth/token/alipay/H5'],
  ['post', '/dld-auth/token/refresh/force'],
  ['post', '/dld-auth/token/alipay/refresh/force'],
  ['post', '/dld-auth/token/smsBindCode'],
  ['post', '/dld-hospital/bind'],
  ['get', '/dld-weixin/jsapi/jsapiSignature/{appId}'],
  ['get', '/dld-im/im/user-sig'],
  ['get', '/dld-im/im/update-unread-count'],
  ['get', '/dld-hospital/hospital/list'],
  ['get', '/dld-hospital/common/hospitalList/{id}'],
  ['get', '/dld-hospital/hospital/getByAppId'],
  ['get', '/dld-hospital/common/homePageConfig'],
  ['get', '/dld-hospital/common/menuConfig/{id}'],
  ['get', '/dld-hospital/common/textConfig/{id}'],
  ['get', '/dld-hospital/brand/list'],
  ['get', '/dld-hospital/brand/dept/{id}'],
  ['get', '/dld-hospital/brand/hospitalInfo'],
  ['get', '/dld-hospital/userinfo'],
  ['put', '/dld-hospital/userinfo'],
  ['get', '/dld-hospital/api/patient/article/list'],
  ['get', '/dld-hospital/api/patient/article/{id}'],
  ['get', '/dld-hospital/im/patient/record/list'],
  ['get', '/dld-palm/admin/hospital-config'],
  ['post', '/dld-palm/admin/hospital-config'],
  ['post', '/dld-palm/admin/system/dict'],
  ['get', '/dld-palm/api/hospital/config/{hospitalCode}/{key}'],
  ['post', '/dld-file/files-upload'],
  // people behind the account (issue 3)
  ['get', '/dld-hospital/cancelBind'],
  ['post', '/dld-hospital/changeBind'],
  ['post', '/dld-hospital/alipayBind'],
  ['post', '/dld-user/user/modifyiIdentify'],
  ['post', '/dld-palm/api/patient/bind'],
  ['post', '/dld-palm/api/patient/bind/neonate'],
  ['post', '/dld-palm/api/patient/bind/eHealth'],
  ['get', '/dld-palm/api/patient/list'],
  ['get', '/dld-palm/api/patient/info'],
  ['get', '/dld-palm/api/patient/{id}'],
  ['get', '/dld-palm/api/patient/default'],
  ['post', '/dld-palm/api/patient/default/{id}'],
  ['post', '/dld-palm/api/patient/unbind/{id}'],
  ['get', '/dld-palm/api/patient/hospital/patient/bind'],
  ['get', '/dld-hospital/autoRegister'],
  ['get', '/dld-palm/api/patient/hospital/patient/record-info'],
  ['post', '/dld-palm/api/patient/hospital/patient/ocr'],
  ['post', '/thirdParty/tencent-EHealth/refreshUrl'],
  ['post', '/dld-palm/api/accompany'],
  ['put', '/dld-palm/api/accompany'],
  ['get', '/dld-palm/api/accompany/list/{id}'],
  ['get', '/dld-palm/api/accompany/{id}'],
  ['post', '/dld-palm/api/accompany/{id}'],
  ['get', '/dld-hospital/addressList'],
  ['post', '/dld-hospital/addAddress'],
  ['put', '/dld-hospital/updateAddress/{id}'],
  ['get', '/dld-hospital/address/{id}'],
  ['delete', '/dld-hospital/address/{id}'],
  ['get', '/dld-system/nation/parent/{id}'],
  ['get', '/dld-system/map/getLocation'],
  // registration and the payment core (issue 4)
  ['get', '/dld-palm/api/department/search'],
  ['get', '/dld-palm/api/department/{hospitalCode}'],
  ['get', '/dld-palm/api/doctor/list/search'],
  ['post', '/dld-palm/api/schedule-dept'],
  ['post', '/dld-palm/api/schedule-doctor'],
  ['post', '/dld-palm/api/hospital/register'],
  ['post', '/dld-palm/api/activity/price'],
  ['post', '/dld-palm/api/register'],
  ['post', '/dld-palm/api/apply/free'],
  ['post', '/dld-palm/api/register/pay'],
  ['post', '/dld-palm/api/confirm/{id}'],
  ['post', '/dld-palm/api/cancel'],
  ['get', '/dld-palm/api/register/list'],
  ['get', '/dld-palm/api/register/detail'],
  ['post', '/dld-pay/pay'],
  ['get', '/dld-pay/order/{orderNo}'],
  ['post', '/dld-pay/notify/{channel}'],
  ['get', '/dld-palm/api/yibao/getAuthTestUserInfo'],
  ['post', '/dld-palm/api/yibao/identify'],
  ['post', '/dld-palm/api/yibao/wechat/userquery'],
  ['post', '/dld-palm/api/yibao/aliPay/userquery'],
  ['post', '/dld-palm/api/yibao/outpfeeupload'],
  ['get', '/dld-palm/api/yibao/split'],
  ['post', '/dld-palm/api/payment/yibao/init'],
  ['post', '/dld-palm/api/ai/triage'],
  // the internet hospital's doctors
  ['get', '/dld-hospital/index/doctorList'],
  ['get', '/dld-hospital/index/search'],
  ['get', '/dld-hospital/index/hospitalDept'],
  ['get', '/dld-hospital/index/hotService'],
  ['get', '/dld-hospital/index/city'],
  ['get', '/dld-hospital/index/physicianAssistant'],
  ['get', '/dld-hospital/doctor/info'],
  ['get', '/dld-hospital/im/fans/doctor/list'],
  ['put', '/dld-hospital/im/fans/follow'],
  ['put', '/dld-hospital/im/fans/cancel/follow'],
  ['get', '/dld-hospital/doctor/chronic/getMyDoctor'],
  // inquiry orders (图文问诊)
  ['post', '/dld-hospital/inquiry/addInquiryInfo'],
  ['post', '/dld-hospital/im/trade/service/im/init/continuePay'],
  ['get', '/dld-hospital/inquiry/order/list'],
  ['get', '/dld-hospital/inquiry/order/detail'],
  ['get', '/dld-hospital/im/trade/service/im/cancel'],
  ['get', '/dld-hospital/im/trade/service/im/check'],
  ['get', '/dld-hospital/im/trade/service/im/user/close'],
  ['post', '/dld-hospital/im/trade/complaint'],
]

describe('unknown routes', () => {
  it('answer HTTP 404 with the envelope', async () => {
    for (const [method, url] of [
      ['GET', '/dld-hospital/no-such-call'],
      ['POST', '/dld-auth/token/nothing'],
      ['GET', '/nowhere?x=1'],
      ['DELETE', '/dld-hospital/userinfo'],
    ] as const) {
      const res = await t.app.inject({ method, url })
      assert.equal(res.statusCode, 404, url)
      assert.deepEqual(res.json(), { code: 404, msg: '请求的资源不存在', data: null })
    }
  })

  it('the site root sends the browser to the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    assert.equal(res.statusCode, 302)
    assert.equal(res.headers.location, '/h5/')
  })
})

describe('GET /openapi.json', () => {
  it('documents every API route with its method', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, { security?: unknown[] }>> }
    assert.match(doc.openapi, /^3\./)
    const missing = API_ROUTES.filter(([method, path]) => !doc.paths[path]?.[method]).map(([m, p]) => `${m} ${p}`)
    assert.deepEqual(missing, [])
    // calls that need a sign-in say so; public ones do not
    assert.deepEqual(doc.paths['/dld-hospital/userinfo']!.get!.security, [{ bearer: [] }])
    assert.equal(doc.paths['/dld-hospital/hospital/list']!.get!.security, undefined)
    // the sandbox pages are not part of the API
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/sandbox')))
  })

  it('is compressed for a client that accepts gzip', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(res.headers['content-encoding'], 'gzip')
    const doc = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'))
    assert.ok(doc.paths['/dld-hospital/userinfo'])
  })
})

describe('GET /docs', () => {
  it('serves the API explorer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' })
    if (res.statusCode === 200) {
      assert.match(String(res.headers['content-type']), /text\/html/)
    } else {
      assert.ok([301, 302, 303, 307, 308].includes(res.statusCode), String(res.statusCode))
      assert.match(String(res.headers.location), /docs/)
      const page = await t.app.inject({ method: 'GET', url: new URL(String(res.headers.location), 'http://localhost/docs').pathname })
      assert.equal(page.statusCode, 200)
    }
  })
})

describe('unexpected errors', () => {
  it('answer HTTP 500 with the request id and no internals, and the log holds the details under that id', async () => {
    const res = await failing.app.inject({ method: 'POST', url: '/dld-auth/token/wxH5', payload: { code: 'abc', appId: DEMO.both.appId } })
    assert.equal(res.statusCode, 500)
    const requestId = res.headers['x-request-id']
    assert.match(String(requestId), /^[0-9a-f-]{36}$/)
    const env = envelopeOf(res)
    assert.equal(env.code, 500)
    assert.equal(env.data, null)
    assert.match(env.msg, /请求编号/)
    assert.ok(env.msg.includes(String(requestId)))
    assert.doesNotMatch(res.body, /boom|upstream|Error|\bat \S+ \(|\.ts:\d+/)
    const logged = failingLog.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected error')
    assert.ok(logged, 'the error is logged')
    assert.equal(logged.reqId, requestId)
    assert.match(logged.err.message, /boom/)
  })
})

describe('HTTP headers', () => {
  it('sets a short strict set on JSON answers, and helmet\'s with the page policy on pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dld-hospital/hospital/list' })
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'")
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.equal(res.headers['x-frame-options'], 'DENY')
    assert.equal(res.headers['referrer-policy'], 'no-referrer')
    assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin')
    assert.match(String(res.headers['strict-transport-security']), /max-age=\d+/)

    const page = await t.app.inject({ method: 'GET', url: '/workbench/' })
    assert.match(String(page.headers['content-type']), /^text\/html/)
    const csp = String(page.headers['content-security-policy'])
    assert.match(csp, /default-src 'self'/)
    assert.match(csp, /script-src 'self'/)
    assert.match(csp, /object-src 'none'/)
    assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN')
    assert.equal(page.headers['x-content-type-options'], 'nosniff')
    assert.match(String(page.headers['strict-transport-security']), /max-age=\d+/)
  })

  it('sets them on refusals, unknown addresses and answers sent as kept, the same on every JSON answer', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/dld-hospital/hospital/list' })
    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page' })
    const refused = await t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo' })
    // the home page's config goes out serialised once and kept (route reuse)
    const kept = await t.app.inject({ method: 'GET', url: `/dld-hospital/common/homePageConfig?hospitalCode=${DEMO.palm.code}` })
    assert.equal(missing.statusCode, 404)
    assert.equal(refused.json().code, 401)
    assert.equal(kept.json().code, 200)
    assert.equal(kept.headers['content-type'], ok.headers['content-type'])
    for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cross-origin-resource-policy', 'strict-transport-security']) {
      assert.ok(ok.headers[name], name)
      assert.equal(missing.headers[name], ok.headers[name], name)
      assert.equal(refused.headers[name], ok.headers[name], name)
      assert.equal(kept.headers[name], ok.headers[name], name)
    }
  })

  it('gives every answer its own request id and ignores one sent by the client', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/dld-hospital/brand/list', headers: { 'x-request-id': 'chosen-by-client' } })
    const b = await t.app.inject({ method: 'GET', url: '/no-such-page' })
    assert.match(String(a.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    assert.match(String(b.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id'])
  })
})

describe('answers kept serialised (route reuse)', () => {
  /** A bare app with the API's schema handling and one kept route answering `answer`, which a test swaps. */
  async function keptRoute(answer: () => unknown) {
    const app = Fastify()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    let built = 0
    route(app, {
      method: 'GET',
      url: '/kept',
      summary: 'test',
      auth: 'none',
      reuse: true,
      data: z.object({ notice: z.string(), idCard: z.string() }),
      handler: async () => {
        built++
        return answer() as { notice: string; idCard: string }
      },
    })
    await app.ready()
    return { app, built: () => built }
  }

  it('sends the same answer as JSON, sensitive fields encoded, and a new one for a new object', async () => {
    let answer = { notice: '今日停诊：皮肤科', idCard: '110101199003074514' }
    const { app, built } = await keptRoute(() => answer)
    try {
      const first = await app.inject({ url: '/kept' })
      const again = await app.inject({ url: '/kept' })
      assert.match(String(first.headers['content-type']), /^application\/json; charset=utf-8/)
      assert.deepEqual(first.json(), { code: 200, msg: 'success', data: { notice: '今日停诊：皮肤科', idCard: Buffer.from('110101199003074514').toString('base64') } })
      assert.equal(again.body, first.body)
      assert.equal(built(), 2)
      answer = { notice: '今日正常开诊', idCard: '' }
      assert.equal((await app.inject({ url: '/kept' })).json().data.notice, '今日正常开诊')
    } finally {
      await app.close()
    }
  })

  it('checks an answer against its schema before keeping it: one that does not fit is refused every time', async () => {
    const wrong = { notice: 42, idCard: '' }
    const { app } = await keptRoute(() => wrong)
    try {
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ url: '/kept' })
        assert.equal(res.statusCode, 500)
        assert.doesNotMatch(res.body, /"notice":42/)
      }
    } finally {
      await app.close()
    }
  })
})

describe('request bodies', () => {
  it('accepts a form-encoded body, as the app sends by default', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dld-palm/admin/system/dict',
      payload: 'type=relation',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const env = envelopeOf(res)
    assert.equal(env.code, 200)
    assert.equal(env.data.length, 5)
    assert.equal(env.data[0].label, '本人')
  })

  it('answers malformed JSON with 请求格式错误', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dld-palm/admin/system/dict',
      payload: '{"type": "relation"',
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { code: 400, msg: '请求格式错误', data: null })
  })

  it('answers a content type it does not read with 不支持的请求格式', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dld-palm/admin/system/dict',
      payload: '<type>relation</type>',
      headers: { 'content-type': 'application/xml' },
    })
    assert.deepEqual(res.json(), { code: 400, msg: '不支持的请求格式', data: null })
  })
})

describe('logging', () => {
  it('never writes a mobile number or a bearer token to the log', async () => {
    const log = new LogCapture()
    const app = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
    try {
      const mobile = '13987654321'
      const s = await signInWechat(app.app)
      const ip = randomIp()
      const sms = envelopeOf(
        await app.app.inject({ method: 'POST', url: '/dld-auth/token/smsBindCode', remoteAddress: ip, headers: s.headers, payload: { mobile } }),
      )
      assert.equal(sms.code, 200)
      // a wrong code first, then the right one; the mobile and token also in the query string, as a careless client might
      const wrong = String((Number(sms.data.devCode) + 1) % 1_000_000).padStart(6, '0')
      await app.app.inject({ method: 'POST', url: '/dld-hospital/bind', remoteAddress: ip, headers: s.headers, payload: { mobile, code: wrong } })
      const bind = envelopeOf(
        await app.app.inject({
          method: 'POST',
          url: `/dld-hospital/bind?mobile=${mobile}&access_token=${s.token}`,
          remoteAddress: ip,
          headers: { ...s.headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: `mobile=${mobile}&code=${sms.data.devCode}`,
        }),
      )
      assert.equal(bind.code, 200)
      await app.app.inject({ method: 'POST', url: '/dld-auth/token/refresh/force', payload: { refreshToken: s.refreshToken } })

      const text = log.text
      // the log was written: requests and the sandbox SMS line (with the number masked)
      assert.match(text, /\/dld-auth\/token\/smsBindCode/)
      assert.match(text, /\/dld-hospital\/bind\?mobile=~&access_token=~/)
      assert.ok(text.includes('139****4321'))
      for (const secret of [mobile, s.token, s.refreshToken, s.code]) assert.ok(!text.includes(secret), `log contains ${secret.slice(0, 6)}…`)
    } finally {
      await app.close()
    }
  })
})

describe('the access log', () => {
  it('writes one line a request once answered, with its id, address without query values, status and time; health checks only from warn on', async () => {
    for (const level of ['info', 'warn'] as const) {
      const log = new LogCapture()
      const app = await startTestApp({ config: { logLevel: level }, logStream: log })
      try {
        const res = await app.app.inject({ method: 'GET', url: '/dld-hospital/hospital/list?keyword=%E5%B8%82' })
        const missing = await app.app.inject({ method: 'GET', url: '/no-such-page' })
        await app.app.inject({ method: 'GET', url: '/health/live' })
        type Line = { reqId?: string; msg: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number }
        const lines = log.lines.map((l) => JSON.parse(l) as Line)
        const of = (id: unknown) => lines.filter((l) => l.reqId === id)
        assert.ok(!lines.some((l) => l.req?.url === '/health/live'), 'a health check is logged at warn and above only')
        if (level === 'warn') {
          assert.deepEqual([...of(res.headers['x-request-id']), ...of(missing.headers['x-request-id'])], [])
          continue
        }
        const [line, ...more] = of(res.headers['x-request-id'])
        assert.deepEqual(more, [])
        assert.equal(line?.msg, 'request completed')
        assert.deepEqual(line?.req, { method: 'GET', url: '/dld-hospital/hospital/list?keyword=~' })
        assert.equal(line?.res?.statusCode, 200)
        assert.equal(typeof line?.responseTime, 'number')
        assert.equal(of(missing.headers['x-request-id'])[0]?.res?.statusCode, 404)
      } finally {
        await app.close()
      }
    }
  })
})

describe('the H5 app under /h5/', () => {
  let h5: TestApp
  const html = '<!doctype html><div id="app"></div>'
  const script = 'console.log("app")'.repeat(200)
  before(async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'h5-dist-'))
    mkdirSync(join(dir, 'js'))
    writeFileSync(join(dir, 'index.html'), html)
    writeFileSync(join(dir, 'js', 'app.1a2b3c4d.js'), script)
    h5 = await startTestApp({ config: { h5Dir: dir } })
  })
  after(() => h5.close())

  it('serves index.html at /h5/ and, in history mode, at any page path, never cached', async () => {
    for (const url of ['/h5/', '/h5/pages/sys/user/index', '/h5/palm/register/index?x=1']) {
      const res = await h5.app.inject({ url })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, html, url)
      assert.equal(res.headers['cache-control'], 'no-cache', url)
    }
  })

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await h5.app.inject({ url: '/h5/js/app.1a2b3c4d.js', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(res.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(res.rawPayload).toString(), script)
  })

  it('a missing asset is a real 404, not the app', async () => {
    const res = await h5.app.inject({ url: '/h5/js/missing.1234.js' })
    assert.equal(res.statusCode, 404)
  })

  it('/ and /h5 lead to /h5/', async () => {
    for (const url of ['/', '/h5']) {
      const res = await h5.app.inject({ url })
      assert.equal(res.statusCode, 302, url)
      assert.equal(res.headers.location, '/h5/', url)
    }
  })
})
