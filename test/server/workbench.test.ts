import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import {
  chatMessages,
  consultations,
  diseases,
  doctors,
  hospitals,
  inquiries,
  medicalRecords,
  onlineDoctors,
  patients,
  physicianAssistants,
  staffAccounts,
  staffLoginFailures,
  staffSessions,
  userMessages,
} from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { createStaffAccount, resolveStaffToken } from '../../server/src/domain/staff'
import { writeDeskRecord } from '../../server/src/domain/doctorDesk'
import { UPLOADED_PICTURE } from '../../server/src/domain/file'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import type { ChatMessage, ChatServerFrame } from '../../types/api/chat'
import type { Inquiry } from '../../types/api/inquiry'
import type { DeskInquiry, DeskInquiryDetail, StaffSession } from '../../types/api/workbench'
import type { Page } from '../../types/api/hospital'
import { LogCapture, assertBadInput, assertForbidden, callApi, envelopeOf, idCardFor, randomIp, signInUser, startTestApp, type Envelope, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, confirmAtCashier, hospitalIdOf, newKey } from './fixtures'

const P = '/dld-doctor/api'
const H = '/dld-hospital'
const RETURN_URL = '/h5/pages/order/inquiry/detail'
const HOUR = 3600_000
const PASSWORD = 'desk-pass-2718'
const ILLNESS = '反复咳嗽两周，夜间加重，偶有低热'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }

const log = new LogCapture()
let t: TestApp
let base = ''
let sandbox: SandboxPay
let owner: User
let patientId = 0
let hospitalId = 0
let deptId = 0
/** Doctors made up for this file at 10392, each with a workbench account: 图文问诊 at ¥20, free, and one more. */
const doc = { paid: 0, free: 0, other: 0 }
const login = { paid: 'WB-PAID', free: 'WB-FREE', other: 'WB-OTHER', assistant: 'WB-ZL', farAssistant: 'WB-ZL-FAR' }
let assistantId = 0
let farAssistantId = 0
const desk: Record<keyof typeof login, Caller> = {} as never
const diseaseCode = { pneumonia: '', hypertension: '', elsewhere: '' }

const db = () => t.database.db
const call = <T = any>(method: 'GET' | 'POST' | 'PUT', url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function signInDesk(name: string, password = PASSWORD): Promise<Caller> {
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login: name, password } })
  assert.equal(env.code, 200, env.msg)
  return { headers: { authorization: `Bearer ${env.data.token}` } }
}

/** A consultation the patient ordered (free: waiting at once; paid: paid through the sandbox cashier unless `unpaid`). */
async function order(doctorId: number, opts: { unpaid?: boolean; caller?: User; patient?: number } = {}): Promise<Inquiry> {
  const caller = opts.caller ?? owner
  const env = await call<Inquiry>('POST', `${H}/inquiry/addInquiryInfo`, {
    caller,
    body: { doctorId, patientId: opts.patient ?? patientId, description: ILLNESS, idempotencyKey: newKey('w') },
  })
  assert.equal(env.code, 200, env.msg)
  if (env.data.status === 'waiting' || opts.unpaid) return env.data
  const action = await call<{ url: string }>('POST', `${H}/im/trade/service/im/init/continuePay`, { caller, body: { id: env.data.id, returnUrl: RETURN_URL } })
  assert.equal(action.code, 200, action.msg)
  assert.equal((await confirmAtCashier(t, action.data.url)).statusCode, 303)
  await call('GET', `${H}/im/trade/service/im/check`, { caller, query: { id: String(env.data.id) } })
  await sandbox.settled()
  const paid = await patientView(env.data.id, caller)
  assert.equal(paid.status, 'waiting')
  return paid
}

const patientView = async (id: number, caller: User = owner) => (await call<Inquiry>('GET', `${H}/inquiry/order/detail`, { caller, query: { id: String(id) } })).data
const deskDetail = (id: number, caller: Caller = desk.free) => call<DeskInquiryDetail>('GET', `${P}/inquiries/${id}`, { caller })
const statusOf = async (id: number) => (await db().select({ s: inquiries.status }).from(inquiries).where(eq(inquiries.id, id)))[0]!.s
const messagesOf = (inquiryNo: string) => db().select().from(chatMessages).where(eq(chatMessages.orderNo, inquiryNo)).orderBy(asc(chatMessages.id))
const noticesOf = (userId: number, id: number) =>
  db()
    .select()
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), eq(userMessages.link, `/pages/order/inquiry/detail?id=${id}`)))
    .orderBy(asc(userMessages.id))

async function accept(id: number, caller: Caller = desk.free) {
  const env = await call<DeskInquiryDetail>('POST', `${P}/inquiries/${id}/accept`, { caller })
  assert.equal(env.code, 200, env.msg)
  return env.data
}

const RECORD = {
  chiefComplaint: '咳嗽两周',
  presentIllness: '两周前受凉后咳嗽，夜间加重，偶有低热',
  pastHistory: '既往体健',
  allergyHistory: '青霉素过敏',
  diagnosis: '社区获得性肺炎待排',
  advice: '建议血常规及胸片检查，多饮水，按时服药',
}

// ---- a chat connection, as the app and the workbench page hold one ----------------------------------------------------

