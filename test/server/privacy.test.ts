import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { addresses, auditLog, protocolConsents, chatMessages, chatRevocations, identities, inquiries, medicalRecords, patients, smsCodes, surveyAnswers, surveys, users } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import { insertMessage } from '../../server/src/domain/chat'
import { patientImAccount } from '../../src/utils/chatRules'
import type { Inquiry } from '../../types/api/inquiry'
import type { AccountClosure, AccountExport } from '../../types/api/account'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertUnauthorisedCall, callApi, envelopeOf, idCardFor, signInUser, startTestApp, unb64, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, firstSubDepartment, hospitalIdOf, newKey, uploadedPicture } from './fixtures'

const U = '/dld-user/user'
const H = '/dld-hospital'
const P = '/dld-doctor/api'

type Caller = { headers: Record<string, string> }
type User = Awaited<ReturnType<typeof signInUser>>

let t: TestApp
let doctor: Caller
let doctorId = 0

const db = () => t.database.db
const cipher = () => t.app.ctx.cipher
const call = <T = any>(method: 'GET' | 'POST' | 'PUT', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

/** One code per mobile per minute: moves the mobile's earlier codes back instead of waiting. */
async function letAMinutePass(user: User) {
  await db()
    .update(smsCodes)
    .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
    .where(eq(smsCodes.mobileIndex, cipher().blindIndex(user.mobile)))
}

async function accountCode(user: User, purpose: 'export' | 'close') {
  await letAMinutePass(user)
  const env = await call<{ sent: boolean; mobile: string; devCode: string }>('POST', `${U}/accountCode`, { caller: user, body: { purpose } })
  assert.equal(env.code, 200, env.msg)
  return env.data.devCode
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

/** A free consultation the doctor accepts; with a record and a message each way; finished unless told. */
async function consultation(user: User, patientId: number, opts: { finish?: boolean } = {}) {
  const env = await call<Inquiry>('POST', `${H}/inquiry/addInquiryInfo`, {
    caller: user,
    body: { doctorId, patientId, description: '反复头痛一周', idempotencyKey: newKey('pv') },
  })
  assert.equal(env.code, 200, env.msg)
  const id = env.data.id
  assert.equal((await call('POST', `${P}/inquiries/${id}/accept`, { caller: doctor })).code, 200)
  const record = { chiefComplaint: '头痛一周', presentIllness: '无诱因头痛', pastHistory: '', allergyHistory: '青霉素过敏', diagnosis: '紧张性头痛', advice: '规律作息', diseaseCodes: [] }
  assert.equal((await call('PUT', `${P}/inquiries/${id}/record`, { caller: doctor, body: record })).code, 200)
  await db().transaction(async (tx) => {
    await insertMessage(tx, cipher(), patientImAccount(user.userId), { to: `d_${doctorId}`, type: 'text', payload: '医生您好，我头痛', clientId: newKey('m'), orderNo: env.data.inquiryNo })
    await insertMessage(tx, cipher(), `d_${doctorId}`, { to: patientImAccount(user.userId), type: 'text', payload: '请注意休息', clientId: newKey('m'), orderNo: env.data.inquiryNo })
  })
  if (opts.finish !== false) assert.equal((await call('POST', `${P}/inquiries/${id}/finish`, { caller: doctor })).code, 200)
  return env.data
}

/** A user with a patient (full identity number known), an address, an uploaded picture and one finished consultation. */
async function fullAccount(name: string) {
  const user = await signInUser(t.app)
  const idCard = idCardFor('19650301', String(100 + Math.floor(Math.random() * 800)))
  const patientId = await addPatient(t, user.userId, { name, sex: 2, birthday: '1965-03-01', mobile: '13700001234', idCard })
  await db().insert(addresses).values({
    userId: user.userId,
    nameEnc: cipher().encrypt(name),
    mobileEnc: cipher().encrypt('13700001234'),
    provinceCode: 440000,
    cityCode: 440300,
    districtCode: 440305,
    regionText: '广东省 深圳市 南山区',
    detailEnc: cipher().encrypt('科技园路1号'),
  })
  const picture = await uploadedPicture(t, user.userId)
  const inquiry = await consultation(user, patientId)
  return { user, patientId, idCard, name, picture, inquiry }
}

before(async () => {
  t = await startTestApp()
  const hospitalId = await hospitalIdOf(t, '10392')
  const deptId = await firstSubDepartment(t, hospitalId)
  doctorId = await addOnlineDoctor(t, { hospitalId, deptId, name: '隐私医生', priceFen: 0 })
  const login = `PV-${randomBytes(3).toString('hex')}`
  await createStaffAccount(db(), { kind: 'doctor', doctorId, login, password: 'privacy-pass-2718' })
  const session = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: 'privacy-pass-2718' } })
  doctor = { headers: { authorization: `Bearer ${session.data.token}` } }
})
after(() => t.close())

