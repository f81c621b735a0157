import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq } from 'drizzle-orm'
import { gifts, orders } from '../../server/src/db/schema'
import { closeExpiredOrders } from '../../server/src/domain/payment'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { GiftItem, GiftPayment, ReceivedGift } from '../../types/api/evaluation'
import type { Page } from '../../types/api/hospital'
import type { Inquiry } from '../../types/api/inquiry'
import type { UserMessagePage } from '../../types/api/message'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, confirmAtCashier, firstSubDepartment, hospitalIdOf, newKey } from './fixtures'

const H = '/dld-hospital'
const GIFTS = `${H}/im/gift/gifts`
const TO_PAY = `${H}/im/gift/toPay`
const DOCTOR_GIFTS = `${H}/im/gift/doctor/gifts`
const ADD = `${H}/inquiry/addInquiryInfo`
const MESSAGES = `${H}/message/messageList`
const RETURN_URL = '/h5/internet/doctor/index'

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
let doctorId = 0
let otherDoctorId = 0
let patientId = 0
let strangerPatientId = 0

/** The patient this file makes up (others take another name). */
const PATIENT = { name: '李秀英', sex: 2, birthday: '1985-06-12', mobile: '13600002222', salt: 'gift' } as const

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  const hospitalId = await hospitalIdOf(t, '10392')
  const deptId = await firstSubDepartment(t, hospitalId)
  doctorId = await addOnlineDoctor(t, { hospitalId, deptId, name: '心意测试甲', priceFen: 0, title: '副主任医师', level: 4.5 })
  otherDoctorId = await addOnlineDoctor(t, { hospitalId, deptId, name: '心意测试乙', priceFen: 0, title: '副主任医师', level: 4.5 })
  patientId = await addPatient(t, owner.userId, PATIENT)
  strangerPatientId = await addPatient(t, stranger.userId, PATIENT)
})
after(() => t.close())

const body = (over: Record<string, unknown> = {}) => ({ doctorId, giftCode: 'tea', message: '感谢医生耐心解答', idempotencyKey: newKey('g'), returnUrl: RETURN_URL, ...over })

/** A free consultation (waiting at once) of `caller`'s patient with the doctor. */
async function inquiryWith(caller: Caller, pid: number, doctor = doctorId) {
  const env = await call<Inquiry>('POST', ADD, { caller, body: { doctorId: doctor, patientId: pid, description: '头痛两天', idempotencyKey: newKey('g') } })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

async function sendGift(caller: Caller = owner, over: Record<string, unknown> = {}) {
  const env = await call<GiftPayment>('POST', TO_PAY, { caller, body: body(over) })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

/** Pays through the sandbox cashier as a patient does, then asks the payment core about the order. */
async function payAtCashier(payment: GiftPayment) {
  assert.equal(payment.pay?.kind, 'redirect')
  assert.equal((await confirmAtCashier(t, (payment.pay as { url: string }).url)).statusCode, 303)
  await sandbox.settled()
  const order = await call<{ status: string }>('GET', `/dld-pay/order/${payment.gift.orderNo}`, { caller: owner })
  assert.equal(order.data.status, 'paid')
}

const giftsOf = (userId: number) => db().select().from(gifts).where(eq(gifts.userId, userId))
const doctorGifts = (doctor: number, caller: Caller = owner, page = 1, size = 10) =>
  call<Page<ReceivedGift>>('POST', DOCTOR_GIFTS, { caller, body: { doctorId: doctor, page, size } })

describe('POST /dld-hospital/im/gift/gifts', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', GIFTS)
  })

  it('answers the catalogue with prices in fen', async () => {
    const env = await call<GiftItem[]>('POST', GIFTS, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      env.data.map((g) => [g.name, g.priceFen]),
      [
        ['鲜花', 100],
        ['暖心茶', 660],
        ['感谢信', 990],
        ['锦旗', 6600],
      ],
    )
  })
})