class Client {
  pushes: ChatServerFrame[] = []
  private seq = 0
  private waiting = new Map<string, (f: ChatServerFrame) => void>()
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as ChatServerFrame
      if (f.op === 'reply' && this.waiting.has(f.id)) {
        this.waiting.get(f.id)!(f)
        this.waiting.delete(f.id)
      } else this.pushes.push(f)
    })
  }

  static open(sig: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
      ws.once('open', () => resolve(new Client(ws)))
      ws.once('error', reject)
    })
  }

  request(f: Record<string, unknown>): Promise<ChatServerFrame & { op: 'reply' }> {
    const id = `r${++this.seq}`
    return new Promise((resolve) => {
      this.waiting.set(id, resolve as (f: ChatServerFrame) => void)
      this.ws.send(JSON.stringify({ ...f, id }))
    })
  }

  send(to: string, payload: string, type: 'text' | 'image' = 'text') {
    return this.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), to, type, payload } })
  }

  async messages(n: number, ms = 3000): Promise<ChatMessage[]> {
    const until = Date.now() + ms
    const got = () => this.pushes.filter((f): f is ChatServerFrame & { op: 'message' } => f.op === 'message').map((f) => f.message)
    while (got().length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    return got()
  }

  close() {
    this.ws.close()
  }
}

async function patientSocket(caller: User = owner) {
  const env = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-im/im/user-sig', headers: caller.headers }))
  assert.equal(env.code, 200, env.msg)
  return Client.open(env.data.userSig as string)
}
async function deskSocket(caller: Caller) {
  const env = await call<{ userSig: string; imAccount: string }>('GET', `${P}/im/user-sig`, { caller })
  assert.equal(env.code, 200, env.msg)
  return Client.open(env.data.userSig)
}

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
  owner = await signInUser(t.app)
  hospitalId = await hospitalIdOf(t, '10392')
  const [pneumonia] = await db()
    .select({ id: diseases.id, deptId: diseases.deptId })
    .from(diseases)
    .where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '肺炎')))
  const [hypertension] = await db()
    .select({ id: diseases.id })
    .from(diseases)
    .where(and(eq(diseases.hospitalId, hospitalId), eq(diseases.name, '高血压')))
  const [elsewhere] = await db()
    .select({ id: diseases.id })
    .from(diseases)
    .innerJoin(hospitals, eq(hospitals.id, diseases.hospitalId))
    .where(eq(hospitals.code, '10412'))
    .limit(1)
  diseaseCode.pneumonia = String(pneumonia!.id)
  diseaseCode.hypertension = String(hypertension!.id)
  diseaseCode.elsewhere = String(elsewhere!.id)
  deptId = pneumonia!.deptId
  doc.paid = await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台甲', priceFen: 2000 })
  doc.free = await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台乙', priceFen: 0 })
  doc.other = await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台丙', priceFen: 0 })
  const [a] = await db().insert(physicianAssistants).values({ hospitalId, name: '工作台助理' }).returning({ id: physicianAssistants.id })
  assistantId = a!.id
  const farHospitalId = await hospitalIdOf(t, '10412')
  const [fa] = await db().insert(physicianAssistants).values({ hospitalId: farHospitalId, name: '远方助理' }).returning({ id: physicianAssistants.id })
  farAssistantId = fa!.id
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.paid, login: login.paid, password: PASSWORD })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.free, login: login.free, password: PASSWORD })
  await createStaffAccount(db(), { kind: 'doctor', doctorId: doc.other, login: login.other, password: PASSWORD })
  await createStaffAccount(db(), { kind: 'assistant', assistantId, login: login.assistant, password: PASSWORD })
  await createStaffAccount(db(), { kind: 'assistant', assistantId: farAssistantId, login: login.farAssistant, password: PASSWORD })
  for (const k of Object.keys(login) as (keyof typeof login)[]) desk[k] = await signInDesk(login[k])
  patientId = await addPatient(t, owner.userId, {
    name: '李秀英',
    sex: 2,
    birthday: '1990-03-07',
    mobile: '13600002222',
    idCard: idCardFor('19900307', '213'),
    salt: 'workbench',
  })
})
after(() => t.close())

