import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, asc, eq, sql } from 'drizzle-orm'
import { auditLog, doctors, drugs, inquiries, orders, pharmacyOrderEvents, pharmacyOrders, pharmacyStores, prescriptionLines, prescriptions, storeStock } from '../../server/src/db/schema'
import { closeExpiredOrders } from '../../server/src/domain/payment'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { PayOrder } from '../../types/api/payment'
import type { DrugType, ExpressFee, Page, PharmacyOrder, PharmacyOrderSummary, PharmacyStore, PickupCode, Region, SendTemplate, ShipCity, ShopDrug, StockLine } from '../../types/api/pharmacy'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, hospitalIdOf, newKey, paidBody } from './fixtures'

const R = '/dld-rpflow/api'
const W = '/dld-doctor/api/pharmacy/orders'
const RETURN_URL = '/h5/internet/order/detail'
const PG = !!process.env.TEST_DATABASE_URL

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
let pharmacist: { headers: Record<string, string> }
let otherPharmacist: { headers: Record<string, string> }
let hospitalId = 0
let storeId = 0
let doctorId = 0
let patientId = 0
let strangerPatientId = 0
/** The owner's address in 深圳 (delivered to), in 北京 (not), and the stranger's in 深圳. */
let shenzhen = 0
let beijing = 0
let strangersAddress = 0
const drugId: Record<string, number> = {}

const PATIENT = { name: '王建国', sex: 1, birthday: '1970-03-15', mobile: '13600003333', salt: 'pharmacy' } as const

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: { headers: Record<string, string> }; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const ok = <T>(env: Envelope<T>): T => {
  assert.equal(env.code, 200, env.msg)
  return env.data
}

async function addAddress(caller: Caller, provinceCode: number, cityCode: number, districtCode: number) {
  const env = await call<{ id: number }>('POST', '/dld-hospital/addAddress', {
    caller,
    body: { name: '王建国', mobile: '13800138000', provinceCode, cityCode, districtCode, detail: '科技园路1号' },
  })
  return ok(env).id
}

async function signInDesk(login: string) {
  const env = await call<{ token: string }>('POST', '/dld-doctor/api/login', { body: { login, password: 'demo1234' } })
  return { headers: { authorization: `Bearer ${ok(env).token}` } }
}

/** A drug of the hospital's shelf made up for one test, with its own stock at the store. */
async function newDrug(stock: number, over: Partial<typeof drugs.$inferInsert> = {}) {
  const [d] = await db()
    .insert(drugs)
    .values({ hospitalId, code: `T${randomBytes(4).toString('hex')}`, name: `测试药${randomBytes(2).toString('hex')}`, category: 'western', unit: '盒', priceFen: 1000, rx: false, onShelf: true, ...over })
    .returning()
  await db().insert(storeStock).values({ storeId, drugId: d!.id, quantity: stock })
  return d!
}

const stockOf = async (id: number) => (await db().select({ q: storeStock.quantity }).from(storeStock).where(and(eq(storeStock.storeId, storeId), eq(storeStock.drugId, id))))[0]!.q

/** An approved prescription of the patient written straight into the tables (writing and review have their own tests). */
async function prescription(
  user: Caller,
  pid: number,
  lines: { drugId: number; quantity: number; priceFen?: number }[],
  over: Partial<typeof prescriptions.$inferInsert> = {},
) {
  const cipher = t.app.ctx.cipher
  const [inq] = await db()
    .insert(inquiries)
    .values({
      inquiryNo: `I${randomBytes(8).toString('hex')}`,
      userId: user.userId,
      patientId: pid,
      hospitalId,
      doctorId,
      serviceType: 'text',
      descriptionEnc: cipher.encrypt('咳嗽三天'),
      priceFen: 0,
      status: 'finished',
      idempotencyKey: newKey('pi'),
    })
    .returning()
  const drugRows = await db().select().from(drugs).where(sql`${drugs.id} in ${lines.map((l) => l.drugId)}`)
  const byId = new Map(drugRows.map((d) => [d.id, d]))
  const priced = lines.map((l) => ({ ...l, priceFen: l.priceFen ?? byId.get(l.drugId)!.priceFen }))
  const [pres] = await db()
    .insert(prescriptions)
    .values({
      presNo: `RX${randomBytes(8).toString('hex')}`,
      hospitalId,
      inquiryId: inq!.id,
      userId: user.userId,
      patientId: pid,
      doctorId,
      category: 'western',
      diagnosesEnc: cipher.encrypt(JSON.stringify([{ code: 'J00', name: '急性鼻咽炎' }])),
      status: 'approved',
      drugFeeFen: priced.reduce((s, l) => s + l.priceFen * l.quantity, 0),
      diagnosisFeeFen: 500,
      expiresAt: new Date(Date.now() + 3 * 86_400_000),
      idempotencyKey: newKey('px'),
      ...over,
    })
    .returning()
  await db()
    .insert(prescriptionLines)
    .values(
      priced.map((l, i) => {
        const d = byId.get(l.drugId)!
        return { prescriptionId: pres!.id, lineNo: i + 1, drugId: d.id, drugName: d.name, spec: d.spec, unit: d.unit, dose: '1粒', frequency: '每日3次', days: 3, quantity: l.quantity, priceFen: l.priceFen }
      }),
    )
  return pres!
}

