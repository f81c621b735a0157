import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { departments, hospitals, insuranceAuths, insuranceSettlements, orders, patients, registrations, scheduleSlots, schedules } from '../../server/src/db/schema'
import { closeExpiredOrders, ledgerBalance } from '../../server/src/domain/payment'
import { SANDBOX_INSURED, gatewayInsurance, type InsuranceProvider } from '../../server/src/plugins/providers/insurance'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { hmacHex } from '../../server/src/crypto'
import { startTestApp, signInUser, callApi, assertUnauthorisedCall, idCardFor, b64, unb64, LogCapture, DEMO, type CallOptions, type Envelope, type TestApp } from './harness'
import { addPatient, confirmAtCashier } from './fixtures'

const A = '/dld-palm/api'
const Y = `${A}/yibao`
const REDIRECT = '/palm/chsPayment/index?type=register&id=1'
const RETURN_URL = '/h5/pages/order/register/detail?source=register'
const EMPLOYEE = SANDBOX_INSURED[0]! // 职工: the fund pays 70 %
const RESIDENT = SANDBOX_INSURED[1]! // 居民: 50 %

type Caller = { headers: Record<string, string>; userId: number }

const log = new LogCapture()
/** Every authCode this file was given, none of which may reach the log. */
const codes: string[] = []
let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
/** The owner's patients: two insured people, one who is not, and the stranger's. */
let employee: number
let resident: number
let uninsured: number
let strangers: number

const db = () => t.database.db

const call = <T = any>(method: 'GET' | 'POST', url: string, opts: CallOptions = {}) => callApi<T>(t.app, method, url, opts)

const assertCode = (env: Envelope, code: number, msg?: string | RegExp) => {
  assert.equal(env.code, code, `expected ${code}, got ${env.code} ${env.msg}`)
  if (code !== 200) assert.equal(env.data, null)
  if (typeof msg === 'string') assert.equal(env.msg, msg)
  else if (msg) assert.match(env.msg, msg)
}

const assertUnauthorised = (method: 'GET' | 'POST', url: string, body?: unknown) => assertUnauthorisedCall(t.app, method, url, body === undefined ? {} : { body })

/** A patient of `userId`'s with the person's name and identity number. */
const patientOf = (userId: number, person: { name: string; idCard: string }) =>
  addPatient(t, userId, { name: person.name, idCard: person.idCard, sex: 1, birthday: '1978-06-15', mobile: '13612345678' })

let serial = 0
/** A schedule of its own two days ahead at a hospital (10392 takes insurance for registration). */
async function newSchedule(code: string = DEMO.both.code, feeFen = 1500) {
  const [h] = await db().select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, code))
  const [group] = await db().select({ id: departments.id }).from(departments).where(and(eq(departments.hospitalId, h!.id), isNull(departments.parentId))).limit(1)
  const [dept] = await db().insert(departments).values({ hospitalId: h!.id, parentId: group!.id, name: `医保测试门诊${++serial}` }).returning()
  const day = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
  const [s] = await db()
    .insert(schedules)
    .values({ hospitalId: h!.id, deptId: dept!.id, doctorId: null, visitDate: day, segment: 'am', registerType: '普通号', feeFen, totalSlots: 1, stopped: false })
    .returning()
  await db().insert(scheduleSlots).values({ scheduleId: s!.id, seq: 1, timeRange: '08:00-08:30' })
  return s!.id
}

/** Books a held registration for a patient, with insurance chosen unless told otherwise. */
async function book(caller: Caller, patientId: number, opts: { insurance?: boolean; feeFen?: number } = {}) {
  const scheduleId = await newSchedule(DEMO.both.code, opts.feeFen)
  const env = await call('POST', `${A}/register`, {
    caller,
    body: { scheduleId, patientId, timeRange: '08:00-08:30', insurance: opts.insurance ?? true, idempotencyKey: randomBytes(8).toString('hex') },
  })
  assertCode(env, 200)
  return env.data as { id: number; status: string; insurance: boolean; order: { orderNo: string; amountFen: number; insuranceFen: number; selfPayFen: number } }
}

const identify = (caller: Caller, patientId: number, hospitalCode: string = DEMO.both.code) =>
  call('POST', `${Y}/identify`, { caller, body: { patientId, hospitalCode, redirect: REDIRECT } })