/** The checks every workbench call makes before anything else: no token, a patient's token, a made-up one. */
async function assertNeedsStaffToken(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  for (const caller of [undefined, owner, { headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` } }]) {
    const env = await call(method, url, { caller, body })
    assert.equal(env.code, 401, `${url} answered ${env.code} ${env.msg}`)
    assert.equal(env.data, null)
  }
}

describe('POST /dld-doctor/api/login', () => {
  it('refuses missing fields with the reason, and opens no session', async () => {
    const before = (await db().select({ n: sql<number>`count(*)::int` }).from(staffSessions))[0]!.n
    assertBadInput(await call('POST', `${P}/login`, { body: { login: login.free } }), /password/)
    assertBadInput(await call('POST', `${P}/login`, { body: { login: '', password: PASSWORD } }), /请输入账号/)
    assert.equal((await db().select({ n: sql<number>`count(*)::int` }).from(staffSessions))[0]!.n, before)
  })

  it('answers a wrong password and an unknown login the same way', async () => {
    const wrong = await call('POST', `${P}/login`, { body: { login: login.other, password: 'not-the-password' } })
    const unknown = await call('POST', `${P}/login`, { body: { login: 'NO-SUCH-LOGIN', password: PASSWORD } })
    for (const env of [wrong, unknown]) {
      assert.equal(env.code, 401)
      assert.equal(env.msg, '账号或密码错误')
      assert.equal(env.data, null)
    }
  })

  /** A sign-in from one client address (callApi gives every call an address of its own). */
  const loginFrom = (address: string, name: string, password: string) =>
    t.app.inject({ method: 'POST', url: `${P}/login`, remoteAddress: address, payload: { login: name, password } }).then((r) => envelopeOf(r))

  it('locks a login at one address after 5 wrong passwords, even against the right one; other addresses and logins still work', async () => {
    await createStaffAccount(db(), { kind: 'doctor', doctorId: await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台丁', priceFen: 0 }), login: 'WB-LOCK', password: PASSWORD })
    const attacker = randomIp()
    for (let i = 0; i < 5; i++) assert.equal((await loginFrom(attacker, 'wb-lock', `wrong-${i}`)).code, 401)
    const locked = await loginFrom(attacker, 'WB-LOCK', PASSWORD)
    assert.equal(locked.code, 429)
    assert.equal(locked.msg, '登录失败次数过多，请15分钟后再试')
    assert.equal((await loginFrom(attacker, login.other, PASSWORD)).code, 200)
    // the doctor at the hospital is not locked out by someone guessing elsewhere
    assert.equal((await loginFrom(randomIp(), 'wb-lock', PASSWORD)).code, 200)
  })

  it('a burst of wrong passwords at once compares at most 5 and locks (a race shows on the PostgreSQL run)', async () => {
    await createStaffAccount(db(), { kind: 'doctor', doctorId: await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台戊', priceFen: 0 }), login: 'WB-BURST', password: PASSWORD })
    const attacker = randomIp()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => loginFrom(attacker, 'WB-BURST', `wrong-${i}`)))
    assert.deepEqual(
      answers.map((a) => a.msg).sort(),
      [...Array(5).fill('账号或密码错误'), ...Array(15).fill('登录失败次数过多，请15分钟后再试')].sort(),
    )
    assert.equal((await loginFrom(attacker, 'WB-BURST', PASSWORD)).code, 429)
  })

  it('each failure after a lock has run out doubles it; a success clears the count', async () => {
    await createStaffAccount(db(), { kind: 'doctor', doctorId: await addOnlineDoctor(t, { hospitalId, deptId, name: '工作台己', priceFen: 0 }), login: 'WB-GROW', password: PASSWORD })
    const attacker = randomIp()
    const lockRunsOut = () =>
      db().update(staffLoginFailures).set({ lockedUntil: new Date(Date.now() - 1000) }).where(and(eq(staffLoginFailures.login, 'WB-GROW'), eq(staffLoginFailures.address, attacker)))
    for (let i = 0; i < 5; i++) await loginFrom(attacker, 'WB-GROW', `wrong-${i}`)
    const waits: string[] = []
    for (let i = 0; i < 3; i++) {
      await lockRunsOut()
      assert.equal((await loginFrom(attacker, 'WB-GROW', 'wrong-again')).msg, '账号或密码错误')
      waits.push((await loginFrom(attacker, 'WB-GROW', PASSWORD)).msg)
    }
    assert.deepEqual(waits, ['登录失败次数过多，请30分钟后再试', '登录失败次数过多，请60分钟后再试', '登录失败次数过多，请120分钟后再试'])
    await lockRunsOut()
    assert.equal((await loginFrom(attacker, 'WB-GROW', PASSWORD)).code, 200)
    const left = await db().select().from(staffLoginFailures).where(eq(staffLoginFailures.login, 'WB-GROW'))
    assert.deepEqual(left, [])
    assert.equal((await loginFrom(attacker, 'WB-GROW', 'wrong-once')).msg, '账号或密码错误')
    assert.equal((await loginFrom(attacker, 'WB-GROW', PASSWORD)).code, 200)
  })

  it('signs in a seeded doctor with the demo password and the hospital work number (any case, spaces around)', async () => {
    const [first] = await db()
      .select({ doctorId: onlineDoctors.doctorId, name: doctors.name })
      .from(onlineDoctors)
      .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
      .where(eq(onlineDoctors.hospitalId, hospitalId))
      .orderBy(asc(onlineDoctors.sort), asc(onlineDoctors.doctorId))
      .limit(1)
    const env = await call<StaffSession>('POST', `${P}/login`, { body: { login: ' 10392001 ', password: DEMO_STAFF_PASSWORD } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(
      { kind: env.data.staff.kind, doctorId: env.data.staff.doctorId, name: env.data.staff.name, imAccount: env.data.staff.imAccount, hospitalName: env.data.staff.hospitalName },
      { kind: 'doctor', doctorId: first!.doctorId, name: first!.name, imAccount: `d_${first!.doctorId}`, hospitalName: '示范市第一人民医院' },
    )
    assert.ok(env.data.staff.deptName)
    const ttl = new Date(env.data.expiresAt).getTime() - Date.now()
    assert.ok(ttl > 11.9 * HOUR && ttl <= 12 * HOUR, `expires in ${ttl} ms`)
    // every online doctor and assistant of the demo hospitals has an account (the ones made up here too)
    const withoutDoctor = await db().select({ id: onlineDoctors.doctorId }).from(onlineDoctors).leftJoin(staffAccounts, eq(staffAccounts.doctorId, onlineDoctors.doctorId)).where(isNull(staffAccounts.id))
    const withoutAssistant = await db().select({ id: physicianAssistants.id }).from(physicianAssistants).leftJoin(staffAccounts, eq(staffAccounts.assistantId, physicianAssistants.id)).where(isNull(staffAccounts.id))
    assert.deepEqual([withoutDoctor, withoutAssistant], [[], []])
    const assistant = await call<StaffSession>('POST', `${P}/login`, { body: { login: '10392a01', password: DEMO_STAFF_PASSWORD } })
    assert.equal(assistant.code, 200, assistant.msg)
    assert.equal(assistant.data.staff.kind, 'assistant')
    assert.match(assistant.data.staff.imAccount, /^a_\d+$/)
    assert.equal(assistant.data.staff.doctorId, null)
  })

  it('keeps the password only as a salted scrypt hash and the token only as a hash', async () => {
    const env = await call<StaffSession>('POST', `${P}/login`, { body: { login: login.free, password: PASSWORD } })
    const [account] = await db().select().from(staffAccounts).where(eq(staffAccounts.login, login.free))
    assert.match(account!.passwordHash, /^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    assert.ok(!account!.passwordHash.includes(PASSWORD))
    const [other] = await db().select().from(staffAccounts).where(eq(staffAccounts.login, login.paid))
    assert.notEqual(other!.passwordHash.split('$')[5], account!.passwordHash.split('$')[5], 'the same password hashes differently')
    const sessionsOfAccount = await db().select().from(staffSessions).where(eq(staffSessions.staffId, account!.id))
    assert.ok(sessionsOfAccount.length > 0)
    assert.ok(sessionsOfAccount.every((s) => s.tokenHash !== env.data.token))
  })
})

describe('workbench tokens and patient tokens', () => {
  it('refuses a workbench token on the patients’ calls, and a patient’s token on the workbench', async () => {
    const patientCalls = ['/dld-hospital/inquiry/order/list', '/dld-im/im/user-sig', '/dld-hospital/im/medical/his/record']
    for (const url of patientCalls) assert.equal((await call('GET', url, { caller: desk.free })).code, 401, url)
    assert.equal((await call('GET', `${P}/me`, { caller: owner })).code, 401)
    assert.equal(await resolveStaffToken(db(), owner.headers.authorization!.slice(7)), null)
  })
})

describe('POST /dld-doctor/api/logout', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('POST', `${P}/logout`)
  })

  it('ends the session: the token stops working, other sessions go on', async () => {
    const session = await signInDesk(login.other)
    const env = await call('POST', `${P}/logout`, { caller: session })
    assert.equal(env.code, 200, env.msg)
    assert.equal((await call('GET', `${P}/me`, { caller: session })).code, 401)
    assert.equal((await call('GET', `${P}/me`, { caller: desk.other })).code, 200)
  })
})

describe('GET /dld-doctor/api/me', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/me`)
  })

  it('answers the signed-in doctor or assistant', async () => {
    const me = await call('GET', `${P}/me`, { caller: desk.free })
    assert.equal(me.code, 200, me.msg)
    assert.deepEqual(me.data, {
      kind: 'doctor',
      name: '工作台乙',
      doctorId: doc.free,
      assistantId: null,
      pharmacistId: null,
      imAccount: `d_${doc.free}`,
      hospitalName: '示范市第一人民医院',
      deptName: me.data.deptName,
    })
    const assistant = await call('GET', `${P}/me`, { caller: desk.assistant })
    assert.equal(assistant.data.kind, 'assistant')
    assert.equal(assistant.data.assistantId, assistantId)
    assert.equal(assistant.data.imAccount, `a_${assistantId}`)
  })
})