const shopBody = (over: Record<string, unknown> = {}) => ({
  source: 'shop',
  lines: [{ drugId: drugId.X003!, quantity: 1 }],
  storeId,
  delivery: 'pickup',
  idempotencyKey: newKey('po'),
  ...over,
})

async function place(caller: Caller, over: Record<string, unknown> = {}) {
  return ok(await call<PharmacyOrder>('POST', `${R}/order/place`, { caller, body: shopBody(over) }))
}

const detail = async (caller: Caller, id: number) => ok(await call<PharmacyOrder>('GET', `${R}/order/detail/${id}`, { caller }))

/** Pays a pharmacy order as the page does: unifiedOrder, /dld-pay/pay, the sandbox cashier; waits until it settles. */
async function pay(caller: Caller, id: number) {
  const payOrder = ok(await call<PayOrder>('POST', `${R}/order/unifiedOrder/${id}`, { caller }))
  const action = ok(await call<{ kind: string; url: string }>('POST', '/dld-pay/pay', { caller, body: { orderNo: payOrder.orderNo, returnUrl: RETURN_URL } }))
  assert.equal((await confirmAtCashier(t, action.url)).statusCode, 303)
  await sandbox.settled()
  return detail(caller, id)
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  hospitalId = await hospitalIdOf(t, '10392')
  const [store] = await db().select().from(pharmacyStores).where(eq(pharmacyStores.hospitalId, hospitalId)).orderBy(asc(pharmacyStores.id)).limit(1)
  storeId = store!.id
  for (const d of await db().select({ id: drugs.id, code: drugs.code }).from(drugs).where(eq(drugs.hospitalId, hospitalId))) drugId[d.code] = d.id
  const [doc] = await db().select({ id: doctors.id }).from(doctors).where(eq(doctors.hospitalId, hospitalId)).limit(1)
  doctorId = doc!.id
  patientId = await addPatient(t, owner.userId, PATIENT)
  strangerPatientId = await addPatient(t, stranger.userId, PATIENT)
  shenzhen = await addAddress(owner, 440000, 440300, 440305)
  beijing = await addAddress(owner, 110000, 110100, 110105)
  strangersAddress = await addAddress(stranger, 440000, 440300, 440305)
  pharmacist = await signInDesk('10392P01')
  otherPharmacist = await signInDesk('10412P01')
})
after(() => t.close())

describe('every /dld-rpflow/api call of a patient', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', `${R}/store/detail/${storeId}`],
      ['GET', `${R}/sendTemplate/${storeId}`],
      ['GET', `${R}/sendTemplate/supportCity/${storeId}`],
      ['GET', `${R}/sendTemplate/shipProvince/${storeId}`],
      ['GET', `${R}/sendTemplate/shipCity/${storeId}/440000`],
      ['POST', `${R}/sendTemplate/expressFee`, { storeId, addressId: 1, drugFeeFen: 100 }],
      ['POST', `${R}/drugStore/store/inventory`, { storeId, drugIds: [1] }],
      ['POST', `${R}/order/place`, shopBody()],
      ['POST', `${R}/order/planOrder`, { prescriptionId: 1, storeId, delivery: 'pickup', idempotencyKey: newKey('pu') }],
      ['POST', `${R}/order/unifiedOrder/1`],
      ['POST', `${R}/order/cancel/1`],
      ['POST', `${R}/order/refund/1`, { reason: '不想要了' }],
      ['POST', `${R}/order/cancelRefund/1`],
      ['GET', `${R}/order/checkOrderAgain/1`],
      ['GET', `${R}/order/detail/1`],
      ['GET', `${R}/order/orderList`],
      ['POST', `${R}/storeQrCode/getInfo`, { orderId: 1 }],
    ]
    for (const [method, url, body] of calls) await assertUnauthorisedCall(t.app, method, url, body === undefined ? {} : { body })
  })

  it('the shop is open to a visitor not signed in', async () => {
    assert.ok(ok(await call<DrugType[]>('GET', `${R}/drugType/list`)).length > 0)
    assert.ok(ok(await call<Page<ShopDrug>>('GET', `${R}/drugStore/shop/drugPage`)).total > 0)
  })
})

