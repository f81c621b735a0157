import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idempotencyKey, pageNo, pageSize } from '../schemas'
import { payActionDto, payOrderDto } from './pay'
import * as register from '../../domain/register'

/** A form-encoded body sends booleans as text; z.coerce.boolean would read 'false' as true. */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
const keyword = z.string().trim().min(1, '请输入搜索关键词').max(20, '搜索关键词不能超过20个字')
const timeRange = z.string().trim().regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/, '就诊时段不正确')
/** One per attempt on the confirm page; a retry of the same attempt sends the same key. */
const segment = z.enum(['am', 'pm'])

const dept = z.object({ id: z.number(), deptName: z.string(), intro: z.string() })
const deptGroup = z.object({ id: z.number(), deptName: z.string(), children: z.array(dept) })
const searchResult = z.object({
  depts: z.array(z.object({ id: z.number(), deptName: z.string() })),
  doctors: z.array(z.object({ id: z.number(), doctorName: z.string(), remark: z.string(), deptId: z.number(), deptName: z.string(), avatar: z.string() })),
  diseases: z.array(z.object({ name: z.string(), deptId: z.number(), deptName: z.string() })),
})
const doctorDto = z.object({
  id: z.number(),
  doctorName: z.string(),
  title: z.string(),
  avatar: z.string(),
  speciality: z.string(),
  intro: z.string(),
  deptId: z.number(),
  deptName: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
})
const scheduleItem = z.object({
  scheduleId: z.number(),
  deptId: z.number(),
  deptName: z.string(),
  doctorId: z.number().nullable(),
  doctorName: z.string(),
  title: z.string(),
  avatar: z.string(),
  visitDate: z.string(),
  week: z.string(),
  segment,
  segmentText: z.string(),
  registerType: z.string(),
  feeFen: z.number().int(),
  total: z.number().int(),
  remaining: z.number().int(),
  stopped: z.boolean(),
  state: z.enum(['有号', '约满', '停诊']),
})
const deptSchedule = z.object({
  deptId: z.number(),
  deptName: z.string(),
  days: z.array(z.object({ visitDate: z.string(), week: z.string(), available: z.boolean(), items: z.array(scheduleItem) })),
})
const doctorSchedule = z.object({
  doctor: doctorDto.nullable(),
  items: z.array(scheduleItem.extend({ timeRanges: z.array(z.object({ timeRange: z.string(), remaining: z.number().int() })) })),
})
const rules = z.object({
  hospitalCode: z.string(),
  holdMinutes: z.number().int(),
  cancelRule: z.string(),
  bookDays: z.number().int(),
  insurance: z.boolean(),
  notice: z.string(),
})
const activityPrice = z.object({ feeFen: z.number().int(), discountFen: z.number().int(), payFen: z.number().int(), activity: z.string().nullable() })
const status = z.enum(['holding', 'booked', 'cancelled', 'expired'])
const registration = z.object({
  id: z.number(),
  regNo: z.string(),
  status,
  statusText: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  deptName: z.string(),
  doctorName: z.string(),
  title: z.string(),
  registerType: z.string(),
  visitDate: z.string(),
  week: z.string(),
  segment,
  segmentText: z.string(),
  timeRange: z.string(),
  seq: z.number().int(),
  feeFen: z.number().int(),
  patientId: z.number(),
  patientName: z.string(),
  hisMedCardNo: z.string(),
  holdExpiresAt: z.string().nullable(),
  cancellable: z.boolean(),
  insurance: z.boolean(),
  order: payOrderDto.nullable(),
  createdAt: z.string(),
})

const bookingBody = z.object({
  scheduleId: id,
  patientId: id,
  timeRange,
  insurance: flag.optional(),
  idempotencyKey,
})

/**
 * Appointment registration, `/dld-palm/api` (spec §7 "Registration"): the clinic tree, search, doctors, schedules,
 * booking with a hold while the patient pays, free bookings, cancelling, and the records.
 */
