/**
 * The internet hospital's doctors (在线问诊 · 找医生), `/dld-hospital`: who consults online, their services and prices,
 * searching, departments, assistants, and following a doctor. Spec §2 Internet pages, §3 service level, §7 Doctors,
 * §9 average reply time.
 */
import type { Page } from './hospital'

/** 图文问诊 (text and pictures) or 视频问诊 (video). */
export type ConsultServiceType = 'text' | 'video'

export interface ConsultService {
  type: ConsultServiceType
  /** 图文问诊, 视频问诊 */
  name: string
  priceFen: number
}

/** spec §3: a service level as stars (src/utils/level.ts starRating). */
export interface Stars {
  full: number
  half: boolean
  empty: number
}

/** One online doctor as the lists show them. */
export interface OnlineDoctor {
  id: number
  doctorName: string
  title: string
  avatar: string
  deptId: number
  deptName: string
  hospitalCode: string
  hospitalName: string
  /** The service level, 0–5 (spec §3). */
  level: number
  stars: Stars
  /** The price of 图文问诊 in fen; null when the doctor does not offer it. */
  priceFen: number | null
  /** Seconds; 0 when not known. */
  avgReplySeconds: number
  /** spec §9, e.g. 15分钟, 6小时. */
  replyTimeText: string
  servedCount: number
  /** Percent of good ratings, 0–100. */
  goodRate: number
  /** Accepting consultations now. */
  online: boolean
  speciality: string
  /** The doctor's IM account, `d_<id>`. */
  imAccount: string
}

/** `GET /doctor/info?id=`: one doctor in full. */
export interface OnlineDoctorInfo extends OnlineDoctor {
  intro: string
  services: ConsultService[]
  fansCount: number
  /** Whether the caller follows the doctor (false when not signed in). */
  followed: boolean
}

/**
 * `sort` of `GET /index/doctorList`: default (accepting first, then the hospital's order), level (highest first),
 * replyTime (fastest first), price (cheapest 图文问诊 first).
 */
export type DoctorSort = 'default' | 'level' | 'replyTime' | 'price'

export interface DoctorListQuery {
  hospitalCode: string
  deptId?: number
  sort?: DoctorSort
  page?: number
  size?: number
}

export type DoctorPage = Page<OnlineDoctor>

/** `GET /index/hospitalDept`: a department with online doctors. */
export interface OnlineDept {
  id: number
  deptName: string
  doctorCount: number
  onlineCount: number
}

/** `GET /index/search`: doctors by name, speciality or department, and the departments by name. */
export interface OnlineSearchResult {
  doctors: OnlineDoctor[]
  depts: (OnlineDept & { hospitalCode: string; hospitalName: string })[]
}

/** `GET /index/city`: a city and its hospitals with the internet service. */
export interface InternetCity {
  city: string
  hospitals: { hospitalCode: string; hospitalName: string }[]
}

/** `GET /index/physicianAssistant`: a hospital's assistant (医生助理), an IM account `a_<id>`. */
export interface PhysicianAssistant {
  id: number
  name: string
  imAccount: string
  avatar: string
  hospitalCode: string
}

/** `PUT /im/fans/follow` and `/cancel/follow`. */
export interface FollowState {
  doctorId: number
  followed: boolean
  fansCount: number
}