describe('GET /dld-doctor/api/im/user-sig', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/im/user-sig`)
  })

  it('signs the doctor’s own IM account, which connects to the chat service', async () => {
    const env = await call('GET', `${P}/im/user-sig`, { caller: desk.free })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.driver, 'local')
    assert.equal(env.data.imAccount, `d_${doc.free}`)
    const socket = await Client.open(env.data.userSig)
    const conversations = await socket.request({ op: 'conversations' })
    assert.equal(conversations.ok, true)
    socket.close()
    assert.equal((await call('GET', `${P}/im/user-sig`, { caller: desk.assistant })).data.imAccount, `a_${assistantId}`)
  })
})

describe('GET /dld-doctor/api/inquiries', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/inquiries?status=waiting`)
  })

  it('refuses an unknown tab', async () => {
    assertBadInput(await call('GET', `${P}/inquiries`, { caller: desk.free, query: { status: 'unpaid' } }), /status/)
    assertBadInput(await call('GET', `${P}/inquiries`, { caller: desk.free }), /status/)
  })

  it('lists only the doctor’s own paid consultations by tab, the patient masked, the illness readable', async () => {
    const mine = await order(doc.paid)
    const unpaid = await order(doc.paid, { unpaid: true })
    const someoneElses = await order(doc.other)
    const env = await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.paid, query: { status: 'waiting' } })
    assert.equal(env.code, 200, env.msg)
    const ids = env.data.records.map((r) => r.id)
    assert.ok(ids.includes(mine.id))
    assert.ok(!ids.includes(unpaid.id), 'an unpaid consultation is never shown')
    assert.ok(!ids.includes(someoneElses.id))
    const row = env.data.records.find((r) => r.id === mine.id)!
    assert.equal(row.patientName, '李*英')
    assert.equal(row.description, ILLNESS)
    assert.equal(row.sex, 2)
    assert.equal(row.patientImAccount, `0_${owner.userId}`)
    assert.equal(row.statusText, '待接诊')
    assert.ok(!(await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.paid, query: { status: 'inProgress' } })).data.records.some((r) => r.id === mine.id))
    // one given up before payment is not the doctor's either, not even under 已结束
    assert.equal((await call<Inquiry>('GET', `${H}/im/trade/service/im/cancel`, { caller: owner, query: { id: String(unpaid.id) } })).data.status, 'cancelled')
    assert.ok(!(await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.paid, query: { status: 'finished' } })).data.records.some((r) => r.id === unpaid.id))
    // the hospital's assistant sees it too; an assistant of another hospital does not
    assert.ok((await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.assistant, query: { status: 'waiting' } })).data.records.some((r) => r.id === mine.id))
    assert.ok(!(await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.farAssistant, query: { status: 'waiting' } })).data.records.some((r) => r.id === mine.id))
  })
})

