import { get, post } from './request'
import type {
  ExamAppointmentDetail,
  ExamBookInput,
  ExamDate,
  ExamDevice,
  ExamPatientInput,
  ExamToBook,
  NucleicKind,
  NucleicOrder,
  NucleicPurchaseInput,
  NucleicPurchaseStart,
  NucleicResult,
} from '../../types/api/medtech'
import type { Page } from '../../types/api/hospital'

/** Examination appointments (医技预约) and nucleic-acid tests, `/dld-palm/api` (spec §7 Reports and Payment). */
const API = '/dld-palm/api'
const M = `${API}/report/med-tech/appointment`

/** The patient's paid examinations that take an appointment, each with its booked one. */
export const listExamsToBook = (input: ExamPatientInput) => post<ExamToBook[]>(`${M}/orders`, input, { noLoading: true })
export const listExamDates = (input: ExamPatientInput & { billNo: string }) => post<ExamDate[]>(`${M}/date`, input, { noLoading: true })
export const listExamSlots = (input: ExamPatientInput & { billNo: string; date: string }) => post<ExamDevice[]>(`${M}/list`, input, { noLoading: true })
/** Books the examination into the slot, or moves its appointment there. */
export const bookExam = (input: ExamBookInput) => post<ExamAppointmentDetail>(`${M}/order`, input)
export const getExamAppointment = (input: ExamPatientInput & { appointmentNo: string }) => post<ExamAppointmentDetail>(`${M}/detail`, input, { noLoading: true })
export const cancelExamAppointment = (input: ExamPatientInput & { appointmentNo: string }) => post<ExamAppointmentDetail>(`${M}/cancel`, input)
export const listExamAppointments = (input: ExamPatientInput) => post<ExamAppointmentDetail[]>(`${M}/records`, input, { noLoading: true })

export const listNucleicKinds = (hospitalCode: string) => get<NucleicKind[]>(`${API}/nucleic/kinds`, { hospitalCode }, { noLoading: true })
export const purchaseNucleic = (input: NucleicPurchaseInput) => post<NucleicPurchaseStart>(`${API}/payment/init/nucleic`, input)
export const listNucleicOrders = (q: { hospitalCode?: string; patientId?: number; page: number; size: number }) =>
  get<Page<NucleicOrder>>(`${API}/payment/nucleic/list`, Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)), { noLoading: true })
export const getNucleicOrder = (id: number) => get<NucleicOrder>(`${API}/payment/nucleic/detail`, { id }, { noLoading: true })
/** The sampling QR code, drawn by the server (an SVG data URL). */
export const getNucleicCode = (id: number) => get<{ id: number; sampleNo: string; image: string }>(`${API}/payment/nucleic/codeImage/${id}`, undefined, { noLoading: true })
export const cancelNucleic = (id: number) => post<NucleicOrder>(`${API}/payment/nucleic/cancel`, { id })
export const listNucleicResults = (input: ExamPatientInput) => post<NucleicResult[]>(`${API}/report/nucleic`, input, { noLoading: true })
