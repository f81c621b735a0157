import { get, put } from './request'
import type {
  DoctorListQuery,
  DoctorPage,
  FollowState,
  InternetCity,
  OnlineDept,
  OnlineDoctor,
  OnlineDoctorInfo,
  OnlineSearchResult,
  PhysicianAssistant,
} from '../../types/api/internet'
import type { RecommendedDoctor } from '../../types/api/consultation'

/** The internet hospital's doctors, `/dld-hospital` (spec §7 Internet hospital → Doctors). */
const API = '/dld-hospital'

/** A GET query without its unset fields: Taro's H5 request would send them as the text 'undefined'. */
const query = <T extends object>(q: T) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>

/** A page of the hospital's online doctors, in one department and sort order. */
export const listOnlineDoctors = (q: DoctorListQuery) => get<DoctorPage>(`${API}/index/doctorList`, query(q), { noLoading: true })

/** The departments that have online doctors (the chips above the list). */
export const listOnlineDepts = (hospitalCode: string) => get<OnlineDept[]>(`${API}/index/hospitalDept`, { hospitalCode }, { noLoading: true })

/** Doctors and departments matching a keyword; silent: the search page shows its own failed state. */
export const searchOnline = (hospitalCode: string | undefined, keyword: string) =>
  get<OnlineSearchResult>(`${API}/index/search`, query({ hospitalCode, keyword }), { noLoading: true, silent: true })

/** One online doctor in full, with whether the caller follows them. */
export const getOnlineDoctor = (id: number) => get<OnlineDoctorInfo>(`${API}/doctor/info`, { id }, { noLoading: true })

export const followDoctor = (doctorId: number) => put<FollowState>(`${API}/im/fans/follow`, { doctorId })
export const unfollowDoctor = (doctorId: number) => put<FollowState>(`${API}/im/fans/cancel/follow`, { doctorId })

/** 我的医生: the doctors the caller follows, those accepting consultations first. */
export const listMyDoctors = (hospitalCode?: string) => get<OnlineDoctor[]>(`${API}/doctor/chronic/getMyDoctor`, query({ hospitalCode }), { noLoading: true })

/** The hospital's physician assistants (医生助理), each an IM account `a_<id>`. */
export const listAssistants = (hospitalCode: string) => get<PhysicianAssistant[]>(`${API}/index/physicianAssistant`, { hospitalCode }, { noLoading: true })

/** The doctors the caller follows, the latest followed first (我的医生 · 最近关注). */
export const listFollowedDoctors = (hospitalCode?: string) => get<OnlineDoctor[]>(`${API}/im/fans/doctor/list`, query({ hospitalCode }), { noLoading: true })

/**
 * 热门医生: the most consulted doctors accepting consultations now, of the hospital (or of every internet hospital).
 * Silent: the home page shows its own failed line.
 */
export const listHotDoctors = (hospitalCode?: string) => get<OnlineDoctor[]>(`${API}/index/hotService`, query({ hospitalCode }), { noLoading: true, silent: true })

/** 为您推荐: up to 10 of the hospital's online doctors, those the caller consulted first; signed-in callers only. */
export const listRecommendedDoctors = (hospitalCode: string) =>
  get<RecommendedDoctor[]>(`${API}/im/patient/recommend/doctor`, { hospitalCode }, { noLoading: true, silent: true })

/** The cities with internet hospitals, each with those hospitals (the doctor list's 地区). */
export const listInternetCities = () => get<InternetCity[]>(`${API}/index/city`, undefined, { noLoading: true })