describe('GET /dld-doctor/api/inquiries/:id', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/inquiries/1`)
  })

  it('refuses an id that is not one', async () => {
    assertBadInput(await call('GET', `${P}/inquiries/abc`, { caller: desk.free }), /id/)
  })

  it('answers 2999 for another doctor’s consultation, an unpaid one, one that does not exist, another hospital’s for an assistant', async () => {
    const theirs = await order(doc.other)
    assertForbidden(await deskDetail(theirs.id, desk.free))
    assertForbidden(await deskDetail((await order(doc.paid, { unpaid: true })).id, desk.paid))
    assertForbidden(await deskDetail(99999999, desk.free))
    assertForbidden(await deskDetail(theirs.id, desk.farAssistant))
  })

  it('answers the consultation with the illness, the patient (masked), times and no record yet', async () => {
    const inq = await order(doc.free)
    const env = await deskDetail(inq.id)
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.inquiryNo, inq.inquiryNo)
    assert.equal(env.data.description, ILLNESS)
    assert.equal(env.data.patientName, '李*英')
    assert.ok(env.data.age >= 35)
    assert.equal(env.data.status, 'waiting')
    assert.ok(env.data.paidAt)
    assert.equal(env.data.record, null)
    assert.equal(env.data.recordEditable, false)
    assert.equal((await deskDetail(inq.id, desk.assistant)).code, 200)
  })
})

describe('POST /dld-doctor/api/inquiries/:id/accept', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('POST', `${P}/inquiries/1/accept`)
  })

  it('refuses a bad id, a consultation no longer waiting and one past its window, changing nothing', async () => {
    assertBadInput(await call('POST', `${P}/inquiries/0/accept`, { caller: desk.free }), /id/)
    const inq = await order(doc.free)
    await accept(inq.id)
    await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free })
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/accept`, { caller: desk.free }), '该问诊已不在待接诊状态')
    assert.equal(await statusOf(inq.id), 'finished')
    // one whose 48 h ran out is about to be closed and refunded, not accepted
    const late = await order(doc.free)
    await db().update(inquiries).set({ serviceEndsAt: new Date(Date.now() - 1000) }).where(eq(inquiries.id, late.id))
    assertBadInput(await call('POST', `${P}/inquiries/${late.id}/accept`, { caller: desk.free }), '该问诊已超过接诊时限')
    assert.equal(await statusOf(late.id), 'waiting')
  })

  it('answers 2999 for another doctor’s consultation and for an assistant, leaving it waiting', async () => {
    const inq = await order(doc.free)
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/accept`, { caller: desk.other }))
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/accept`, { caller: desk.assistant }))
    assert.equal(await statusOf(inq.id), 'waiting')
    assert.equal((await messagesOf(inq.inquiryNo)).length, 0)
  })

  it('starts the consultation: the patient’s open connection receives `start`, a notice, my consultations says 问诊中', async () => {
    const inq = await order(doc.free)
    const phone = await patientSocket()
    const detail = await accept(inq.id)
    assert.equal(detail.status, 'inProgress')
    assert.ok(detail.acceptedAt)
    assert.equal(detail.recordEditable, true)
    const [start] = await phone.messages(1)
    assert.equal(start?.description, 'start')
    assert.equal(start?.from, `d_${doc.free}`)
    assert.equal(start?.to, `0_${owner.userId}`)
    assert.equal(start?.payload, '医生已接诊，请详细描述您的症状，医生会尽快回复您')
    const [stored] = await messagesOf(inq.inquiryNo)
    assert.equal(stored?.orderNo, inq.inquiryNo)
    const notices = await noticesOf(owner.userId, inq.id)
    assert.equal(notices.at(-1)?.title, '医生已接诊')
    assert.equal((await db().select().from(consultations).where(eq(consultations.orderNo, inq.inquiryNo)))[0]?.status, '问诊中')
    const patientSide = await patientView(inq.id)
    assert.equal(patientSide.status, 'inProgress')
    assert.equal(new Date(patientSide.serviceEndsAt!).getTime() - new Date(patientSide.acceptedAt!).getTime(), 24 * HOUR)
    // accepting again answers it as it is, with no second message
    assert.equal((await accept(inq.id)).status, 'inProgress')
    assert.equal((await messagesOf(inq.inquiryNo)).filter((m) => m.description === 'start').length, 1)
    phone.close()
  })
})