/** What the patient does on the sandbox voucher page: picks the insured person; answers the one-time authCode. */
async function authCodeFor(person: { idCard: string }, authUrl?: string) {
  const q = new URL(authUrl ?? `/sandbox/insurance/authorize?channel=wechat&hospitalCode=${DEMO.both.code}&redirect=${encodeURIComponent(REDIRECT)}`, 'http://x').searchParams
  const page = await t.app.inject({ method: 'GET', url: `/sandbox/insurance/authorize?${q.toString()}` })
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /医保电子凭证授权/)
  const res = await t.app.inject({
    method: 'POST',
    url: '/sandbox/insurance/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ channel: q.get('channel')!, hospitalCode: q.get('hospitalCode')!, redirect: q.get('redirect')!, person: person.idCard }).toString(),
  })
  assert.equal(res.statusCode, 302)
  const back = new URL(res.headers.location as string, 'http://x')
  assert.equal(back.pathname, '/h5/palm/chsPayment/index')
  assert.equal(back.searchParams.get('type'), 'register')
  codes.push(back.searchParams.get('authCode')!)
  return codes.at(-1)!
}

async function authorise(caller: Caller, patientId: number, person: { idCard: string }) {
  const env = await call('POST', `${Y}/wechat/userquery`, { caller, body: { authCode: await authCodeFor(person), patientId } })
  assertCode(env, 200)
  return env.data
}

const upload = (caller: Caller, orderNo: string) => call('POST', `${Y}/outpfeeupload`, { caller, body: { orderNo } })
const settlementOf = async (orderNo: string) => {
  const [row] = await db().select({ s: insuranceSettlements }).from(insuranceSettlements).innerJoin(orders, eq(orders.id, insuranceSettlements.orderId)).where(eq(orders.orderNo, orderNo))
  return row?.s ?? null
}

/** Pays the cash part in the sandbox cashier the way the chsPayment page does, then confirms the registration. */
async function payCash(caller: Caller, registrationId: number, orderNo: string) {
  const action = await call<{ kind: string; url: string }>('POST', `${A}/payment/yibao/init`, { caller, body: { orderNo, returnUrl: RETURN_URL } })
  assertCode(action, 200)
  const cashier = await t.app.inject({ method: 'GET', url: action.data.url })
  assert.equal((await confirmAtCashier(t, action.data.url)).statusCode, 303)
  const confirmed = await call('POST', `${A}/confirm/${registrationId}`, { caller })
  await sandbox.settled()
  return { cashier: cashier.body, registration: confirmed.data }
}

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  employee = await patientOf(owner.userId, EMPLOYEE)
  resident = await patientOf(owner.userId, RESIDENT)
  uninsured = await patientOf(owner.userId, { name: '钱多多', idCard: idCardFor('19850101', '123') })
  strangers = await patientOf(stranger.userId, { name: '吴用', idCard: idCardFor('19800202', '321') })
})
after(() => t.close())

describe('GET /dld-palm/api/yibao/getAuthTestUserInfo', () => {
  it('needs a signed-in user with a mobile', async () => {
    await assertUnauthorised('GET', `${Y}/getAuthTestUserInfo`)
  })

  it('answers the sandbox platform’s test person, the identity number encoded like every sensitive field', async () => {
    const env = await call('GET', `${Y}/getAuthTestUserInfo`, { caller: owner })
    assertCode(env, 200)
    assert.deepEqual({ ...env.data, idCard: unb64(env.data.idCard) }, { name: EMPLOYEE.name, idCard: EMPLOYEE.idCard, insuTypeName: '职工基本医疗保险' })
  })
})

