import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { id, idempotencyKey, pageNo, pageSize } from '../schemas'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { orderNo, payActionDto, payOrderDto } from './pay'
import * as inquiry from '../../domain/inquiry'

/** One per attempt on the page; a retry of the same attempt sends the same key. */
const returnUrl = z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确')
const status = z.enum(['unpaid', 'waiting', 'inProgress', 'finished', 'cancelled', 'closed'])

export const intakeDto = z.object({
  visitedOffline: z.boolean(),
  offlineDiagnosis: z.string(),
  pastHistory: z.string(),
  allergyHistory: z.string(),
  currentMedication: z.string(),
  updatedAt: z.string(),
})

/** One optional text field of the 问诊单, checked again (trimmed) by the domain. */
const intakeText = (key: keyof typeof inquiry.INTAKE_LIMITS, label: string) =>
  z.string().max(inquiry.INTAKE_LIMITS[key], `${label}不能超过${inquiry.INTAKE_LIMITS[key]}个字`).optional()

export const inquiryDto = z.object({
  id: z.number(),
  inquiryNo: z.string(),
  status,
  statusText: z.string(),
  serviceType: z.literal('text'),
  serviceName: z.string(),
  kind: z.enum(['inquiry', 'quick', 'chronic']),
  description: z.string(),
  pictures: z.array(z.string()),
  priceFen: z.number().int(),
  patientId: z.number(),
  patientName: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  doctor: z.object({ id: z.number(), doctorName: z.string(), title: z.string(), avatar: z.string(), deptName: z.string(), imAccount: z.string() }),
  paidAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  serviceEndsAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  cancellable: z.boolean(),
  complaint: z.object({ content: z.string(), time: z.string() }).nullable(),
  intake: intakeDto.nullable(),
  evaluated: z.boolean(),
  order: payOrderDto.nullable(),
  createdAt: z.string(),
})

/**
 * Inquiry orders (图文问诊), `/dld-hospital` (spec §7 Internet hospital → Inquiry and Conversation orders): ordering a
 * consultation with an online doctor, paying it through the payment core, the list and the detail, cancelling (with a
 * refund while no doctor has accepted), checking, ending it, and one complaint.
 */
export async function inquiryRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital'

  route(app, {
    method: 'POST',
    url: `${H}/inquiry/addInquiryInfo`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'consultation',
    summary:
      'Order a 图文问诊 with an online doctor accepting consultations for one of the caller’s complete patients: unpaid with a ' +
      'payment order at the doctor’s price, or waiting at once when free. The same idempotencyKey answers the same inquiry',
    auth: 'user',
    body: z.object({
      doctorId: id,
      patientId: id,
      description: z.string().trim().min(1, '请描述您的病情').max(inquiry.DESCRIPTION_MAX, `病情描述不能超过${inquiry.DESCRIPTION_MAX}个字`),
      pictures: z.array(z.string().trim().max(200, inquiry.PICTURE_NOT_UPLOADED)).max(inquiry.PICTURES_MAX, `最多上传${inquiry.PICTURES_MAX}张图片`).optional(),
      idempotencyKey,
    }),
    data: inquiryDto,
    handler: async ({ body, auth }) => inquiry.createInquiry(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/trade/service/im/init/continuePay`,
    callerLimit: CALLER_LIMITS.pay,
    summary: 'How to pay one of the caller’s unpaid inquiries, by id or by its order number (through the payment core)',
    auth: 'user',
    body: z
      .object({ id: id.optional(), orderNo: orderNo.optional(), returnUrl })
      .refine((b) => b.id !== undefined || b.orderNo !== undefined, { message: '请提供问诊或订单号' }),
    data: payActionDto,
    handler: async ({ body, auth }) => inquiry.payInquiry(db(), providers, auth, body),
  })

  route(app, {
    method: 'GET',
    url: `${H}/inquiry/order/list`,
    summary: 'The caller’s inquiries, newest first, with their payment orders and doctors',
    audit: 'consultation',
    auth: 'user',
    query: z.object({
      status: status.optional(),
      page: pageNo,
      size: pageSize(inquiry.MAX_PAGE_SIZE),
    }),
    data: z.object({ records: z.array(inquiryDto), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    handler: async ({ query, auth }) => inquiry.listInquiries(db(), cipher, auth.userId, query),
  })

  route(app, {
    method: 'GET',
    url: `${H}/inquiry/order/detail`,
    summary: 'One of the caller’s inquiries',
    audit: 'consultation',
    auth: 'user',
    query: z.object({ id }),
    data: inquiryDto,
    handler: async ({ query, auth }) => inquiry.inquiryDetail(db(), cipher, auth.userId, query.id),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/trade/service/im/cancel`,
    summary: 'Cancel an inquiry: unpaid, its order is cancelled; paid and not accepted yet, refunded; accepted, refused',
    audit: 'consultation',
    auth: 'user',
    query: z.object({ id }),
    data: inquiryDto,
    handler: async ({ query, auth }) => inquiry.cancelInquiry(db(), cipher, providers, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/trade/service/im/check`,
    summary: 'The inquiry as it stands; closed first when its service window ran out (refunded when never accepted)',
    auth: 'user',
    query: z.object({ id }),
    data: inquiryDto,
    handler: async ({ query, auth }) => inquiry.checkInquiry(db(), cipher, providers, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/trade/service/im/user/close`,
    summary: 'The patient ends a consultation in progress (finished)',
    audit: 'consultation',
    auth: 'user',
    query: z.object({ id }),
    data: inquiryDto,
    handler: async ({ query, auth }) => inquiry.finishInquiry(db(), cipher, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/trade/complaint`,
    summary: 'A complaint about a paid inquiry, once',
    auth: 'user',
    body: z.object({
      id,
      content: z.string().trim().min(1, '请填写投诉内容').max(inquiry.COMPLAINT_MAX, `投诉内容不能超过${inquiry.COMPLAINT_MAX}个字`),
    }),
    data: inquiryDto,
    handler: async ({ body, auth }) => inquiry.complainInquiry(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/trade/medicalRecord`,
    audit: 'consultation',
    summary:
      'The patient’s 问诊单 (offline visit and diagnosis, past history, allergies, current medication) for one of their inquiries ' +
      'while it is unpaid, waiting or in progress; saving again replaces it (stored encrypted)',
    auth: 'user',
    body: z.object({
      inquiryId: id,
      visitedOffline: z.boolean({ error: '请选择线下是否就诊' }),
      offlineDiagnosis: intakeText('offlineDiagnosis', '线下诊断'),
      pastHistory: intakeText('pastHistory', '既往史'),
      allergyHistory: intakeText('allergyHistory', '过敏史'),
      currentMedication: intakeText('currentMedication', '正在使用的药物'),
    }),
    data: inquiryDto,
    handler: async ({ body, auth }) => inquiry.saveInquiryIntake(db(), cipher, auth.userId, body, new Date()),
  })
}
