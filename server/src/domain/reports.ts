/**
 * Reports a patient reads (检查检验报告, spec §2 Palm pages Reports, §7 Reports, issue 18): the chosen patient's lab,
 * imaging and pathology reports from the HIS, newest first with this account's unread marks, one report whole, one
 * lab item across earlier reports (trend), the cloud film's viewer link, and all of them as a FHIR R4 Bundle.
 *
 * Access first: the patient must be one of the caller's (2999 otherwise, nothing said). A patient whose mobile is not
 * the account's own (a relative) needs the code sent to that mobile once per sign-in session (report_verifications);
 * until then the list is empty and says so, and a report is refused.
 */
import { and, count, eq, inArray } from 'drizzle-orm'
import type {
  CloudStudy,
  CloudViewerParam,
  ImagingReport,
  LabReport,
  LabTrend,
  PathologyReport,
  ReportDetail,
  ReportKind,
  ReportPage,
  ReportVerifyAnswer,
  ReportVerifyState,
} from '../../../types/api/report'
import type { Db } from '../db'
import { hmacHex, type FieldCipher } from '../crypto'
import { reportReads, reportRefs, reportVerifications, users } from '../db/schema'
import { badInput, forbidden, notFound } from '../errors'
import type { HisPatient, HisProvider, HisReport, HisReportSummary } from '../plugins/providers/his'
import type { SmsProvider } from '../plugins/providers/sms'
import { numericValue } from '@/utils/reportRules'
import { maskMobile, maskName } from '@/utils/mask'
import { codeSentAnswer, consumeSmsCode, createSmsCode, type AuthContext } from './auth'
import { hisPatientOf, ownPatientAt, type PatientRow } from './bills/his'
import { requireOwnPatient } from './patient'
import { requireHospital } from './hospital'
import { reportsBundle, type FhirBundle } from './reportFhir'

export const REPORT_PAGE_MAX = 50
/** The SMS code's purpose for a relative's reports. */
export const REPORT_SMS_PURPOSE = 'report'
export const VERIFY_FIRST = '查看该就诊人的报告需先完成短信验证'
export const NO_PATIENT_MOBILE = '该就诊人未登记手机号，无法发送验证码，请先完善就诊人信息'
export const NOT_LAB = '该报告不是检验报告'
export const NOT_IMAGING = '该报告不是检查报告'
export const NO_IMAGES = '该检查暂无云影像'
export const NO_VIEWER = '医院暂未开通云影像'
/** The most earlier lab reports a trend looks through, and reports a FHIR copy holds per kind. */
const HISTORY_MAX = 100
/** How long a cloud film link works. */
const VIEWER_LINK_SECONDS = 30 * 60

type Caller = Pick<AuthContext, 'sessionId'> & { userId: number }

/** Whether reading this patient's reports needs the code sent to their mobile, and where it goes. */
async function verifyNeed(db: Db, cipher: FieldCipher, caller: Caller, patient: PatientRow): Promise<ReportVerifyState & { mobilePlain: string | null; verified: boolean }> {
  const mobile = patient.mobileEnc ? cipher.decrypt(patient.mobileEnc) : null
  const [account] = await db.select({ mobileIndex: users.mobileIndex }).from(users).where(eq(users.id, caller.userId))
  if (mobile && account?.mobileIndex === cipher.blindIndex(mobile)) return { required: false, mobile: '', mobilePlain: mobile, verified: true }
  const [proof] = await db
    .select({ id: reportVerifications.id })
    .from(reportVerifications)
    .where(and(eq(reportVerifications.sessionId, caller.sessionId), eq(reportVerifications.patientId, patient.id)))
  return { required: !proof, mobile: mobile ? maskMobile(mobile) : '', mobilePlain: mobile, verified: !!proof }
}

