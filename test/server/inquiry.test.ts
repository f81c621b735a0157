import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, eq, isNotNull } from 'drizzle-orm'
import { consultations, departments, doctors, files, hospitals, identities, inquiries, onlineDoctorServices, onlineDoctors, orders, patients } from '../../server/src/db/schema'
import { acceptInquiry, checkInquiry } from '../../server/src/domain/inquiry'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { Inquiry } from '../../types/api/inquiry'
import type { Page } from '../../types/api/hospital'
import { assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type TestApp, assertBadInput, assertForbidden } from './harness'

const H = '/dld-hospital'
const ADD = `${H}/inquiry/addInquiryInfo`
const PAY = `${H}/im/trade/service/im/init/continuePay`
const LIST = `${H}/inquiry/order/list`
const DETAIL = `${H}/inquiry/order/detail`
const CANCEL = `${H}/im/trade/service/im/cancel`
const CHECK = `${H}/im/trade/service/im/check`
const CLOSE = `${H}/im/trade/service/im/user/close`
const COMPLAINT = `${H}/im/trade/complaint`
const RECORDS = `${H}/im/patient/record/list`
const RETURN_URL = '/h5/pages/order/inquiry/detail'
const INCOMPLETE = '当前就诊人信息不完整，请先完善就诊人信息。'
const HOUR = 3600_000

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay
/** Doctors made up for this file at 10392: 图文问诊 at ¥20, free (义诊), and one not accepting consultations. */
const doc = { paid: 0, free: 0, offline: 0 }
let patientId = 0
let incompletePatientId = 0
let strangerPatientId = 0
let picture = ''
let strangersPicture = ''

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

let serial = 0
const newKey = () => `k${Date.now().toString(36)}${(serial++).toString(36)}${randomBytes(3).toString('hex')}`

async function addPatient(userId: number, complete = true) {
  const cipher = t.app.ctx.cipher
  serial += 1
  const idCard = idCardFor('19900307', String(100 + (serial % 900)))
  const [row] = await db()
    .insert(patients)
    .values({
      userId,
      nameEnc: cipher.encrypt('王建国'),
      idCardEnc: cipher.encrypt(idCard),
      personIndex: cipher.blindIndex(`${idCard}:inquiry:${serial}`),
      mobileEnc: complete ? cipher.encrypt('13600001111') : null,
      sex: 1,
      birthday: '1990-03-07',
      relation: '其他',
      source: 'idCard',
    })
    .returning({ id: patients.id })
  return row!.id
}

async function addOnlineDoctor(hospitalId: number, deptId: number, name: string, priceFen: number, online: boolean) {
  const [d] = await db().insert(doctors).values({ hospitalId, deptId, name, title: '主治医师' }).returning({ id: doctors.id })
  await db().insert(onlineDoctors).values({ doctorId: d!.id, hospitalId, level: 4, online })
  await db().insert(onlineDoctorServices).values({ doctorId: d!.id, type: 'text', priceFen })
  return d!.id
}

/** A picture as POST /dld-file/files-upload stores it (the upload has its own tests). */
async function uploadedPicture(userId: number) {
  const [identity] = await db().select({ id: identities.id }).from(identities).where(eq(identities.userId, userId)).limit(1)
  const name = `${randomBytes(16).toString('base64url')}.png`
  await db().insert(files).values({ identityId: identity!.id, storedName: name, originalName: 'a.png', mime: 'image/png', size: 10 })
  return `/dld-file/files/${name}`
}

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  const [h] = await db().select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, '10392'))
  const [dept] = await db()
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.hospitalId, h!.id), isNotNull(departments.parentId)))
    .limit(1)
  doc.paid = await addOnlineDoctor(h!.id, dept!.id, '问诊测试甲', 2000, true)
  doc.free = await addOnlineDoctor(h!.id, dept!.id, '问诊测试乙', 0, true)
  doc.offline = await addOnlineDoctor(h!.id, dept!.id, '问诊测试丙', 1000, false)
  patientId = await addPatient(owner.userId)
  incompletePatientId = await addPatient(owner.userId, false)
  strangerPatientId = await addPatient(stranger.userId)
  picture = await uploadedPicture(owner.userId)
  strangersPicture = await uploadedPicture(stranger.userId)
})
after(() => t.close())