describe('POST /dld-palm/api/yibao/identify', () => {
  it('needs a signed-in user with a mobile', async () => {
    await assertUnauthorised('POST', `${Y}/identify`, { patientId: employee, hospitalCode: DEMO.both.code, redirect: REDIRECT })
  })

  it('refuses bad input, a hospital outside chsList and a patient without an identity card', async () => {
    assertCode(await call('POST', `${Y}/identify`, { caller: owner, body: { patientId: 'x', hospitalCode: DEMO.both.code, redirect: REDIRECT } }), 400, /patientId/)
    assertCode(await call('POST', `${Y}/identify`, { caller: owner, body: { patientId: employee, hospitalCode: DEMO.both.code, redirect: 'https://elsewhere.example/x' } }), 400, '返回页面不正确')
    await db().insert(hospitals).values({ code: '10600', name: '示范市第三医院', homePageConfig: { menus: [] } })
    assertCode(await identify(owner, employee, '10600'), 400, '该医院暂未开通医保移动支付')
    const [child] = await db()
      .insert(patients)
      .values({ userId: owner.userId, nameEnc: t.app.ctx.cipher.encrypt('小宝'), personIndex: 'neonate-x', sex: 1, birthday: '2026-01-01', relation: '子女', source: 'neonate' })
      .returning({ id: patients.id })
    assertCode(await identify(owner, child!.id), 400, '该就诊人没有登记身份证件，无法使用医保支付')
  })

  it('answers 2999 for someone else’s patient', async () => {
    const env = await identify(owner, strangers)
    assertCode(env, 2999, '暂无权限')
  })

  it('sends an unauthorised patient to the voucher page of the channel they signed in with, back to the page', async () => {
    const env = await identify(owner, resident)
    assertCode(env, 200)
    assert.equal(env.data.authorized, false)
    assert.equal(env.data.channel, 'wechat')
    const url = new URL(env.data.authUrl, 'http://x')
    assert.equal(url.pathname, '/sandbox/insurance/authorize')
    assert.equal(url.searchParams.get('redirect'), REDIRECT)
    assert.equal(url.searchParams.get('hospitalCode'), DEMO.both.code)
  })
})

for (const [path, channel] of [
  ['wechat', 'wechat'],
  ['aliPay', 'alipay'],
] as const) {
  describe(`POST /dld-palm/api/yibao/${path}/userquery`, () => {
    const url = `${Y}/${path}/userquery`
    it('needs a signed-in user with a mobile', async () => {
      await assertUnauthorised('POST', url, { authCode: 'abcdefgh12345678', patientId: employee })
    })

    it('refuses bad input and a code that is unknown or already used', async () => {
      assertCode(await call('POST', url, { caller: owner, body: { authCode: 'short', patientId: employee } }), 400, /医保授权码不正确/)
      assertCode(await call('POST', url, { caller: owner, body: { authCode: 'abcdefgh12345678', patientId: employee } }), 400, '医保授权已失效，请重新授权')
      const code = await authCodeFor(RESIDENT)
      assertCode(await call('POST', url, { caller: owner, body: { authCode: code, patientId: resident } }), 200)
      assertCode(await call('POST', url, { caller: owner, body: { authCode: code, patientId: resident } }), 400, '医保授权已失效，请重新授权')
    })

    it('answers 2999 for someone else’s patient, and keeps nothing', async () => {
      const before = await db().select().from(insuranceAuths).where(eq(insuranceAuths.patientId, strangers))
      assertCode(await call('POST', url, { caller: owner, body: { authCode: await authCodeFor(EMPLOYEE), patientId: strangers } }), 2999, '暂无权限')
      assert.deepEqual(await db().select().from(insuranceAuths).where(eq(insuranceAuths.patientId, strangers)), before)
    })

    it('refuses an insured person who is not the patient, and keeps nothing', async () => {
      const env = await call('POST', url, { caller: owner, body: { authCode: await authCodeFor(EMPLOYEE), patientId: uninsured } })
      assertCode(env, 400, '医保授权人与就诊人信息不一致，请使用就诊人本人的医保电子凭证授权')
      assert.equal((await db().select().from(insuranceAuths).where(eq(insuranceAuths.patientId, uninsured))).length, 0)
      assert.equal((await identify(owner, uninsured)).data.authorized, false)
    })

    it(`authorises the patient for the ${channel} channel; the payAuthNo is stored encrypted`, async () => {
      const env = await call('POST', url, { caller: owner, body: { authCode: await authCodeFor(EMPLOYEE), patientId: employee } })
      assertCode(env, 200)
      assert.deepEqual([env.data.authorized, env.data.channel, env.data.insuTypeName, env.data.authUrl], [true, channel, '职工基本医疗保险', null])
      const [row] = await db().select().from(insuranceAuths).where(eq(insuranceAuths.patientId, employee)).orderBy(insuranceAuths.id)
      assert.ok(!row!.payAuthNoEnc.includes('SBX.'), 'payAuthNo in the clear')
      const again = await identify(owner, employee)
      assert.deepEqual([again.data.authorized, again.data.insuTypeName], [true, '职工基本医疗保险'])
    })
  })
}

