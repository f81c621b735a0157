/**
 * Inquiry orders (图文问诊), `/dld-hospital`: a patient's consultation order with one online doctor, paid through the
 * payment core, then waited on, served, finished, cancelled or closed. Spec §2 Order pages (/pages/order/inquiry),
 * §4 (inquiry orders can be checked, cancelled, closed by the user, continue-paying, complained about), §7 Internet
 * hospital → Inquiry and Conversation orders.
 */
import type { PayOrder } from './payment'

/**
 * unpaid: waiting for the payment; waiting: paid (or free), waiting for the doctor to accept; inProgress: the doctor
 * accepted; finished: ended by the patient (or the doctor); cancelled: given up by the patient (refunded when it was
 * paid); closed: the payment or the service window ran out (refunded when the doctor never accepted).
 */
export type InquiryStatus = 'unpaid' | 'waiting' | 'inProgress' | 'finished' | 'cancelled' | 'closed'
export type InquiryService = 'text'
/** 图文问诊 with a chosen doctor, 快速问诊 (the server picks the doctor), 复诊续方 (with a doctor seen before). */
export type InquiryKind = 'inquiry' | 'quick' | 'chronic'

/** `POST /inquiry/addInquiryInfo`. */
export interface InquiryInput {
  doctorId: number
  patientId: number
  /** The illness, 1 to 500 characters. */
  description: string
  /** Up to 9 pictures, each a url `POST /dld-file/files-upload` answered. */
  pictures?: string[]
  /** One per attempt on the page; a retry of the same attempt sends the same key. */
  idempotencyKey: string
}

/** `POST /im/trade/service/im/init/continuePay`: the inquiry by its id or by its payment order's number. */
export interface InquiryPayInput {
  id?: number
  orderNo?: string
  returnUrl: string
}

/** `POST /im/trade/complaint`. */
export interface InquiryComplaintInput {
  id: number
  content: string
}

/**
 * `POST /im/trade/medicalRecord`: the patient's 问诊单 (pre-consultation intake) for one of their inquiries, while it is
 * unpaid, waiting or in progress; saving again replaces it.
 */
export interface InquiryIntakeInput {
  inquiryId: number
  /** 已在线下医院就诊 */
  visitedOffline: boolean
  /** 线下诊断, up to 100 characters; kept only when visitedOffline. */
  offlineDiagnosis?: string
  /** 既往史, up to 200 characters. */
  pastHistory?: string
  /** 过敏史, up to 200 characters. */
  allergyHistory?: string
  /** 正在使用的药物, up to 200 characters. */
  currentMedication?: string
}

/** The 问诊单 as the patient and the doctor read it ('' for a field left empty). */
export interface InquiryIntake {
  visitedOffline: boolean
  offlineDiagnosis: string
  pastHistory: string
  allergyHistory: string
  currentMedication: string
  updatedAt: string
}

export interface InquiryDoctor {
  id: number
  doctorName: string
  title: string
  avatar: string
  deptName: string
  /** The doctor's IM account (`d_<id>`), the peer of the consultation room. */
  imAccount: string
}

export interface Inquiry {
  id: number
  /** The consultation's number (imOrderNo), also the "my consultations" row's orderNo. */
  inquiryNo: string
  status: InquiryStatus
  /** 待支付 / 待接诊 / 问诊中 / 已结束 / 已取消 / 退款中 / 已退款 / 已关闭. */
  statusText: string
  serviceType: InquiryService
  /** 图文问诊 / 快速问诊 / 复诊续方 by kind. */
  serviceName: string
  kind: InquiryKind
  description: string
  pictures: string[]
  /** The price at the time of ordering, in fen. */
  priceFen: number
  patientId: number
  /** Masked. */
  patientName: string
  hospitalCode: string
  hospitalName: string
  doctor: InquiryDoctor
  paidAt: string | null
  acceptedAt: string | null
  /** When the service window ends (null while unpaid): 48 h after payment until accepted, then 24 h after acceptance. */
  serviceEndsAt: string | null
  finishedAt: string | null
  cancellable: boolean
  complaint: { content: string; time: string } | null
  /** The patient's 问诊单; null until it is filled in. */
  intake: InquiryIntake | null
  /** Whether the patient has rated the consultation (`POST /im/evaluate/add`, once per inquiry). */
  evaluated: boolean
  /** The payment order; null for a free consultation. */
  order: PayOrder | null
  createdAt: string
}