/** The app's numbers of these HIS reports of the patient, made on first sight (a race makes one, the unique key). */
async function refsOf(db: Db, hospitalId: number, patientId: number, reports: Pick<HisReportSummary, 'reportNo' | 'kind'>[]): Promise<Map<string, number>> {
  if (!reports.length) return new Map()
  await db
    .insert(reportRefs)
    .values(reports.map((r) => ({ hospitalId, patientId, kind: r.kind, reportNo: r.reportNo })))
    .onConflictDoNothing()
  const rows = await db
    .select({ id: reportRefs.id, reportNo: reportRefs.reportNo })
    .from(reportRefs)
    .where(and(eq(reportRefs.hospitalId, hospitalId), eq(reportRefs.patientId, patientId), inArray(reportRefs.reportNo, reports.map((r) => r.reportNo))))
  return new Map(rows.map((r) => [r.reportNo, r.id]))
}

async function readIds(db: Db, userId: number, refIds: number[]): Promise<Set<number>> {
  if (!refIds.length) return new Set()
  const rows = await db
    .select({ refId: reportReads.refId })
    .from(reportReads)
    .where(and(eq(reportReads.userId, userId), inArray(reportReads.refId, refIds)))
  return new Set(rows.map((r) => r.refId))
}

/**
 * POST /report/list (and /pathology/list): the patient's reports of one kind, newest first, a page at a time, each
 * with this account's unread mark; a relative's stay hidden until the code is checked.
 */
export async function listReports(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  caller: Caller,
  input: { hospitalCode: string; patientId: number; kind: ReportKind; page: number; size: number },
): Promise<ReportPage> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  const need = await verifyNeed(db, cipher, caller, patient)
  const verify = { required: need.required, mobile: need.mobile }
  if (need.required) return { records: [], total: 0, page: input.page, size: input.size, unread: 0, verify }
  const { records, total } = await his.reports({ hospitalCode: hospital.code, patient: who, kind: input.kind, page: input.page, size: input.size })
  const refs = await refsOf(db, hospital.id, patient.id, records)
  const read = await readIds(db, caller.userId, [...refs.values()])
  const [readOfKind] = await db
    .select({ n: count() })
    .from(reportReads)
    .innerJoin(reportRefs, eq(reportRefs.id, reportReads.refId))
    .where(and(eq(reportReads.userId, caller.userId), eq(reportRefs.hospitalId, hospital.id), eq(reportRefs.patientId, patient.id), eq(reportRefs.kind, input.kind)))
  return {
    records: records.map((r) => {
      const id = refs.get(r.reportNo)!
      return { id, kind: r.kind, reportNo: r.reportNo, title: r.title, deptName: r.deptName, reportedAt: r.reportedAt, unread: !read.has(id), abnormalCount: r.abnormalCount, patientId: patient.id }
    }),
    total,
    page: input.page,
    size: input.size,
    unread: Math.max(0, total - (readOfKind?.n ?? 0)),
    verify,
  }
}

/** One report by the app's number: the caller's own patient's (2999 otherwise), verified, as the HIS has it. */
async function ownReport(db: Db, cipher: FieldCipher, his: HisProvider, caller: Caller, id: number) {
  const [ref] = await db.select().from(reportRefs).where(eq(reportRefs.id, id))
  if (!ref) throw forbidden()
  const patient = await requireOwnPatient(db, caller.userId, ref.patientId)
  const need = await verifyNeed(db, cipher, caller, patient)
  if (need.required) throw badInput(VERIFY_FIRST)
  const hospital = await requireHospital(db, ref.hospitalId)
  const who = await hisPatientOf(db, cipher, patient, hospital.id)
  const [report] = await his.reportsByNo({ hospitalCode: hospital.code, patient: who, reportNos: [ref.reportNo] })
  if (!report) throw notFound('报告')
  return { ref, patient, hospital, who, report }
}

async function markRead(db: Db, userId: number, refId: number) {
  await db.insert(reportReads).values({ userId, refId }).onConflictDoNothing()
}

