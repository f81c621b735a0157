import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { count } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/src/app'
import { loadConfig, type Config } from '../../server/src/config'
import { openDatabase, type Database } from '../../server/src/db'
import { FieldCipher } from '../../server/src/crypto'
import { hospitals, regions } from '../../server/src/db/schema'
import { assertReadyForProduction, productionProblems } from '../../server/src/productionCheck'
import { seedOnStart } from '../../server/src/seed'
import type { WechatProvider } from '../../server/src/plugins/providers/oauth'
import type { SmsProvider } from '../../server/src/plugins/providers/sms'
import { DEMO, assertBadInput, callApi, envelopeOf, startTestApp, type TestApp } from './harness'
import { addPatient, uploadedPicture } from './fixtures'

const root = join(__dirname, '..', '..')
const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hospital-h5-production-'))
  dirs.push(dir)
  return dir
}
const keys = () => ({ APP_SECRET: randomBytes(32).toString('base64'), DATA_KEY: randomBytes(32).toString('base64') })

const rsa = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() }
}
const merchant = rsa()
const wechatPlatform = rsa()

/** Every provider production depends on, with made-up but well-formed values (no test here reaches any of them). */
function productionEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir(),
    LOG_LEVEL: 'silent',
    ...keys(),
    PUBLIC_URL: 'https://hospital.example',
    WECHAT_APPS: JSON.stringify({ [DEMO.both.appId]: 'made-up-app-secret' }),
    SMS_URL: 'https://sms.hospital.example/send',
    SMS_TOKEN: 'made-up-token',
    WECHAT_PAY: JSON.stringify({
      mchId: '1900000001',
      appId: DEMO.both.appId,
      serialNo: 'SERIAL01',
      privateKey: merchant.privateKey,
      apiV3Key: randomBytes(16).toString('hex'),
      platformPublicKey: wechatPlatform.publicKey,
    }),
    ...extra,
  }
}

/** The sandbox pages, each as a browser would open it. */
const SANDBOX_PAGES = [
  `/sandbox/wechat/authorize?appid=${DEMO.both.appId}&redirect_uri=%2Fh5%2Fpages%2Flogin%2Flogin&scope=snsapi_base&state=s`,
  `/sandbox/alipay/authorize?app_id=${DEMO.both.appId}&redirect_uri=%2Fh5%2Fpages%2Flogin%2Flogin&scope=auth_base&state=s`,
  '/sandbox/wechat/mini-login?appId=wxdemo0000000000&device=aaaaaaaaaaaaaaaa&nonce=bbbbbbbbbbbbbbbb',
  '/sandbox/pay/cashier?orderNo=P1&returnUrl=%2Fpages%2Forder%2Fregister%2Findex&sign=x',
  `/sandbox/insurance/authorize?channel=wechat&hospitalCode=${DEMO.both.code}&redirect=%2Fpalm%2FchsPayment%2Findex`,
  `/sandbox/ehealth/authorize?hospitalCode=${DEMO.both.code}&redirect=%2Fpages%2FaddPatient%2Findex`,
  '/sandbox/cards/demo-idcard-1.png',
]

const homeConfigOf = async (app: FastifyInstance) => envelopeOf<{ demo: boolean }>(await app.inject({ method: 'GET', url: '/dld-hospital/common/homePageConfig' }))

after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('the start-up check (NODE_ENV=production)', () => {
  it('with nothing set refuses in one error that names every missing setting', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir(), ...keys() })
    assert.equal(config.demo, false)
    assert.equal(config.paySandbox, false, 'no sandbox cashier by default in production')
    assert.equal(productionProblems(config).length, 4) // sign-in, SMS, payment, PUBLIC_URL
    assert.throws(
      () => assertReadyForProduction(config),
      (err: Error) => {
        for (const name of ['WECHAT_APPS', 'ALIPAY', 'SMS_URL', 'WECHAT_PAY', 'ALIPAY_PAY', 'PUBLIC_URL', 'DEMO=1']) assert.ok(err.message.includes(name), `names ${name}:\n${err.message}`)
        return true
      },
    )
  })

  it('is what the server process runs first: it exits naming the settings, before it opens a database', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env }
    for (const name of Object.keys(env)) {
      if (/^(NODE_TEST_CONTEXT|DEMO|DATABASE_URL|PUBLIC_URL|WECHAT_|ALIPAY|SMS_|PAY_SANDBOX|INSURANCE|OCR_|HEALTH_CARD|MAP_KEY)/.test(name)) delete env[name]
    }
    const dir = dataDir()
    Object.assign(env, { NODE_ENV: 'production', DATA_DIR: dir, ...keys(), HOST: '127.0.0.1', PORT: '0' })
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
    clearTimeout(timer)
    assert.equal(code, 1, output)
    for (const name of ['WECHAT_APPS', 'ALIPAY', 'SMS_URL', 'WECHAT_PAY', 'ALIPAY_PAY', 'PUBLIC_URL']) assert.ok(output.includes(name), `names ${name}:\n${output}`)
    assert.deepEqual(readdirSync(dir), [], 'no database was created')
  })

  it('refuses PAY_SANDBOX=1 beside a real payment channel, unless DEMO=1', () => {
    const config = loadConfig(productionEnv({ PAY_SANDBOX: '1' }))
    assert.equal(productionProblems(config).length, 1)
    assert.throws(() => assertReadyForProduction(config), /PAY_SANDBOX/)
    assert.deepEqual(productionProblems(loadConfig(productionEnv({ PAY_SANDBOX: '1', DEMO: '1' }))), [])
  })

  it('refuses a payment channel no patient can reach: WeChat Pay under an app id patients do not sign in with', () => {
    const config = loadConfig(productionEnv({ WECHAT_APPS: JSON.stringify({ wxother0000000000: 'made-up-app-secret' }) }))
    assert.throws(() => assertReadyForProduction(config), new RegExp(`WECHAT_APPS: add the WeChat Pay app id ${DEMO.both.appId}`))
  })

  it('outside production the server is a demo, as before: sandboxes on and nothing to refuse', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) {
      const config = loadConfig({ NODE_ENV, DEMO: '0', DATA_DIR: dataDir(), ...keys() })
      assert.equal(config.demo, true, String(NODE_ENV))
      assert.equal(config.paySandbox, true)
      assert.deepEqual(productionProblems(config), [])
    }
  })
})

