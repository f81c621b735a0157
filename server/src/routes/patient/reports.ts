import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { recordAudit } from '../../domain/audit'
import { CALLER_LIMITS } from '../../domain/limits'
import * as reports from '../../domain/reports'
import { hospitalCode, id, pageNo, pageSize, smsCode } from '../schemas'

const kind = z.enum(['lab', 'imaging', 'pathology'], { error: '报告类型不正确' })
const flag = z.enum(['H', 'L', 'N', ''])
const patientAt = z.object({ hospitalCode, patientId: id })
const paging = { page: pageNo, size: pageSize(reports.REPORT_PAGE_MAX) }
const verifyDto = z.object({ required: z.boolean(), mobile: z.string() })
const summaryDto = z.object({
  id: z.number(),
  kind,
  reportNo: z.string(),
  title: z.string(),
  deptName: z.string(),
  reportedAt: z.string(),
  unread: z.boolean(),
  abnormalCount: z.number().int(),
  patientId: z.number(),
})
const pageDto = z.object({ records: z.array(summaryDto), total: z.number().int(), page: z.number().int(), size: z.number().int(), unread: z.number().int(), verify: verifyDto })
const base = {
  id: z.number(),
  patientId: z.number(),
  patientName: z.string(),
  reportNo: z.string(),
  title: z.string(),
  deptName: z.string(),
  doctorName: z.string(),
  reporterName: z.string(),
  checkerName: z.string(),
  requestedAt: z.string(),
  reportedAt: z.string(),
}
const labItemDto = z.object({
  code: z.string(),
  name: z.string(),
  value: z.string(),
  unit: z.string(),
  range: z.string(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  flag,
})
const labDto = z.object({ ...base, kind: z.literal('lab'), specimen: z.string(), items: z.array(labItemDto) })
const imagingDto = z.object({
  ...base,
  kind: z.literal('imaging'),
  modality: z.string(),
  examPart: z.string(),
  device: z.string(),
  findings: z.string(),
  impression: z.string(),
  hasImages: z.boolean(),
})
const pathologyDto = z.object({ ...base, kind: z.literal('pathology'), specimen: z.string(), description: z.string(), diagnosis: z.string() })
const detailDto = z.discriminatedUnion('kind', [labDto, imagingDto, pathologyDto])
const cloudDto = pageDto.extend({
  studies: z.array(z.object({ id: z.number(), title: z.string(), modality: z.string(), examPart: z.string(), reportedAt: z.string(), unread: z.boolean(), patientId: z.number() })),
})
const byId = z.object({ id })

/**
 * Reports (检查检验报告), `/dld-palm/api` (spec §7 Palm service Reports, types/api/report.ts): the chosen patient's
 * lab, imaging and pathology reports from the HIS with this account's unread marks, a report whole, a lab item's
 * trend, the cloud film, a relative's SMS code, and the FHIR copy. Every call is checked against the caller first
 * (someone else's patient or report answers 2999), and every read is written to the audit log, naming the report.
 */
export async function reportRoutes(app: FastifyInstance) {
  const { cipher, config, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  /** The audit row of a read: the call, with the report or the kind it read, and the patient. */
  const audit = (req: FastifyRequest, userId: number, what: string, patientId: number) =>
    recordAudit(db(), {
      actor: { kind: 'patient', id: userId },
      action: 'read',
      subject: 'report',
      route: `${req.method} ${req.routeOptions.url ?? req.url} ${what}`,
      patientIds: [patientId],
      address: req.ip,
      requestId: req.id,
    })

  /** The patient of a report the caller has just been allowed to read (a trend or a film link names none of its own). */
  const reportPatient = async (reportId: number) => (await reports.refPatient(db(), reportId)) ?? 0

  route(app, {
    method: 'POST',
    url: `${A}/report/list`,
    summary:
      'The chosen patient’s reports of one kind (lab 检验, imaging 检查, pathology 病理) from the HIS, newest first, paged, each with this account’s unread mark; ' +
      'a relative (mobile not the account’s) answers no reports and verify.required until POST /verifyCode',
    auth: 'user',
    body: patientAt.extend({ kind, ...paging }),
    data: pageDto,
    handler: async ({ body, auth, req }) => {
      const page = await reports.listReports(db(), cipher, providers.his, auth, body)
      await audit(req, auth.userId, `kind=${body.kind}`, body.patientId)
      return page
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/pathology/list`,
    summary: 'The chosen patient’s pathology reports (病理), newest first, paged, with unread marks (report/list of kind pathology)',
    auth: 'user',
    body: patientAt.extend(paging),
    data: pageDto,
    handler: async ({ body, auth, req }) => {
      const page = await reports.listReports(db(), cipher, providers.his, auth, { ...body, kind: 'pathology' })
      await audit(req, auth.userId, 'kind=pathology', body.patientId)
      return page
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/report/:id`,
    summary: 'One report of the caller’s patient, whole, of any kind (lab items, imaging findings and impression, pathology diagnosis); marks it read',
    auth: 'user',
    params: byId,
    data: detailDto,
    handler: async ({ params, auth, req }) => {
      const detail = await reports.reportDetail(db(), cipher, providers.his, auth, params.id)
      await audit(req, auth.userId, `report=${detail.id}`, detail.patientId)
      return detail
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/assay/detail`,
    summary: 'One lab report (检验): each item with value, unit, reference range and flag (H above, L below, N within); marks it read',
    auth: 'user',
    body: byId,
    data: labDto,
    handler: async ({ body, auth, req }) => {
      const detail = await reports.reportDetail(db(), cipher, providers.his, auth, body.id, 'lab')
      await audit(req, auth.userId, `report=${detail.id}`, detail.patientId)
      return detail as z.input<typeof labDto>
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/assay/trend`,
    summary: 'One item of a lab report across the patient’s lab reports that measured it in the same unit, oldest first (the trend chart); the spec names no call for it',
    auth: 'user',
    body: byId.extend({ code: z.string().trim().min(1, '请选择检验项目').max(64, '检验项目不正确') }),
    data: z.object({
      code: z.string(),
      name: z.string(),
      unit: z.string(),
      range: z.string(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      points: z.array(z.object({ reportId: z.number(), reportedAt: z.string(), value: z.number(), flag })),
    }),
    handler: async ({ body, auth, req }) => {
      const trend = await reports.labTrend(db(), cipher, providers.his, auth, body)
      await audit(req, auth.userId, `report=${body.id} item=${trend.code}`, await reportPatient(body.id))
      return trend
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/pacs/detail`,
    summary: 'One imaging report (检查): modality, exam part, device, findings (所见) and impression (诊断意见), whether its cloud film can be opened; marks it read',
    auth: 'user',
    body: byId,
    data: imagingDto,
    handler: async ({ body, auth, req }) => {
      const detail = await reports.reportDetail(db(), cipher, providers.his, auth, body.id, 'imaging')
      await audit(req, auth.userId, `report=${detail.id}`, detail.patientId)
      return detail as z.input<typeof imagingDto>
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/cloud`,
    summary: 'The chosen patient’s imaging studies whose film is online (云影像), newest first, paged',
    auth: 'user',
    body: patientAt.extend(paging),
    data: cloudDto,
    handler: async ({ body, auth, req }) => {
      const page = await reports.cloudStudies(db(), cipher, providers.his, auth, body)
      await audit(req, auth.userId, 'kind=cloud', body.patientId)
      return page
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/cloud/pacs/get-param`,
    summary: 'The link that opens an imaging report’s cloud film in the viewer (PACS_VIEWER_URL, or the sandbox viewer on a demo server), valid 30 minutes',
    auth: 'user',
    body: byId,
    data: z.object({ url: z.string(), expiresAt: z.string() }),
    handler: async ({ body, auth, req }) => {
      const param = await reports.viewerParam(db(), cipher, providers.his, auth, body.id, { template: config.pacsViewerUrl, secret: config.secret, demo: config.demo })
      await audit(req, auth.userId, `report=${body.id} film`, await reportPatient(body.id))
      return param
    },
  })

  route(app, {
    method: 'POST',
    url: `${A}/verifyCode`,
    summary:
      'A relative’s reports (the patient’s mobile is not the account’s): without code, sends an SMS code to the patient’s mobile; with code, checks it and lets this sign-in session read them',
    auth: 'user',
    callerLimit: CALLER_LIMITS.sms,
    rateLimit: { max: config.smsPerAddressPerMinute * 2, timeWindow: 60_000 },
    body: patientAt.extend({ code: smsCode.optional() }),
    data: z.object({ sent: z.boolean(), verified: z.boolean(), mobile: z.string(), resendAfter: z.number(), devCode: z.string().optional() }),
    handler: async ({ body, auth }) => reports.verifyReportCode(db(), cipher, providers.sms, auth, body, config.mode),
  })

  route(app, {
    method: 'POST',
    url: `${A}/report/fhir`,
    summary: 'The chosen patient’s lab, imaging and pathology reports as a FHIR R4 Bundle (Patient, Encounter, DiagnosticReport, Observation) to keep or share (PIPL art. 45)',
    auth: 'user',
    rateLimit: { max: 10, timeWindow: 60_000 },
    body: patientAt,
    data: z.object({ resourceType: z.literal('Bundle'), id: z.string(), type: z.literal('collection'), timestamp: z.string(), entry: z.array(z.object({ fullUrl: z.string(), resource: z.record(z.string(), z.unknown()) })) }),
    handler: async ({ body, auth, req }) => {
      const bundle = await reports.reportsFhir(db(), cipher, providers.his, auth, body)
      await audit(req, auth.userId, 'fhir', body.patientId)
      return bundle
    },
  })
}