function detailOf(id: number, patientId: number, patientName: string, r: HisReport): ReportDetail {
  const base = {
    id,
    patientId,
    patientName: maskName(patientName),
    reportNo: r.reportNo,
    title: r.title,
    deptName: r.deptName,
    doctorName: r.doctorName,
    reporterName: r.reporterName,
    checkerName: r.checkerName,
    requestedAt: r.requestedAt,
    reportedAt: r.reportedAt,
  }
  if (r.kind === 'lab') return { ...base, kind: 'lab', specimen: r.specimen, items: r.items } satisfies LabReport
  if (r.kind === 'imaging')
    return {
      ...base,
      kind: 'imaging',
      modality: r.modality,
      examPart: r.examPart,
      device: r.device,
      findings: r.findings,
      impression: r.impression,
      hasImages: r.studyUid !== '',
    } satisfies ImagingReport
  return { ...base, kind: 'pathology', specimen: r.specimen, description: r.findings, diagnosis: r.impression } satisfies PathologyReport
}

/** POST /report/{id}, /assay/detail, /pacs/detail: the report whole; it is read now. `kind` refuses another kind. */
export async function reportDetail(db: Db, cipher: FieldCipher, his: HisProvider, caller: Caller, id: number, kind?: ReportKind): Promise<ReportDetail> {
  const { ref, patient, report } = await ownReport(db, cipher, his, caller, id)
  if (kind && report.kind !== kind) throw badInput(kind === 'lab' ? NOT_LAB : NOT_IMAGING)
  await markRead(db, caller.userId, ref.id)
  return detailOf(ref.id, patient.id, cipher.decrypt(patient.nameEnc), report)
}

/** The patient's newest reports of a kind, whole (at most HISTORY_MAX). */
async function labHistory(his: HisProvider, hospitalCode: string, who: HisPatient, kind: ReportKind) {
  const { records } = await his.reports({ hospitalCode, patient: who, kind, page: 1, size: HISTORY_MAX })
  return his.reportsByNo({ hospitalCode, patient: who, reportNos: records.map((r) => r.reportNo) })
}

/** POST /assay/trend: one item of a lab report across the patient's lab reports that measured it, oldest first. */
export async function labTrend(db: Db, cipher: FieldCipher, his: HisProvider, caller: Caller, input: { id: number; code: string }): Promise<LabTrend> {
  const { patient, hospital, who, report } = await ownReport(db, cipher, his, caller, input.id)
  if (report.kind !== 'lab') throw badInput(NOT_LAB)
  const item = report.items.find((i) => i.code === input.code)
  if (!item) throw badInput('该报告没有这个检验项目')
  const history = await labHistory(his, hospital.code, who, 'lab')
  const refs = await refsOf(db, hospital.id, patient.id, history)
  const points = history
    .flatMap((r) => {
      const same = r.items.find((i) => i.code === input.code && i.unit === item.unit)
      const value = same ? numericValue(same.value) : null
      return same && value !== null ? [{ reportId: refs.get(r.reportNo)!, reportedAt: r.reportedAt, value, flag: same.flag }] : []
    })
    .sort((a, b) => a.reportedAt.localeCompare(b.reportedAt))
  return { code: item.code, name: item.name, unit: item.unit, range: item.range, low: item.low, high: item.high, points }
}