describe('POST /dld-palm/api/yibao/outpfeeupload', () => {
  it('needs a signed-in user with a mobile', async () => {
    await assertUnauthorised('POST', `${Y}/outpfeeupload`, { orderNo: 'P20261123000000000000' })
  })

  it('refuses bad input, an order without insurance, and a patient not yet authorised; the order is unchanged', async () => {
    assertCode(await upload(owner, 'nope'), 400, /订单号不正确/)
    const plain = await book(owner, employee, { insurance: false })
    assertCode(await upload(owner, plain.order.orderNo), 400, '该订单不支持医保结算')
    const [other] = await db().insert(patients).values({ userId: owner.userId, nameEnc: t.app.ctx.cipher.encrypt(RESIDENT.name), idCardEnc: t.app.ctx.cipher.encrypt(RESIDENT.idCard), personIndex: 'resident-2', mobileEnc: t.app.ctx.cipher.encrypt('13600000000'), sex: 2, birthday: '1992-03-18', relation: '其他', source: 'idCard' }).returning({ id: patients.id })
    const fresh = await book(owner, other!.id)
    assertCode(await upload(owner, fresh.order.orderNo), 400, '请先完成医保授权')
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, fresh.order.orderNo))
    assert.equal(order!.insuranceFen, 0)
    assert.equal(await settlementOf(fresh.order.orderNo), null)
  })

  it('answers 2999 for someone else’s order', async () => {
    const mine = await book(owner, employee)
    assertCode(await upload(stranger, mine.order.orderNo), 2999, '暂无权限')
  })

  it('splits the fee by the person’s insurance, sets the order’s insurance part, and answers the same split again', async () => {
    await authorise(owner, resident, RESIDENT)
    const reg = await book(owner, resident, { feeFen: 2501 })
    const env = await upload(owner, reg.order.orderNo)
    assertCode(env, 200)
    // residents: the fund pays 50 %, rounded down to the fen
    assert.deepEqual(env.data, { orderNo: reg.order.orderNo, totalFen: 2501, fundFen: 1250, accountFen: 0, cashFen: 1251, insuTypeName: '城乡居民基本医疗保险', status: 'uploaded' })
    const order = await call('GET', `/dld-pay/order/${reg.order.orderNo}`, { caller: owner })
    assert.deepEqual([order.data.amountFen, order.data.insuranceFen, order.data.selfPayFen], [2501, 1250, 1251])
    assert.deepEqual((await upload(owner, reg.order.orderNo)).data, env.data)
  })

  it('refuses a bill insurance would pay whole (the cash part goes through a channel), changing nothing', async () => {
    const ins = t.app.ctx.providers.insurance as InsuranceProvider
    const original = ins.uploadFees
    ins.uploadFees = async (input) => ({ payOrdId: 'WHOLE', fundFen: input.items[0]!.fen, accountFen: 0, cashFen: 0 })
    try {
      const reg = await book(owner, resident)
      assertCode(await upload(owner, reg.order.orderNo), 400, '该订单由医保全额支付，请到医院窗口结算')
      assert.equal(await settlementOf(reg.order.orderNo), null)
    } finally {
      ins.uploadFees = original
    }
  })
})

describe('GET /dld-palm/api/yibao/split', () => {
  it('needs a signed-in user; answers null without insurance and 2999 for someone else’s order', async () => {
    assertCode(await call('GET', `${Y}/split`, { query: { orderNo: 'P20261123000000000000' } }), 401)
    assertCode(await call('GET', `${Y}/split`, { caller: owner, query: { orderNo: 'x' } }), 400, /订单号不正确/)
    const plain = await book(owner, employee, { insurance: false })
    assertCode(await call('GET', `${Y}/split`, { caller: stranger, query: { orderNo: plain.order.orderNo } }), 2999)
    const env = await call('GET', `${Y}/split`, { caller: owner, query: { orderNo: plain.order.orderNo } })
    assertCode(env, 200)
    assert.equal(env.data, null)
  })
})

