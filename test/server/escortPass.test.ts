import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { auditLog } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { NOT_IN_HOSPITAL_PASS, REFUSAL_TEXT, VALID_TEXT, verifyPass } from '../../server/src/domain/escortPass'
import { resolveStaffToken } from '../../server/src/domain/staff'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { EscortPass, EscortPassCheck } from '../../types/api/escortPass'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, b64, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient } from './fixtures'

const A = '/dld-palm/api'
const PASS = `${A}/accompany/pass`
const VERIFY = '/dld-doctor/api/escort-pass/verify'
const H = '10392'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }
interface Person {
  patientId: number
  idCard: string
  name: string
}

let t: TestApp
let owner: User
let stranger: User
let his: SandboxHis
let desk: Caller
let deskToken: string
let farDesk: Caller

const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

async function signInDesk(login: string): Promise<{ caller: Caller; token: string }> {
  const env = await call<StaffSession>('POST', '/dld-doctor/api/login', { body: { login, password: DEMO_STAFF_PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  return { caller: { headers: { authorization: `Bearer ${env.data.token}` } }, token: env.data.token }
}

async function newPerson(user: User, name: string): Promise<Person> {
  const birth = `19${60 + randomInt(30)}0${1 + randomInt(9)}1${randomInt(9)}`
  const idCard = idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1975-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}

async function addEscort(user: User, p: Person, name = '李陪护'): Promise<number> {
  const idCard = idCardFor(`19${70 + randomInt(20)}0315`, String(randomInt(1000)).padStart(3, '0'), '440305')
  const env = await call<{ id: number }>('POST', `${A}/accompany`, {
    caller: user,
    body: { patientId: p.patientId, name, idCard: b64(idCard), mobile: '13922223333', relation: '子女' },
  })
  assert.equal(env.code, 200, env.msg)
  return env.data.id
}

const admit = (p: Person) =>
  his.admit({ hospitalCode: H, patient: { cardNo: null, idCard: p.idCard, name: p.name }, deptName: '心血管内科', ward: '心内科一病区', bed: '12床', doctorName: '姚秀英' })
const passOf = (caller: Caller, escortId: number | string, hospitalCode = H) => call<EscortPass>('GET', PASS, { caller, query: { escortId: String(escortId), hospitalCode } })
const verify = (caller: Caller | undefined, token: unknown) => call<EscortPassCheck>('POST', VERIFY, { caller, body: { token } })

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  his = t.app.ctx.providers.his as SandboxHis
  const signedIn = await signInDesk('10392001')
  desk = signedIn.caller
  deskToken = signedIn.token
  farDesk = (await signInDesk('10412001')).caller
})
after(() => t.close())

describe('GET /dld-palm/api/accompany/pass', () => {
  it('answers 401/403, 400 for bad input, 2999 for someone else’s escort', async () => {
    const p = await newPerson(owner, '王建华')
    const escortId = await addEscort(owner, p)
    await assertUnauthorisedCall(t.app, 'GET', PASS, { query: { escortId: String(escortId), hospitalCode: H } })
    assertBadInput(await call('GET', PASS, { caller: owner, query: { hospitalCode: H } }))
    assertBadInput(await passOf(owner, 'abc'))
    assertBadInput(await call('GET', PASS, { caller: owner, query: { escortId: String(escortId) } }))
    await admit(p)
    assertForbidden(await passOf(stranger, escortId))
    // an escort that does not exist answers the same
    assertForbidden(await passOf(owner, 2_000_000_000))
  })

  it('is refused with a clear message while the patient is not in hospital', async () => {
    const p = await newPerson(owner, '赵国庆')
    const escortId = await addEscort(owner, p)
    assertBadInput(await passOf(owner, escortId), NOT_IN_HOSPITAL_PASS)
  })

  it('answers a signed pass naming the escort and patient masked, the ward, bed and stay, for 24 hours; the read is audited', async () => {
    const p = await newPerson(owner, '孙立新')
    const escortId = await addEscort(owner, p, '孙小红')
    const stay = await admit(p)
    const before = Date.now()
    const env = await passOf(owner, escortId)
    assert.equal(env.code, 200, env.msg)
    const pass = env.data
    assert.equal(pass.escortName, '孙*红')
    assert.equal(pass.patientName, '孙*新')
    assert.equal(pass.ward, '心内科一病区')
    assert.equal(pass.bed, '12床')
    assert.equal(pass.deptName, '心血管内科')
    assert.equal(pass.admissionNo, stay.admissionNo)
    assert.equal(pass.patientId, p.patientId)
    assert.match(pass.token, /^EP1\.[A-Za-z0-9_-]+\.[0-9a-f]{64}$/)
    // 24 hours from the second it was issued (the pass counts whole seconds), some time between `before` and now
    const expires = Date.parse(pass.expiresAt) - 24 * 3_600_000
    assert.ok(expires > before - 1000 && expires <= Date.now(), `issued ${expires - before} ms after the call`)
    // nothing whole in the token: the names it carries are the masked ones
    const body = Buffer.from(pass.token.split('.')[1]!, 'base64url').toString('utf8')
    assert.ok(!body.includes('孙小红') && !body.includes('孙立新') && !body.includes(p.idCard))
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.route, `GET ${PASS}`), eq(auditLog.patientId, p.patientId)))
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.subject, 'escort')
    assert.equal(rows[0]!.actorKind, 'patient')
    assert.equal(rows[0]!.actorId, owner.userId)
  })
})