describe('POST /dld-doctor/api/inquiries/:id/busy', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('POST', `${P}/inquiries/1/busy`)
  })

  it('refuses a bad id, and a consultation that is over, sending nothing', async () => {
    assertBadInput(await call('POST', `${P}/inquiries/x/busy`, { caller: desk.free }), /id/)
    const inq = await order(doc.free)
    await accept(inq.id)
    await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free })
    const before = (await messagesOf(inq.inquiryNo)).length
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/busy`, { caller: desk.free }), '该问诊已结束')
    assert.equal((await messagesOf(inq.inquiryNo)).length, before)
  })

  it('answers 2999 for another doctor’s consultation', async () => {
    const inq = await order(doc.free)
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/busy`, { caller: desk.other }))
    assert.equal((await messagesOf(inq.inquiryNo)).length, 0)
  })

  it('tells the patient the doctor is busy (doctorBusy), from the doctor or the hospital’s assistant', async () => {
    const inq = await order(doc.free)
    const phone = await patientSocket()
    const env = await call<DeskInquiryDetail>('POST', `${P}/inquiries/${inq.id}/busy`, { caller: desk.free })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'waiting')
    const [busy] = await phone.messages(1)
    assert.deepEqual([busy?.description, busy?.payload, busy?.from], ['doctorBusy', '医生正在忙，请稍候，医生会尽快回复您', `d_${doc.free}`])
    assert.equal((await call('POST', `${P}/inquiries/${inq.id}/busy`, { caller: desk.assistant })).code, 200)
    assert.equal((await phone.messages(2)).at(-1)?.from, `a_${assistantId}`)
    phone.close()
  })
})

describe('POST /dld-doctor/api/inquiries/:id/return', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('POST', `${P}/inquiries/1/return`, { reason: '非本科室疾病' })
  })

  it('refuses an empty or over-long reason, changing nothing', async () => {
    const inq = await order(doc.free)
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.free, body: { reason: '  ' } }), /请填写退诊原因/)
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.free, body: { reason: '因'.repeat(201) } }), /退诊原因不能超过200个字/)
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.free, body: {} }), /reason/)
    assert.equal(await statusOf(inq.id), 'waiting')
  })

  it('answers 2999 for another doctor’s consultation and for an assistant', async () => {
    const inq = await order(doc.free)
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.other, body: { reason: '非本科室疾病' } }))
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.assistant, body: { reason: '非本科室疾病' } }))
    assert.equal(await statusOf(inq.id), 'waiting')
  })

  it('declines a paid consultation in progress: cancelled, refunded in full, `return` reaches the patient, a notice', async () => {
    const inq = await order(doc.paid)
    await accept(inq.id, desk.paid)
    const phone = await patientSocket()
    const env = await call<DeskInquiryDetail>('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.paid, body: { reason: '建议线下就诊' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'cancelled')
    const [back] = await phone.messages(1)
    assert.equal(back?.description, 'return')
    assert.equal(back?.payload, '医生已退诊：建议线下就诊。问诊费用将原路退回')
    await sandbox.settled()
    const patientSide = await patientView(inq.id)
    assert.equal(patientSide.status, 'cancelled')
    assert.equal(patientSide.order?.status, 'refunded')
    assert.equal(patientSide.order?.refundedFen, 2000)
    assert.equal(patientSide.statusText, '已退款')
    assert.equal((await db().select().from(consultations).where(eq(consultations.orderNo, inq.inquiryNo)))[0]?.status, '已退款')
    const notice = (await noticesOf(owner.userId, inq.id)).at(-1)
    assert.equal(notice?.title, '医生已退诊')
    assert.match(notice!.content, /费用将原路退回。退诊原因：建议线下就诊/)
    // once declined it cannot be declined again, nor refunded twice
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.paid, body: { reason: '再退一次' } }), '该问诊已结束')
    assert.equal((await patientView(inq.id)).order?.refundedFen, 2000)
    phone.close()
  })

  it('declines a waiting one too (refunded), and the declined one shows under 已结束', async () => {
    const inq = await order(doc.paid)
    assert.equal((await call('POST', `${P}/inquiries/${inq.id}/return`, { caller: desk.paid, body: { reason: '非本科室疾病' } })).code, 200)
    await sandbox.settled()
    assert.equal((await patientView(inq.id)).order?.status, 'refunded')
    const ended = await call<Page<DeskInquiry>>('GET', `${P}/inquiries`, { caller: desk.paid, query: { status: 'finished' } })
    assert.equal(ended.data.records.find((r) => r.id === inq.id)?.statusText, '已退款')
  })
})