const body = (over: Record<string, unknown> = {}) => ({ doctorId: doc.paid, patientId, description: '咳嗽三天，夜间加重', idempotencyKey: newKey(), ...over })

async function order(caller: Caller = owner, over: Record<string, unknown> = {}) {
  const env = await call<Inquiry>('POST', ADD, { caller, body: body(over) })
  assert.equal(env.code, 200, env.msg)
  return env.data
}
const detail = (id: number, caller: Caller = owner) => call<Inquiry>('GET', DETAIL, { caller, query: { id: String(id) } })
const q = (id: number) => ({ id: String(id) })

/** Pays an unpaid inquiry the way a patient does: continuePay, the sandbox cashier, then check. */
async function pay(id: number) {
  const action = await call<{ kind: string; url: string }>('POST', PAY, { caller: owner, body: { id, returnUrl: RETURN_URL } })
  assert.equal(action.code, 200, action.msg)
  assert.equal(action.data.kind, 'redirect')
  const params = new URL(action.data.url, 'http://localhost').searchParams
  const cashier = await t.app.inject({
    method: 'POST',
    url: '/sandbox/pay/cashier',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ orderNo: params.get('orderNo')!, returnUrl: params.get('returnUrl')!, sign: params.get('sign')!, action: 'confirm' }).toString(),
  })
  assert.equal(cashier.statusCode, 303)
  const checked = await call<Inquiry>('GET', CHECK, { caller: owner, query: q(id) })
  assert.equal(checked.code, 200, checked.msg)
  await sandbox.settled()
  return (await detail(id)).data
}

const consultationOf = async (inquiryNo: string) => (await db().select().from(consultations).where(eq(consultations.orderNo, inquiryNo)))[0]