describe('stores and delivery', () => {
  it('answers the store, its delivery terms and tip, and the cities it delivers to with their names', async () => {
    const store = ok(await call<PharmacyStore>('GET', `${R}/store/detail/${storeId}`, { caller: owner }))
    assert.equal(store.id, storeId)
    assert.match(store.name, /互联网药房$/)
    assert.equal(store.delivery, true)
    assert.equal(store.pickup, true)
    const tpl = ok(await call<SendTemplate>('GET', `${R}/sendTemplate/${storeId}`, { caller: owner }))
    assert.deepEqual(tpl, { storeId, expressFeeFen: 1500, freeShippingFromFen: 9900, tip: '配送费15元，满99元包邮' })
    const cities = ok(await call<ShipCity[]>('GET', `${R}/sendTemplate/supportCity/${storeId}`, { caller: owner }))
    assert.ok(cities.some((c) => c.provinceName === '广东省' && c.cityName === '深圳市' && c.cityCode === 440300))
    const provinces = ok(await call<Region[]>('GET', `${R}/sendTemplate/shipProvince/${storeId}`, { caller: owner }))
    assert.deepEqual(
      provinces.map((p) => p.name),
      ['上海市', '浙江省', '广东省'],
    )
    const gd = ok(await call<Region[]>('GET', `${R}/sendTemplate/shipCity/${storeId}/440000`, { caller: owner }))
    assert.deepEqual(
      gd.map((c) => c.name),
      ['广州市', '深圳市'],
    )
    assert.deepEqual(ok(await call<Region[]>('GET', `${R}/sendTemplate/shipCity/${storeId}/110000`, { caller: owner })), [])
  })

  it('answers 404 for a store that does not exist and refuses a bad id', async () => {
    assert.equal((await call('GET', `${R}/store/detail/999999`, { caller: owner })).code, 404)
    assert.equal((await call('GET', `${R}/sendTemplate/999999`, { caller: owner })).code, 404)
    assertBadInput(await call('GET', `${R}/store/detail/abc`, { caller: owner }))
  })

  it('answers the fee to the caller’s address: 15 yuan, free from 99 yuan, refused outside the cities, 2999 for someone else’s', async () => {
    const fee = (addressId: number, drugFeeFen: number) => call<ExpressFee>('POST', `${R}/sendTemplate/expressFee`, { caller: owner, body: { storeId, addressId, drugFeeFen } })
    assert.deepEqual(ok(await fee(shenzhen, 5000)), { supported: true, expressFeeFen: 1500, tip: '配送费15元，满99元包邮' })
    assert.equal(ok(await fee(shenzhen, 9900)).expressFeeFen, 0)
    assert.deepEqual(ok(await fee(beijing, 5000)), { supported: false, expressFeeFen: 0, tip: '该地址不在配送范围' })
    assertForbidden(await fee(strangersAddress, 5000))
    assertForbidden(await fee(999999, 5000))
    assertBadInput(await fee(shenzhen, -1))
  })

  it('answers the stock of the drugs asked, 0 for one the store does not keep', async () => {
    const lines = ok(await call<StockLine[]>('POST', `${R}/drugStore/store/inventory`, { caller: owner, body: { storeId, drugIds: [drugId.X010!, 999999] } }))
    assert.deepEqual(lines, [
      { drugId: drugId.X010!, quantity: await stockOf(drugId.X010!) },
      { drugId: 999999, quantity: 0 },
    ])
    assertBadInput(await call('POST', `${R}/drugStore/store/inventory`, { caller: owner, body: { storeId, drugIds: [] } }))
  })
})

describe('the shop', () => {
  it('lists the hospital’s categories and its shelf (no 中药饮片), by category and name, paged, with stock', async () => {
    const types = ok(await call<DrugType[]>('GET', `${R}/drugType/list`, { caller: owner, query: { hospitalCode: '10392' } }))
    assert.deepEqual(
      types.map((x) => x.name),
      ['感冒发热', '消化肠胃', '慢病用药', '维生素营养', '外用药', '中药饮片'],
    )
    const all = ok(await call<Page<ShopDrug>>('GET', `${R}/drugStore/shop/drugPage`, { caller: owner, query: { hospitalCode: '10392', size: '50' } }))
    assert.ok(all.records.every((d) => d.category !== 'chinese'))
    assert.ok(all.records.some((d) => d.rx))
    // each product names the store that sells it: the one the cart's order is placed at
    assert.deepEqual([...new Set(all.records.map((d) => d.storeId))], [storeId])
    const cold = types.find((x) => x.name === '感冒发热')!
    const byType = ok(await call<Page<ShopDrug>>('GET', `${R}/drugStore/shop/drugPage`, { caller: owner, query: { hospitalCode: '10392', typeId: String(cold.id) } }))
    assert.ok(byType.records.length > 0 && byType.records.every((d) => d.typeId === cold.id))
    const found = ok(await call<Page<ShopDrug>>('GET', `${R}/drugStore/shop/drugPage`, { caller: owner, query: { hospitalCode: '10392', keyword: '布洛芬' } }))
    assert.deepEqual(
      found.records.map((d) => d.name),
      ['布洛芬缓释胶囊'],
    )
    assert.equal(found.records[0]!.stock, await stockOf(drugId.X003!))
    const page2 = ok(await call<Page<ShopDrug>>('GET', `${R}/drugStore/shop/drugPage`, { caller: owner, query: { hospitalCode: '10392', page: '2', size: '5' } }))
    assert.equal(page2.total, all.total)
    assert.equal(page2.records[0]!.id, all.records[5]!.id)
  })

  it('refuses an unknown hospital and a bad page', async () => {
    assert.equal((await call('GET', `${R}/drugType/list`, { query: { hospitalCode: 'nope' } })).code, 404)
    assertBadInput(await call('GET', `${R}/drugStore/shop/drugPage`, { query: { page: '0' } }))
  })
})

