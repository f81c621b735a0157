import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq, sql } from 'drizzle-orm'
import { auditLog, users } from '../../server/src/db/schema'
import { createStaffAccount } from '../../server/src/domain/staff'
import type { AccessRecord, AuditEntry } from '../../types/api/audit'
import type { Inquiry } from '../../types/api/inquiry'
import type { Page } from '../../types/api/hospital'
import { assertForbidden, assertUnauthorisedCall, callApi, signInUser, startTestApp, type TestApp } from './harness'
import { addOnlineDoctor, addPatient, firstSubDepartment, hospitalIdOf, newKey } from './fixtures'

const PASSWORD = 'audit-pass-1618'
let t: TestApp
let owner: Awaited<ReturnType<typeof signInUser>>
let stranger: Awaited<ReturnType<typeof signInUser>>
let admin: Awaited<ReturnType<typeof signInUser>>
let patientId = 0
let strangersPatient = 0
let staffId = 0
let desk: { headers: Record<string, string> }
let inquiry: Inquiry

const rowsOf = (where: ReturnType<typeof eq>) => t.database.db.select().from(auditLog).where(where).orderBy(auditLog.id)

before(async () => {
  t = await startTestApp()
  ;[owner, stranger, admin] = [await signInUser(t.app), await signInUser(t.app), await signInUser(t.app)]
  await t.database.db.update(users).set({ roles: ['admin'] }).where(eq(users.id, admin.userId))
  patientId = await addPatient(t, owner.userId, { name: '审计甲', sex: 1, birthday: '1950-05-05', mobile: '13800000001' })
  strangersPatient = await addPatient(t, stranger.userId, { name: '审计乙', sex: 2, birthday: '1960-06-06', mobile: '13800000002' })
  const hospitalId = await hospitalIdOf(t, '10392')
  const doctorId = await addOnlineDoctor(t, { hospitalId, deptId: await firstSubDepartment(t, hospitalId), name: '审计医生', priceFen: 0 })
  staffId = (await createStaffAccount(t.database.db, { kind: 'doctor', doctorId, login: 'AUDIT-DOC', password: PASSWORD }))!
  const login = await callApi<{ token: string }>(t.app, 'POST', '/dld-doctor/api/login', { body: { login: 'AUDIT-DOC', password: PASSWORD } })
  desk = { headers: { authorization: `Bearer ${login.data.token}` } }
  const ordered = await callApi<Inquiry>(t.app, 'POST', '/dld-hospital/inquiry/addInquiryInfo', {
    caller: owner,
    body: { doctorId, patientId, description: '头晕乏力一周，早上明显', idempotencyKey: newKey('audit') },
  })
  assert.equal(ordered.code, 200, ordered.msg)
  inquiry = ordered.data
})
after(() => t.close())

describe('the audit log', () => {
  it('records a patient’s read of their patients, with every patient, the address and the request', async () => {
    const before = (await rowsOf(eq(auditLog.actorId, owner.userId))).length
    assert.equal((await callApi(t.app, 'GET', '/dld-palm/api/patient/list', { caller: owner })).code, 200)
    const rows = (await rowsOf(eq(auditLog.actorId, owner.userId))).slice(before)
    assert.deepEqual(
      rows.map((r) => [r.actorKind, r.action, r.subject, r.route, r.patientId]),
      [['patient', 'read', 'patient', 'GET /dld-palm/api/patient/list', patientId]],
    )
    assert.match(rows[0]!.address, /^10\./)
    assert.ok(rows[0]!.requestId)
  })

  it('records the reads of a patient’s hospital card against that patient, though those answers name it patientId', async () => {
    const before = (await rowsOf(eq(auditLog.actorId, owner.userId))).length
    const query = { id: String(patientId), hospitalCode: '10392' }
    assert.equal((await callApi(t.app, 'GET', '/dld-palm/api/patient/hospital/patient/record-info', { caller: owner, query })).code, 200)
    const filed = await callApi(t.app, 'GET', '/dld-hospital/autoRegister', { caller: owner, query: { patientId: String(patientId), hospitalCode: '10392' } })
    assert.equal(filed.code, 200, filed.msg)
    assert.equal((await callApi(t.app, 'GET', '/dld-palm/api/patient/hospital/patient/bind', { caller: owner, query })).code, 200)
    const rows = (await rowsOf(eq(auditLog.actorId, owner.userId))).slice(before)
    assert.deepEqual(
      rows.map((r) => [r.route, r.patientId]),
      [
        ['GET /dld-palm/api/patient/hospital/patient/record-info', patientId],
        ['GET /dld-hospital/autoRegister', patientId],
        ['GET /dld-palm/api/patient/hospital/patient/bind', patientId],
      ],
    )
  })

  it('records a doctor’s read and change of a consultation at the workbench against the patient', async () => {
    assert.equal((await callApi(t.app, 'GET', `/dld-doctor/api/inquiries/${inquiry.id}`, { caller: desk })).code, 200)
    assert.equal((await callApi(t.app, 'POST', `/dld-doctor/api/inquiries/${inquiry.id}/accept`, { caller: desk })).code, 200)
    const rows = await rowsOf(eq(auditLog.actorKind, 'staff'))
    assert.deepEqual(
      rows.filter((r) => r.actorId === staffId).map((r) => [r.action, r.subject, r.route, r.patientId]),
      [
        ['read', 'consultation', 'GET /dld-doctor/api/inquiries/:id', patientId],
        ['change', 'consultation', 'POST /dld-doctor/api/inquiries/:id/accept', patientId],
      ],
    )
  })

  it('refuses to change or remove a row, on the database itself', async () => {
    const [row] = await rowsOf(eq(auditLog.actorId, owner.userId))
    const refused = (err: unknown) => /append-only/.test(String((err as { cause?: unknown }).cause ?? err))
    await assert.rejects(t.database.db.update(auditLog).set({ actorId: 0 }).where(eq(auditLog.id, row!.id)), refused)
    await assert.rejects(t.database.db.delete(auditLog).where(eq(auditLog.id, row!.id)), refused)
    await assert.rejects(t.database.db.execute(sql`truncate audit_log`), refused)
    assert.equal((await rowsOf(eq(auditLog.id, row!.id)))[0]?.actorId, owner.userId)
  })
})

