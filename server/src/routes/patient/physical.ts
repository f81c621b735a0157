import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { recordAudit } from '../../domain/audit'
import { CALLER_LIMITS } from '../../domain/limits'
import { unauthenticated, notBound } from '../../errors'
import { hospitalCode, id, idempotencyKey, pageNo, pageSize } from '../schemas'
import { payActionDto, payOrderDto } from './pay'
import * as physical from '../../domain/physical'

const returnUrl = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期应为YYYY-MM-DD')
const packageCode = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, '体检套餐不正确')
const examNo = z.string().trim().min(1, '缺少体检编号').max(64, '体检编号不正确')
const patientAt = z.object({ hospitalCode, patientId: id })

const itemDto = z.object({ dept: z.string(), name: z.string(), meaning: z.string() })
const packageDto = z.object({
  code: z.string(),
  name: z.string(),
  sex: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  minAge: z.number().int(),
  maxAge: z.number().int(),
  priceFen: z.number().int(),
  suits: z.string(),
  notice: z.string(),
  items: z.array(itemDto),
})
const dayDto = z.object({ date: z.string(), week: z.string(), capacity: z.number().int(), remaining: z.number().int(), open: z.boolean() })
const appointmentDto = z.object({
  id: z.number(),
  examNo: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  packageCode: z.string(),
  packageName: z.string(),
  examDate: z.string(),
  amountFen: z.number().int(),
  status: z.enum(['holding', 'booked', 'checkedIn', 'finished', 'cancelled', 'expired']),
  statusText: z.string(),
  payable: z.boolean(),
  cancellable: z.boolean(),
  cancelNote: z.string().nullable(),
  refundText: z.string().nullable(),
  reportReady: z.boolean(),
  order: payOrderDto,
  createdAt: z.string(),
})
const pageOf = <T extends z.ZodType>(item: T) => z.object({ records: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() })
const listQuery = z.object({ hospitalCode: hospitalCode.optional(), patientId: id.optional(), page: pageNo, size: pageSize(physical.MAX_PAGE_SIZE) })
const entryDto = z.object({
  examNo: z.string(),
  hospitalCode: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  packageName: z.string(),
  examDate: z.string(),
  reportedAt: z.string(),
})
const reportDto = entryDto.extend({
  sexText: z.string(),
  age: z.number().int(),
  summary: z.array(z.string()),
  findings: z.array(z.object({ dept: z.string(), item: z.string(), result: z.string(), abnormal: z.boolean(), doctor: z.string() })),
  conclusion: z.string(),
  advice: z.array(z.string()),
  chiefDoctor: z.string(),
})

/**
 * Physical exams (体检, spec §7 "Physical", `paid/physical/list`; reports: `report/physical/list`, `report/physical`,
 * `physical/info/{id}`), under `/dld-palm/api` (types/api/physical.ts). Someone else's patient, appointment or report
 * answers 2999; every read of a report, structured or PDF, is in the audit log.
 */
