/**
 * Reports a patient reads (检查检验报告), `/dld-palm/api` (spec §2 Palm pages Reports, §7 Palm service Reports): lab
 * results (检验), imaging (检查 / 影像) with the cloud film (云影像), and pathology (病理). Reports belong to the hospital
 * information system (HIS); the app keeps only a numeric reference per report and each account's read marks.
 * A relative's reports (a patient whose mobile is not the account's) need an SMS code once per sign-in session.
 */
import type { Page } from './hospital'

/** lab 检验, imaging 检查（影像）, pathology 病理. Physical-exam and nucleic-acid reports have their own pages. */
export type ReportKind = 'lab' | 'imaging' | 'pathology'

/** A lab value against its range: H above, L below, N within, '' when the item has no numeric range. */
export type ResultFlag = 'H' | 'L' | 'N' | ''

/** Asking for a patient's reports: `POST /report/list`, `/pathology/list`, `/cloud`. */
export interface ReportListInput {
  hospitalCode: string
  patientId: number
  kind: ReportKind
  page?: number
  size?: number
}

/** One report in a list, newest first. */
export interface ReportSummary {
  /** The app's number for the report (its detail calls take it). */
  id: number
  kind: ReportKind
  reportNo: string
  title: string
  deptName: string
  /** ISO time the report was released. */
  reportedAt: string
  /** Unread by this account (未读). */
  unread: boolean
  /** Lab: items out of range; imaging and pathology: 0. */
  abnormalCount: number
  patientId: number
}

/** Whether the list could be shown: a relative's reports first need the code sent to their mobile. */
export interface ReportVerifyState {
  required: boolean
  /** The patient's mobile, masked (138****0000), where the code goes; '' when none is needed. */
  mobile: string
}

export interface ReportPage extends Page<ReportSummary> {
  /** Unread reports of this kind for the patient. */
  unread: number
  verify: ReportVerifyState
}

/** One item of a lab report. */
export interface LabItem {
  code: string
  name: string
  /** The value as the laboratory wrote it (a number, or 阴性 / 阳性). */
  value: string
  unit: string
  /** 参考范围 as printed, e.g. 3.5-9.5; '' when none. */
  range: string
  low: number | null
  high: number | null
  flag: ResultFlag
}

interface ReportBase {
  id: number
  patientId: number
  patientName: string
  reportNo: string
  title: string
  deptName: string
  /** The doctor who asked for it. */
  doctorName: string
  /** The doctor who reported it (报告医生). */
  reporterName: string
  /** The doctor who checked it (审核医生). */
  checkerName: string
  /** ISO times. */
  requestedAt: string
  reportedAt: string
}

/** `POST /assay/detail`. */
export interface LabReport extends ReportBase {
  kind: 'lab'
  specimen: string
  items: LabItem[]
}

/** `POST /pacs/detail`. */
export interface ImagingReport extends ReportBase {
  kind: 'imaging'
  /** CT, MR, DR, US ... */
  modality: string
  examPart: string
  device: string
  findings: string
  impression: string
  /** Whether the cloud film can be opened (云影像). */
  hasImages: boolean
}

/** Pathology: the report's text (`POST /report/{id}` for kind pathology). */
export interface PathologyReport extends ReportBase {
  kind: 'pathology'
  specimen: string
  description: string
  diagnosis: string
}

export type ReportDetail = LabReport | ImagingReport | PathologyReport

/** `POST /assay/trend`: one item across the patient's lab reports, oldest first. */
export interface LabTrend {
  code: string
  name: string
  unit: string
  range: string
  low: number | null
  high: number | null
  points: { reportId: number; reportedAt: string; value: number; flag: ResultFlag }[]
}

/** `POST /cloud`: the imaging studies with a cloud film. */
export interface CloudStudy {
  id: number
  title: string
  modality: string
  examPart: string
  reportedAt: string
  unread: boolean
  patientId: number
}

/** `POST /cloud/pacs/get-param`: where the cloud film opens. */
export interface CloudViewerParam {
  url: string
  /** When the link stops working (ISO time). */
  expiresAt: string
}

/** `POST /verifyCode`: without a code, send one to the patient's mobile; with one, check it. */
export interface ReportVerifyInput {
  hospitalCode: string
  patientId: number
  code?: string
}

export interface ReportVerifyAnswer {
  /** The code was sent (without `code`). */
  sent: boolean
  /** The reports of this patient may be read for the rest of the session (with `code`, or when none is needed). */
  verified: boolean
  mobile: string
  resendAfter: number
  /** Only on a test server. */
  devCode?: string
}
