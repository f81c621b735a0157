import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idempotencyKey, pageNo, pageSize } from '../schemas'
import { payActionDto, payOrderDto } from './pay'
import * as medtech from '../../domain/medtech'
import * as nucleic from '../../domain/nucleic'

const billNo = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '检查单号不正确')
const appointmentNo = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '预约单号不正确')
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为YYYY-MM-DD')
const patientAt = z.object({ hospitalCode, patientId: id })
const orderStatus = z.enum(['created', 'paying', 'paid', 'cancelled', 'refunding', 'refunded', 'closed'])

const appointmentDto = z.object({
  appointmentNo: z.string(),
  billNo: z.string(),
  title: z.string(),
  place: z.string(),
  deviceName: z.string(),
  location: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  status: z.enum(['booked', 'cancelled']),
  statusText: z.string(),
  rescheduled: z.number().int(),
  changeable: z.boolean(),
  createdAt: z.string(),
})
const appointmentDetailDto = appointmentDto.extend({
  patientId: z.number(),
  patientName: z.string(),
  hospitalCode: z.string(),
  items: z.array(z.string()),
  preparation: z.array(z.string()),
})
const examDto = z.object({
  billNo: z.string(),
  title: z.string(),
  items: z.array(z.string()),
  place: z.string(),
  location: z.string(),
  deptName: z.string(),
  doctorName: z.string(),
  orderedAt: z.string(),
  amountFen: z.number().int(),
  preparation: z.array(z.string()),
  appointment: appointmentDto.nullable(),
})
const deviceDto = z.object({
  deviceId: z.number(),
  deviceName: z.string(),
  location: z.string(),
  slots: z.array(z.object({ slotId: z.number(), startTime: z.string(), endTime: z.string(), capacity: z.number().int(), remaining: z.number().int() })),
})
const testStatus = z.enum(['registered', 'sampled', 'reported', 'cancelled'])
const nucleicOrderDto = z.object({
  id: z.number(),
  orderNo: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  kindCode: z.string(),
  kindName: z.string(),
  amountFen: z.number().int(),
  status: orderStatus,
  statusText: z.string(),
  sampleNo: z.string().nullable(),
  testStatus: testStatus.nullable(),
  testStatusText: z.string(),
  payable: z.boolean(),
  refundable: z.boolean(),
  order: payOrderDto,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
})
const nucleicResultDto = z.object({
  sampleNo: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  kindName: z.string(),
  status: testStatus,
  statusText: z.string(),
  result: z.enum(['阴性', '阳性']).nullable(),
  sampledAt: z.string().nullable(),
  reportedAt: z.string().nullable(),
  registeredAt: z.string(),
})
const page = <T extends z.ZodType>(item: T) => z.object({ records: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() })
const byBody = async ({ body }: { body: { patientId: number } }) => [body.patientId]

/**
 * Examination appointments (医技预约, spec §7 Reports `med-tech/appointment/*`) and nucleic-acid tests (spec §7
 * Payment `init/nucleic`, `nucleic/list`, `nucleic/codeImage/{id}`, Reports `nucleic`), `/dld-palm/api`
 * (types/api/medtech.ts). Every call checks the patient, the bill, the appointment or the test against the caller
 * first: someone else's answers 2999, saying nothing about it. Every read and change is in the audit log.
 */