describe('POST /dld-rpflow/api/order/place from the cart', () => {
  it('takes the stock, makes the payment order and answers the unpaid order; the same key answers the same order', async () => {
    const before = await stockOf(drugId.X003!)
    const key = newKey('po')
    const order = await place(owner, { idempotencyKey: key, lines: [{ drugId: drugId.X003!, quantity: 2 }] })
    assert.equal(order.status, 'unpaid')
    assert.equal(order.statusText, '待支付')
    assert.equal(order.source, 'shop')
    assert.equal(order.drugFeeFen, 3180)
    assert.equal(order.expressFeeFen, 0)
    assert.equal(order.totalFen, 3180)
    assert.deepEqual(order.drugNames, ['布洛芬缓释胶囊'])
    assert.equal(order.payOrder?.business, 'pharmacy')
    assert.equal(order.payOrder?.amountFen, 3180)
    assert.equal(order.canPay, true)
    assert.deepEqual(
      order.steps.map((s) => s.statusText),
      ['待支付'],
    )
    assert.equal(await stockOf(drugId.X003!), before - 2)
    const again = await place(owner, { idempotencyKey: key, lines: [{ drugId: drugId.X003!, quantity: 2 }] })
    assert.equal(again.id, order.id)
    assert.equal(await stockOf(drugId.X003!), before - 2)
  })

  it('delivers to a supported city with the fee, the address kept masked; refuses other cities and someone else’s address', async () => {
    const order = await place(owner, { delivery: 'express', addressId: shenzhen })
    assert.equal(order.expressFeeFen, 1500)
    assert.equal(order.totalFen, 1590 + 1500)
    assert.deepEqual(order.address, { name: '王*国', mobile: '138****8000', regionText: order.address!.regionText, detail: '科技园路1号' })
    const [row] = await db().select({ enc: pharmacyOrders.addressEnc }).from(pharmacyOrders).where(eq(pharmacyOrders.id, order.id))
    assert.ok(row!.enc && !row!.enc.includes('科技园路'))
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ delivery: 'express', addressId: beijing }) }), '该地址不在配送范围')
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ delivery: 'express' }) }), '请选择收货地址')
    assertForbidden(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ delivery: 'express', addressId: strangersAddress }) }))
  })

  it('refuses bad lines, drugs off the shelf and rx drugs without the patient’s prescription, taking nothing', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, PATIENT)
    const before = await stockOf(drugId.X001!)
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ lines: [] }) }), /请选择要购买的药品/)
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ lines: [{ drugId: drugId.X003!, quantity: 0 }] }) }))
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ idempotencyKey: 'short' }) }), /请求编号/)
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ lines: [{ drugId: drugId.C001!, quantity: 10 }] }) }), '药品已下架或不存在')
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ lines: [{ drugId: drugId.X001!, quantity: 1 }] }) }), '处方药需凭医生开具的有效处方购买')
    assertBadInput(await call('POST', `${R}/order/place`, { caller, body: shopBody({ patientId: pid, lines: [{ drugId: drugId.X001!, quantity: 1 }] }) }), /处方药需凭/)
    assertForbidden(await call('POST', `${R}/order/place`, { caller, body: shopBody({ patientId: strangerPatientId, lines: [{ drugId: drugId.X001!, quantity: 1 }] }) }))
    assert.equal(await stockOf(drugId.X001!), before)
    assert.equal((await db().select().from(pharmacyOrders).where(eq(pharmacyOrders.userId, caller.userId))).length, 0)
  })

  it('sells an rx drug to a patient with an approved prescription holding it, up to the quantity prescribed', async () => {
    await prescription(owner, patientId, [{ drugId: drugId.X007!, quantity: 1 }])
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ patientId, lines: [{ drugId: drugId.X007!, quantity: 2 }] }) }), /处方药需凭/)
    const order = await place(owner, { patientId, lines: [{ drugId: drugId.X007!, quantity: 1 }] })
    assert.equal(order.patientName, '王*国')
    assert.deepEqual(order.drugNames, ['苯磺酸氨氯地平片'])
  })

  it('takes all the lines or none: one short line refuses the order with 库存不足', async () => {
    const plenty = await newDrug(10)
    const scarce = await newDrug(1)
    const env = await call('POST', `${R}/order/place`, {
      caller: owner,
      body: shopBody({ lines: [{ drugId: plenty.id, quantity: 3 }, { drugId: scarce.id, quantity: 2 }] }),
    })
    assertBadInput(env, `${scarce.name}库存不足`)
    assert.equal(await stockOf(plenty.id), 10)
    assert.equal(await stockOf(scarce.id), 1)
  })
})