describe('GET /dld-user/user/access-log (访问记录)', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', '/dld-user/user/access-log')
  })

  it('rejects a bad page', async () => {
    assert.equal((await callApi(t.app, 'GET', '/dld-user/user/access-log', { caller: owner, query: { page: '0' } })).code, 400)
    assert.equal((await callApi(t.app, 'GET', '/dld-user/user/access-log', { caller: owner, query: { size: '51' } })).code, 400)
  })

  it('shows the patient who at the hospital opened their records, not their own reads; another account sees none of it', async () => {
    const mine = await callApi<Page<AccessRecord>>(t.app, 'GET', '/dld-user/user/access-log', { caller: owner })
    assert.equal(mine.code, 200)
    assert.deepEqual(
      mine.data.records.map((r) => [r.who, r.what]),
      [
        ['审计医生医生', '修改了问诊记录'],
        ['审计医生医生', '查看了问诊记录'],
      ],
    )
    assert.equal(mine.data.total, 2)
    const theirs = await callApi<Page<AccessRecord>>(t.app, 'GET', '/dld-user/user/access-log', { caller: stranger })
    assert.deepEqual([theirs.data.total, theirs.data.records], [0, []])
  })
})

describe('GET /dld-palm/admin/audit', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'GET', '/dld-palm/admin/audit')
  })

  it('is for administrators only', async () => {
    assertForbidden(await callApi(t.app, 'GET', '/dld-palm/admin/audit', { caller: owner, query: { patientId: String(patientId) } }))
  })

  it('rejects a bad filter', async () => {
    assert.equal((await callApi(t.app, 'GET', '/dld-palm/admin/audit', { caller: admin, query: { actorKind: 'robot' } })).code, 400)
  })

  it('finds the rows of a patient, and of an actor', async () => {
    await callApi(t.app, 'GET', `/dld-palm/api/patient/${strangersPatient}`, { caller: stranger })
    const byPatient = await callApi<{ total: number; list: AuditEntry[] }>(t.app, 'GET', '/dld-palm/admin/audit', { caller: admin, query: { patientId: String(patientId) } })
    assert.equal(byPatient.code, 200)
    assert.ok(byPatient.data.list.length >= 3)
    assert.ok(byPatient.data.list.every((r) => r.patientId === patientId))
    const byActor = await callApi<{ total: number; list: AuditEntry[] }>(t.app, 'GET', '/dld-palm/admin/audit', {
      caller: admin,
      query: { actorKind: 'staff', actorId: String(staffId) },
    })
    assert.deepEqual(
      byActor.data.list.map((r) => r.route),
      ['POST /dld-doctor/api/inquiries/:id/accept', 'GET /dld-doctor/api/inquiries/:id'],
    )
    const strangers = await callApi<{ total: number; list: AuditEntry[] }>(t.app, 'GET', '/dld-palm/admin/audit', { caller: admin, query: { patientId: String(strangersPatient) } })
    assert.deepEqual(strangers.data.list.map((r) => [r.actorKind, r.actorId, r.route]), [['patient', stranger.userId, 'GET /dld-palm/api/patient/:id']])
  })
})
