import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idempotencyKey, pageNo, pageSize } from '../schemas'
import { inquiryDto } from './inquiry'
import * as inquiry from '../../domain/inquiry'
import * as history from '../../domain/consultationHistory'
import { onlineDoctor } from './internet'

const description = z.string().trim().min(1, '请描述您的病情').max(inquiry.DESCRIPTION_MAX, `病情描述不能超过${inquiry.DESCRIPTION_MAX}个字`)
const pictures = z.array(z.string().trim().max(200, inquiry.PICTURE_NOT_UPLOADED)).max(inquiry.PICTURES_MAX, `最多上传${inquiry.PICTURES_MAX}张图片`).optional()
const kind = z.enum(['inquiry', 'quick', 'chronic'])
const optionalId = id.optional().or(z.literal('').transform(() => undefined))
const pageQuery = z.object({
  page: pageNo,
  size: pageSize(inquiry.MAX_PAGE_SIZE),
})
const inquiryPage = z.object({ records: z.array(inquiryDto), total: z.number().int(), page: z.number().int(), size: z.number().int() })

const recommendedDoctor = onlineDoctor.extend({ consulted: z.boolean() })

export const chatMessageDto = z.object({
  id: z.string(),
  conversationID: z.string(),
  from: z.string(),
  to: z.string(),
  type: z.enum(['text', 'image', 'prescription']),
  payload: z.string(),
  description: z.string(),
  time: z.number(),
  status: z.enum(['created', 'sendSuccess', 'sendFail']),
})

/**
 * The remaining inquiry and conversation-order calls, `/dld-hospital` (spec §7 Internet hospital → Inquiry and
 * Conversation orders): 快速问诊, 复诊续方, an inquiry's history, doctors to suggest, a consultation's chat record, the
 * open inquiry with a doctor, and past consultations. (`/im/patient/record/list` lives in routes/patient/hospital.ts.)
 */
export async function consultationRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital'

  route(app, {
    method: 'POST',
    url: `${H}/inquiry/quickInquiry`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'consultation',
    summary:
      '快速问诊: the server picks the online doctor of the department (or the hospital) accepting consultations with the fewest ' +
      'waiting inquiries, then orders as addInquiryInfo does (kind quick). The same idempotencyKey answers the same inquiry',
    auth: 'user',
    body: z.object({ hospitalCode, deptId: optionalId, patientId: id, description, pictures, idempotencyKey }),
    data: inquiryDto,
    handler: async ({ body, auth }) => history.quickInquiry(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/inquiry/chronicInquiry`,
    callerLimit: CALLER_LIMITS.order,
    audit: 'consultation',
    summary:
      '复诊续方 with a doctor the caller follows or who accepted a consultation of this patient before (kind chronic); the ' +
      'diagnosis and medicines are stored with the illness, encrypted',
    auth: 'user',
    body: z.object({
      doctorId: id,
      patientId: id,
      description,
      diagnosis: z.string().trim().min(1, '请填写诊断').max(history.DIAGNOSIS_MAX, `诊断不能超过${history.DIAGNOSIS_MAX}个字`),
      medicines: z
        .array(z.string().trim().min(1, '请填写需要续方的药品').max(history.MEDICINE_NAME_MAX, `药品名称不能超过${history.MEDICINE_NAME_MAX}个字`))
        .min(1, '请填写需要续方的药品')
        .max(history.MEDICINES_MAX, `续方药品最多${history.MEDICINES_MAX}种`),
      pictures,
      idempotencyKey,
    }),
    data: inquiryDto,
    handler: async ({ body, auth }) => history.chronicInquiry(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/trade/checkListRecord/:id`,
    summary: 'The steps of one of the caller’s inquiries with their times: created, paid, accepted, finished/cancelled/closed, refunded',
    audit: 'consultation',
    auth: 'user',
    params: z.object({ id }),
    data: z.object({
      id: z.number(),
      inquiryNo: z.string(),
      status: z.enum(['unpaid', 'waiting', 'inProgress', 'finished', 'cancelled', 'closed']),
      statusText: z.string(),
      steps: z.array(
        z.object({
          step: z.enum(['created', 'paid', 'accepted', 'finished', 'cancelled', 'closed', 'refunding', 'refunded']),
          text: z.string(),
          time: z.string(),
        }),
      ),
    }),
    handler: async ({ params, auth }) => history.inquiryHistory(db(), auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/patient/recommend/doctor`,
    summary: 'Up to 10 of the hospital’s online doctors to suggest: those the caller consulted, then the best rated accepting ones',
    auth: 'user',
    query: z.object({ hospitalCode }),
    data: z.array(recommendedDoctor),
    handler: async ({ query, auth }) => history.recommendDoctors(db(), auth.userId, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${H}/manage/order/chatRecord/:id`,
    summary: 'The chat messages of one of the caller’s consultations (by inquiry id), oldest first, decrypted',
    audit: 'chat',
    auth: 'user',
    params: z.object({ id }),
    data: z.object({
      inquiryId: z.number(),
      inquiryNo: z.string(),
      doctor: z.object({ id: z.number(), doctorName: z.string(), title: z.string(), avatar: z.string(), deptName: z.string(), imAccount: z.string() }),
      messages: z.array(chatMessageDto),
    }),
    handler: async ({ params, auth }) => history.chatRecord(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/core/orderByDoctorAndUserId`,
    summary:
      'The caller’s latest open inquiry (unpaid, waiting, in progress) with a doctor, optionally of one kind (orderType), or null; ' +
      'userId, when sent, must be the caller’s',
    auth: 'user',
    body: z.object({ doctorId: id, orderType: kind.optional().or(z.literal('').transform(() => undefined)), userId: optionalId }),
    data: inquiryDto.nullable(),
    handler: async ({ body, auth }) => history.openInquiryWithDoctor(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/core/historyList`,
    summary: 'The caller’s past consultations (paid or free, and over), newest first',
    audit: 'consultation',
    auth: 'user',
    query: pageQuery,
    data: inquiryPage,
    handler: async ({ query, auth }) => history.pastInquiries(db(), cipher, auth.userId, query),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/core/chronic/historyList`,
    summary: 'The caller’s past renewals (复诊续方), newest first',
    audit: 'consultation',
    auth: 'user',
    query: pageQuery,
    data: inquiryPage,
    handler: async ({ query, auth }) => history.pastInquiries(db(), cipher, auth.userId, { ...query, kind: 'chronic' }),
  })
}