describe('POST /dld-hospital/inquiry/addInquiryInfo', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', ADD, { body: body() })
  })

  it('refuses an empty or over-long illness, pictures not uploaded by the caller, and more than 9 pictures', async () => {
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ description: '   ' }) }), /请描述您的病情/)
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ description: '咳'.repeat(501) }) }), /病情描述不能超过500个字/)
    const notStored = `/dld-file/files/${randomBytes(16).toString('base64url')}.png`
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ pictures: [notStored] }) }), '图片请先上传')
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ pictures: ['https://example.invalid/a.png'] }) }), '图片请先上传')
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ pictures: [strangersPicture] }) }), '图片请先上传')
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ pictures: Array(10).fill(picture) }) }), /最多上传9张图片/)
    assert.equal((await db().select().from(inquiries).where(eq(inquiries.userId, owner.userId))).length, 0)
  })

  it('refuses a doctor not accepting consultations, an incomplete patient, and someone else’s patient (2999)', async () => {
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ doctorId: doc.offline }) }), '该医生暂不接诊，请选择其他医生')
    assertBadInput(await call('POST', ADD, { caller: owner, body: body({ patientId: incompletePatientId }) }), INCOMPLETE)
    assertForbidden(await call('POST', ADD, { caller: owner, body: body({ patientId: strangerPatientId }) }))
  })

  it('creates an unpaid inquiry with its payment order at the doctor’s price; the illness is stored encrypted', async () => {
    const inq = await order(owner, { pictures: [picture] })
    assert.equal(inq.status, 'unpaid')
    assert.equal(inq.statusText, '待支付')
    assert.equal(inq.priceFen, 2000)
    assert.equal(inq.description, '咳嗽三天，夜间加重')
    assert.deepEqual(inq.pictures, [picture])
    assert.equal(inq.doctor.id, doc.paid)
    assert.equal(inq.doctor.doctorName, '问诊测试甲')
    assert.equal(inq.doctor.imAccount, `d_${doc.paid}`)
    assert.equal(inq.patientName, '王*国')
    assert.equal(inq.serviceEndsAt, null)
    assert.equal(inq.cancellable, true)
    assert.equal(inq.order?.business, 'inquiry')
    assert.equal(inq.order?.amountFen, 2000)
    assert.equal(inq.order?.status, 'created')
    const [row] = await db().select().from(inquiries).where(eq(inquiries.id, inq.id))
    assert.ok(!row!.descriptionEnc.includes('咳嗽'))
    // not in "my consultations" until paid
    assert.equal(await consultationOf(inq.inquiryNo), undefined)
  })

  it('answers the same inquiry for the same idempotency key: one inquiry, one order', async () => {
    const key = newKey()
    const first = await order(owner, { idempotencyKey: key })
    const second = await order(owner, { idempotencyKey: key })
    assert.equal(second.id, first.id)
    assert.equal(second.order?.orderNo, first.order?.orderNo)
    assert.equal((await db().select().from(inquiries).where(and(eq(inquiries.userId, owner.userId), eq(inquiries.idempotencyKey, key)))).length, 1)
    assert.equal((await db().select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, `inquiry:${key}`)))).length, 1)
    // the key used for another doctor is refused
    const other = await call('POST', ADD, { caller: owner, body: body({ idempotencyKey: key, doctorId: doc.free }) })
    assert.equal(other.code, 409)
  })

  it('makes one inquiry and one order when the same key arrives many times at once', async () => {
    const key = newKey()
    const answers = await Promise.all(Array.from({ length: 8 }, () => call<Inquiry>('POST', ADD, { caller: owner, body: body({ idempotencyKey: key }) })))
    for (const a of answers) assert.equal(a.code, 200, a.msg)
    assert.equal(new Set(answers.map((a) => a.data.id)).size, 1)
    assert.equal((await db().select().from(inquiries).where(and(eq(inquiries.userId, owner.userId), eq(inquiries.idempotencyKey, key)))).length, 1)
    assert.equal((await db().select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, `inquiry:${key}`)))).length, 1)
  })

  it('makes a free consultation waiting at once, with no order, in "my consultations"', async () => {
    const inq = await order(owner, { doctorId: doc.free })
    assert.equal(inq.status, 'waiting')
    assert.equal(inq.order, null)
    assert.ok(inq.paidAt && inq.serviceEndsAt)
    assert.equal(new Date(inq.serviceEndsAt).getTime() - new Date(inq.paidAt).getTime(), 48 * HOUR)
    const records = await call<{ orderNo: string; status: string; doctorName: string }[]>('GET', RECORDS, { caller: owner })
    const mine = records.data.find((r) => r.orderNo === inq.inquiryNo)
    assert.equal(mine?.status, '待接诊')
    assert.equal(mine?.doctorName, '问诊测试乙')
  })
})

describe('POST /dld-hospital/im/trade/service/im/init/continuePay', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', PAY, { body: { id: 1, returnUrl: RETURN_URL } })
  })

  it('answers 2999 for someone else’s inquiry, by id or by order number, and refuses a foreign return url', async () => {
    const inq = await order()
    assertForbidden(await call('POST', PAY, { caller: stranger, body: { id: inq.id, returnUrl: RETURN_URL } }))
    assertForbidden(await call('POST', PAY, { caller: stranger, body: { orderNo: inq.order!.orderNo, returnUrl: RETURN_URL } }))
    assertBadInput(await call('POST', PAY, { caller: owner, body: { id: inq.id, returnUrl: 'https://example.invalid/' } }), '返回页面不正确')
  })

  it('pays through the sandbox cashier: waiting, in "my consultations", and paying again is refused', async () => {
    const inq = await order()
    const byOrderNo = await call<{ kind: string }>('POST', PAY, { caller: owner, body: { orderNo: inq.order!.orderNo, returnUrl: RETURN_URL } })
    assert.equal(byOrderNo.code, 200, byOrderNo.msg)
    const paid = await pay(inq.id)
    assert.equal(paid.status, 'waiting')
    assert.equal(paid.statusText, '待接诊')
    assert.equal(paid.order?.status, 'paid')
    assert.ok(paid.paidAt && paid.serviceEndsAt)
    assert.equal(new Date(paid.serviceEndsAt).getTime() - new Date(paid.paidAt).getTime(), 48 * HOUR)
    const records = await call<{ orderNo: string; status: string; doctorName: string; deptName: string }[]>('GET', RECORDS, { caller: owner })
    assert.equal(records.code, 200, records.msg)
    const mine = records.data.find((r) => r.orderNo === inq.inquiryNo)
    assert.equal(mine?.status, '待接诊')
    assert.equal(mine?.doctorName, '问诊测试甲')
    assert.ok(mine?.deptName)
    assertBadInput(await call('POST', PAY, { caller: owner, body: { id: inq.id, returnUrl: RETURN_URL } }), '该问诊已支付')
  })
})