export async function medTechRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'
  const M = `${A}/report/med-tech/appointment`

  route(app, {
    method: 'POST',
    url: `${M}/orders`,
    summary: 'The patient’s paid examinations that take an appointment (CT, MRI, ultrasound, endoscopy) at a hospital, newest first, each with its preparation notes and its booked appointment (null before booking)',
    audit: { subject: 'medtech', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt,
    data: z.array(examDto),
    handler: async ({ body, auth }) => medtech.examsToBook(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/date`,
    summary: `The days (from today, ${medtech.BOOKING_DAYS} days) on which one of the patient’s examinations may be booked, with the places left each day over all its devices`,
    audit: { subject: 'medtech', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt.extend({ billNo }),
    data: z.array(z.object({ date: z.string(), remaining: z.number().int() })),
    handler: async ({ body, auth }) => medtech.examDates(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/list`,
    summary: 'The devices that perform one of the patient’s examinations and their slots on one day (those not started), with places and places left',
    audit: { subject: 'medtech', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt.extend({ billNo, date }),
    data: z.array(deviceDto),
    handler: async ({ body, auth }) => medtech.examSlots(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/order`,
    summary:
      'Book one of the patient’s paid examinations into a slot; when it is already booked, move it there (改约) in one step: the new place taken and the old freed together. ' +
      'Refused when the slot is full, started, or of another examination; the same idempotencyKey answers the same appointment',
    callerLimit: CALLER_LIMITS.order,
    audit: { subject: 'medtech', patients: byBody },
    auth: 'user',
    body: patientAt.extend({ billNo, slotId: id, idempotencyKey }),
    data: appointmentDetailDto,
    handler: async ({ body, auth }) => medtech.bookExam(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/detail`,
    summary: 'One of the patient’s examination appointments: device, place, day and time, and what to do before it (空腹, 憋尿, 去除金属物品 ...)',
    audit: { subject: 'medtech', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt.extend({ appointmentNo }),
    data: appointmentDetailDto,
    handler: async ({ body, auth }) => medtech.appointmentDetail(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/cancel`,
    summary: 'Cancel one of the patient’s examination appointments before its slot starts (the place is freed; the examination may be booked again); a cancelled one is answered as it is',
    audit: { subject: 'medtech', patients: byBody },
    auth: 'user',
    body: patientAt.extend({ appointmentNo }),
    data: appointmentDetailDto,
    handler: async ({ body, auth }) => medtech.cancelAppointment(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${M}/records`,
    summary: 'The patient’s examination appointments at a hospital, booked and cancelled, newest first (the order records page /pages/order/inspection/index)',
    audit: { subject: 'medtech', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt,
    data: z.array(appointmentDetailDto),
    handler: async ({ body, auth }) => medtech.listAppointments(db(), cipher, providers.his, auth.userId, body, new Date()),
  })

  // ---- nucleic-acid tests ----------------------------------------------------------------------------------------

  route(app, {
    method: 'GET',
    url: `${A}/nucleic/kinds`,
    summary: 'The nucleic-acid tests a hospital sells (单检, 混检) with their prices, from its HIS; the spec names no call for it, so this path was chosen',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.array(z.object({ code: z.string(), name: z.string(), priceFen: z.number().int(), description: z.string(), place: z.string() })),
    handler: async ({ query }) => nucleic.nucleicKinds(db(), providers.his, query.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/init/nucleic`,
    summary:
      'Buy a nucleic-acid test for the patient (business nucleic), answered with the record and how to pay it; the same idempotencyKey answers the same test. ' +
      'Paid, the HIS registers it for sampling and the record carries the sample number its QR code shows',
    callerLimit: CALLER_LIMITS.order,
    audit: 'nucleic',
    auth: 'user',
    body: patientAt.extend({
      kindCode: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '请选择核酸检测项目'),
      returnUrl: z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确'),
      idempotencyKey,
    }),
    data: z.object({ record: nucleicOrderDto, action: payActionDto.nullable() }),
    handler: async ({ body, auth }) => nucleic.purchaseNucleic(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/nucleic/list`,
    summary: 'The caller’s nucleic-acid tests, newest first, with the test’s progress (待采样, 已采样, 已出报告); optionally of one patient and hospital',
    audit: 'nucleic',
    auth: 'user',
    query: z.object({ hospitalCode: hospitalCode.optional(), patientId: id.optional(), page: pageNo, size: pageSize(nucleic.MAX_PAGE_SIZE) }),
    data: page(nucleicOrderDto),
    handler: async ({ query, auth }) => nucleic.listNucleicOrders(db(), cipher, providers.his, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/nucleic/detail`,
    summary: 'One of the caller’s nucleic-acid tests (the page the cashier returns to)',
    audit: 'nucleic',
    auth: 'user',
    query: z.object({ id }),
    data: nucleicOrderDto,
    handler: async ({ query, auth }) => nucleic.nucleicOrderDetail(db(), cipher, providers.his, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/payment/nucleic/codeImage/:id`,
    summary: 'The sampling QR code of one of the caller’s paid tests: its sample number and the code as an SVG image (a data URL), drawn on the server',
    audit: 'nucleic',
    auth: 'user',
    params: z.object({ id }),
    data: z.object({ id: z.number(), patientId: z.number(), sampleNo: z.string(), image: z.string() }),
    handler: async ({ params, auth }) => nucleic.nucleicCodeImage(db(), cipher, providers.his, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/payment/nucleic/cancel`,
    summary: 'Cancel one of the caller’s tests: an unpaid one is given up; a paid one not sampled yet is refunded whole; once sampled it is refused',
    audit: 'nucleic',
    auth: 'user',
    body: z.object({ id }),
    data: nucleicOrderDto,
    handler: async ({ body, auth }) => nucleic.cancelNucleic(db(), cipher, providers, auth.userId, body.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/report/nucleic`,
    summary: 'The patient’s nucleic-acid tests at a hospital and their results (阴性 / 阳性, sampling and report times) once released, newest first',
    audit: { subject: 'nucleic', patients: byBody, action: 'read' },
    auth: 'user',
    body: patientAt,
    data: z.array(nucleicResultDto),
    handler: async ({ body, auth }) => nucleic.nucleicResults(db(), cipher, providers.his, auth.userId, body),
  })
}