export async function registrationRoutes(app: FastifyInstance) {
  const { cipher, providers, hospitals } = app.ctx
  const db = () => app.ctx.db
  const A = '/dld-palm/api'

  route(app, {
    method: 'GET',
    url: `${A}/department/search`,
    summary: 'Departments, doctors (name or speciality) and diseases matching a keyword; doctor remark is "title|hospitalName"',
    auth: 'none',
    query: z.object({ hospitalCode, keyword }),
    data: searchResult,
    handler: async ({ query }) => register.searchCatalogue(db(), query.hospitalCode, query.keyword),
  })

  route(app, {
    method: 'GET',
    url: `${A}/department/:hospitalCode`,
    summary: 'Clinic groups with their departments; deptSort=hot puts the most booked in the last 30 days first',
    auth: 'none',
    params: z.object({ hospitalCode }),
    query: z.object({ deptSort: z.enum(['default', 'hot']).default('default') }),
    data: z.array(deptGroup),
    handler: async ({ params, query }) => register.departmentTree(db(), params.hospitalCode, query.deptSort, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/doctor/list/search`,
    summary: 'Doctors of a hospital, optionally of one department (a clinic group: all its departments) and matching a keyword',
    auth: 'none',
    query: z.object({ hospitalCode, deptId: id.optional(), keyword: keyword.optional().or(z.literal('').transform(() => undefined)) }),
    data: z.array(doctorDto),
    handler: async ({ query }) => register.searchDoctors(db(), query),
  })

  route(app, {
    method: 'POST',
    url: `${A}/schedule-dept`,
    summary: 'A department’s next 14 days (Asia/Shanghai), each day available when a schedule is open with a free slot',
    auth: 'none',
    body: z.object({ hospitalCode, deptId: id }),
    data: deptSchedule,
    handler: async ({ body }) => register.deptSchedule(db(), providers.his, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/schedule-doctor`,
    summary: 'A doctor’s next 14 days ({doctorId}) or one schedule ({scheduleId}; doctor null for a general clinic), with time ranges',
    auth: 'none',
    body: z
      .object({ doctorId: id.optional(), scheduleId: id.optional() })
      .refine((b) => (b.doctorId === undefined) !== (b.scheduleId === undefined), { message: '请提供医生或号源其中之一' }),
    data: doctorSchedule,
    handler: async ({ body }) => register.doctorSchedule(db(), providers.his, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/hospital/register`,
    summary: 'The hospital’s registration rules: hold minutes, cancel rule, days ahead, insurance, notice',
    auth: 'none',
    body: z.object({ hospitalCode }),
    data: rules,
    handler: async ({ body }) => register.registerRules(db(), hospitals, body.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${A}/activity/price`,
    summary: 'The fee for one of the caller’s patients after the hospital’s activities (65+ pay no 普通号 fee where enabled)',
    auth: 'user',
    body: z.object({ scheduleId: id, patientId: id }),
    data: activityPrice,
    handler: async ({ body, auth }) => register.priceForPatient(db(), providers.his, hospitals, auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: `${A}/register`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'registration',
    summary:
      'Book the lowest free slot of a time range for one of the caller’s complete patients: held while paying (holdExpiresAt), ' +
      'or booked at once when the fee is 0. The same idempotencyKey answers the same registration',
    auth: 'user',
    body: bookingBody,
    data: registration,
    handler: async ({ body, auth }) => register.bookRegistration(db(), cipher, providers.his, hospitals, auth.userId, body, new Date(), { freeOnly: false }),
  })

  route(app, {
    method: 'POST',
    url: `${A}/apply/free`,
    // a booking as POST /register is: the same limit on making orders, and recorded against the patient
    callerLimit: CALLER_LIMITS.order,
    audit: 'registration',
    summary: 'Book a schedule whose fee for this patient is 0 (booked at once); refused when a fee is due',
    auth: 'user',
    body: bookingBody.omit({ insurance: true }),
    data: registration,
    handler: async ({ body, auth }) => register.bookRegistration(db(), cipher, providers.his, hospitals, auth.userId, body, new Date(), { freeOnly: true }),
  })

  route(app, {
    method: 'POST',
    url: `${A}/register/pay`,
    callerLimit: CALLER_LIMITS.pay,
    summary: 'How to pay one of the caller’s held registrations (through the payment core)',
    auth: 'user',
    body: z.object({ id, returnUrl: z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确') }),
    data: payActionDto,
    handler: async ({ body, auth }) => register.payRegistration(db(), providers, auth, body),
  })

  route(app, {
    method: 'POST',
    url: `${A}/confirm/:id`,
    summary: 'Back from the cashier: asks about the payment, then answers the registration as it now stands',
    audit: 'registration',
    auth: 'user',
    params: z.object({ id }),
    data: registration,
    handler: async ({ params, auth }) => register.confirmRegistration(db(), cipher, providers, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${A}/cancel`,
    summary: 'Cancel a registration: a hold gives its slot back; a paid one is refunded, only before the deadline (17:00 the day before by default)',
    audit: 'registration',
    auth: 'user',
    body: z.object({ id, reason: z.string().trim().max(100, '取消原因不能超过100个字').optional() }),
    data: registration,
    handler: async ({ body, auth }) => register.cancelRegistration(db(), cipher, providers, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/register/list`,
    summary: 'The caller’s registrations, newest first',
    audit: 'registration',
    auth: 'user',
    query: z.object({
      hospitalCode: hospitalCode.optional(),
      status: status.optional(),
      page: pageNo,
      size: pageSize(register.MAX_PAGE_SIZE),
    }),
    data: z.object({ records: z.array(registration), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    handler: async ({ query, auth }) => register.listRegistrations(db(), cipher, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/register/detail`,
    summary: 'One of the caller’s registrations',
    audit: 'registration',
    auth: 'user',
    query: z.object({ id }),
    data: registration,
    handler: async ({ query, auth }) => register.registrationDetail(db(), cipher, auth.userId, query.id, new Date()),
  })

  // doctors' portraits, drawn from the name: not part of the API
  app.withTypeProvider<ZodTypeProvider>().get(
    '/static/doctors/:file',
    { schema: { hide: true, params: z.object({ file: z.string().regex(/^\d{1,9}\.svg$/) }) } },
    async (req, reply) => {
      const svg = await register.doctorPortrait(db(), Number(req.params.file.slice(0, -4)))
      if (!svg) return reply.status(404).type('text/plain; charset=utf-8').send('not found')
      return reply.type('image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=86400').send(svg)
    },
  )
}