describe('POST /dld-rpflow/api/order/place from a prescription', () => {
  it('orders the prescription’s lines and fees once; a second order of it is refused', async () => {
    const pres = await prescription(owner, patientId, [
      { drugId: drugId.X001!, quantity: 2 },
      { drugId: drugId.X005!, quantity: 1 },
    ])
    const order = await place(owner, { source: 'prescription', prescriptionId: pres.id, lines: undefined, delivery: 'express', addressId: shenzhen })
    assert.equal(order.prescriptionId, pres.id)
    assert.deepEqual(
      order.lines.map((l) => [l.drugName, l.quantity, l.amountFen]),
      [
        ['阿莫西林胶囊', 2, 3700],
        ['奥美拉唑肠溶胶囊', 1, 2600],
      ],
    )
    assert.equal(order.drugFeeFen, 6300)
    assert.equal(order.diagnosisFeeFen, 500)
    assert.equal(order.totalFen, 6300 + 500 + 1500)
    assertAlreadyOrdered(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ source: 'prescription', prescriptionId: pres.id }) }))
  })

  it('refuses a prescription not approved or expired, and answers 2999 for someone else’s', async () => {
    const reviewing = await prescription(owner, patientId, [{ drugId: drugId.X001!, quantity: 1 }], { status: 'reviewing' })
    const expired = await prescription(owner, patientId, [{ drugId: drugId.X001!, quantity: 1 }], { expiresAt: new Date(Date.now() - 1000) })
    const theirs = await prescription(stranger, strangerPatientId, [{ drugId: drugId.X001!, quantity: 1 }])
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ source: 'prescription', prescriptionId: reviewing.id }) }), /未审核通过/)
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ source: 'prescription', prescriptionId: expired.id }) }), '处方已过期，不可下单')
    assertForbidden(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ source: 'prescription', prescriptionId: theirs.id }) }))
    assertBadInput(await call('POST', `${R}/order/place`, { caller: owner, body: shopBody({ source: 'prescription' }) }), '请选择处方')
  })
})

