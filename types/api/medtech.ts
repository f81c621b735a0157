/**
 * Examination appointments (医技预约) and nucleic-acid tests (核酸检测), `/dld-palm/api` (spec §7 Reports
 * `med-tech/appointment/*`, `report/nucleic`; Payment `init/nucleic`, `nucleic/list`, `nucleic/codeImage/{id}`).
 */
import type { OrderStatus, PayAction, PayOrder } from './payment'

/** Who and where every call of a patient's examinations names. */
export interface ExamPatientInput {
  hospitalCode: string
  patientId: number
}

/** An examination appointment: one paid examination in one device's slot. */
export interface ExamAppointment {
  appointmentNo: string
  billNo: string
  title: string
  place: string
  deviceName: string
  location: string
  /** YYYY-MM-DD */
  date: string
  /** HH:MM */
  startTime: string
  endTime: string
  status: 'booked' | 'cancelled'
  statusText: string
  /** Moved to another slot this many times. */
  rescheduled: number
  /** Still before its slot: it may be moved or cancelled. */
  changeable: boolean
  createdAt: string
}

/** A paid examination that takes an appointment (CT, MRI, ultrasound, endoscopy), with its appointment if any. */
export interface ExamToBook {
  billNo: string
  title: string
  /** The examination's items (胸部CT 平扫 ...). */
  items: string[]
  place: string
  location: string
  deptName: string
  doctorName: string
  orderedAt: string
  amountFen: number
  /** What to do before it: 空腹 8 小时, 憋尿, 去除金属物品 ... */
  preparation: string[]
  appointment: ExamAppointment | null
}

/** One appointment with its examination's preparation notes. */
export interface ExamAppointmentDetail extends ExamAppointment {
  patientId: number
  patientName: string
  hospitalCode: string
  items: string[]
  preparation: string[]
}

/** A day an examination may be booked on, with the places left that day over all its devices. */
export interface ExamDate {
  date: string
  remaining: number
}

export interface ExamSlot {
  slotId: number
  startTime: string
  endTime: string
  capacity: number
  remaining: number
}

/** One device's slots on a day. */
export interface ExamDevice {
  deviceId: number
  deviceName: string
  location: string
  slots: ExamSlot[]
}

export interface ExamBookInput extends ExamPatientInput {
  billNo: string
  slotId: number
  idempotencyKey: string
}

// ---- nucleic-acid tests ----------------------------------------------------------------------------------------------

/** A kind of nucleic-acid test the hospital sells (单检, 混检), priced by the HIS. */
export interface NucleicKind {
  code: string
  name: string
  priceFen: number
  description: string
  place: string
}

export interface NucleicPurchaseInput extends ExamPatientInput {
  kindCode: string
  returnUrl: string
  idempotencyKey: string
}

/** A nucleic-acid test bought through the app. */
export interface NucleicOrder {
  id: number
  orderNo: string
  hospitalCode: string
  hospitalName: string
  patientId: number
  patientName: string
  kindCode: string
  kindName: string
  amountFen: number
  status: OrderStatus
  statusText: string
  /** Paid and registered: the sampling QR code carries this. */
  sampleNo: string | null
  /** 待采样, 已采样, 已出报告, 已取消 (null before it is paid). */
  testStatus: 'registered' | 'sampled' | 'reported' | 'cancelled' | null
  testStatusText: string
  /** Still waiting for the money: it may be paid (again). */
  payable: boolean
  /** Paid and not sampled yet: cancelling refunds it. */
  refundable: boolean
  order: PayOrder
  createdAt: string
  paidAt: string | null
}

export interface NucleicPurchaseStart {
  record: NucleicOrder
  action: PayAction | null
}

/** A nucleic-acid test's result as the HIS released it (spec §7 `report/nucleic`). */
export interface NucleicResult {
  sampleNo: string
  patientId: number
  patientName: string
  kindName: string
  status: 'registered' | 'sampled' | 'reported' | 'cancelled'
  statusText: string
  /** 阴性 / 阳性 once reported. */
  result: '阴性' | '阳性' | null
  sampledAt: string | null
  reportedAt: string | null
  registeredAt: string
}
