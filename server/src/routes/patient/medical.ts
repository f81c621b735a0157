import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, id, pageNo, pageSize } from '../schemas'
import * as medical from '../../domain/medicalRecord'
import * as send from '../../domain/medicalSend'
import { chatMessageDto } from './consultation'

const orderNo = z.string().trim().regex(/^[A-Za-z0-9]{1,40}$/, '订单号不正确')

export const diseaseCodeDto = z.object({ code: z.string(), name: z.string(), deptName: z.string() })

export const medicalRecordDto = z.object({
  id: z.number(),
  inquiryId: z.number(),
  imOrderNo: z.string(),
  patientId: z.number(),
  patientName: z.string(),
  sex: z.union([z.literal(1), z.literal(2)]),
  age: z.number().int(),
  hospitalName: z.string(),
  deptName: z.string(),
  doctorId: z.number(),
  doctorName: z.string(),
  doctorTitle: z.string(),
  fields: z.object({
    chiefComplaint: z.string(),
    presentIllness: z.string(),
    pastHistory: z.string(),
    allergyHistory: z.string(),
    diagnosis: z.string(),
    advice: z.string(),
  }),
  diseases: z.array(diseaseCodeDto),
  createdAt: z.string(),
  updatedAt: z.string(),
})

/**
 * The patient's medical records, `/dld-hospital` (spec §7 Internet hospital → Medical record; types/api/medical.ts):
 * the record of one consultation, a patient's records (the electronic medical record page), records by consultation
 * numbers, the field list, the hospital's disease codes, the finished consultations a follow-up may continue, sharing
 * an earlier record with the doctor of an open consultation, and a message to the hospital's customer service.
 * Only the caller's own: someone else's consultation or patient answers 2999.
 */
export async function medicalRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital'

  route(app, {
    method: 'GET',
    url: `${H}/im/medical/his/recordDetail`,
    summary: 'The medical record of one of the caller’s consultations, by its number (null until the doctor writes it)',
    audit: 'medical_record',
    auth: 'user',
    query: z.object({ imOrderNo: orderNo }),
    data: medicalRecordDto.nullable(),
    handler: async ({ query, auth }) => medical.recordDetail(db(), cipher, auth.userId, query.imOrderNo),
  })

  route(app, {
    method: 'GET',
    url: `${H}/im/medical/his/record`,
    summary: 'The caller’s medical records (of one of their patients, or all), newest first',
    audit: 'medical_record',
    auth: 'user',
    query: z.object({
      patientId: id.optional(),
      page: pageNo,
      size: pageSize(medical.RECORD_PAGE_MAX, 20),
    }),
    data: z.object({ records: z.array(medicalRecordDto), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    handler: async ({ query, auth }) => medical.listRecords(db(), cipher, auth.userId, query),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/medical/recordByOrderNos`,
    summary: 'The medical records of some of the caller’s consultations (at most 20 numbers), in the order asked',
    audit: 'medical_record',
    auth: 'user',
    body: z.object({ orderNos: z.array(orderNo).min(1, '请提供订单号').max(medical.ORDER_NOS_MAX, `一次最多查询${medical.ORDER_NOS_MAX}个订单`) }),
    data: z.array(medicalRecordDto),
    handler: async ({ body, auth }) => medical.recordsByOrderNos(db(), cipher, auth.userId, body.orderNos),
  })

  route(app, {
    method: 'GET',
    url: `${H}/common/medicalRecordFields`,
    summary: 'The medical record’s fields: key, label, required, maxLength',
    auth: 'user',
    data: z.array(z.object({ key: z.string(), label: z.string(), required: z.boolean(), maxLength: z.number().int() })),
    handler: async () => medical.MEDICAL_RECORD_FIELDS,
  })

  route(app, {
    method: 'GET',
    url: `${H}/common/diseaseCode`,
    summary: 'The hospital’s disease list by keyword (at most 20), with the codes medical records use',
    auth: 'user',
    query: z.object({ hospitalCode, keyword: z.string().trim().max(20, '搜索关键词不能超过20个字').optional() }),
    data: z.array(diseaseCodeDto),
    handler: async ({ query }) => medical.diseaseCodesOf(db(), query.hospitalCode, query.keyword),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/medical/send/record`,
    audit: 'medical_record',
    summary:
      'Share one of the caller’s earlier medical records (by its consultation number, same patient) with the doctor of an open ' +
      'consultation: a chat message from the patient, stored once however often it is sent',
    auth: 'user',
    body: z.object({ inquiryId: id, imOrderNo: orderNo }),
    data: chatMessageDto,
    handler: async ({ body, auth }) => send.shareRecord(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/medical/send/pres`,
    summary:
      'Ask the doctor of an open consultation to renew medicines (续方申请): a chat message from the patient listing them, ' +
      'stored once however often the same request is sent',
    auth: 'user',
    body: z.object({
      inquiryId: id,
      medicines: z
        .array(z.string().trim().min(1, '药品名称不能为空').max(send.MEDICINE_NAME_MAX, `药品名称不能超过${send.MEDICINE_NAME_MAX}个字`))
        .min(1, '请填写需要续方的药品')
        .max(send.MEDICINES_MAX, `最多${send.MEDICINES_MAX}种药品`),
      note: z.string().trim().max(200, '说明不能超过200个字').optional(),
    }),
    data: chatMessageDto,
    handler: async ({ body, auth }) => send.sendPrescriptionRequest(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: `${H}/im/medical/send/kf/msg`,
    summary:
      'A message to the hospital’s customer service over HTTP: its physician assistant the caller already chats with, else the ' +
      'first; answers the assistant and the stored message',
    auth: 'user',
    body: z.object({
      hospitalCode,
      content: z.string().trim().min(1, '请输入消息内容').max(send.SERVICE_MESSAGE_MAX, `消息不能超过${send.SERVICE_MESSAGE_MAX}个字`),
      clientId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, '消息编号不正确').optional(),
    }),
    data: z.object({ assistant: z.object({ id: z.number(), name: z.string(), imAccount: z.string() }), message: chatMessageDto }),
    handler: async ({ body, auth }) => send.sendServiceMessage(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: `${H}/inquiry/medical/list`,
    summary: 'The patient’s finished consultations with a medical record, newest first (the diagnosis a follow-up continues)',
    audit: 'medical_record',
    auth: 'user',
    query: z.object({ patientId: id }),
    data: z.array(
      z.object({
        inquiryId: z.number(),
        inquiryNo: z.string(),
        recordId: z.number(),
        doctorId: z.number(),
        doctorName: z.string(),
        deptName: z.string(),
        hospitalName: z.string(),
        diagnosis: z.string(),
        diseases: z.array(diseaseCodeDto),
        finishedAt: z.string().nullable(),
      }),
    ),
    handler: async ({ query, auth }) => medical.finishedWithRecord(db(), cipher, auth.userId, query.patientId),
  })
}