describe('a production server with every provider it depends on', () => {
  let config: Config
  let pglite: PGlite
  let database: Database
  let app: FastifyInstance
  before(async () => {
    config = loadConfig(productionEnv())
    pglite = await PGlite.create()
    database = await openDatabase({ url: null, dataDir: '', pglite })
  })
  after(async () => {
    await app?.close()
    await pglite?.close()
  })

  it('starts, and does not seed an empty database with the demo hospitals (the regions, which are facts, it does)', async () => {
    assert.doesNotThrow(() => assertReadyForProduction(config))
    assert.equal(await seedOnStart(config, database.db, new FieldCipher(config.dataKey)), false)
    const [h] = await database.db.select({ n: count() }).from(hospitals)
    assert.equal(h!.n, 0)
    const [r] = await database.db.select({ n: count() }).from(regions)
    assert.ok(r!.n > 3000, `regions: ${r!.n}`)
    app = await buildApp(config, database)
    await app.ready()
  })

  it('serves no sandbox page', async () => {
    for (const url of SANDBOX_PAGES) assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url)
    const post = await app.inject({ method: 'POST', url: '/sandbox/pay/cashier', payload: { orderNo: 'P1', returnUrl: '/pages/order/register/index', sign: 'x', action: 'confirm' } })
    assert.equal(post.statusCode, 404)
    const { providers } = app.ctx
    assert.deepEqual(
      [providers.wechat.kind, providers.alipay.kind, providers.sms.kind, providers.ocr.kind, providers.healthCard.kind, providers.location.kind, providers.insurance.kind],
      ['real', 'disabled', 'real', 'disabled', 'disabled', 'disabled', 'disabled'],
    )
    assert.equal(providers.pay.sandbox, null)
  })

  it('tells the app it is not a demo', async () => {
    const env = await homeConfigOf(app)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.demo, false)
  })

  it('answers that Alipay sign-in, which the hospital does not use, is not offered; WeChat goes to WeChat', async () => {
    const q = { appId: DEMO.both.appId, redirectUri: 'https://hospital.example/h5/pages/login/login', state: 's' }
    assertBadInput(await callApi(app, 'GET', '/dld-auth/oauth/alipay/authorize-url', { query: { ...q, scope: 'auth_base' } }), '暂不支持支付宝登录')
    assertBadInput(await callApi(app, 'POST', '/dld-auth/token/alipay/H5', { body: { authCode: 'made-up', appId: DEMO.both.appId } }), '暂不支持支付宝登录')
    const wechat = await callApi<{ url: string }>(app, 'GET', '/dld-auth/oauth/wechat/authorize-url', { query: { ...q, scope: 'snsapi_base' } })
    assert.match(wechat.data.url, /^https:\/\/open\.weixin\.qq\.com\//)
  })

  it('becomes a demo server with DEMO=1: the same empty database gets the demo hospitals', async () => {
    const demo = loadConfig(productionEnv({ DEMO: '1' }))
    assert.equal(await seedOnStart(demo, database.db, new FieldCipher(demo.dataKey)), true)
    const [h] = await database.db.select({ n: count() }).from(hospitals)
    assert.equal(h!.n, 5)
  })
})

