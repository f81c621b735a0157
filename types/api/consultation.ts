/**
 * The remaining inquiry and conversation-order calls, `/dld-hospital` (spec §7 Internet hospital → Inquiry and
 * Conversation orders): 快速问诊 and 复诊续方 (inquiries of another kind, answered as types/api/inquiry Inquiry), an
 * inquiry's status history, the doctors to suggest, a consultation's chat record, the open inquiry with a doctor, and
 * the past consultations.
 */
import type { ChatMessage } from './chat'
import type { InquiryDoctor, InquiryKind, InquiryStatus } from './inquiry'
import type { OnlineDoctor } from './internet'

/**
 * `POST /inquiry/quickInquiry` (JSON): the server picks the online doctor accepting consultations with the fewest
 * waiting inquiries, of the department (a clinic group: any of its departments) or of the hospital.
 */
export interface QuickInquiryInput {
  hospitalCode: string
  deptId?: number
  patientId: number
  /** The illness, 1 to 500 characters. */
  description: string
  pictures?: string[]
  idempotencyKey: string
}

/** `POST /inquiry/chronicInquiry`: 复诊续方 with a doctor the caller follows or this patient consulted before. */
export interface ChronicInquiryInput {
  doctorId: number
  patientId: number
  description: string
  /** The diagnosis the patient was given, 1 to 100 characters. */
  diagnosis: string
  /** The medicines to renew, 1 to 10, each up to 50 characters. */
  medicines: string[]
  pictures?: string[]
  idempotencyKey: string
}

/** One step of an inquiry's history. */
export type InquiryStepKind = 'created' | 'paid' | 'accepted' | 'finished' | 'cancelled' | 'closed' | 'refunding' | 'refunded'

export interface InquiryStep {
  step: InquiryStepKind
  /** What the patient reads, e.g. 提交问诊, 支付成功, 医生接诊. */
  text: string
  time: string
}

/** `GET /im/trade/checkListRecord/{id}`: the caller's inquiry's steps, oldest first. */
export interface InquiryHistory {
  id: number
  inquiryNo: string
  status: InquiryStatus
  statusText: string
  steps: InquiryStep[]
}

/** `GET /im/patient/recommend/doctor?hospitalCode=`: up to 10, the doctors the caller consulted first. */
export interface RecommendedDoctor extends OnlineDoctor {
  consulted: boolean
}

/** `GET /manage/order/chatRecord/{id}`: the messages of the caller's consultation (its inquiry id), oldest first. */
export interface ChatRecord {
  inquiryId: number
  inquiryNo: string
  doctor: InquiryDoctor
  messages: ChatMessage[]
}

/**
 * `POST /im/core/orderByDoctorAndUserId` (spec §3: doctorId, orderType, userId): the caller's latest open inquiry
 * (unpaid, waiting or in progress) with the doctor, or null. `userId`, when sent, must be the caller's.
 */
export interface DoctorOrderQuery {
  doctorId: number
  orderType?: InquiryKind
  userId?: number
}
