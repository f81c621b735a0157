import { post } from './request'
import type {
  CloudStudy,
  CloudViewerParam,
  ImagingReport,
  LabReport,
  LabTrend,
  PathologyReport,
  ReportDetail,
  ReportKind,
  ReportPage,
  ReportVerifyAnswer,
  ReportVerifyInput,
} from '../../types/api/report'

/** Reports (检查检验报告), `/dld-palm/api` (spec §7 Palm service Reports). */
const API = '/dld-palm/api'

export interface ReportQuery {
  hospitalCode: string
  patientId: number
  page: number
  size: number
}

/** The patient's reports of one kind, newest first, with unread marks (a relative's: verify first). */
export const listReports = (q: ReportQuery & { kind: ReportKind }) => post<ReportPage>(`${API}/report/list`, q, { noLoading: true })

/** The patient's pathology reports (病理). */
export const listPathology = (q: ReportQuery) => post<ReportPage>(`${API}/pathology/list`, q, { noLoading: true })

/** The patient's imaging studies with a cloud film (云影像). */
export const listCloudStudies = (q: ReportQuery) => post<ReportPage & { studies: CloudStudy[] }>(`${API}/cloud`, q, { noLoading: true })

/** One report of any kind, whole; it is read now. */
export const getReport = (id: number) => post<ReportDetail>(`${API}/report/${id}`, undefined, { noLoading: true })

/** One lab report with its items. */
export const getLabReport = (id: number) => post<LabReport>(`${API}/assay/detail`, { id }, { noLoading: true })

/** One imaging report: findings and impression. */
export const getImagingReport = (id: number) => post<ImagingReport>(`${API}/pacs/detail`, { id }, { noLoading: true })

/** A pathology report (report/{id} of kind pathology). */
export const getPathologyReport = (id: number) => getReport(id) as Promise<PathologyReport>

/** One lab item across the patient's lab reports, oldest first. */
export const getLabTrend = (id: number, code: string) => post<LabTrend>(`${API}/assay/trend`, { id, code }, { noLoading: true })

/** The link that opens an imaging report's cloud film. */
export const getViewerParam = (id: number) => post<CloudViewerParam>(`${API}/cloud/pacs/get-param`, { id })

/** A relative's reports: without a code, sends one to their mobile; with one, checks it for this session. */
export const verifyReportCode = (input: ReportVerifyInput) => post<ReportVerifyAnswer>(`${API}/verifyCode`, input)

/** The patient's reports as a FHIR R4 Bundle (JSON), to keep or hand to another doctor. */
export const getReportsFhir = (hospitalCode: string, patientId: number) => post<Record<string, unknown>>(`${API}/report/fhir`, { hospitalCode, patientId })