describe('POST /dld-doctor/api/escort-pass/verify', () => {
  it('answers 401 without a workbench token (a patient’s token is not one) and 400 without a token to check', async () => {
    assert.equal((await verify(undefined, 'EP1.x.y')).code, 401)
    assert.equal((await verify(owner, 'EP1.x.y')).code, 401)
    assertBadInput(await verify(desk, ''))
  })

  it('valid for the stay; forged when altered or made up; 2999 for another hospital’s staff; audited for the staff', async () => {
    const p = await newPerson(owner, '钱文斌')
    const escortId = await addEscort(owner, p, '钱小芳')
    const stay = await admit(p)
    const { token } = (await passOf(owner, escortId)).data
    const ok = await verify(desk, token)
    assert.equal(ok.code, 200, ok.msg)
    assert.deepEqual({ valid: ok.data.valid, reason: ok.data.reason, reasonText: ok.data.reasonText }, { valid: true, reason: null, reasonText: VALID_TEXT })
    assert.equal(ok.data.pass?.escortName, '钱*芳')
    assert.equal(ok.data.pass?.patientName, '钱*斌')
    assert.equal(ok.data.pass?.bed, '12床')
    assert.equal(ok.data.pass?.admissionNo, stay.admissionNo)

    // another bed written into the body, the signature kept
    const [prefix, body, signature] = token.split('.')
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))
    const altered = `${prefix}.${Buffer.from(JSON.stringify({ ...claims, b: '1床' })).toString('base64url')}.${signature}`
    for (const forged of [altered, `${prefix}.${body}.${'0'.repeat(64)}`, 'hello', `${token}.x`]) {
      const env = await verify(desk, forged)
      assert.equal(env.code, 200, env.msg)
      assert.deepEqual(env.data, { valid: false, reason: 'forged', reasonText: REFUSAL_TEXT.forged, pass: null })
    }
    assertForbidden(await verify(farDesk, token))

    const rows = await t.database.db.select().from(auditLog).where(and(eq(auditLog.route, `POST ${VERIFY}`), eq(auditLog.patientId, p.patientId)))
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.actorKind, 'staff')
    assert.equal(rows[0]!.subject, 'escort')
  })

  it('invalid after discharge (the stay ended), after 24 hours (expired), and once the escort is unbound', async () => {
    const p = await newPerson(owner, '周海涛')
    const escortId = await addEscort(owner, p)
    const other = await addEscort(owner, p, '周小兰')
    const stay = await admit(p)
    const { token } = (await passOf(owner, escortId)).data
    const second = (await passOf(owner, other)).data.token

    // expired: the same pass read a day and an hour later
    const staff = await resolveStaffToken(t.database.db, deskToken)
    const later = await verifyPass(t.database.db, t.app.ctx.cipher, his, t.config.secret, staff!, token, new Date(Date.now() + 25 * 3_600_000))
    assert.equal(later.valid, false)
    assert.equal(later.reason, 'expired')

    assert.equal((await call('POST', `${A}/accompany/${other}`, { caller: owner })).code, 200)
    const unbound = await verify(desk, second)
    assert.equal(unbound.data.reason, 'unbound')
    assert.equal(unbound.data.valid, false)

    const discharged = await call('POST', `/dld-doctor/api/his/admissions/${stay.admissionNo}/discharge`, { caller: desk })
    assert.equal(discharged.code, 200, discharged.msg)
    const ended = await verify(desk, token)
    assert.equal(ended.code, 200, ended.msg)
    assert.equal(ended.data.valid, false)
    assert.equal(ended.data.reason, 'ended')
    assert.equal(ended.data.reasonText, REFUSAL_TEXT.ended)
    // and no new pass for a patient no longer in hospital
    assertBadInput(await passOf(owner, escortId), NOT_IN_HOSPITAL_PASS)
  })
})
