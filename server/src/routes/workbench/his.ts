import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { forbidden } from '../../errors'
import { id, pageNo, pageSize } from '../schemas'
import { billDetailDto } from '../patient/bills'
import * as bills from '../../domain/bills'
import * as inpatient from '../../domain/recharge/console'
import * as physicalDesk from '../../domain/physical/console'
import type { StaffContext } from '../../domain/staff'
import type { SandboxHis } from '../../plugins/providers/hisSandbox'
import { releaseConsoleReport, reportTemplates } from '../../domain/reportConsole'
import { hospitalCodeOf } from '../../domain/bills/console'

const P = '/dld-doctor/api/his'
const queueDto = z.object({
  id: z.number(),
  kind: z.enum(['pharmacy', 'lab', 'exam', 'treatment']),
  place: z.string(),
  window: z.string(),
  location: z.string(),
  waiting: z.number().int(),
  current: z.string(),
})
const admissionDto = z.object({
  admissionNo: z.string(),
  patientName: z.string(),
  deptName: z.string(),
  ward: z.string(),
  bed: z.string(),
  doctorName: z.string(),
  admittedAt: z.string(),
  status: z.enum(['in', 'discharged']),
  dischargedAt: z.string().nullable(),
  depositFen: z.number().int(),
  costFen: z.number().int(),
  balanceFen: z.number().int(),
  days: z.array(z.object({ date: z.string(), amountFen: z.number().int() })),
  settlement: z.object({ returnedFen: z.number().int(), owedFen: z.number().int() }).nullable(),
})
const admissionParams = z.object({ admissionNo: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '住院号不正确') })
const chargeItems = z
  .array(z.object({ code: z.string().trim().min(1).max(32), quantity: z.coerce.number().int().min(1, '数量至少为1').max(999, '数量不能超过999') }))
  .min(1, '请选择收费项目')
  .max(30, '一次最多记30个项目')
