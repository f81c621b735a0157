import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { and, eq, isNotNull } from 'drizzle-orm'
import { departments, doctors, files, hospitals, identities, onlineDoctorServices, onlineDoctors, patients } from '../../server/src/db/schema'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { callApi, idCardFor, type TestApp } from './harness'

/**
 * Rows the server tests make up for themselves, written directly (each call has its own tests elsewhere), and the
 * steps of paying in the sandbox cashier. One serial per test process numbers the idempotency keys and the made-up
 * identity numbers alike.
 */
let serial = 0

/** An idempotency key of its own; the prefix tells which file made it. */
export const newKey = (prefix: string) => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}${randomBytes(3).toString('hex')}`

/** A hospital's id by its code. */
export async function hospitalIdOf(t: TestApp, code: string) {
  const [h] = await t.database.db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, code))
  return h!.id
}

/** The hospital's first seeded department under a clinic group, where the made-up doctors work. */
export async function firstSubDepartment(t: TestApp, hospitalId: number) {
  const [dept] = await t.database.db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.hospitalId, hospitalId), isNotNull(departments.parentId)))
    .limit(1)
  return dept!.id
}

export interface PatientFixture {
  name: string
  sex: 1 | 2
  /** YYYY-MM-DD; the identity number is made up for it unless `idCard` is given. */
  birthday: string
  mobile: string
  /** Incomplete is without a mobile (consultations and registrations refuse it). */
  complete?: boolean
  relation?: string
  idCard?: string
  /** Salts the person index, so the same identity number may be added again; a made-up number's serial follows it. Without one, random bytes. */
  salt?: string
}

/** A patient of `userId`, written directly (binding has its own tests). Answers its id. */
export async function addPatient(t: TestApp, userId: number, p: PatientFixture) {
  const cipher = t.app.ctx.cipher
  let idCard = p.idCard
  let salt = p.salt ?? randomBytes(4).toString('hex')
  if (idCard === undefined) {
    serial += 1
    idCard = idCardFor(p.birthday.replace(/-/g, ''), String(100 + (serial % 900)))
    if (p.salt !== undefined) salt = `${p.salt}:${serial}`
  }
  const [row] = await t.database.db
    .insert(patients)
    .values({
      userId,
      nameEnc: cipher.encrypt(p.name),
      idCardEnc: cipher.encrypt(idCard),
      personIndex: cipher.blindIndex(`${idCard}:${salt}`),
      mobileEnc: p.complete === false ? null : cipher.encrypt(p.mobile),
      sex: p.sex,
      birthday: p.birthday,
      relation: p.relation ?? '本人',
      source: 'idCard',
    })
    .returning({ id: patients.id })
  return row!.id
}

export interface OnlineDoctorFixture {
  hospitalId: number
  deptId: number
  name: string
  /** The 图文问诊 price; 0 is free (义诊): the consultation waits for the doctor at once. */
  priceFen: number
  title?: string
  level?: number
  online?: boolean
  /** Without one, the table's default. */
  goodRate?: number
}

/** A doctor who consults online with a 图文问诊 service (主治医师, four stars, accepting consultations unless told). Answers the doctor's id. */
export async function addOnlineDoctor(t: TestApp, d: OnlineDoctorFixture) {
  const db = t.database.db
  const { hospitalId, deptId, name, priceFen } = d
  const [row] = await db
    .insert(doctors)
    .values({ hospitalId, deptId, name, title: d.title ?? '主治医师' })
    .returning({ id: doctors.id })
  await db
    .insert(onlineDoctors)
    .values({ doctorId: row!.id, hospitalId, level: d.level ?? 4, online: d.online ?? true, ...(d.goodRate === undefined ? {} : { goodRate: d.goodRate }) })
  await db.insert(onlineDoctorServices).values({ doctorId: row!.id, type: 'text', priceFen })
  return row!.id
}

/** A picture as POST /dld-file/files-upload stores it for the user (the upload has its own tests). Answers its address. */
export async function uploadedPicture(t: TestApp, userId: number) {
  const db = t.database.db
  const [identity] = await db.select({ id: identities.id }).from(identities).where(eq(identities.userId, userId)).limit(1)
  const name = `${randomBytes(16).toString('base64url')}.png`
  await db.insert(files).values({ identityId: identity!.id, storedName: name, originalName: 'a.png', mime: 'image/png', size: 10 })
  return `/dld-file/files/${name}`
}

/** Confirms the payment in the sandbox cashier as the patient's browser does, from the address a pay call answered. Answers the cashier's response (303 back to the return address). */
export function confirmAtCashier(t: TestApp, payUrl: string) {
  const params = new URL(payUrl, 'http://localhost').searchParams
  return t.app.inject({
    method: 'POST',
    url: '/sandbox/pay/cashier',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ orderNo: params.get('orderNo')!, returnUrl: params.get('returnUrl')!, sign: params.get('sign')!, action: 'confirm' }).toString(),
  })
}

/** Pays an unpaid consultation the way a patient does: continuePay, the sandbox cashier, then check; waits until it settles. */
export async function payInquiry(t: TestApp, caller: { headers: Record<string, string> }, id: number) {
  const action = await callApi<{ kind: string; url: string }>(t.app, 'POST', '/dld-hospital/im/trade/service/im/init/continuePay', {
    caller,
    body: { id, returnUrl: '/h5/pages/order/inquiry/detail' },
  })
  assert.equal(action.code, 200, action.msg)
  assert.equal((await confirmAtCashier(t, action.data.url)).statusCode, 303)
  assert.equal((await callApi(t.app, 'GET', '/dld-hospital/im/trade/service/im/check', { caller, query: { id: String(id) } })).code, 200)
  await (t.app.ctx.providers.pay.sandbox as SandboxPay).settled()
}

/** A sandbox notification of a payment as the sandbox sends it (sign it with SandboxPay.signNotification); fields may be overridden to forge bad ones. */
export function paidBody(order: { orderNo: string; amountFen: number; insuranceFen: number }, over: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: randomUUID(),
    event_type: 'TRANSACTION.SUCCESS',
    out_trade_no: order.orderNo,
    transaction_id: `SBXTEST${randomBytes(6).toString('hex')}`,
    trade_state: 'SUCCESS',
    success_time: new Date().toISOString(),
    amount: { total: order.amountFen - order.insuranceFen, currency: 'CNY' },
    ...over,
  })
}