describe('GET /dld-hospital/inquiry/order/list', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', LIST)
  })

  it('answers the caller’s own inquiries, newest first, a page at a time', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(caller.userId)
    const a = await order(caller, { patientId: pid })
    const b = await order(caller, { patientId: pid })
    const page = await call<Page<Inquiry>>('GET', LIST, { caller, query: { page: '1', size: '1' } })
    assert.equal(page.code, 200, page.msg)
    assert.equal(page.data.total, 2)
    assert.deepEqual(page.data.records.map((r) => r.id), [b.id])
    assert.equal(page.data.records[0]!.order?.orderNo, b.order?.orderNo)
    const second = await call<Page<Inquiry>>('GET', LIST, { caller, query: { page: '2', size: '1' } })
    assert.deepEqual(second.data.records.map((r) => r.id), [a.id])
    const theirs = await call<Page<Inquiry>>('GET', LIST, { caller: stranger })
    assert.ok(!theirs.data.records.some((r) => r.id === a.id || r.id === b.id))
  })
})

describe('GET /dld-hospital/inquiry/order/detail', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', DETAIL, { query: q(1) })
  })

  it('answers 2999 for someone else’s inquiry and one that does not exist', async () => {
    const inq = await order()
    assertForbidden(await detail(inq.id, stranger))
    assertForbidden(await detail(999999))
  })

  it('answers the caller’s inquiry with its order and doctor', async () => {
    const inq = await order()
    const env = await detail(inq.id)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.inquiryNo, inq.inquiryNo)
    assert.equal(env.data.serviceName, '图文问诊')
    assert.equal(env.data.doctor.doctorName, '问诊测试甲')
    assert.equal(env.data.order?.orderNo, inq.order?.orderNo)
  })
})

describe('GET /dld-hospital/im/trade/service/im/cancel', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', CANCEL, { query: q(1) })
  })

  it('answers 2999 for someone else’s inquiry', async () => {
    const inq = await order()
    assertForbidden(await call('GET', CANCEL, { caller: stranger, query: q(inq.id) }))
    assert.equal((await detail(inq.id)).data.status, 'unpaid')
  })

  it('cancels an unpaid inquiry and its order', async () => {
    const inq = await order()
    const env = await call<Inquiry>('GET', CANCEL, { caller: owner, query: q(inq.id) })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'cancelled')
    assert.equal(env.data.statusText, '已取消')
    assert.equal(env.data.order?.status, 'cancelled')
    assertBadInput(await call('POST', PAY, { caller: owner, body: { id: inq.id, returnUrl: RETURN_URL } }), '该问诊已取消')
  })

  it('cancels a paid inquiry no doctor has accepted, and refunds it', async () => {
    const inq = await order()
    await pay(inq.id)
    const env = await call<Inquiry>('GET', CANCEL, { caller: owner, query: q(inq.id) })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'cancelled')
    await sandbox.settled()
    const after = (await detail(inq.id)).data
    assert.equal(after.status, 'cancelled')
    assert.equal(after.order?.status, 'refunded')
    assert.equal(after.order?.refundedFen, 2000)
    assert.equal(after.statusText, '已退款')
    assert.equal((await consultationOf(inq.inquiryNo))?.status, '已退款')
    // cancelling again answers it as it is
    assert.equal((await call<Inquiry>('GET', CANCEL, { caller: owner, query: q(inq.id) })).data.status, 'cancelled')
  })

  it('refuses once the doctor has accepted', async () => {
    const inq = await order()
    await pay(inq.id)
    assert.equal(await acceptInquiry(db(), doc.paid, inq.id, new Date()), true)
    assertBadInput(await call('GET', CANCEL, { caller: owner, query: q(inq.id) }), '医生已接诊，无法取消问诊')
    assert.equal((await detail(inq.id)).data.status, 'inProgress')
  })
})