describe('POST /dld-palm/api/payment/yibao/init', () => {
  it('needs a signed-in user with a mobile', async () => {
    await assertUnauthorised('POST', `${A}/payment/yibao/init`, { orderNo: 'P20261123000000000000', returnUrl: RETURN_URL })
  })

  it('refuses bad input and an order whose fees were not uploaded', async () => {
    assertCode(await call('POST', `${A}/payment/yibao/init`, { caller: owner, body: { orderNo: 'x', returnUrl: RETURN_URL } }), 400, /订单号不正确/)
    const reg = await book(owner, employee)
    assertCode(await call('POST', `${A}/payment/yibao/init`, { caller: owner, body: { orderNo: reg.order.orderNo, returnUrl: RETURN_URL } }), 400, '请先获取医保结算金额')
  })

  it('answers 2999 for someone else’s order', async () => {
    const reg = await book(owner, employee)
    assertCode(await upload(owner, reg.order.orderNo), 200)
    assertCode(await call('POST', `${A}/payment/yibao/init`, { caller: stranger, body: { orderNo: reg.order.orderNo, returnUrl: RETURN_URL } }), 2999)
  })

  it('takes only the cash part in the cashier; paid, the insurance part is settled and in the ledger', async () => {
    const insuranceBefore = await ledgerBalance(db(), 'insurance')
    const reg = await book(owner, employee, { feeFen: 1500 })
    assertCode(await upload(owner, reg.order.orderNo), 200)
    const { cashier, registration } = await payCash(owner, reg.id, reg.order.orderNo)
    assert.match(cashier, /<small>¥<\/small>4\.50/)
    assert.equal(registration.status, 'booked')
    assert.deepEqual([registration.order.status, registration.order.insuranceFen, registration.order.selfPayFen], ['paid', 1050, 450])
    assert.equal((await settlementOf(reg.order.orderNo))!.status, 'settled')
    assert.equal((await ledgerBalance(db(), 'insurance')) - insuranceBefore, 1050)
    const split = await call('GET', `${Y}/split`, { caller: owner, query: { orderNo: reg.order.orderNo } })
    assert.deepEqual([split.data.fundFen, split.data.cashFen, split.data.status], [1050, 450, 'settled'])
    // paid: nothing more to upload or pay
    assert.equal((await upload(owner, reg.order.orderNo)).data.status, 'settled')
    assertCode(await call('POST', `${A}/payment/yibao/init`, { caller: owner, body: { orderNo: reg.order.orderNo, returnUrl: RETURN_URL } }), 400, '请先获取医保结算金额')
  })
})

describe('insurance with the order’s life', () => {
  it('a cancelled paid registration gives the insurance part back to the platform, then the cash', async () => {
    const ins = t.app.ctx.providers.insurance as InsuranceProvider
    const original = ins.refund
    const returned: string[] = []
    ins.refund = async (input) => {
      returned.push(input.payOrdId)
      return original(input)
    }
    try {
      const insuranceBefore = await ledgerBalance(db(), 'insurance')
      const reg = await book(owner, employee, { feeFen: 2000 })
      assertCode(await upload(owner, reg.order.orderNo), 200)
      await payCash(owner, reg.id, reg.order.orderNo)
      const cancelled = await call('POST', `${A}/cancel`, { caller: owner, body: { id: reg.id } })
      assertCode(cancelled, 200)
      await sandbox.settled()
      const detail = await call('GET', `${A}/register/detail`, { caller: owner, query: { id: String(reg.id) } })
      assert.deepEqual([detail.data.status, detail.data.order.status, detail.data.order.refundedFen], ['cancelled', 'refunded', 600])
      const s = await settlementOf(reg.order.orderNo)
      assert.equal(s!.status, 'refunded')
      assert.deepEqual(returned, [s!.payOrdId])
      assert.equal(await ledgerBalance(db(), 'insurance'), insuranceBefore)
    } finally {
      ins.refund = original
    }
  })

  it('a platform that cannot be reached leaves the refund pending, and nothing is given back twice', async () => {
    const ins = t.app.ctx.providers.insurance as InsuranceProvider
    const original = ins.refund
    ins.refund = async () => {
      throw new Error('gateway down')
    }
    const reg = await book(owner, employee)
    assertCode(await upload(owner, reg.order.orderNo), 200)
    await payCash(owner, reg.id, reg.order.orderNo)
    try {
      assertCode(await call('POST', `${A}/cancel`, { caller: owner, body: { id: reg.id } }), 200)
      const [order] = await db().select().from(orders).where(eq(orders.orderNo, reg.order.orderNo))
      assert.equal(order!.status, 'refunding')
      assert.equal((await settlementOf(reg.order.orderNo))!.status, 'settled')
    } finally {
      ins.refund = original
    }
  })

  it('a hold that runs out voids its uploaded split and frees the slot', async () => {
    const reg = await book(owner, employee)
    assertCode(await upload(owner, reg.order.orderNo), 200)
    await closeExpiredOrders(db(), new Date(Date.now() + 3 * 3600_000))
    assert.equal((await settlementOf(reg.order.orderNo))!.status, 'void')
    const [row] = await db().select().from(registrations).where(eq(registrations.id, reg.id))
    assert.equal(row!.status, 'expired')
  })
})

