import { get, post } from './request'
import type { PayAction } from '../../types/api/payment'
import type {
  ActivityPrice,
  DeptGroup,
  DeptSchedule,
  DeptSort,
  DoctorSchedule,
  Page,
  RegisterDoctor,
  RegisterInput,
  RegisterListQuery,
  RegisterRules,
  RegisterSearchResult,
  Registration,
} from '../../types/api/register'

/** Appointment registration, `/dld-palm/api` (spec §7 Registration). */
const API = '/dld-palm/api'

/** A GET query without its unset fields: Taro's H5 request would send them as the text 'undefined'. */
const query = <T extends object>(q: T) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>

/** The hospital's clinic groups and their departments, in its own order or most booked first. */
export const listDepartments = (hospitalCode: string, deptSort: DeptSort = 'default') =>
  get<DeptGroup[]>(`${API}/department/${encodeURIComponent(hospitalCode)}`, { deptSort }, { noLoading: true })

/** Departments, doctors and diseases matching a keyword; silent: the search page shows its own failed state. */
export const searchRegister = (hospitalCode: string, keyword: string) =>
  get<RegisterSearchResult>(`${API}/department/search`, { hospitalCode, keyword }, { noLoading: true, silent: true })

/** The doctors of a department (the department introduction). */
export const listDoctors = (hospitalCode: string, deptId?: number, keyword?: string) =>
  get<RegisterDoctor[]>(`${API}/doctor/list/search`, query({ hospitalCode, deptId, keyword }), { noLoading: true })

/** A department's next 14 days, by date. */
export const getDeptSchedule = (hospitalCode: string, deptId: number) =>
  post<DeptSchedule>(`${API}/schedule-dept`, { hospitalCode, deptId }, { noLoading: true })

/** A doctor's next 14 days, or one schedule, each with its time ranges. */
export const getDoctorSchedule = (by: { doctorId: number } | { scheduleId: number }) =>
  post<DoctorSchedule>(`${API}/schedule-doctor`, by, { noLoading: true })

/** The hospital's registration rules: notice, hold minutes, cancelling deadline, insurance. */
export const getRegisterRules = (hospitalCode: string) => post<RegisterRules>(`${API}/hospital/register`, { hospitalCode }, { noLoading: true })

/** The fee one patient pays for one schedule, after the hospital's activities. */
export const getActivityPrice = (scheduleId: number, patientId: number) =>
  post<ActivityPrice>(`${API}/activity/price`, { scheduleId, patientId }, { noLoading: true })

/** Form encoding sends every value as text; `insurance: false` is left out rather than sent as the string 'false'. */
const bookingBody = (input: RegisterInput) => ({ ...input, insurance: input.insurance ? true : undefined })

/** Books: a hold while the patient pays, or booked at once when nothing is to pay. */
export const createRegistration = (input: RegisterInput) => post<Registration>(`${API}/register`, bookingBody(input))
/** Books a schedule this patient pays nothing for. */
export const applyFreeRegistration = (input: RegisterInput) => post<Registration>(`${API}/apply/free`, bookingBody(input))

/** How to pay a held registration; the cashier sends the browser back to `returnUrl`. */
export const payRegistration = (id: number, returnUrl: string) => post<PayAction>(`${API}/register/pay`, { id, returnUrl })

/** Back from the cashier: the server asks the payment provider and answers the registration as it now stands. */
export const confirmRegistration = (id: number) => post<Registration>(`${API}/confirm/${id}`, undefined, { noLoading: true })

/** Cancels a hold, or a booking before the hospital's deadline (a paid one is refunded). */
export const cancelRegistration = (id: number, reason?: string) => post<Registration>(`${API}/cancel`, { id, reason })

export const listRegistrations = (q: RegisterListQuery) => get<Page<Registration>>(`${API}/register/list`, query(q), { noLoading: true })

export const getRegistration = (id: number) => get<Registration>(`${API}/register/detail`, { id }, { noLoading: true })
