import { RegisterBooking } from './RegisterBooking'
import { RegisterCatalogue } from './RegisterCatalogue'
import { RegisterRecords } from './RegisterRecords'
import type { PatientStore } from './PatientStore'

export { type ChosenDept } from './RegisterCatalogue'
export { detailUrl, payReturnUrl } from './RegisterBooking'
export { RECORD_TABS } from './RegisterRecords'

// The registration pages' addresses, in one place (the main package already loads this module).
export const DEPT_LIST_URL = '/palm/register/deptList/index'
export const SEARCH_URL = '/palm/register/deptList/search'
export const deptScheduleUrl = (dept: { id: number; deptName: string }) =>
  `/palm/register/deptSchedule/index?deptId=${dept.id}&deptName=${encodeURIComponent(dept.deptName)}`
/** 按医生 opens one doctor's grid; without a doctor, the department's general clinic (普通号). */
export const rowScheduleUrl = (deptId: number, doctorId: number | null) =>
  `/palm/register/rowSchedule/index?deptId=${deptId}${doctorId === null ? '' : `&doctorId=${doctorId}`}`
export const confirmUrl = (scheduleId: number) => `/palm/register/confirm/index?scheduleId=${scheduleId}`
export const doctorUrl = (id: number) => `/palm/doctor/index?id=${id}`
export const introduceDoctorUrl = (id: number) => `/pages/introduce/doctor?id=${id}`
export const introduceDeptUrl = (id: number) => `/pages/introduce/dept?id=${id}`
export const chsPaymentUrl = (id: number) => `/palm/chsPayment/index?source=register&type=register&id=${id}`

/**
 * Appointment registration (预约挂号, spec §2 Registration pages and Order pages register), in three parts: the
 * catalogue (rules, clinic tree, search, schedules), the booking attempt (hold, pay, confirm) and the patient's
 * records (list and detail). A record that changes shows in the booking attempt that made it.
 */
export class RegisterStore {
  readonly catalogue: RegisterCatalogue
  readonly records: RegisterRecords
  readonly booking: RegisterBooking

  constructor(hospitalCode: () => string | undefined = () => undefined, patients: Pick<PatientStore, 'current'> | null = null) {
    this.catalogue = new RegisterCatalogue(hospitalCode)
    this.records = new RegisterRecords(hospitalCode, (registration) => this.booking.sync(registration))
    this.booking = new RegisterBooking(this.catalogue, patients, this.records)
  }
}
