import { get, post } from './request'
import type { Page } from '../../types/api/hospital'
import type { PayAction } from '../../types/api/payment'
import type { Inquiry, InquiryComplaintInput, InquiryInput, InquiryIntakeInput, InquiryStatus } from '../../types/api/inquiry'
import type { ChronicInquiryInput, DoctorOrderQuery, QuickInquiryInput } from '../../types/api/consultation'
import type { DiseaseCode } from '../../types/api/medical'
import type { PageQuery } from './records'

/** Inquiry orders (图文问诊), `/dld-hospital` (spec §7 Internet hospital → Inquiry and Conversation orders). */
const API = '/dld-hospital'

/** Orders a consultation: unpaid with a payment order, or waiting at once when the doctor's service is free. */
export const createInquiry = (input: InquiryInput) => post<Inquiry>(`${API}/inquiry/addInquiryInfo`, input, { json: true })

/** 快速问诊: the server picks the doctor of the department (or the hospital) with the fewest waiting inquiries. */
export const quickInquiry = (input: QuickInquiryInput) => post<Inquiry>(`${API}/inquiry/quickInquiry`, input, { json: true })

/** 复诊续方 with a doctor the caller follows or who served the patient before (JSON: the medicines are a list). */
export const chronicInquiry = (input: ChronicInquiryInput) => post<Inquiry>(`${API}/inquiry/chronicInquiry`, input, { json: true })

/** How to pay an unpaid inquiry (the payment core's action: the cashier's url, or paid at once). */
export const payInquiry = (id: number, returnUrl: string) => post<PayAction>(`${API}/im/trade/service/im/init/continuePay`, { id, returnUrl }, { json: true })

export const listInquiries = (q: { status?: InquiryStatus; page?: number; size?: number }) =>
  get<Page<Inquiry>>(`${API}/inquiry/order/list`, Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)), { noLoading: true })

export const getInquiry = (id: number) => get<Inquiry>(`${API}/inquiry/order/detail`, { id }, { noLoading: true })

/** Gives up an inquiry no doctor has accepted yet (refunded when paid). */
export const cancelInquiry = (id: number) => get<Inquiry>(`${API}/im/trade/service/im/cancel`, { id })

/** Asks the server to look at the inquiry's time now: it closes (and refunds) one whose window ran out. */
export const checkInquiry = (id: number) => get<Inquiry>(`${API}/im/trade/service/im/check`, { id }, { noLoading: true })

/** The patient ends a consultation in progress. */
export const finishInquiry = (id: number) => get<Inquiry>(`${API}/im/trade/service/im/user/close`, { id })

export const complainInquiry = (input: InquiryComplaintInput) => post<Inquiry>(`${API}/im/trade/complaint`, input, { json: true })

/** The patient's 问诊单 (offline visit, past history, allergies, medication) while the inquiry is unpaid, waiting or in progress. */
export const saveIntake = (input: InquiryIntakeInput) => post<Inquiry>(`${API}/im/trade/medicalRecord`, input, { json: true })

/**
 * The caller's latest open inquiry (unpaid, waiting or in progress) with a doctor, or null: the doctor's home offers
 * 继续问诊 instead of a new one. Silent: without an answer the page offers what it always does.
 */
export const findOpenInquiry = (q: DoctorOrderQuery) => post<Inquiry | null>(`${API}/im/core/orderByDoctorAndUserId`, q, { noLoading: true, silent: true })

/** The caller's past renewals (复诊续方), newest first (问诊记录's second tab). */
export const listPastRenewals = (q: PageQuery) => get<Page<Inquiry>>(`${API}/im/core/chronic/historyList`, q, { noLoading: true })

/** The hospital's diseases whose name holds the keyword (at most 20): the diagnosis a renewal names. Silent: the picker says it failed. */
export const searchDiseases = (hospitalCode: string, keyword: string) =>
  get<DiseaseCode[]>(`${API}/common/diseaseCode`, { hospitalCode, keyword }, { noLoading: true, silent: true })
