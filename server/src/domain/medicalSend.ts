/**
 * What the patient sends from the medical-record pages (spec §7 Internet hospital → Medical record: /send/record,
 * /send/pres, /send/kf/msg): an earlier record shared with the doctor of an open consultation, a request to renew
 * medicines (续方申请) to that doctor, and a message to the hospital's customer service (its physician assistant) over
 * HTTP. Both go through the chat service (domain/chat.ts sendMessage)
 * as the patient, so its rules hold: a doctor only within an open consultation, a message stored once per clientId.
 * Record text is health information: it is never logged.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, asc, desc, eq, inArray, or } from 'drizzle-orm'
import type { ChatMessage } from '../../../types/api/chat'
import type { MedicalRecord, PrescriptionRequestInput, ServiceMessageInput, ServiceMessageResult, ShareRecordInput } from '../../../types/api/medical'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { chatMessages, physicianAssistants } from '../db/schema'
import { badInput } from '../errors'
import { sendMessage } from './chat'
import { patientImAccount } from '@/utils/chatRules'
import { requireOwnInquiry } from './inquiry'
import { assistantImAccount, doctorImAccount, requireInternetHospital } from './internetDoctors'
import { recordDetail } from './medicalRecord'
import { hospitalClock } from './register/rules'

export const SERVICE_MESSAGE_MAX = 500
export const SHARE_NOT_OPEN = '问诊未在进行中，无法发送病历'
export const NO_RECORD = '该问诊暂无病历'
export const OTHER_PATIENT_RECORD = '只能发送本次就诊人的病历'
export const SAME_CONSULTATION = '请选择以往的病历'
export const NO_SERVICE = '该医院暂无在线客服'

/** What the doctor reads: `【历史病历】<date> <hospital> <dept> <doctor>医生`, then the diagnosis and the advice. */
export function recordSummary(record: MedicalRecord): string {
  const date = hospitalClock(new Date(record.createdAt)).date
  return [
    `【历史病历】${date} ${record.hospitalName} ${record.deptName} ${record.doctorName}医生`,
    `诊断：${record.fields.diagnosis || '无'}`,
    `处理意见：${record.fields.advice || '无'}`,
  ].join('\n')
}

/**
 * POST /im/medical/send/record: shares the caller's record of an earlier consultation (imOrderNo) of the same patient
 * into the open consultation `inquiryId` (waiting or in progress), as a chat message from the patient to its doctor.
 * Someone else's inquiry or consultation number answers 2999. The clientId is derived from the pair, so the same share
 * sent twice is stored once.
 */
export async function shareRecord(db: Db, cipher: FieldCipher, userId: number, input: ShareRecordInput, now = new Date()): Promise<ChatMessage> {
  const inq = await requireOwnInquiry(db, userId, input.inquiryId)
  const record = await recordDetail(db, cipher, userId, input.imOrderNo, now)
  if (!record) throw badInput(NO_RECORD)
  if (record.inquiryId === inq.id) throw badInput(SAME_CONSULTATION)
  if (record.patientId !== inq.patientId) throw badInput(OTHER_PATIENT_RECORD)
  if (inq.status !== 'waiting' && inq.status !== 'inProgress') throw badInput(SHARE_NOT_OPEN)
  return sendMessage(db, cipher, patientImAccount(userId), {
    clientId: `record-${inq.id}-${record.id}`,
    to: doctorImAccount(inq.doctorId),
    type: 'text',
    payload: recordSummary(record),
  })
}

export const PRES_NOT_OPEN = '问诊未在进行中，无法发送续方申请'
export const MEDICINES_MAX = 10
export const MEDICINE_NAME_MAX = 50

/**
 * POST /im/medical/send/pres: the patient asks the doctor of an open consultation to renew medicines (续方申请): a chat
 * message listing them, for the doctor to review (the prescription itself is the doctor's, in the prescription flow).
 * The same request (same medicines and note) sent twice is stored once.
 */
export async function sendPrescriptionRequest(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  input: PrescriptionRequestInput,
): Promise<ChatMessage> {
  const inq = await requireOwnInquiry(db, userId, input.inquiryId)
  const medicines = [...new Set(input.medicines.map((m) => m.trim()).filter(Boolean))]
  if (!medicines.length) throw badInput('请填写需要续方的药品')
  if (inq.status !== 'waiting' && inq.status !== 'inProgress') throw badInput(PRES_NOT_OPEN)
  const note = input.note?.trim() ?? ''
  const payload = [`【续方申请】`, `药品：${medicines.join('、')}`, ...(note ? [`说明：${note}`] : [])].join('\n')
  const digest = createHash('sha256').update(payload).digest('base64url').slice(0, 22)
  return sendMessage(db, cipher, patientImAccount(userId), { clientId: `pres-${inq.id}-${digest}`, to: doctorImAccount(inq.doctorId), type: 'text', payload })
}

/**
 * POST /im/medical/send/kf/msg: the caller writes to the hospital's customer service, the physician assistant they
 * already chat with there (the latest conversation), else its first by sort. Without a clientId each call is a new
 * message.
 */
export async function sendServiceMessage(db: Db, cipher: FieldCipher, userId: number, input: ServiceMessageInput): Promise<ServiceMessageResult> {
  const content = input.content.trim()
  if (!content) throw badInput('请输入消息内容')
  if (content.length > SERVICE_MESSAGE_MAX) throw badInput(`消息不能超过${SERVICE_MESSAGE_MAX}个字`)
  const hospital = await requireInternetHospital(db, input.hospitalCode)
  const assistants = await db
    .select({ id: physicianAssistants.id, name: physicianAssistants.name })
    .from(physicianAssistants)
    .where(eq(physicianAssistants.hospitalId, hospital.id))
    .orderBy(asc(physicianAssistants.sort), asc(physicianAssistants.id))
  if (!assistants.length) throw badInput(NO_SERVICE)
  const me = patientImAccount(userId)
  const accounts = assistants.map((a) => assistantImAccount(a.id))
  const [last] = await db
    .select({ from: chatMessages.fromAccount, to: chatMessages.toAccount })
    .from(chatMessages)
    .where(
      or(
        and(eq(chatMessages.fromAccount, me), inArray(chatMessages.toAccount, accounts)),
        and(eq(chatMessages.toAccount, me), inArray(chatMessages.fromAccount, accounts)),
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(1)
  const peer = last ? (last.from === me ? last.to : last.from) : accounts[0]!
  const assistant = assistants[accounts.indexOf(peer)]!
  const message = await sendMessage(db, cipher, me, {
    clientId: input.clientId ?? `kf-${randomBytes(12).toString('base64url')}`,
    to: peer,
    type: 'text',
    payload: content,
  })
  return { assistant: { id: assistant.id, name: assistant.name, imAccount: peer }, message }
}