describe('paying, the pickup code and cancelling', () => {
  it('a paid pickup order gets its 8-digit pickup code; an unpaid or delivery order has none', async () => {
    const order = await place(owner)
    assertBadInput(await call('POST', `${R}/storeQrCode/getInfo`, { caller: owner, body: { orderId: order.id } }), '该订单暂无取药码')
    const paid = await pay(owner, order.id)
    assert.equal(paid.status, 'paid')
    assert.equal(paid.statusText, '待备药')
    assert.equal(paid.payOrder?.status, 'paid')
    assert.equal(paid.canPay, false)
    assert.deepEqual(
      paid.steps.map((s) => s.status),
      ['unpaid', 'paid'],
    )
    const code = ok(await call<PickupCode>('POST', `${R}/storeQrCode/getInfo`, { caller: owner, body: { orderId: order.id } }))
    assert.match(code.pickupCode, /^\d{8}$/)
    assert.ok(code.qrText.includes(code.pickupCode))
    assertForbidden(await call('POST', `${R}/storeQrCode/getInfo`, { caller: stranger, body: { orderId: order.id } }))
    const express = await pay(owner, (await place(owner, { delivery: 'express', addressId: shenzhen })).id)
    assertBadInput(await call('POST', `${R}/storeQrCode/getInfo`, { caller: owner, body: { orderId: express.id } }), '该订单暂无取药码')
  })

  it('unifiedOrder answers the payment order of an unpaid order only; checkOrderAgain answers the order', async () => {
    const order = await place(owner)
    const payOrder = ok(await call<PayOrder>('POST', `${R}/order/unifiedOrder/${order.id}`, { caller: owner }))
    assert.equal(payOrder.orderNo, order.payOrder!.orderNo)
    assertForbidden(await call('POST', `${R}/order/unifiedOrder/${order.id}`, { caller: stranger }))
    assert.equal(ok(await call<PharmacyOrder>('GET', `${R}/order/checkOrderAgain/${order.id}`, { caller: owner })).status, 'unpaid')
    assertForbidden(await call('GET', `${R}/order/checkOrderAgain/${order.id}`, { caller: stranger }))
    await pay(owner, order.id)
    assertBadInput(await call('POST', `${R}/order/unifiedOrder/${order.id}`, { caller: owner }), '订单当前状态不能支付')
  })

  it('cancels an unpaid order: the payment order cancelled and the stock back', async () => {
    const drug = await newDrug(5)
    const order = await place(owner, { lines: [{ drugId: drug.id, quantity: 2 }] })
    assert.equal(await stockOf(drug.id), 3)
    assertForbidden(await call('POST', `${R}/order/cancel/${order.id}`, { caller: stranger }))
    const cancelled = ok(await call<PharmacyOrder>('POST', `${R}/order/cancel/${order.id}`, { caller: owner }))
    assert.equal(cancelled.status, 'cancelled')
    assert.equal(cancelled.statusText, '已取消')
    assert.equal(cancelled.payOrder?.status, 'cancelled')
    assert.equal(cancelled.canCancel, false)
    assert.equal(await stockOf(drug.id), 5)
    assertBadInput(await call('POST', `${R}/order/cancel/${order.id}`, { caller: owner }), '订单当前状态不能取消')
    assert.equal(await stockOf(drug.id), 5)
  })

  it('cancels a paid order not shipped: refunded in full and the stock back', async () => {
    const drug = await newDrug(5)
    const order = await pay(owner, (await place(owner, { lines: [{ drugId: drug.id, quantity: 1 }] })).id)
    const cancelled = ok(await call<PharmacyOrder>('POST', `${R}/order/cancel/${order.id}`, { caller: owner }))
    await sandbox.settled()
    assert.equal(cancelled.status, 'cancelled')
    const after = await detail(owner, order.id)
    assert.equal(after.payOrder?.status, 'refunded')
    assert.equal(after.payOrder?.refundedFen, 1000)
    assert.equal(await stockOf(drug.id), 5)
  })

  it('an unpaid order past its time closes with the payment order, its stock back once', async () => {
    const drug = await newDrug(4)
    const order = await place(owner, { lines: [{ drugId: drug.id, quantity: 4 }] })
    assert.equal(await stockOf(drug.id), 0)
    const later = new Date(Date.now() + 31 * 60_000)
    assert.ok((await closeExpiredOrders(db(), later)) >= 1)
    assert.equal(await closeExpiredOrders(db(), later), 0)
    const closed = await detail(owner, order.id)
    assert.equal(closed.status, 'closed')
    assert.equal(closed.statusText, '已关闭')
    assert.equal(closed.canPay, false)
    assert.equal(await stockOf(drug.id), 4)
  })
})