describe('POST /dld-doctor/api/inquiries/:id/finish', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('POST', `${P}/inquiries/1/finish`)
  })

  it('refuses a bad id and a consultation not in progress, changing nothing', async () => {
    assertBadInput(await call('POST', `${P}/inquiries/-1/finish`, { caller: desk.free }), /id/)
    const inq = await order(doc.free)
    assertBadInput(await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free }), '问诊未在进行中，无法结束')
    assert.equal(await statusOf(inq.id), 'waiting')
  })

  it('answers 2999 for another doctor’s consultation and for an assistant', async () => {
    const inq = await order(doc.free)
    await accept(inq.id)
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.other }))
    assertForbidden(await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.assistant }))
    assert.equal(await statusOf(inq.id), 'inProgress')
  })

  it('finishes: `orderFinished` reaches the patient, a notice, the patient’s order reads 已结束', async () => {
    const inq = await order(doc.free)
    await accept(inq.id)
    const phone = await patientSocket()
    const env = await call<DeskInquiryDetail>('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'finished')
    assert.ok(env.data.finishedAt)
    assert.equal((await phone.messages(1))[0]?.description, 'orderFinished')
    assert.equal((await noticesOf(owner.userId, inq.id)).at(-1)?.title, '问诊已结束')
    assert.equal((await patientView(inq.id)).statusText, '已结束')
    // finishing again answers it as it is
    assert.equal((await call('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free })).data.status, 'finished')
    assert.equal((await messagesOf(inq.inquiryNo)).filter((m) => m.description === 'orderFinished').length, 1)
    phone.close()
  })
})

describe('PUT /dld-doctor/api/inquiries/:id/record', () => {
  const url = (id: number) => `${P}/inquiries/${id}/record`
  const recordsOf = (inquiryId: number) => db().select().from(medicalRecords).where(eq(medicalRecords.inquiryId, inquiryId))

  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('PUT', url(1), { ...RECORD, diseaseCodes: [] })
  })

  it('refuses a missing required field, an over-long one, a disease code not in the hospital’s list; writes nothing', async () => {
    const inq = await order(doc.free)
    await accept(inq.id)
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diagnosis: undefined } }), /diagnosis/)
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diagnosis: '   ' } }), '请填写初步诊断')
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, chiefComplaint: '咳'.repeat(201) } }), /主诉不能超过200个字/)
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diseaseCodes: ['99999999'] } }), '疾病编码不存在：99999999')
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diseaseCodes: [diseaseCode.elsewhere] } }), `疾病编码不存在：${diseaseCode.elsewhere}`)
    assert.equal((await recordsOf(inq.id)).length, 0)
  })

  it('answers 2999 for another doctor’s consultation and for an assistant', async () => {
    const inq = await order(doc.free)
    await accept(inq.id)
    assertForbidden(await call('PUT', url(inq.id), { caller: desk.other, body: { ...RECORD, diseaseCodes: [] } }))
    assertForbidden(await call('PUT', url(inq.id), { caller: desk.assistant, body: { ...RECORD, diseaseCodes: [] } }))
    assert.equal((await recordsOf(inq.id)).length, 0)
  })

  it('refuses before acceptance', async () => {
    const inq = await order(doc.free)
    assertBadInput(await call('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diseaseCodes: [] } }), '接诊后才能书写病历')
  })

  it('writes the record while in progress, stored encrypted; rewrites it within 24 h after finishing, not later', async () => {
    const inq = await order(doc.free)
    await accept(inq.id)
    const env = await call<DeskInquiryDetail>('PUT', url(inq.id), { caller: desk.free, body: { ...RECORD, diseaseCodes: [diseaseCode.pneumonia] } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.record?.fields, RECORD)
    assert.deepEqual(env.data.record?.diseases.map((d) => [d.code, d.name]), [[diseaseCode.pneumonia, '肺炎']])
    assert.equal(env.data.record?.doctorName, '工作台乙')
    assert.equal(env.data.record?.patientName, '李*英')
    // at rest: one sealed value, none of the words readable
    const [row] = await recordsOf(inq.id)
    for (const words of Object.values(RECORD)) assert.ok(!row!.fieldsEnc.includes(words), `"${words}" readable at rest`)
    assert.ok(!row!.fieldsEnc.includes('chiefComplaint'))
    assert.deepEqual(JSON.parse(t.app.ctx.cipher.decrypt(row!.fieldsEnc)), RECORD)
    assert.deepEqual(row!.diseaseCodes, [diseaseCode.pneumonia])

    const finished = await call<DeskInquiryDetail>('POST', `${P}/inquiries/${inq.id}/finish`, { caller: desk.free })
    const finishedAt = new Date(finished.data.finishedAt!)
    const staff = (await resolveStaffToken(db(), desk.free.headers.authorization!.slice(7)))!
    const later = { ...RECORD, diagnosis: '急性支气管炎', diseaseCodes: [diseaseCode.pneumonia, diseaseCode.hypertension] }
    const within = await writeDeskRecord(db(), t.app.ctx.cipher, staff, inq.id, later, new Date(finishedAt.getTime() + 23 * HOUR))
    assert.equal(within.record?.fields.diagnosis, '急性支气管炎')
    assert.equal(within.record?.diseases.length, 2)
    await assert.rejects(writeDeskRecord(db(), t.app.ctx.cipher, staff, inq.id, { ...later, diagnosis: '太晚了' }, new Date(finishedAt.getTime() + 25 * HOUR)), {
      message: '问诊结束已超过24小时，病历不可修改',
    })
    assert.equal((await recordsOf(inq.id)).length, 1)
    assert.equal((await deskDetail(inq.id)).data.record?.fields.diagnosis, '急性支气管炎')
  })
})

describe('GET /dld-doctor/api/diseases', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/diseases?keyword=${encodeURIComponent('肺')}`)
  })

  it('refuses an over-long keyword', async () => {
    assertBadInput(await call('GET', `${P}/diseases`, { caller: desk.free, query: { keyword: '肺'.repeat(21) } }), /搜索关键词不能超过20个字/)
  })

  it('answers the doctor’s hospital’s diseases matching the keyword', async () => {
    const env = await call('GET', `${P}/diseases`, { caller: desk.free, query: { keyword: '肺' } })
    assert.equal(env.code, 200, env.msg)
    assert.ok(env.data.some((d: { code: string; name: string }) => d.code === diseaseCode.pneumonia && d.name === '肺炎'))
    assert.ok(env.data.every((d: { name: string }) => d.name.includes('肺')))
    assert.ok((await call('GET', `${P}/diseases`, { caller: desk.free })).data.length <= 20)
  })
})

describe('GET /dld-doctor/api/medicalRecordFields', () => {
  it('needs a workbench token', async () => {
    await assertNeedsStaffToken('GET', `${P}/medicalRecordFields`)
  })

  it('answers the record’s fields', async () => {
    const env = await call('GET', `${P}/medicalRecordFields`, { caller: desk.free })
    assert.deepEqual(env.data.map((f: { key: string }) => f.key), Object.keys(RECORD))
  })
})

describe('POST /dld-doctor/api/files-upload', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
  const upload = (caller: Caller | undefined, bytes: Buffer, filename = 'photo.png') => {
    const boundary = `----wb${randomBytes(6).toString('hex')}`
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    return t.app
      .inject({ method: 'POST', url: `${P}/files-upload`, headers: { ...(caller?.headers ?? {}), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload })
      .then((res) => envelopeOf(res))
  }

  it('needs a workbench token', async () => {
    for (const caller of [undefined, owner]) assert.equal((await upload(caller, PNG)).code, 401)
  })

  it('refuses a body that is not a file upload, a PDF and bytes that are no picture', async () => {
    assertBadInput(await call('POST', `${P}/files-upload`, { caller: desk.free, body: { file: 'x' } }), '请以 multipart/form-data 上传文件')
    assertBadInput(await upload(desk.free, Buffer.from('%PDF-1.4 report'), 'a.pdf'), '仅支持 JPG、PNG、GIF、WEBP 图片')
    assertBadInput(await upload(desk.free, Buffer.from('not a picture')), /仅支持/)
  })

  it('stores the picture, which the doctor then sends as an image message to a patient they serve', async () => {
    const env = await upload(desk.free, PNG)
    assert.equal(env.code, 200, env.msg)
    assert.match(env.data.url, UPLOADED_PICTURE)
    const served = await t.app.inject({ method: 'GET', url: env.data.url })
    assert.equal(served.statusCode, 200)
    await order(doc.free)
    const socket = await deskSocket(desk.free)
    const phone = await patientSocket()
    const sent = await socket.send(`0_${owner.userId}`, env.data.url, 'image')
    assert.equal(sent.ok, true, JSON.stringify(sent))
    const [got] = await phone.messages(1)
    assert.deepEqual([got?.type, got?.payload], ['image', env.data.url])
    socket.close()
    phone.close()
  })
})

describe('chat permission of doctors and assistants', () => {
  it('lets a doctor write only to a patient who paid for a consultation with them; assistants to their hospital’s', async () => {
    const patient = await signInUser(t.app)
    const cipher = t.app.ctx.cipher
    const idCard = idCardFor('19850101', '377')
    const [p] = await db()
      .insert(patients)
      .values({ userId: patient.userId, nameEnc: cipher.encrypt('赵强'), idCardEnc: cipher.encrypt(idCard), personIndex: cipher.blindIndex(idCard), mobileEnc: cipher.encrypt('13600003333'), sex: 1, birthday: '1985-01-01', relation: '本人', source: 'idCard' })
      .returning({ id: patients.id })
    const to = `0_${patient.userId}`
    const paidDoctor = await deskSocket(desk.paid)
    const otherDoctor = await deskSocket(desk.other)
    const assistant = await deskSocket(desk.assistant)
    const farAssistant = await deskSocket(desk.farAssistant)
    const refused = async (c: Client) => {
      const r = await c.send(to, '您好')
      assert.deepEqual([r.ok, (r as { error?: string }).error], [false, '暂无权限'])
    }
    // nothing between them, then only an unpaid order
    await refused(paidDoctor)
    await refused(assistant)
    await order(doc.paid, { unpaid: true, caller: patient, patient: p!.id })
    await refused(paidDoctor)
    await order(doc.paid, { caller: patient, patient: p!.id })
    assert.equal((await paidDoctor.send(to, '您好，我是医生')).ok, true)
    assert.equal((await assistant.send(to, '您好，我是医生助理')).ok, true)
    await refused(otherDoctor)
    await refused(farAssistant)
    // the patient writes to an assistant (of any hospital: the app's assistant chat), who may then answer
    const phone = await patientSocket(patient)
    assert.equal((await phone.send(`a_${farAssistantId}`, '请问怎么挂号')).ok, true)
    assert.equal((await farAssistant.send(to, '您好，请在首页选择预约挂号')).ok, true)
    for (const c of [paidDoctor, otherDoctor, assistant, farAssistant, phone]) c.close()
  })
})

describe('GET /workbench/', () => {
  it('serves the page, its script and style from this origin, under the app’s CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/workbench/' })
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    assert.match(page.body, /医生工作台/)
    assert.match(page.body, /<script src="\/workbench\/app\.js" defer><\/script>/)
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/)
    for (const [file, type] of [['app.js', /javascript/], ['app.css', /text\/css/]] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/workbench/${file}` })
      assert.equal(res.statusCode, 200, file)
      assert.match(String(res.headers['content-type']), type)
    }
    const bare = await t.app.inject({ method: 'GET', url: '/workbench' })
    assert.equal(bare.statusCode, 302)
    assert.equal(bare.headers.location, '/workbench/')
    assert.equal((await t.app.inject({ method: 'GET', url: '/workbench/nothing.js' })).statusCode, 404)
  })
})

describe('the logs', () => {
  it('never hold a password, a workbench token, the illness or the record', async () => {
    assert.ok(log.text.includes('/dld-doctor/api/login'), 'the calls are logged')
    for (const secret of [PASSWORD, DEMO_STAFF_PASSWORD, ILLNESS, RECORD.presentIllness, RECORD.diagnosis, desk.free.headers.authorization!.slice(7)]) {
      assert.ok(!log.text.includes(secret), `"${secret}" in the log`)
    }
  })
})