describe('POST /dld-hospital/im/gift/toPay', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', TO_PAY, { body: body() })
  })

  it('refuses an unknown gift, an over-long message, a foreign return page and a bad key, creating nothing', async () => {
    const caller = await signInUser(t.app)
    assertBadInput(await call('POST', TO_PAY, { caller, body: body({ giftCode: 'diamond' }) }), '请选择要送出的心意')
    assertBadInput(await call('POST', TO_PAY, { caller, body: body({ message: '谢'.repeat(51) }) }), /留言不能超过50个字/)
    assertBadInput(await call('POST', TO_PAY, { caller, body: body({ returnUrl: 'https://example.invalid/' }) }), '返回页面不正确')
    assertBadInput(await call('POST', TO_PAY, { caller, body: body({ idempotencyKey: 'short' }) }), /请求编号/)
    assertBadInput(await call('POST', TO_PAY, { caller, body: body({ doctorId: 'abc' }) }))
    assert.equal((await giftsOf(caller.userId)).length, 0)
    assert.equal((await db().select().from(orders).where(eq(orders.userId, caller.userId))).length, 0)
  })

  it('answers 2999 for someone else’s consultation and refuses one with another doctor, creating nothing', async () => {
    const theirs = await inquiryWith(stranger, strangerPatientId)
    assertForbidden(await call('POST', TO_PAY, { caller: owner, body: body({ inquiryId: theirs.id }) }))
    assertForbidden(await call('POST', TO_PAY, { caller: owner, body: body({ inquiryId: 999999 }) }))
    const mine = await inquiryWith(owner, patientId, otherDoctorId)
    assertBadInput(await call('POST', TO_PAY, { caller: owner, body: body({ inquiryId: mine.id }) }), '该问诊不是与这位医生的问诊')
    assert.equal((await giftsOf(owner.userId)).filter((g) => g.inquiryId !== null).length, 0)
  })

  it('creates the gift unpaid with its payment order at the catalogue’s price, and answers how to pay it', async () => {
    const inq = await inquiryWith(owner, patientId)
    const sent = await sendGift(owner, { inquiryId: inq.id })
    assert.equal(sent.gift.status, 'unpaid')
    assert.equal(sent.gift.giftName, '暖心茶')
    assert.equal(sent.gift.priceFen, 660)
    assert.equal(sent.gift.doctorName, '心意测试甲')
    assert.equal(sent.gift.inquiryId, inq.id)
    assert.equal(sent.gift.message, '感谢医生耐心解答')
    assert.equal(sent.pay?.kind, 'redirect')
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, sent.gift.orderNo!))
    assert.equal(order?.business, 'gift')
    assert.equal(order?.amountFen, 660)
    assert.equal(order?.businessId, sent.gift.id)
  })

  it('answers the same gift for the same key, and refuses the key for another gift', async () => {
    const key = newKey('g')
    const first = await sendGift(owner, { idempotencyKey: key })
    const again = await sendGift(owner, { idempotencyKey: key })
    assert.equal(again.gift.id, first.gift.id)
    assert.equal(again.gift.orderNo, first.gift.orderNo)
    assert.equal((await db().select().from(gifts).where(and(eq(gifts.userId, owner.userId), eq(gifts.idempotencyKey, key)))).length, 1)
    assert.equal((await db().select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, `gift:${key}`)))).length, 1)
    const other = await call('POST', TO_PAY, { caller: owner, body: body({ idempotencyKey: key, giftCode: 'banner' }) })
    assert.equal(other.code, 409)
  })

  it('makes one gift and one order when the same key arrives many times at once', async () => {
    const key = newKey('g')
    const answers = await Promise.all(Array.from({ length: 8 }, () => call<GiftPayment>('POST', TO_PAY, { caller: owner, body: body({ idempotencyKey: key }) })))
    for (const a of answers) assert.equal(a.code, 200, a.msg)
    assert.equal(new Set(answers.map((a) => a.data.gift.id)).size, 1)
    assert.equal((await db().select().from(gifts).where(and(eq(gifts.userId, owner.userId), eq(gifts.idempotencyKey, key)))).length, 1)
    assert.equal((await db().select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, `gift:${key}`)))).length, 1)
  })

  it('is paid through the sandbox: paid, a notice in the message centre, on the doctor’s page; the same key no longer pays', async () => {
    const key = newKey('g')
    const sent = await sendGift(owner, { idempotencyKey: key, giftCode: 'flower', message: '祝医生身体健康' })
    await payAtCashier(sent)
    const again = await sendGift(owner, { idempotencyKey: key, giftCode: 'flower', message: '祝医生身体健康' })
    assert.equal(again.gift.id, sent.gift.id)
    assert.equal(again.gift.status, 'paid')
    assert.ok(again.gift.paidAt)
    assert.equal(again.pay, null)
    const messages = await call<UserMessagePage>('GET', MESSAGES, { caller: owner })
    const notice = messages.data.records.find((m) => m.title === '心意已送达')
    assert.ok(notice, JSON.stringify(messages.data.records))
    assert.equal(notice.content, '您送给心意测试甲医生的鲜花（¥1.00）已支付成功，感谢您的心意')
    assert.equal(notice.read, false)
    assert.equal(notice.link, `/internet/doctor/index?id=${doctorId}`)
    const received = await doctorGifts(doctorId)
    assert.ok(received.data.records.some((g) => g.id === sent.gift.id && g.giftName === '鲜花' && g.message === '祝医生身体健康'))
    // the stranger's message centre knows nothing of it
    const theirs = await call<UserMessagePage>('GET', MESSAGES, { caller: stranger })
    assert.ok(!theirs.data.records.some((m) => m.title === '心意已送达'))
  })

  it('closes the gift when its payment runs out', async () => {
    const sent = await sendGift()
    assert.ok((await closeExpiredOrders(db(), new Date(Date.now() + 31 * 60_000))) >= 1)
    const [closed] = await db().select().from(gifts).where(eq(gifts.id, sent.gift.id))
    assert.equal(closed?.status, 'closed')
  })
})