describe('the pharmacy console and refunds', () => {
  it('ships a paid delivery order, the patient asks for a refund and withdraws it, then the pharmacy completes it', async () => {
    const order = await pay(owner, (await place(owner, { delivery: 'express', addressId: shenzhen })).id)
    const listed = ok(await call<PharmacyOrder[]>('GET', W, { caller: pharmacist, query: { status: 'paid' } }))
    assert.ok(listed.some((o) => o.id === order.id))
    assert.ok(listed.every((o) => o.status === 'paid'))
    assert.equal((await call('GET', W, { caller: otherPharmacist, query: { status: 'paid' } })).data.some((o: PharmacyOrder) => o.id === order.id), false)
    assertBadInput(await call('POST', `${R}/order/refund/${order.id}`, { caller: owner, body: { reason: '不想要了' } }), '订单当前状态不能申请退款')
    assertBadInput(await call('POST', `${W}/${order.id}/ready`, { caller: pharmacist }), '只有已支付的自取订单可以备药')
    assertBadInput(await call('POST', `${W}/${order.id}/ship`, { caller: pharmacist, body: { carrier: '顺丰速运', trackingNo: '单号' } }), /快递单号不正确/)
    assert.equal((await call('POST', `${W}/${order.id}/ship`, { caller: otherPharmacist, body: { carrier: '顺丰速运', trackingNo: 'SF1234567890' } })).code, 404)
    const shipped = ok(await call<PharmacyOrder>('POST', `${W}/${order.id}/ship`, { caller: pharmacist, body: { carrier: '顺丰速运', trackingNo: 'SF1234567890' } }))
    assert.equal(shipped.status, 'shipped')
    assert.equal(shipped.trackingNo, 'SF1234567890')
    // the pharmacy ships to the receiver: it sees them whole, the patient's page masked
    assert.deepEqual([shipped.address?.name, shipped.address?.mobile], ['王建国', '13800138000'])
    assert.deepEqual([order.address?.name, order.address?.mobile], ['王*国', '138****8000'])
    assertForbidden(await call('POST', `${R}/order/refund/${order.id}`, { caller: stranger, body: { reason: '不想要了' } }))
    assertBadInput(await call('POST', `${R}/order/refund/${order.id}`, { caller: owner, body: { reason: ' ' } }), /请填写退款原因/)
    const asked = ok(await call<PharmacyOrder>('POST', `${R}/order/refund/${order.id}`, { caller: owner, body: { reason: '买错了' } }))
    assert.equal(asked.status, 'refundRequested')
    assert.equal(asked.canCancelRefund, true)
    assertForbidden(await call('POST', `${R}/order/cancelRefund/${order.id}`, { caller: stranger }))
    const back = ok(await call<PharmacyOrder>('POST', `${R}/order/cancelRefund/${order.id}`, { caller: owner }))
    assert.equal(back.status, 'shipped')
    assertBadInput(await call('POST', `${R}/order/cancelRefund/${order.id}`, { caller: owner }), '订单当前没有退款申请')
    const done = ok(await call<PharmacyOrder>('POST', `${W}/${order.id}/complete`, { caller: pharmacist }))
    assert.equal(done.status, 'completed')
    assert.deepEqual(
      (await detail(owner, order.id)).steps.map((s) => s.statusText),
      ['待支付', '待发货', '已发货', '退款申请中', '已发货', '已完成'],
    )
  })

  it('readies a paid pickup order, and accepting a refund returns the money but not the stock', async () => {
    const drug = await newDrug(3)
    const order = await pay(owner, (await place(owner, { lines: [{ drugId: drug.id, quantity: 1 }] })).id)
    assertBadInput(await call('POST', `${W}/${order.id}/ship`, { caller: pharmacist, body: { carrier: '顺丰速运', trackingNo: 'SF1234567890' } }), '只有已支付的快递订单可以发货')
    assertBadInput(await call('POST', `${W}/${order.id}/refund`, { caller: pharmacist }), '只有申请退款的订单可以退款')
    const ready = ok(await call<PharmacyOrder>('POST', `${W}/${order.id}/ready`, { caller: pharmacist }))
    assert.equal(ready.statusText, '待取药')
    assert.ok(ok(await call<PickupCode>('POST', `${R}/storeQrCode/getInfo`, { caller: owner, body: { orderId: order.id } })).pickupCode)
    assertBadInput(await call('POST', `${R}/order/cancel/${order.id}`, { caller: owner }), '订单当前状态不能取消')
    ok(await call('POST', `${R}/order/refund/${order.id}`, { caller: owner, body: { reason: '药品重复购买' } }))
    const refunded = ok(await call<PharmacyOrder>('POST', `${W}/${order.id}/refund`, { caller: pharmacist }))
    await sandbox.settled()
    assert.equal(refunded.status, 'refunded')
    const after = await detail(owner, order.id)
    assert.equal(after.payOrder?.status, 'refunded')
    assert.equal(after.refundReason, '药品重复购买')
    assert.equal(await stockOf(drug.id), 2)
  })

  it('answers 404 for an order of another hospital and refuses the patient’s token', async () => {
    const order = await place(owner)
    assert.equal((await call('POST', `${W}/${order.id}/complete`, { caller: otherPharmacist })).code, 404)
    assert.equal((await call('GET', W, { caller: owner })).code, 401)
    assertBadInput(await call('GET', W, { caller: pharmacist, query: { status: 'lost' } }))
  })
})

describe('GET /dld-rpflow/api/order/orderList and detail', () => {
  it('lists the caller’s orders only, newest first, by source and status, paged', async () => {
    const caller = await signInUser(t.app)
    const first = await place(caller)
    const second = await place(caller)
    await call('POST', `${R}/order/cancel/${first.id}`, { caller })
    const all = ok(await call<Page<PharmacyOrderSummary>>('GET', `${R}/order/orderList`, { caller }))
    assert.deepEqual(
      all.records.map((o) => o.id),
      [second.id, first.id],
    )
    assert.equal(all.total, 2)
    const cancelled = ok(await call<Page<PharmacyOrderSummary>>('GET', `${R}/order/orderList`, { caller, query: { status: 'cancelled' } }))
    assert.deepEqual(
      cancelled.records.map((o) => [o.id, o.statusText]),
      [[first.id, '已取消']],
    )
    assert.equal(ok(await call<Page<PharmacyOrderSummary>>('GET', `${R}/order/orderList`, { caller, query: { source: 'prescription' } })).total, 0)
    const paged = ok(await call<Page<PharmacyOrderSummary>>('GET', `${R}/order/orderList`, { caller, query: { page: '2', size: '1' } }))
    assert.deepEqual(
      paged.records.map((o) => o.id),
      [first.id],
    )
    assertBadInput(await call('GET', `${R}/order/orderList`, { caller, query: { status: 'lost' } }))
    assertForbidden(await call('GET', `${R}/order/detail/${first.id}`, { caller: stranger }))
    assertForbidden(await call('GET', `${R}/order/detail/999999`, { caller }))
  })
})