export async function physicalRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'GET',
    url: `${A}/physical/physicalAppointment/list`,
    summary: 'The physical-exam packages offered, with items and prices; with a patient, only those that suit their sex and age',
    auth: 'user',
    query: z.object({ hospitalCode, patientId: id.optional() }),
    data: z.array(packageDto),
    handler: async ({ query, auth }) => physical.packagesFor(db(), cipher, providers.his, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/getPhysical/detail`,
    summary: 'One physical-exam package with its items, price and preparation notes',
    auth: 'user',
    query: z.object({ hospitalCode, packageCode }),
    data: packageDto,
    handler: async ({ query }) => physical.packageDetail(db(), providers.his, query),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/appointment/date`,
    summary: 'The physical-exam centre’s bookable days (tomorrow to two weeks ahead) with the places left',
    auth: 'user',
    query: z.object({ hospitalCode }),
    data: z.array(dayDto),
    handler: async ({ query }) => physical.physicalDays(db(), providers.his, query, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/physical/physicalAppointment`,
    summary:
      'Book a physical exam: holds a place of the day (never more than its capacity) and makes the order (business physical), ' +
      'answered with the appointment and how to pay it; the same idempotencyKey answers the same appointment',
    auth: 'user',
    callerLimit: CALLER_LIMITS.order,
    audit: { subject: 'physical', patients: async ({ body }) => [body.patientId] },
    body: z.object({ hospitalCode, patientId: id, packageCode, date, returnUrl, idempotencyKey }),
    data: z.object({ appointment: appointmentDto, action: payActionDto.nullable() }),
    handler: async ({ body, auth }) => physical.bookPhysical(db(), cipher, providers, auth, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/getPhysicalAppointment`,
    summary: 'One of the caller’s physical-exam appointments',
    auth: 'user',
    audit: 'physical',
    query: z.object({ id }),
    data: appointmentDto,
    handler: async ({ query, auth }) => physical.appointmentDetail(db(), cipher, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/getPhysicalPaymentBill`,
    summary: 'The caller’s physical-exam appointments and their payments, newest first',
    auth: 'user',
    audit: 'physical',
    query: listQuery,
    data: pageOf(appointmentDto),
    handler: async ({ query, auth }) => physical.listAppointments(db(), cipher, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/paid/physical/list`,
    summary: 'The caller’s paid physical exams (booked, done, or cancelled with a refund), newest first',
    auth: 'user',
    audit: 'physical',
    query: listQuery,
    data: pageOf(appointmentDto),
    handler: async ({ query, auth }) => physical.listAppointments(db(), cipher, auth.userId, { ...query, paidOnly: true }, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/cancelAppointment`,
    summary: 'Cancel a physical exam: an unpaid one at once; a paid one before its day, with a full refund (never on the day or after)',
    auth: 'user',
    audit: { subject: 'physical', action: 'change' },
    query: z.object({ id, reason: z.string().trim().max(100).optional() }),
    data: appointmentDto,
    handler: async ({ query, auth }) => physical.cancelPhysical(db(), cipher, providers, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/report/physical/list`,
    summary: 'The patient’s physical-exam reports released by the centre, newest first (each readable as a PDF at /report/physical)',
    auth: 'user',
    audit: { subject: 'physical', patients: async ({ query }) => [query.patientId] },
    query: patientAt,
    data: z.array(entryDto),
    handler: async ({ query, auth }) => physical.reportList(db(), cipher, providers.his, auth.userId, query),
  })

  route(app, {
    method: 'GET',
    url: `${A}/physical/info/:examNo`,
    summary: 'One physical-exam report: summary, each department’s findings and the chief doctor’s conclusion',
    auth: 'user',
    audit: { subject: 'physical', patients: async ({ query }) => [query.patientId] },
    params: z.object({ examNo }),
    query: patientAt,
    data: reportDto,
    handler: async ({ query, params, auth }) => physical.reportInfo(db(), cipher, providers.his, auth.userId, { ...query, examNo: params.examNo }),
  })

  // the PDF itself: signed in like every call (the bearer token), never a public address, and audited like the report
  app.get(
    `${A}/report/physical`,
    {
      schema: {
        summary: 'One physical-exam report as the centre issued it (application/pdf); errors answer the usual envelope',
        tags: ['dld-palm'],
        security: [{ bearer: [] }],
        querystring: patientAt.extend({ examNo }),
      },
    },
    async (req, reply) => {
      const auth = req.auth
      if (!auth) throw unauthenticated()
      if (!auth.userId) throw notBound()
      const query = req.query as z.infer<typeof patientAt> & { examNo: string }
      const { patientId, pdf } = await physical.reportPdf(db(), cipher, providers.his, auth.userId, query)
      await recordAudit(db(), {
        actor: { kind: 'patient', id: auth.userId },
        action: 'read',
        subject: 'physical',
        route: `GET ${A}/report/physical`,
        patientIds: [patientId],
        address: req.ip,
        requestId: req.id,
      })
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="physical-${query.examNo}.pdf"`)
        .type('application/pdf')
        .send(Buffer.from(pdf))
    },
  )
}
