/**
 * The electronic medical record (门诊病历) of an online consultation, `/dld-hospital` (spec §7 Internet hospital →
 * Medical record): written by the doctor on the workbench (types/api/workbench.ts), read by the patient on the order
 * page and the electronic medical record page (/pages/medicalHistory).
 */
import type { ChatMessage } from './chat'

/** The record's text fields, in the order a record is read. */
export interface MedicalRecordFields {
  /** 主诉 */
  chiefComplaint: string
  /** 现病史 */
  presentIllness: string
  /** 既往史 */
  pastHistory: string
  /** 过敏史 */
  allergyHistory: string
  /** 初步诊断 */
  diagnosis: string
  /** 处理意见（医嘱） */
  advice: string
}

export type MedicalRecordFieldKey = keyof MedicalRecordFields

/** `GET /common/medicalRecordFields`: how each field is labelled and checked. */
export interface MedicalRecordField {
  key: MedicalRecordFieldKey
  label: string
  required: boolean
  maxLength: number
}

/** `GET /common/diseaseCode`: one entry of the hospital's disease list. */
export interface DiseaseCode {
  code: string
  name: string
  deptName: string
}

export interface MedicalRecord {
  id: number
  inquiryId: number
  /** The consultation's number (inquiryNo). */
  imOrderNo: string
  patientId: number
  /** Masked (spec §9). */
  patientName: string
  /** 1 male, 2 female. */
  sex: 1 | 2
  age: number
  hospitalName: string
  deptName: string
  doctorId: number
  doctorName: string
  doctorTitle: string
  fields: MedicalRecordFields
  diseases: DiseaseCode[]
  createdAt: string
  updatedAt: string
}

/** `POST /im/medical/recordByOrderNos`, at most 20 numbers. */
export interface RecordByOrderNosInput {
  orderNos: string[]
}

/** `GET /inquiry/medical/list`: a finished consultation with a record, to name as the diagnosis of a follow-up. */
export interface MedicalHistoryItem {
  inquiryId: number
  inquiryNo: string
  recordId: number
  doctorId: number
  doctorName: string
  deptName: string
  hospitalName: string
  diagnosis: string
  diseases: DiseaseCode[]
  finishedAt: string | null
}

/**
 * `POST /im/medical/send/record` (JSON): the patient shares one of their earlier records (by its consultation's number)
 * with the doctor of an open consultation of the same patient; it arrives as a chat message from the patient. Sharing
 * the same record into the same consultation again stores one message.
 */
export interface ShareRecordInput {
  inquiryId: number
  imOrderNo: string
}

/** `POST /im/medical/send/pres` (JSON): a request to renew medicines (续方申请) to the doctor of an open consultation. */
export interface PrescriptionRequestInput {
  inquiryId: number
  /** 1 to 10 medicine names, each up to 50 characters. */
  medicines: string[]
  /** Up to 200 characters. */
  note?: string
}

/**
 * `POST /im/medical/send/kf/msg` (JSON): a message to the hospital's customer service (its physician assistant) over
 * HTTP, for clients without the chat socket.
 */
export interface ServiceMessageInput {
  hospitalCode: string
  /** 1 to 500 characters. */
  content: string
  /** The client's own id of the message (8 to 64 of A-Z a-z 0-9 _ -): sending it again stores it once. */
  clientId?: string
}

export interface ServiceMessageResult {
  /** The assistant the caller already chats with at this hospital, else its first. */
  assistant: { id: number; name: string; imAccount: string }
  message: ChatMessage
}