/** A prescription with a live order: 409, as prescriptions/order.ts answers. */
function assertAlreadyOrdered(env: { code: number; msg: string }) {
  assert.equal(env.code, 409, env.msg)
  assert.equal(env.msg, '处方已下单，请勿重复下单')
}

describe('POST /dld-rpflow/api/order/planOrder', () => {
  it('orders a renewable prescription again once its last order was completed', async () => {
    const pres = await prescription(owner, patientId, [{ drugId: drugId.X008!, quantity: 2 }], { renewable: true })
    const plan = (key = newKey('pl')) => call<PharmacyOrder>('POST', `${R}/order/planOrder`, { caller: owner, body: { prescriptionId: pres.id, storeId, delivery: 'pickup', idempotencyKey: key } })
    assertBadInput(await plan(), '该处方尚未完成首次购药')
    const first = await pay(owner, (await place(owner, { source: 'prescription', prescriptionId: pres.id, lines: undefined })).id)
    assertAlreadyOrdered(await plan())
    ok(await call('POST', `${W}/${first.id}/ready`, { caller: pharmacist }))
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.route, 'POST /dld-doctor/api/pharmacy/orders/:id/ready'), eq(auditLog.actorKind, 'staff'), eq(auditLog.patientId, patientId)))
    assert.equal(audited.length, 1)
    ok(await call('POST', `${W}/${first.id}/complete`, { caller: pharmacist }))
    const repeat = ok(await plan())
    assert.equal(repeat.prescriptionId, pres.id)
    assert.equal(repeat.diagnosisFeeFen, 0)
    assert.equal(repeat.totalFen, 5720)
    assertAlreadyOrdered(await plan())
    const once = await prescription(owner, patientId, [{ drugId: drugId.X008!, quantity: 1 }])
    assertBadInput(
      await call('POST', `${R}/order/planOrder`, { caller: owner, body: { prescriptionId: once.id, storeId, delivery: 'pickup', idempotencyKey: newKey('pl') } }),
      '该处方不能续方购药',
    )
    assertForbidden(await call('POST', `${R}/order/planOrder`, { caller: stranger, body: { prescriptionId: pres.id, storeId, delivery: 'pickup', idempotencyKey: newKey('pl') } }))
  })
})

describe('under concurrency (PostgreSQL)', () => {
  it('200 concurrent orders for a drug with 20 in stock sell exactly 20', async () => {
    if (!PG) return
    const drug = await newDrug(20)
    const callers = await Promise.all(Array.from({ length: 4 }, () => signInUser(t.app)))
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call('POST', `${R}/order/place`, { caller: callers[i % 4]!, body: shopBody({ lines: [{ drugId: drug.id, quantity: 1 }] }) })))
    assert.equal(answers.filter((a) => a.code === 200).length, 20)
    assert.ok(answers.filter((a) => a.code !== 200).every((a) => a.code === 400 && a.msg === `${drug.name}库存不足`))
    assert.equal(await stockOf(drug.id), 0)
  })

  it('50 copies of one payment notification pay the order once', async () => {
    if (!PG) return
    const order = await place(owner)
    const payOrder = ok(await call<PayOrder>('POST', `${R}/order/unifiedOrder/${order.id}`, { caller: owner }))
    ok(await call('POST', '/dld-pay/pay', { caller: owner, body: { orderNo: payOrder.orderNo, returnUrl: RETURN_URL } }))
    const body = paidBody(payOrder)
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.app.inject({ method: 'POST', url: '/dld-pay/notify/sandbox', headers: sandbox.signNotification(body), payload: body })))
    assert.ok(answers.every((a) => a.statusCode === 200))
    const paid = await detail(owner, order.id)
    assert.equal(paid.status, 'paid')
    assert.equal(paid.steps.filter((s) => s.status === 'paid').length, 1)
  })

  it('a cancel racing the expiry close gives the stock back exactly once', async () => {
    if (!PG) return
    for (let round = 0; round < 5; round++) {
      const drug = await newDrug(6)
      const order = await place(owner, { lines: [{ drugId: drug.id, quantity: 6 }] })
      await db()
        .update(orders)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.orderNo, order.payOrder!.orderNo))
      await Promise.all([call('POST', `${R}/order/cancel/${order.id}`, { caller: owner }), closeExpiredOrders(db())])
      const ended = await detail(owner, order.id)
      assert.ok(ended.status === 'cancelled' || ended.status === 'closed', ended.status)
      assert.equal(await stockOf(drug.id), 6)
      const steps = await db().select().from(pharmacyOrderEvents).where(eq(pharmacyOrderEvents.pharmacyOrderId, order.id))
      assert.equal(steps.length, 2)
    }
  })
})
