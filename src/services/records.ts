import { get, post } from './request'
import type { Page } from '../../types/api/hospital'
import type { Inquiry } from '../../types/api/inquiry'
import type { InquiryHistory, ChatRecord } from '../../types/api/consultation'
import type { ChatMessage } from '../../types/api/chat'
import type { MedicalHistoryItem, MedicalRecord, MedicalRecordField, PrescriptionRequestInput, ServiceMessageInput, ServiceMessageResult, ShareRecordInput } from '../../types/api/medical'
import type { MessageReadResult, UserMessagePage } from '../../types/api/message'

/**
 * What the patient reads back, `/dld-hospital`: the message centre (spec §7 Tools and misc `GET /message/messageList`),
 * the electronic medical record (§7 Medical record) and past consultations with their chat records and steps (§7
 * Conversation orders).
 */
const API = '/dld-hospital'

export interface PageQuery {
  page: number
  size: number
}

// ----- the message centre -----

/** The caller's notices, newest first, with how many of all of them are unread. */
export const listMessages = (q: PageQuery, opts: { silent?: boolean } = {}) =>
  get<UserMessagePage>(`${API}/message/messageList`, q, { noLoading: true, ...opts })

/** Marks one notice read, or every notice without an id (this server's own call: the spec lists none). */
export const markMessagesRead = (id?: number) => post<MessageReadResult>(`${API}/message/read`, id === undefined ? undefined : { id }, { noLoading: true })

// ----- the electronic medical record -----

/** The record of one of the caller's consultations by its number; null until the doctor writes one. */
export const getRecordByOrderNo = (imOrderNo: string) => get<MedicalRecord | null>(`${API}/im/medical/his/recordDetail`, { imOrderNo }, { noLoading: true })

/** The caller's records of one patient (or of all), newest first. */
export const listMedicalRecords = (q: PageQuery & { patientId?: number }) =>
  get<Page<MedicalRecord>>(`${API}/im/medical/his/record`, q.patientId === undefined ? { page: q.page, size: q.size } : q, { noLoading: true })

/** The records of some of the caller's consultations (at most 20), in the order asked; those not written are left out. */
export const listRecordsByOrderNos = (orderNos: string[]) => post<MedicalRecord[]>(`${API}/im/medical/recordByOrderNos`, { orderNos }, { json: true })

/** The record's fields with their labels, in reading order. */
export const listMedicalRecordFields = () => get<MedicalRecordField[]>(`${API}/common/medicalRecordFields`, undefined, { noLoading: true })

/** The patient's finished consultations with a record, newest first (the diagnosis a follow-up continues). */
export const listFinishedCases = (patientId: number) => get<MedicalHistoryItem[]>(`${API}/inquiry/medical/list`, { patientId }, { noLoading: true })

/** Shares an earlier record (by its consultation's number) with the doctor of an open consultation: a chat message, stored once. */
export const shareRecord = (input: ShareRecordInput) => post<ChatMessage>(`${API}/im/medical/send/record`, input, { json: true })

/** A message to the hospital's customer service (its physician assistant) without the chat socket. */
/** 续方申请: the medicines to renew, to the doctor of an open consultation. */
export const sendPrescriptionRequest = (input: PrescriptionRequestInput) => post<ChatMessage>(`${API}/im/medical/send/pres`, input, { json: true })

export const sendServiceMessage = (input: ServiceMessageInput) => post<ServiceMessageResult>(`${API}/im/medical/send/kf/msg`, input, { json: true })

// ----- past consultations -----

/** The caller's past consultations (over: finished, cancelled or closed), newest first. */
export const listPastInquiries = (q: PageQuery) => get<Page<Inquiry>>(`${API}/im/core/historyList`, q, { noLoading: true })

/** The messages of one of the caller's consultations, oldest first. */
export const getChatRecord = (inquiryId: number) => get<ChatRecord>(`${API}/manage/order/chatRecord/${inquiryId}`, undefined, { noLoading: true })

/** The steps of one of the caller's inquiries with their times, oldest first. */
export const getInquirySteps = (inquiryId: number) => get<InquiryHistory>(`${API}/im/trade/checkListRecord/${inquiryId}`, undefined, { noLoading: true })