describe('POST /dld-hospital/im/gift/doctor/gifts', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', DOCTOR_GIFTS, { body: { doctorId, page: 1, size: 10 } })
  })

  it('refuses a bad doctor id or page, and answers 404 for a doctor who does not consult online', async () => {
    assertBadInput(await call('POST', DOCTOR_GIFTS, { caller: owner, body: { doctorId: 'x' } }))
    assertBadInput(await call('POST', DOCTOR_GIFTS, { caller: owner, body: { doctorId, page: 0 } }))
    const missing = await doctorGifts(999999)
    assert.equal(missing.code, 404)
    assert.equal(missing.data, null)
  })

  it('lists only paid gifts, the latest first, with the sender’s name masked; anyone signed in may read it', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(t, caller.userId, { ...PATIENT, name: '赵丽华' })
    const inq = await inquiryWith(caller, pid, otherDoctorId)
    const payAs = async (over: Record<string, unknown>) => {
      const env = await call<GiftPayment>('POST', TO_PAY, { caller, body: body({ doctorId: otherDoctorId, ...over }) })
      assert.equal(env.code, 200, env.msg)
      await confirmAtCashier(t, (env.data.pay as { url: string }).url)
      await sandbox.settled()
      await call('GET', `/dld-pay/order/${env.data.gift.orderNo}`, { caller })
      return env.data.gift
    }
    const first = await payAs({ inquiryId: inq.id, giftCode: 'letter', message: '妙手回春' })
    const second = await payAs({ giftCode: 'banner', message: '医德高尚' })
    const unpaid = await call<GiftPayment>('POST', TO_PAY, { caller, body: body({ doctorId: otherDoctorId, giftCode: 'flower' }) })
    const page = await doctorGifts(otherDoctorId, stranger)
    assert.equal(page.code, 200, page.msg)
    assert.deepEqual(
      page.data.records.map((g) => g.id),
      [second.id, first.id],
    )
    assert.ok(!page.data.records.some((g) => g.id === unpaid.data.gift.id))
    assert.equal(page.data.total, 2)
    // named by the consultation's patient, masked (spec §9)
    assert.equal(page.data.records[1]!.senderName, '赵*华')
    assert.equal(page.data.records[1]!.giftName, '感谢信')
    assert.ok(!JSON.stringify(page.data).includes('赵丽华'))
    const paged = await doctorGifts(otherDoctorId, owner, 2, 1)
    assert.deepEqual(
      paged.data.records.map((g) => g.id),
      [first.id],
    )
  })
})