describe('GET /dld-hospital/im/trade/service/im/check', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', CHECK, { query: q(1) })
  })

  it('answers 2999 for someone else’s inquiry', async () => {
    const inq = await order()
    assertForbidden(await call('GET', CHECK, { caller: stranger, query: q(inq.id) }))
  })

  it('answers the inquiry as it stands', async () => {
    const inq = await order()
    const env = await call<Inquiry>('GET', CHECK, { caller: owner, query: q(inq.id) })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'unpaid')
  })

  it('closes an unpaid inquiry whose payment ran out', async () => {
    const inq = await order()
    const later = new Date(Date.now() + 31 * 60_000)
    const checked = await checkInquiry(db(), t.app.ctx.cipher, t.app.ctx.providers, owner.userId, inq.id, later)
    assert.equal(checked.status, 'closed')
    assert.equal(checked.order?.status, 'closed')
  })

  it('closes and refunds a paid inquiry never accepted once its window (48 h) ran out', async () => {
    const inq = await order()
    const paid = await pay(inq.id)
    const cipher = t.app.ctx.cipher
    const before = await checkInquiry(db(), cipher, t.app.ctx.providers, owner.userId, inq.id, new Date(new Date(paid.serviceEndsAt!).getTime() - 60_000))
    assert.equal(before.status, 'waiting')
    const checked = await checkInquiry(db(), cipher, t.app.ctx.providers, owner.userId, inq.id, new Date(new Date(paid.serviceEndsAt!).getTime() + 1))
    assert.equal(checked.status, 'closed')
    await sandbox.settled()
    const after = (await detail(inq.id)).data
    assert.equal(after.status, 'closed')
    assert.equal(after.order?.status, 'refunded')
    assert.equal(after.statusText, '已退款')
  })

  it('closes an accepted inquiry 24 h after acceptance, without a refund', async () => {
    const inq = await order()
    await pay(inq.id)
    const acceptedAt = new Date()
    await acceptInquiry(db(), doc.paid, inq.id, acceptedAt)
    const checked = await checkInquiry(db(), t.app.ctx.cipher, t.app.ctx.providers, owner.userId, inq.id, new Date(acceptedAt.getTime() + 24 * HOUR + 1))
    assert.equal(checked.status, 'closed')
    assert.equal(checked.order?.status, 'paid')
    assert.equal(checked.statusText, '已关闭')
  })
})

describe('GET /dld-hospital/im/trade/service/im/user/close', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'GET', CLOSE, { query: q(1) })
  })

  it('answers 2999 for someone else’s inquiry', async () => {
    const inq = await order()
    assertForbidden(await call('GET', CLOSE, { caller: stranger, query: q(inq.id) }))
  })

  it('refuses an inquiry not in progress, and ends one in progress', async () => {
    const inq = await order(owner, { doctorId: doc.free })
    assertBadInput(await call('GET', CLOSE, { caller: owner, query: q(inq.id) }), '问诊未在进行中，无法结束')
    await acceptInquiry(db(), doc.free, inq.id, new Date())
    assert.equal((await consultationOf(inq.inquiryNo))?.status, '问诊中')
    const env = await call<Inquiry>('GET', CLOSE, { caller: owner, query: q(inq.id) })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'finished')
    assert.ok(env.data.finishedAt)
    assert.equal((await consultationOf(inq.inquiryNo))?.status, '已结束')
  })
})