describe('the hospital’s insurance gateway (real provider)', () => {
  const secret = 'gateway-secret'
  let server: ReturnType<typeof createServer>
  let base = ''
  const seen: { path: string; body: any; signed: boolean }[] = []
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = ''
      req.on('data', (c) => (text += c))
      req.on('end', () => resolve(text))
    })

  before(async () => {
    server = createServer(async (req, res) => {
      const text = await read(req)
      const body = JSON.parse(text)
      const path = req.url!.replace(/^\/gw/, '')
      seen.push({ path, body, signed: req.headers['x-signature'] === hmacHex(secret, text) && req.headers['x-app-id'] === 'H5APP' })
      const answer =
        path === '/user-query'
          ? body.authCode === 'GOOD-CODE-1'
            ? { code: 0, data: { payAuthNo: 'AUTH-1', expiresAt: '2030-01-01T00:00:00Z', person: { ...RESIDENT } } }
            : { code: 1001, msg: '授权码已失效' }
          : path === '/fee-upload'
            ? { code: 0, data: { payOrdId: 'ORD-1', fundFen: 600, accountFen: 100, cashFen: 300 } }
            : { code: 0, data: {} }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(answer))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gw`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const provider = () =>
    gatewayInsurance(
      { url: base, appId: 'H5APP', secret, orgCodes: { '10392': 'H44030400001' }, authorizePages: { wechat: 'https://voucher.example/auth?org={orgCode}&redirect={redirect}' } },
      'https://hospital.example',
    )

  it('builds the channel’s voucher page for the hospital, returning to the app under /h5', async () => {
    const url = await provider().authorizeUrl({ channel: 'wechat', hospitalCode: '10392', redirect: REDIRECT })
    assert.equal(url, `https://voucher.example/auth?org=H44030400001&redirect=${encodeURIComponent(`https://hospital.example/h5${REDIRECT}`)}`)
    await assert.rejects(provider().authorizeUrl({ channel: 'alipay', hospitalCode: '10392', redirect: REDIRECT }), /该医院暂未开通医保移动支付/)
  })

  it('signs every call, reads the answers, and hands the platform’s refusal to the patient', async () => {
    seen.length = 0
    const p = provider()
    const auth = await p.userQuery({ channel: 'wechat', authCode: 'GOOD-CODE-1' })
    assert.deepEqual([auth.payAuthNo, auth.person.name, auth.expiresAt.toISOString()], ['AUTH-1', RESIDENT.name, '2030-01-01T00:00:00.000Z'])
    await assert.rejects(p.userQuery({ channel: 'wechat', authCode: 'USED-CODE' }), /授权码已失效/)
    const split = await p.uploadFees({ payAuthNo: 'AUTH-1', person: RESIDENT, hospitalCode: '10392', orderNo: 'P1', items: [{ code: 'GHF', name: '挂号费', fen: 1000, count: 1 }] })
    assert.deepEqual(split, { payOrdId: 'ORD-1', fundFen: 600, accountFen: 100, cashFen: 300 })
    await p.refund({ payOrdId: 'ORD-1', orderNo: 'P1', refundNo: 'R1', reason: '患者取消预约' })
    assert.deepEqual(seen.map((s) => [s.path, s.signed]), [
      ['/user-query', true],
      ['/user-query', true],
      ['/fee-upload', true],
      ['/refund', true],
    ])
    assert.equal(seen[2]!.body.orgCode, 'H44030400001')
    assert.equal(p.testUser(), null)
  })
})

describe('logs of this file’s run', () => {
  it('never carry an authCode, a payAuthNo or an insured person’s identity number', () => {
    assert.ok(log.text.includes('/yibao/'), 'the insurance calls were logged')
    assert.ok(codes.length > 5)
    for (const secret of [...codes, EMPLOYEE.idCard, RESIDENT.idCard, b64(EMPLOYEE.idCard), 'SBX.']) assert.ok(!log.text.includes(secret), `log carries ${secret.slice(0, 6)}…`)
  })
})