describe('账号与隐私: who may call', () => {
  it('needs a signed-in user with a bound mobile for every call', async () => {
    await assertUnauthorisedCall(t.app, 'GET', `${U}/closure`)
    await assertUnauthorisedCall(t.app, 'POST', `${U}/accountCode`, { body: { purpose: 'export' } })
    await assertUnauthorisedCall(t.app, 'POST', `${U}/export`, { body: { code: '123456' } })
    await assertUnauthorisedCall(t.app, 'POST', `${U}/close`, { body: { code: '123456' } })
  })

  it('refuses bad input with the reason, and a wrong code changes nothing', async () => {
    const user = await signInUser(t.app)
    assertBadInput(await call('POST', `${U}/accountCode`, { caller: user, body: { purpose: 'delete' } }))
    assertBadInput(await call('POST', `${U}/export`, { caller: user, body: { code: '12' } }), /请输入6位验证码/)
    assertBadInput(await call('POST', `${U}/close`, { caller: user, body: {} }))
    const code = await accountCode(user, 'close')
    assertBadInput(await call('POST', `${U}/close`, { caller: user, body: { code: wrong(code) } }), '验证码错误')
    // a code sent to close the account does not download its data
    assertBadInput(await call('POST', `${U}/export`, { caller: user, body: { code } }), '验证码已失效，请重新获取')
    const [row] = await db().select().from(users).where(eq(users.id, user.userId))
    assert.equal(row!.closedAt, null)
    assert.equal(cipher().decrypt(row!.mobileEnc), user.mobile)
    assert.equal((await call('GET', `${H}/userinfo`, { caller: user })).data.id, user.userId)
  })

  it('sends the code to the account’s own mobile and names it masked; one a minute for each purpose', async () => {
    // just bound with a bind code: the export code does not wait behind it
    const user = await signInUser(t.app)
    const env = await call<{ mobile: string; devCode: string }>('POST', `${U}/accountCode`, { caller: user, body: { purpose: 'export' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.mobile, `${user.mobile.slice(0, 3)}****${user.mobile.slice(-4)}`)
    const [code] = await db().select().from(smsCodes).where(and(eq(smsCodes.mobileIndex, cipher().blindIndex(user.mobile)), eq(smsCodes.purpose, 'export')))
    assert.ok(code, 'the code is for the account’s mobile')
    const again = await call('POST', `${U}/accountCode`, { caller: user, body: { purpose: 'export' } })
    assert.equal(again.code, 429)
    assert.equal(again.msg, '验证码已发送，请60秒后再试')
    assert.equal((await call('POST', `${U}/accountCode`, { caller: user, body: { purpose: 'close' } })).code, 200)
  })
})

describe('POST /dld-user/user/export', () => {
  it('hands the holder everything held about the account, readable, and nothing of anyone else; the read is audited', async () => {
    const mine = await fullAccount('周秀兰')
    const theirs = await fullAccount('吴建国')
    const [survey] = await db().select().from(surveys).limit(1)
    await db().insert(surveyAnswers).values({ surveyId: survey!.id, userId: mine.user.userId, choices: { q1: ['a'] }, textsEnc: cipher().encrypt('{"q7":"导诊台很热情"}') })
    await db().insert(protocolConsents).values({ userId: mine.user.userId, userAgreementVersion: '0123456789abcdef', privacyPolicyVersion: 'fedcba9876543210' })
    const code = await accountCode(mine.user, 'export')
    const env = await call<AccountExport>('POST', `${U}/export`, { caller: mine.user, body: { code } })
    assert.equal(env.code, 200, env.msg)
    const copy = env.data
    assert.equal(copy.account.id, mine.user.userId)
    assert.equal(copy.account.mobile, mine.user.mobile)
    assert.equal(copy.patients.length, 1)
    assert.equal(copy.patients[0]!.name, '周秀兰')
    // identity numbers travel base64-encoded like every answer's (spec §3); the app decodes them
    assert.equal(unb64(copy.patients[0]!.idCard), mine.idCard)
    assert.equal(copy.addresses[0]!.detail, '科技园路1号')
    assert.equal(copy.consultations.length, 1)
    const consultation = copy.consultations[0] as { inquiryNo: string; description: string; medicalRecord: { fields: { diagnosis: string; allergyHistory: string } } }
    assert.equal(consultation.inquiryNo, mine.inquiry.inquiryNo)
    assert.equal(consultation.description, '反复头痛一周')
    assert.equal(consultation.medicalRecord.fields.diagnosis, '紧张性头痛')
    // the whole conversation, the doctor's side and the consultation's own notices included, in order
    const chat = copy.chat.map((m) => [m.from, m.content])
    assert.equal(chat.length, 4)
    assert.deepEqual(chat.slice(1, 3), [
      ['我', '医生您好，我头痛'],
      ['隐私医生', '请注意休息'],
    ])
    assert.deepEqual(
      copy.files.map((f) => f.url),
      [mine.picture],
    )
    // a survey answered, with its own words
    assert.deepEqual(
      copy.surveys.map((a) => [a.survey, a.choices, a.words]),
      [[survey!.title, { q1: ['a'] }, { q7: '导诊台很热情' }]],
    )
    // the versions of the agreement and policy agreed to
    assert.deepEqual(
      copy.consents.map((c) => [c.userAgreementVersion, c.privacyPolicyVersion]),
      [['0123456789abcdef', 'fedcba9876543210']],
    )
    assert.equal((copy as unknown as Record<string, unknown>).patientIds, undefined, 'the audit’s list is not in the file')
    const text = JSON.stringify(copy)
    for (const other of ['吴建国', theirs.idCard, theirs.user.mobile, theirs.inquiry.inquiryNo]) assert.ok(!text.includes(other), `nothing of another account (${other})`)

    const audit = await db().select().from(auditLog).where(and(eq(auditLog.userId, mine.user.userId), eq(auditLog.subject, 'account')))
    assert.deepEqual(
      audit.map((a) => [a.action, a.patientId, a.route]),
      [['read', mine.patientId, 'POST /dld-user/user/export']],
    )
  })

  it('spends the code: the same code does not download twice', async () => {
    const user = await signInUser(t.app)
    const code = await accountCode(user, 'export')
    assert.equal((await call('POST', `${U}/export`, { caller: user, body: { code } })).code, 200)
    assertBadInput(await call('POST', `${U}/export`, { caller: user, body: { code } }), '验证码已失效，请重新获取')
  })
})

describe('closing an account', () => {
  it('is refused with what is still under way, and allowed once it is over', async () => {
    const user = await signInUser(t.app)
    const patientId = await addPatient(t, user.userId, { name: '郑未完', sex: 1, birthday: '1970-01-01', mobile: '13700005678' })
    const open = await consultation(user, patientId, { finish: false })
    const status = await call<AccountClosure>('GET', `${U}/closure`, { caller: user })
    assert.equal(status.code, 200, status.msg)
    assert.deepEqual(status.data, { mobile: `${user.mobile.slice(0, 3)}****${user.mobile.slice(-4)}`, blockers: ['1个未结束的问诊'] })
    const code = await accountCode(user, 'close')
    const refused = await call('POST', `${U}/close`, { caller: user, body: { code } })
    assert.equal(refused.code, 409)
    assert.equal(refused.msg, '您还有1个未结束的问诊，请完成或取消后再注销账号')
    assert.equal((await call('GET', `${H}/userinfo`, { caller: user })).data.id, user.userId, 'still open')

    assert.equal((await call('POST', `${P}/inquiries/${open.id}/finish`, { caller: doctor })).code, 200)
    assert.deepEqual((await call<AccountClosure>('GET', `${U}/closure`, { caller: user })).data.blockers, [])
    // the refused attempt did not spend the code
    assert.equal((await call('POST', `${U}/close`, { caller: user, body: { code } })).code, 200)
  })

  it('unbinds and clears the account, keeps the records the law requires, and none of it is reachable again', async () => {
    const { user, patientId, idCard, inquiry } = await fullAccount('冯桂芝')
    const bystander = await fullAccount('陈旁人')
    // a survey answered with words of its own
    const [survey] = await db().select().from(surveys).limit(1)
    await db().insert(surveyAnswers).values({ surveyId: survey!.id, userId: user.userId, choices: {}, textsEnc: cipher().encrypt('{"q1":"候诊太久"}') })
    const code = await accountCode(user, 'close')
    const closed = await call('POST', `${U}/close`, { caller: user, body: { code } })
    assert.equal(closed.code, 200, closed.msg)
    assert.deepEqual(closed.data, { closed: true })

    // the phone that closed it is a WeChat user without an account now
    const me = await call('GET', `${H}/userinfo`, { caller: user })
    assert.equal(me.data.id, 0)
    assert.equal(me.data.mobile, '')
    const list = await call('GET', '/dld-palm/api/patient/list', { caller: user })
    assert.equal(list.code, 403)
    assert.equal(list.msg, '请先绑定手机号')

    // personal fields gone; the patient and the consultation's records kept, unbound
    const [row] = await db().select().from(users).where(eq(users.id, user.userId))
    assert.ok(row!.closedAt)
    assert.deepEqual([row!.nickname, row!.mobileEnc, row!.realNameEnc, row!.idCardEnc, row!.roles], ['', '', null, null, []])
    assert.equal((await db().select().from(identities).where(eq(identities.userId, user.userId))).length, 0)
    const [patient] = await db().select().from(patients).where(eq(patients.id, patientId))
    assert.ok(patient!.unboundAt)
    assert.equal(patient!.mobileEnc, null)
    assert.equal(cipher().decrypt(patient!.idCardEnc!), idCard, 'the records still say whose they are')
    const [address] = await db().select().from(addresses).where(eq(addresses.userId, user.userId))
    assert.ok(address!.deletedAt)
    assert.deepEqual([address!.nameEnc, address!.detailEnc], ['', ''])
    const [answer] = await db().select().from(surveyAnswers).where(eq(surveyAnswers.userId, user.userId))
    assert.equal(answer!.textsEnc, null, 'the survey answer keeps its choices, not the words')
    assert.equal((await db().select().from(inquiries).where(eq(inquiries.id, inquiry.id))).length, 1)
    assert.equal((await db().select().from(medicalRecords).where(eq(medicalRecords.inquiryId, inquiry.id))).length, 1)
    assert.equal((await db().select().from(chatMessages).where(eq(chatMessages.orderNo, inquiry.inquiryNo))).length, 4)
    const [revoked] = await db().select().from(chatRevocations).where(eq(chatRevocations.account, patientImAccount(user.userId)))
    assert.ok(revoked, 'the chat signatures stop opening the socket')
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.userId, user.userId), eq(auditLog.subject, 'account')))
    assert.deepEqual(
      audit.map((a) => [a.action, a.patientId]),
      [['change', patientId]],
    )

    // the same phone binds the same mobile again: a new, empty account
    await letAMinutePass(user)
    const sms = await call<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { caller: user, body: { mobile: user.mobile } })
    const bound = await call<{ userId: number }>('POST', `${H}/bind`, { caller: user, body: { mobile: user.mobile, code: sms.data.devCode, sourceType: 8 } })
    assert.equal(bound.code, 200, bound.msg)
    assert.notEqual(bound.data.userId, user.userId)
    assert.deepEqual((await call('GET', '/dld-palm/api/patient/list', { caller: user })).data, [])
    assert.equal((await call<{ total: number }>('GET', `${H}/inquiry/order/list`, { caller: user })).data.total, 0)
    const old = await call('GET', `${H}/inquiry/order/detail`, { caller: user, query: { id: String(inquiry.id) } })
    assert.notEqual(old.code, 200)
    assert.equal(old.data, null)

    // nobody else's account moved
    assert.equal((await call('GET', `${H}/userinfo`, { caller: bystander.user })).data.id, bystander.user.userId)
    assert.equal((await call<unknown[]>('GET', '/dld-palm/api/patient/list', { caller: bystander.user })).data.length, 1)
  })

  it('closes once when the same code arrives twice at once', async () => {
    const user = await signInUser(t.app)
    const code = await accountCode(user, 'close')
    const answers = await Promise.all(
      [0, 1, 2].map(() => t.app.inject({ method: 'POST', url: `${U}/close`, headers: user.headers, payload: { code } }).then((r) => envelopeOf(r))),
    )
    assert.equal(answers.filter((a) => a.code === 200).length, 1, JSON.stringify(answers.map((a) => [a.code, a.msg])))
    assert.equal((await db().select().from(auditLog).where(and(eq(auditLog.userId, user.userId), eq(auditLog.subject, 'account')))).length, 1)
  })
})