describe('POST /dld-hospital/im/trade/complaint', () => {
  it('needs a signed-in user with a bound mobile', async () => {
    await assertUnauthorisedCall(t.app, 'POST', COMPLAINT, { body: { id: 1, content: '医生回复太慢' } })
  })

  it('answers 2999 for someone else’s inquiry', async () => {
    const inq = await order(owner, { doctorId: doc.free })
    assertForbidden(await call('POST', COMPLAINT, { caller: stranger, body: { id: inq.id, content: '医生回复太慢' } }))
  })

  it('refuses an unpaid inquiry and empty or over-long content', async () => {
    const inq = await order()
    assertBadInput(await call('POST', COMPLAINT, { caller: owner, body: { id: inq.id, content: '医生回复太慢' } }), '未支付的问诊无法投诉')
    assertBadInput(await call('POST', COMPLAINT, { caller: owner, body: { id: inq.id, content: ' ' } }), /请填写投诉内容/)
    assertBadInput(await call('POST', COMPLAINT, { caller: owner, body: { id: inq.id, content: '慢'.repeat(501) } }), /投诉内容不能超过500个字/)
  })

  it('takes one complaint about a paid inquiry', async () => {
    const inq = await order()
    await pay(inq.id)
    const env = await call<Inquiry>('POST', COMPLAINT, { caller: owner, body: { id: inq.id, content: '医生回复太慢' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.complaint?.content, '医生回复太慢')
    assertBadInput(await call('POST', COMPLAINT, { caller: owner, body: { id: inq.id, content: '再投诉一次' } }), '该问诊已投诉，请勿重复提交')
    assert.equal((await detail(inq.id)).data.complaint?.content, '医生回复太慢')
  })
})

describe('my consultations follow the chat with the doctor', () => {
  const LIST_URL = RECORDS
  const UNREAD = '/dld-im/im/update-unread-count'
  type Item = { orderNo: string; inquiryId?: number; conversationID?: string; unreadCount: number; lastMessage: string; status: string }

  it('shows the doctor’s conversation, its unread count and last message on the newest consultation with that doctor', async () => {
    const caller = await signInUser(t.app)
    const pid = await addPatient(caller.userId)
    const first = await order(caller, { doctorId: doc.free, patientId: pid })
    const second = await order(caller, { doctorId: doc.free, patientId: pid, description: '复诊：咳嗽好转' })
    const doctorAccount = `d_${doc.free}`
    const before = await call<Item[]>('GET', LIST_URL, { caller })
    assert.deepEqual(
      before.data.map((c) => [c.orderNo, c.inquiryId, c.conversationID, c.unreadCount]),
      [
        [second.inquiryNo, second.id, `C2C${doctorAccount}`, 0],
        [first.inquiryNo, first.id, `C2C${doctorAccount}`, 0],
      ],
    )

    const { sendMessage, markRead } = await import('../../server/src/domain/chat')
    const { patientImAccount } = await import('../../src/utils/chatRules')
    const patient = patientImAccount(caller.userId)
    for (const [i, text] of ['您好，我是医生', '请问发烧吗？'].entries()) {
      await sendMessage(db(), t.app.ctx.cipher, doctorAccount, { clientId: `conv-${caller.userId}-${i}-x`, to: patient, type: 'text', payload: text, orderNo: second.inquiryNo })
    }
    const after = await call<Item[]>('GET', LIST_URL, { caller })
    assert.deepEqual(
      after.data.map((c) => [c.orderNo, c.unreadCount]),
      [
        [second.inquiryNo, 2],
        [first.inquiryNo, 0],
      ],
    )
    assert.equal(after.data[0]!.lastMessage, '请问发烧吗？')
    assert.equal((await call<{ unreadCount: number }>('GET', UNREAD, { caller })).data.unreadCount, 2)

    await markRead(db(), patient, doctorAccount)
    assert.equal((await call<Item[]>('GET', LIST_URL, { caller })).data[0]!.unreadCount, 0)
    assert.equal((await call<{ unreadCount: number }>('GET', UNREAD, { caller })).data.unreadCount, 0)
    // someone else sees none of it
    assert.deepEqual((await call<Item[]>('GET', LIST_URL, { caller: stranger })).data.filter((c) => c.conversationID === `C2C${doctorAccount}` && c.orderNo === second.inquiryNo), [])
  })
})