describe('the optional features of a production server without their settings', () => {
  /** WeChat as the real one answers a code, without the network (sign-in has its own tests). */
  const wechat: WechatProvider = {
    kind: 'real',
    authorizeUrl: () => 'https://open.weixin.qq.com/connect/oauth2/authorize',
    exchangeCode: async (_appId, code) => ({ subject: `o-${code}`, scope: 'snsapi_base' }),
    miniLogin: async (_appId, code) => ({ subject: `o-${code}`, scope: 'mini' }),
    miniPhone: async () => ({ mobile: '13900000000', countryCode: '86' }),
    jsapiTicket: async () => 'ticket',
  }
  /** The SMS gateway: keeps what it was asked to send. */
  const texts: { mobile: string; code: string }[] = []
  const sms: SmsProvider = { kind: 'real', sendCode: async (mobile, code) => void texts.push({ mobile, code }) }

  let t: TestApp
  let caller: { headers: Record<string, string> }
  let userId: number
  before(async () => {
    const production = loadConfig(productionEnv())
    const { mode, demo, paySandbox, publicUrl, wechatPay } = production
    // the seeded demo hospitals, served as production serves them: only WeChat, SMS and WeChat Pay configured
    t = await startTestApp({ config: { mode, demo, paySandbox, publicUrl, wechatPay, wechat: production.wechat, sms: production.sms }, providers: { wechat, sms } })
    assert.deepEqual(productionProblems(t.config), [])
    const login = await callApi<{ token: string }>(t.app, 'POST', '/dld-auth/token/wxH5', { body: { code: randomBytes(8).toString('hex'), appId: DEMO.both.appId } })
    caller = { headers: { authorization: `Bearer ${login.data.token}` } }
    const mobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
    const sent = await callApi<{ devCode?: string }>(t.app, 'POST', '/dld-auth/token/smsBindCode', { caller, body: { mobile } })
    assert.equal(sent.code, 200, sent.msg)
    assert.equal(sent.data.devCode, undefined, 'production never answers the code')
    const code = texts.find((m) => m.mobile === mobile)!.code
    const bound = await callApi<{ userId: number }>(t.app, 'POST', '/dld-hospital/bind', { caller, body: { mobile, code, sourceType: 8 } })
    assert.equal(bound.code, 200, bound.msg)
    userId = bound.data.userId
  })
  after(async () => {
    await t?.close()
  })

  it('insurance: not open, and no test person handed out', async () => {
    const patientId = await addPatient(t, userId, { name: '孙建国', sex: 1, birthday: '1978-06-15', mobile: '13900000001' })
    const identify = await callApi(t.app, 'POST', '/dld-palm/api/yibao/identify', {
      caller,
      body: { patientId, hospitalCode: DEMO.both.code, redirect: '/palm/chsPayment/index?type=register&id=1' },
    })
    assertBadInput(identify, '该医院暂未开通医保移动支付')
    assertBadInput(await callApi(t.app, 'GET', '/dld-palm/api/yibao/getAuthTestUserInfo', { caller }), '仅医保测试环境提供测试人员')
  })

  it('identity-card photos: the demo card is not read; the patient is asked to type', async () => {
    const url = await uploadedPicture(t, userId)
    writeFileSync(join(t.config.uploadDir, url.split('/').pop()!), readFileSync(join(root, 'server/src/seed/cards/demo-idcard-1.png')))
    assertBadInput(await callApi(t.app, 'POST', '/dld-palm/api/patient/hospital/patient/ocr', { caller, body: { url } }), '暂不支持拍照识别，请手动填写')
  })

  it('electronic health card: not open', async () => {
    const body = { hospitalCode: DEMO.both.code, redirect: '/pages/addPatient/index?from=card' }
    assertBadInput(await callApi(t.app, 'POST', '/thirdParty/tencent-EHealth/refreshUrl', { caller, body }), '该医院暂未开通电子健康卡')
  })

  it('locating: not offered (the page offers choosing the region by hand)', async () => {
    assertBadInput(await callApi(t.app, 'GET', '/dld-system/map/getLocation', { caller, query: { location: '30.27,120.15' } }), '暂不支持自动定位')
  })
})

describe('a production server with DEMO=1', () => {
  let t: TestApp
  before(async () => {
    const demo = loadConfig({ NODE_ENV: 'production', DEMO: '1', DATA_DIR: dataDir(), ...keys() })
    assert.deepEqual(productionProblems(demo), [])
    assert.equal(demo.paySandbox, true)
    t = await startTestApp({ config: { mode: demo.mode, demo: demo.demo, paySandbox: demo.paySandbox } })
  })
  after(async () => {
    await t?.close()
  })

  it('starts with its sandboxes and their pages', async () => {
    for (const url of SANDBOX_PAGES) assert.notEqual((await t.app.inject({ method: 'GET', url })).statusCode, 404, url)
    const { providers } = t.app.ctx
    assert.deepEqual(
      [providers.wechat.kind, providers.alipay.kind, providers.sms.kind, providers.ocr.kind, providers.healthCard.kind, providers.location.kind, providers.insurance.kind],
      Array(7).fill('sandbox'),
    )
    assert.ok(providers.pay.sandbox)
  })

  it('tells the app it is a demo (the 演示环境 mark)', async () => {
    const env = await homeConfigOf(t.app)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.demo, true)
  })
})
