/**
 * Physical exams (体检, spec §2 "Physical-exam booking", §7 "Physical", `paid/physical/list`, and the physical-exam
 * reports of §7 "Reports"), under `/dld-palm/api`. Packages, days and places are the hospital's physical-exam system's
 * (the HIS); the app books a place, takes the money through the payment core, and reads the report once it is out.
 * Amounts in fen, dates YYYY-MM-DD at the hospital.
 */
import type { OrderStatus, PayAction, PayOrder } from './payment'

/** Who a package is for: 0 anyone, 1 men, 2 women. */
export type PackageSex = 0 | 1 | 2

export interface PhysicalItem {
  /** 一般检查, 内科, 外科, 眼科, 耳鼻喉科, 口腔科, 妇科, 检验科, 心电图室, 超声科, 放射科 */
  dept: string
  name: string
  /** What it looks at, for the patient. */
  meaning: string
}

export interface PhysicalPackage {
  code: string
  name: string
  sex: PackageSex
  minAge: number
  maxAge: number
  priceFen: number
  /** One line on who it suits. */
  suits: string
  /** Preparation: fasting, bring glasses... */
  notice: string
  items: PhysicalItem[]
}

/** A day of the physical-exam centre: how many places are left of its capacity; closed days have none. */
export interface PhysicalDay {
  date: string
  week: string
  capacity: number
  remaining: number
  open: boolean
}

/** holding: waiting for the money; booked: paid; checkedIn: at the centre; finished: exam done (report out). */
export type PhysicalStatus = 'holding' | 'booked' | 'checkedIn' | 'finished' | 'cancelled' | 'expired'

export interface PhysicalAppointment {
  id: number
  /** The exam's number at the physical-exam centre (the patient shows it at the desk). */
  examNo: string
  hospitalCode: string
  hospitalName: string
  patientId: number
  patientName: string
  packageCode: string
  packageName: string
  examDate: string
  amountFen: number
  status: PhysicalStatus
  statusText: string
  /** The patient may still pay it (holding, before its order closes). */
  payable: boolean
  /** The patient may cancel it now (holding, or paid and before the exam day). */
  cancellable: boolean
  /** Why a paid appointment can no longer be cancelled online, when it cannot. */
  cancelNote: string | null
  /** 已退款 / 退款中 / 退款失败 once a paid appointment was cancelled. */
  refundText: string | null
  reportReady: boolean
  order: PayOrder
  createdAt: string
}

export interface PhysicalStart {
  appointment: PhysicalAppointment
  action: PayAction | null
}

/** A physical-exam report as the list shows it. */
export interface PhysicalReportEntry {
  examNo: string
  hospitalCode: string
  patientId: number
  patientName: string
  packageName: string
  examDate: string
  /** ISO time the exam was finished and the report released. */
  reportedAt: string
}

export interface PhysicalFinding {
  dept: string
  item: string
  result: string
  abnormal: boolean
  doctor: string
}

/** `GET /physical/info/{examNo}`: the report's summary, per-department findings and the chief doctor's conclusion. */
export interface PhysicalReport extends PhysicalReportEntry {
  sexText: string
  age: number
  summary: string[]
  findings: PhysicalFinding[]
  conclusion: string
  advice: string[]
  chiefDoctor: string
}

export type { OrderStatus }
