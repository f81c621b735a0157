import { downloadFile, get, getBytes, post } from './request'
import type { Page } from '../../types/api/hospital'
import type { PhysicalAppointment, PhysicalDay, PhysicalPackage, PhysicalReport, PhysicalReportEntry, PhysicalStart } from '../../types/api/physical'

/**
 * Physical exams (体检, spec §7 "Physical", `paid/physical/list`) and their reports (`report/physical/list`,
 * `report/physical`, `physical/info/{id}`), `/dld-palm/api`. Amounts are whole fen.
 */
const API = '/dld-palm/api'

/** A GET query without its unset fields: Taro's H5 request would send them as the text 'undefined'. */
const query = <T extends object>(q: T) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>

export interface BookPhysicalInput {
  hospitalCode: string
  patientId: number
  packageCode: string
  date: string
  returnUrl: string
  idempotencyKey: string
}

export interface PhysicalListQuery {
  hospitalCode?: string
  patientId?: number
  page: number
  size: number
}

export interface ReportRef {
  hospitalCode: string
  patientId: number
  examNo: string
}

/** The packages offered; with a patient, those that suit their sex and age. */
export const getPhysicalPackages = (hospitalCode: string, patientId?: number) =>
  get<PhysicalPackage[]>(`${API}/physical/physicalAppointment/list`, query({ hospitalCode, patientId }), { noLoading: true })

export const getPhysicalPackage = (hospitalCode: string, packageCode: string) =>
  get<PhysicalPackage>(`${API}/physical/getPhysical/detail`, { hospitalCode, packageCode }, { noLoading: true })

/** The bookable days with the places left. */
export const getPhysicalDays = (hospitalCode: string) => get<PhysicalDay[]>(`${API}/physical/appointment/date`, { hospitalCode }, { noLoading: true })

/** Books (holds the place and makes the order): the appointment and how to pay it. */
export const bookPhysical = (input: BookPhysicalInput) => post<PhysicalStart>(`${API}/physical/physicalAppointment`, input)

export const getPhysicalAppointment = (id: number) => get<PhysicalAppointment>(`${API}/physical/getPhysicalAppointment`, { id }, { noLoading: true })

/** Every appointment, or (paid) only the paid ones. */
export const listPhysicalAppointments = (q: PhysicalListQuery, paid = false) =>
  get<Page<PhysicalAppointment>>(paid ? `${API}/paid/physical/list` : `${API}/physical/getPhysicalPaymentBill`, query(q), { noLoading: true })

export const cancelPhysicalAppointment = (id: number) => get<PhysicalAppointment>(`${API}/physical/cancelAppointment`, { id })

export const listPhysicalReports = (hospitalCode: string, patientId: number) =>
  get<PhysicalReportEntry[]>(`${API}/report/physical/list`, { hospitalCode, patientId }, { noLoading: true })

export const getPhysicalReport = (ref: ReportRef) =>
  get<PhysicalReport>(`${API}/physical/info/${encodeURIComponent(ref.examNo)}`, { hospitalCode: ref.hospitalCode, patientId: ref.patientId }, { noLoading: true })

/** The report's PDF as bytes (H5 draws it with pdf.js). */
export const getPhysicalReportPdf = (ref: ReportRef) => getBytes(`${API}/report/physical`, { ...ref }, 'application/pdf')

/** The report's PDF downloaded to the phone (a mini-program opens it in the system's viewer). */
export const downloadPhysicalReportPdf = (ref: ReportRef) => downloadFile(`${API}/report/physical`, { ...ref })
