/**
 * Appointment registration (预约挂号), `/dld-palm/api`: the clinic tree, search, schedules, booking with a hold that
 * lasts while the patient pays, cancelling with a refund, and the records. Spec §2 Palm pages (Registration), Order
 * pages (register), §3 search results, §7 Registration.
 */
import type { OrderStatus, PayOrder } from './payment'
import type { Page } from './hospital'

/** A clinic (门诊) and its departments: `GET /department/{hospitalCode}?deptSort=`. */
export interface DeptGroup {
  id: number
  deptName: string
  children: Dept[]
}

export interface Dept {
  id: number
  deptName: string
  intro: string
}

/** `deptSort`: the hospital's own order (default) or the most booked first. */
export type DeptSort = 'default' | 'hot'

/** `GET /department/search?hospitalCode=&keyword=` (spec §3 search results). */
export interface RegisterSearchResult {
  depts: { id: number; deptName: string }[]
  /** remark holds "title|hospitalName" (spec §3), split by the app. */
  doctors: { id: number; doctorName: string; remark: string; deptId: number; deptName: string; avatar: string }[]
  diseases: { name: string; deptId: number; deptName: string }[]
}

export type Segment = 'am' | 'pm'

/** One bookable morning or afternoon. */
export interface ScheduleItem {
  scheduleId: number
  deptId: number
  deptName: string
  /** null for the department's general clinic (普通号). */
  doctorId: number | null
  doctorName: string
  title: string
  avatar: string
  visitDate: string
  /** 周一 … 周日 */
  week: string
  segment: Segment
  /** 上午 / 下午 */
  segmentText: string
  registerType: string
  feeFen: number
  total: number
  remaining: number
  /** 停诊: shown, not bookable. */
  stopped: boolean
  /** 有号 / 约满 / 停诊 */
  state: '有号' | '约满' | '停诊'
}

/** `POST /schedule-dept {hospitalCode, deptId}`: the next 14 days of a department, by date. */
export interface DeptSchedule {
  deptId: number
  deptName: string
  days: { visitDate: string; week: string; available: boolean; items: ScheduleItem[] }[]
}

/** A doctor as the registration pages show one (`/palm/doctor/index`, `/pages/introduce/doctor`). */
export interface RegisterDoctor {
  id: number
  doctorName: string
  title: string
  avatar: string
  speciality: string
  intro: string
  deptId: number
  deptName: string
  hospitalCode: string
  hospitalName: string
}

/** The time ranges of one schedule and what is left in each (the confirm page's time segment choice). */
export interface TimeRange {
  timeRange: string
  remaining: number
}

/** `POST /schedule-doctor {doctorId | scheduleId}`: a doctor's next 14 days, each schedule with its time ranges. */
export interface DoctorSchedule {
  doctor: RegisterDoctor | null
  items: (ScheduleItem & { timeRanges: TimeRange[] })[]
}

/** `POST /hospital/register {hospitalCode}`: the hospital's registration rules, shown on the notice and confirm pages. */
export interface RegisterRules {
  hospitalCode: string
  /** Minutes a slot is held while the patient pays. */
  holdMinutes: number
  /** e.g. "就诊前一日17:00前可取消，逾期不可退号" */
  cancelRule: string
  /** Days ahead that can be booked. */
  bookDays: number
  /** Whether the hospital settles registration fees with health insurance (spec §6 chsRegisterList). */
  insurance: boolean
  notice: string
}

/** `POST /activity/price {scheduleId, patientId}`: the fee after the hospital's activities (e.g. free for 65+). */
export interface ActivityPrice {
  feeFen: number
  discountFen: number
  payFen: number
  /** The activity that applies, or null. */
  activity: string | null
}

export interface RegisterInput {
  scheduleId: number
  patientId: number
  timeRange: string
  /** Settle with health insurance (insurance hospitals only). */
  insurance?: boolean
  /** A new one per attempt on the confirm page; a retry of the same attempt sends the same key. */
  idempotencyKey: string
}

export type RegistrationStatus = 'holding' | 'booked' | 'cancelled' | 'expired'

/** A registration record (`GET /register/list`, `/register/detail`, and what `/register` answers). */
export interface Registration {
  id: number
  regNo: string
  status: RegistrationStatus
  /** 待支付 / 预约成功 / 已取消 / 已过期 / 已退款 / 退款中 */
  statusText: string
  hospitalCode: string
  hospitalName: string
  deptName: string
  doctorName: string
  title: string
  registerType: string
  visitDate: string
  week: string
  segment: Segment
  segmentText: string
  timeRange: string
  seq: number
  feeFen: number
  patientId: number
  /** Masked (spec §9). */
  patientName: string
  /** Masked; the patient's card number at this hospital. */
  hisMedCardNo: string
  /** ISO; while holding, the slot is given back at this time. */
  holdExpiresAt: string | null
  /** Whether the patient may still cancel (before the hospital's deadline). */
  cancellable: boolean
  /** Settled with health insurance: paid on /palm/chsPayment, where the insurance part is worked out first. */
  insurance: boolean
  order: PayOrder | null
  createdAt: string
}

export interface RegisterListQuery {
  hospitalCode?: string
  status?: RegistrationStatus
  page?: number
  size?: number
}

export type { OrderStatus, Page }
