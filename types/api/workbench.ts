/**
 * The doctors' workbench (`/workbench/`, API `/dld-doctor/api`): seeded doctors and physician assistants sign in with a
 * login and a password, see their paid consultations, accept, reply, write the medical record and finish. A workbench
 * token is never a patient's and a patient's never a workbench one.
 */
import type { InquiryIntake, InquiryKind, InquiryStatus } from './inquiry'
import type { MedicalRecord, MedicalRecordFields } from './medical'

/** A pharmacist (药师) reviews prescriptions and runs the pharmacy's orders; nothing of the consultations. */
export type StaffKind = 'doctor' | 'assistant' | 'pharmacist'

export interface StaffProfile {
  kind: StaffKind
  name: string
  /** Set for a doctor. */
  doctorId: number | null
  /** Set for an assistant. */
  assistantId: number | null
  /** Set for a pharmacist. */
  pharmacistId: number | null
  /** `d_<doctorId>` or `a_<assistantId>`: the account the workbench chats as ('' for a pharmacist, who does not chat). */
  imAccount: string
  hospitalName: string
  /** '' for an assistant. */
  deptName: string
}

/** `POST /login`. */
export interface StaffLoginInput {
  login: string
  password: string
}

/** `POST /login`: a bearer token for the workbench calls (12 h). */
export interface StaffSession {
  token: string
  expiresAt: string
  staff: StaffProfile
}

/** `GET /inquiries?status=`: 待接诊, 问诊中, 已结束 (finished, and the paid ones cancelled or closed). */
export type DeskTab = 'waiting' | 'inProgress' | 'finished'

export interface DeskInquiry {
  id: number
  inquiryNo: string
  kind: InquiryKind
  status: InquiryStatus
  /** As the patient reads it (待接诊, 问诊中, 已结束, 已退款 ...). */
  statusText: string
  /** Masked (spec §9). */
  patientName: string
  /** 1 male, 2 female. */
  sex: 1 | 2
  age: number
  /** The patient's IM account (`0_<userId>`), the peer of the consultation room. */
  patientImAccount: string
  /** The illness as the patient described it. */
  description: string
  pictures: string[]
  priceFen: number
  paidAt: string | null
  acceptedAt: string | null
  serviceEndsAt: string | null
  finishedAt: string | null
  cancelledAt: string | null
  createdAt: string
}

export interface DeskInquiryDetail extends DeskInquiry {
  /** The patient's 问诊单; null when they have not filled it in. */
  intake: InquiryIntake | null
  record: MedicalRecord | null
  /** Whether the record may be written now: in progress, or within 24 h after finishing. */
  recordEditable: boolean
}

/** `POST /inquiries/:id/return`: the doctor declines (退诊); the patient is refunded in full. */
export interface DeskReturnInput {
  reason: string
}

/** `PUT /inquiries/:id/record`. */
export interface MedicalRecordInput extends MedicalRecordFields {
  /** Codes from the hospital's disease list (`GET /diseases`). */
  diseaseCodes: string[]
}

// ---- the sandbox HIS console (demo servers only: `/dld-doctor/api/his/...`) ----------------------------------------

/** `GET /his/visits?regNo=`: a booked visit at the staff's hospital a doctor may order for. */
export interface HisConsoleVisit {
  registrationId: number
  regNo: string
  visitDate: string
  /** 上午 / 下午 */
  segmentText: string
  deptName: string
  doctorName: string
  patientId: number
  /** Masked (spec §9). */
  patientName: string
}

/** `POST /his/orders`: items of the price catalogue (`GET /his/catalogue`) for a visit; one unpaid bill per place. */
export interface HisOrderInput {
  registrationId: number
  items: { code: string; quantity: number }[]
}

/** `GET /his/queues`: one window of a place. */
export interface HisConsoleQueue {
  id: number
  kind: 'pharmacy' | 'lab' | 'exam' | 'treatment'
  place: string
  window: string
  location: string
  waiting: number
  /** The number called last ('' before the first). */
  current: string
}

/** `POST /his/queues/{id}/call`: the number called (null when nobody waits); its bills count as dispensed or performed. */
export interface HisCallResult {
  queue: HisConsoleQueue
  called: { ticketNo: string; patientName: string } | null
}

/** `GET /his/admissions`: a stay in hospital at the staff's hospital (those in hospital first, then the latest discharged). */
export interface HisConsoleAdmission {
  admissionNo: string
  /** Masked (spec §9). */
  patientName: string
  deptName: string
  ward: string
  bed: string
  doctorName: string
  admittedAt: string
  status: 'in' | 'discharged'
  dischargedAt: string | null
  /** Deposits paid (住院预交金), in fen. */
  depositFen: number
  /** Charges so far. */
  costFen: number
  /** Deposits - returned - charges; negative when the patient owes. */
  balanceFen: number
  /** The total of each day with charges, oldest first (YYYY-MM-DD). */
  days: { date: string; amountFen: number }[]
  /** At discharge (出院结算): the balance returned to the patient, or what they owe. Null while in hospital. */
  settlement: { returnedFen: number; owedFen: number } | null
}

/** `POST /his/admissions`: admit the patient of a booking at the staff's hospital (one stay in hospital at a time). */
export interface HisAdmitInput {
  registrationId: number
  ward: string
  bed: string
}

/** `POST /his/admissions/{admissionNo}/charges`: one day's charges, items of the price catalogue with quantities. */
export interface HisChargeInput {
  /** YYYY-MM-DD, from the day of admission to today. */
  date: string
  items: { code: string; quantity: number }[]
}

/** `POST /his/admissions` answers the stay with the patient it was opened for. */
export interface HisAdmitResult extends HisConsoleAdmission {
  patientId: number
}