/** A calendar day, YYYY-MM-DD (the HIS's own check keeps it between admission and today). */
const chargeDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期应为YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`)
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v)
  }, '日期不正确')

/**
 * The sandbox HIS's console on the workbench (demo servers: served only while the HIS is the sandbox), behind the
 * workbench token like every `/dld-doctor/api` call: booked visits of the staff's hospital, the price catalogue,
 * issuing orders (they become the patient's unpaid bills), the queues and calling the next number; and the stays in
 * hospital: admitting the patient of a booking, a day's charges, the discharge settlement (the patient's deposit pages
 * read them).
 */
export async function hisConsoleRoutes(scope: FastifyInstance, his: SandboxHis, staffOf: (req: FastifyRequest) => StaffContext) {
  const { cipher } = scope.ctx
  const db = () => scope.ctx.db

  route(scope, {
    method: 'GET',
    url: `${P}/visits`,
    summary: 'Sandbox HIS: booked visits at the staff’s hospital within a week of today, nearest first (or the one with regNo); patient names masked',
    audit: 'payment',
    auth: 'none',
    query: z.object({ regNo: z.string().trim().max(40).optional().transform((v) => v || undefined) }),
    data: z.array(
      z.object({
        registrationId: z.number(),
        regNo: z.string(),
        visitDate: z.string(),
        segmentText: z.string(),
        deptName: z.string(),
        doctorName: z.string(),
        patientId: z.number(),
        patientName: z.string(),
      }),
    ),
    handler: async ({ req, query }) => bills.consoleVisits(db(), cipher, staffOf(req), query, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/catalogue`,
    summary: 'Sandbox HIS: the staff’s hospital’s price catalogue, by keyword (name or code) and category, to order from',
    auth: 'none',
    query: z.object({
      keyword: z.string().trim().max(20, '搜索关键词不能超过20个字').optional().transform((v) => v || undefined),
      category: z.enum(['drug', 'herbal', 'lab', 'exam', 'treatment', 'material', 'service']).optional(),
      page: pageNo,
      size: pageSize(bills.MAX_PAGE_SIZE, 20),
    }),
    data: z.object({
      records: z.array(z.object({ code: z.string(), name: z.string(), spec: z.string(), unit: z.string(), priceFen: z.number().int(), category: z.string(), categoryName: z.string() })),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
    handler: async ({ req, query }) => {
      return bills.listPrices(db(), his, { ...query, hospitalCode: await hospitalCodeOf(db(), staffOf(req)) })
    },
  })

  route(scope, {
    method: 'POST',
    url: `${P}/orders`,
    summary: 'Sandbox HIS: a doctor’s outpatient orders (catalogue items and quantities) for a booked visit of the staff’s hospital; one unpaid bill per place',
    audit: { subject: 'payment', patients: async (_ctx, data) => [data.patientId] },
    auth: 'none',
    body: z.object({
      registrationId: id,
      items: z
        .array(z.object({ code: z.string().trim().min(1).max(32), quantity: z.coerce.number().int().min(1, '数量至少为1').max(999, '数量不能超过999') }))
        .min(1, '请选择收费项目')
        .max(30, '一次最多开30个项目'),
    }),
    data: z.object({ patientId: z.number(), bills: z.array(billDetailDto) }),
    handler: async ({ req, body }) => bills.issueConsoleOrders(db(), cipher, his, staffOf(req), body, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/report-templates`,
    summary: 'Sandbox HIS: the reports the laboratory, radiology and pathology can release (lab panels, CT, ultrasound, biopsy)',
    auth: 'none',
    data: z.array(z.object({ key: z.string(), kind: z.enum(['lab', 'imaging', 'pathology']), title: z.string(), deptName: z.string() })),
    handler: async ({ req }) => (staffOf(req), reportTemplates()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/reports`,
    summary: 'Sandbox HIS: release a report (a template, normal or abnormal) for the patient of a visit at the staff’s hospital; the patient sees it unread',
    audit: { subject: 'report', patients: async (_ctx, data) => [data.patientId] },
    auth: 'none',
    body: z.object({
      registrationId: id,
      template: z.string().trim().min(1, '请选择报告').max(32, '请选择报告'),
      abnormal: z.preprocess((v) => v === true || v === 'true' || v === '1', z.boolean()).default(false),
    }),
    data: z.object({ patientId: z.number(), reportNo: z.string(), title: z.string(), abnormalCount: z.number().int() }),
    handler: async ({ req, body }) => releaseConsoleReport(db(), cipher, his, staffOf(req), body, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/queues`,
    summary: 'Sandbox HIS: the windows of the staff’s hospital, how many wait at each and the number called last',
    auth: 'none',
    data: z.array(queueDto),
    handler: async ({ req }) => bills.consoleQueues(db(), his, staffOf(req)),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/queues/:id/call`,
    summary: 'Sandbox HIS: call the next number of one of the hospital’s queues (null when nobody waits); its bills count as dispensed or performed',
    auth: 'none',
    params: z.object({ id }),
    data: z.object({ queue: queueDto, called: z.object({ ticketNo: z.string(), patientName: z.string() }).nullable() }),
    handler: async ({ req, params }) => bills.consoleCallNext(db(), his, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/admissions`,
    summary: 'Sandbox HIS: the stays at the staff’s hospital (in hospital first, then the latest discharged) with deposits, charges per day, balance and settlement; names masked',
    audit: 'payment',
    auth: 'none',
    data: z.array(admissionDto),
    handler: async ({ req }) => inpatient.consoleAdmissions(db(), his, staffOf(req)),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/admissions`,
    summary: 'Sandbox HIS: admit the patient of a booking at the staff’s hospital to a ward and bed (refused while the patient is already in hospital there)',
    audit: { subject: 'payment', patients: async (_ctx, data) => [data.patientId] },
    auth: 'none',
    body: z.object({
      registrationId: id,
      ward: z.string().trim().min(1, '请填写病区').max(32, '病区不能超过32个字'),
      bed: z.string().trim().min(1, '请填写床号').max(16, '床号不能超过16个字'),
    }),
    data: admissionDto.extend({ patientId: z.number() }),
    handler: async ({ req, body }) => inpatient.admitFromBooking(db(), cipher, his, staffOf(req), body, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/admissions/:admissionNo/charges`,
    summary: 'Sandbox HIS: post one day’s charges (catalogue items and quantities, priced now) to a stay in hospital, from the day of admission to today',
    audit: 'payment',
    auth: 'none',
    params: admissionParams,
    body: z.object({ date: chargeDate, items: chargeItems }),
    data: admissionDto,
    handler: async ({ req, params, body }) => inpatient.postConsoleCharges(db(), his, staffOf(req), params.admissionNo, body, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/admissions/:admissionNo/discharge`,
    summary: 'Sandbox HIS: discharge settlement (出院结算): what is left of the deposits is returned, what they did not cover stays owed; again answers the settlement',
    audit: 'payment',
    auth: 'none',
    params: admissionParams,
    data: admissionDto,
    handler: async ({ req, params }) => inpatient.dischargeConsole(db(), his, staffOf(req), params.admissionNo, new Date()),
  })

  const deskRow = z.object({
    examNo: z.string(),
    patientId: z.number().nullable(),
    patientName: z.string(),
    packageName: z.string(),
    examDate: z.string(),
    status: z.enum(['held', 'paid', 'released', 'checkedIn', 'finished']),
  })
  const examParams = z.object({ examNo: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '体检编号不正确') })
  const deskPatients = async (_ctx: unknown, data: { patientId: number | null } | { patientId: number | null }[]) =>
    (Array.isArray(data) ? data : [data]).flatMap((r) => (r.patientId === null ? [] : [r.patientId]))
  route(scope, {
    method: 'GET',
    url: `${P}/physical`,
    summary: 'Sandbox HIS: the physical-exam centre’s paid exams of a day (today by default) at the staff’s hospital; names masked',
    audit: { subject: 'physical', patients: deskPatients },
    auth: 'none',
    query: z.object({ date: chargeDate.optional() }),
    data: z.array(deskRow),
    handler: async ({ req, query }) => physicalDesk.consolePhysicalDay(db(), his, staffOf(req), query.date, new Date()),
  })
  route(scope, {
    method: 'POST',
    url: `${P}/physical/:examNo/check-in`,
    summary: 'Sandbox HIS: the patient of a paid exam is at the physical-exam centre (only on the exam day)',
    audit: { subject: 'physical', patients: deskPatients },
    auth: 'none',
    params: examParams,
    data: deskRow,
    handler: async ({ req, params }) => physicalDesk.consoleCheckIn(db(), his, staffOf(req), params.examNo, new Date()),
  })
  route(scope, {
    method: 'POST',
    url: `${P}/physical/:examNo/finish`,
    summary: 'Sandbox HIS: the exam is finished: its report is written and released to the patient (readable as a PDF)',
    audit: { subject: 'physical', patients: deskPatients },
    auth: 'none',
    params: examParams,
    data: deskRow,
    handler: async ({ req, params }) => physicalDesk.consoleFinish(db(), his, staffOf(req), params.examNo, new Date()),
  })
  // ---- examination devices and nucleic-acid tests (issue 18) ------------------------------------------------------

  const nucleicTestDto = z.object({
    sampleNo: z.string(),
    orderNo: z.string(),
    kindName: z.string(),
    patientName: z.string(),
    status: z.enum(['unpaid', 'registered', 'sampled', 'reported', 'cancelled']),
    result: z.enum(['阴性', '阳性']).nullable(),
    registeredAt: z.string(),
    sampledAt: z.string().nullable(),
    reportedAt: z.string().nullable(),
  })
  const sampleParams = z.object({ sampleNo: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '采样条码不正确') })

  route(scope, {
    method: 'GET',
    url: `${P}/exam/devices`,
    summary: 'Sandbox HIS: the examination devices of the staff’s hospital (CT, MRI, ultrasound, endoscopy) that take appointments',
    auth: 'none',
    data: z.array(z.object({ deviceId: z.number(), place: z.string(), deviceName: z.string(), location: z.string() })),
    handler: async ({ req }) => his.examDevices(await hospitalCodeOf(db(), staffOf(req))),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/exam/devices/:id/bookings`,
    summary: 'Sandbox HIS: one device’s booked appointments of a day, by time; patient names masked; another hospital’s device is 2999',
    audit: 'medtech',
    auth: 'none',
    params: z.object({ id }),
    query: z.object({ date: chargeDate }),
    data: z.array(
      z.object({ appointmentNo: z.string(), billNo: z.string(), title: z.string(), patientName: z.string(), startTime: z.string(), endTime: z.string(), status: z.enum(['booked', 'cancelled']) }),
    ),
    handler: async ({ req, params, query }) => {
      const bookings = await his.deviceBookings(await hospitalCodeOf(db(), staffOf(req)), params.id, query.date)
      if (!bookings) throw forbidden()
      return bookings
    },
  })

  route(scope, {
    method: 'GET',
    url: `${P}/nucleic/tests`,
    summary: 'Sandbox HIS: the nucleic-acid tests of the staff’s hospital paid in the last 14 days, newest first; patient names masked',
    audit: 'nucleic',
    auth: 'none',
    data: z.array(nucleicTestDto),
    handler: async ({ req }) => his.nucleicConsole(await hospitalCodeOf(db(), staffOf(req))),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/nucleic/tests/:sampleNo/sample`,
    summary: 'Sandbox HIS: the sample of a paid test is taken at the sampling point (it can no longer be cancelled); again answers it as it is',
    audit: 'nucleic',
    auth: 'none',
    params: sampleParams,
    data: nucleicTestDto,
    handler: async ({ req, params }) => his.sampleNucleic(await hospitalCodeOf(db(), staffOf(req)), params.sampleNo, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/nucleic/tests/:sampleNo/release`,
    summary: 'Sandbox HIS: release a sampled test’s result (阴性 or 阳性) with the report time; the patient reads it at once',
    audit: 'nucleic',
    auth: 'none',
    params: sampleParams,
    body: z.object({ result: z.enum(['阴性', '阳性'], { error: '检测结果应为阴性或阳性' }) }),
    data: nucleicTestDto,
    handler: async ({ req, params, body }) => his.releaseNucleic(await hospitalCodeOf(db(), staffOf(req)), params.sampleNo, body.result, new Date()),
  })
}