/** POST /cloud: the patient's imaging studies whose film is online, newest first. */
export async function cloudStudies(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  caller: Caller,
  input: { hospitalCode: string; patientId: number; page: number; size: number },
): Promise<ReportPage & { studies: CloudStudy[] }> {
  const page = await listReports(db, cipher, his, caller, { ...input, kind: 'imaging' })
  if (!page.records.length) return { ...page, studies: [] }
  const { hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  const whole = await his.reportsByNo({ hospitalCode: hospital.code, patient: who, reportNos: page.records.map((r) => r.reportNo) })
  const withImages = new Map(whole.filter((r) => r.studyUid).map((r) => [r.reportNo, r]))
  const studies = page.records
    .filter((r) => withImages.has(r.reportNo))
    .map((r) => {
      const w = withImages.get(r.reportNo)!
      return { id: r.id, title: r.title, modality: w.modality, examPart: w.examPart, reportedAt: r.reportedAt, unread: r.unread, patientId: r.patientId }
    })
  return { ...page, studies }
}

/**
 * POST /cloud/pacs/get-param: the cloud film's link from the configured viewer template ({studyUid}, {reportNo},
 * {expires}, {sign}); on a demo server without one, this server's sandbox viewer.
 */
export async function viewerParam(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  caller: Caller,
  id: number,
  viewer: { template: string | null; secret: string; demo: boolean },
  now = new Date(),
): Promise<CloudViewerParam> {
  const { ref, report } = await ownReport(db, cipher, his, caller, id)
  if (report.kind !== 'imaging') throw badInput(NOT_IMAGING)
  if (!report.studyUid) throw badInput(NO_IMAGES)
  const template = viewer.template ?? (viewer.demo ? SANDBOX_VIEWER_TEMPLATE : null)
  if (!template) throw badInput(NO_VIEWER)
  await markRead(db, caller.userId, ref.id)
  const expires = Math.floor(now.getTime() / 1000) + VIEWER_LINK_SECONDS
  const sign = viewerSign(viewer.secret, report.studyUid, expires)
  const fill: Record<string, string> = { studyUid: report.studyUid, reportNo: report.reportNo, expires: String(expires), sign }
  const url = template.replace(/\{(studyUid|reportNo|expires|sign)\}/g, (_, k: string) => encodeURIComponent(fill[k]!))
  return { url, expiresAt: new Date(expires * 1000).toISOString() }
}

/** This server's own viewer of sample films (routes/sandbox/pacs.ts), relative to the server's origin. */
export const SANDBOX_VIEWER_TEMPLATE = '/sandbox/pacs/viewer?study={studyUid}&expires={expires}&sign={sign}'
export const viewerSign = (secret: string, studyUid: string, expires: number) => hmacHex(secret, `pacs:${studyUid}:${expires}`)

/**
 * POST /verifyCode: without a code, sends one to the relative's mobile; with one, checks it (each guess counted, a
 * code used once, in the sign-in codes' table) and lets this session read the patient's reports.
 */
export async function verifyReportCode(
  db: Db,
  cipher: FieldCipher,
  sms: SmsProvider,
  caller: Caller,
  input: { hospitalCode: string; patientId: number; code?: string },
  mode: string,
): Promise<ReportVerifyAnswer> {
  const { patient } = await ownPatientAt(db, cipher, caller.userId, input)
  const need = await verifyNeed(db, cipher, caller, patient)
  if (!need.required) return { sent: false, verified: true, mobile: need.mobile, resendAfter: 0 }
  if (!need.mobilePlain) throw badInput(NO_PATIENT_MOBILE)
  if (!input.code) {
    const code = await createSmsCode(db, cipher, need.mobilePlain, REPORT_SMS_PURPOSE)
    await sms.sendCode(need.mobilePlain, code)
    const sent = codeSentAnswer(code, mode)
    return { ...sent, verified: false, mobile: need.mobile }
  }
  await consumeSmsCode(db, cipher, need.mobilePlain, input.code, REPORT_SMS_PURPOSE)
  await db.insert(reportVerifications).values({ sessionId: caller.sessionId, patientId: patient.id }).onConflictDoNothing()
  return { sent: false, verified: true, mobile: need.mobile, resendAfter: 0 }
}

/** POST /report/fhir: the patient's lab, imaging and pathology reports as one FHIR R4 Bundle (PIPL art. 45). */
export async function reportsFhir(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  caller: Caller,
  input: { hospitalCode: string; patientId: number },
  now = new Date(),
): Promise<FhirBundle> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  const need = await verifyNeed(db, cipher, caller, patient)
  if (need.required) throw badInput(VERIFY_FIRST)
  const reports: HisReport[] = []
  for (const kind of ['lab', 'imaging', 'pathology'] as const) reports.push(...(await labHistory(his, hospital.code, who, kind)))
  return reportsBundle({
    patient: { id: patient.id, name: cipher.decrypt(patient.nameEnc), sex: patient.sex, birthday: patient.birthday },
    hospital: { code: hospital.code, name: hospital.name },
    reports,
    now,
  })
}


/** The patient a report (the app's number) belongs to; null when there is no such report. */
export async function refPatient(db: Db, id: number): Promise<number | null> {
  const [ref] = await db.select({ patientId: reportRefs.patientId }).from(reportRefs).where(eq(reportRefs.id, id))
  return ref?.patientId ?? null
}
