/** Appointment registration (预约挂号): catalogue, schedules, booking and records. See the modules for the rules. */
export * from './rules'
export * from './settings'
export * from './catalogue'
export * from './schedule'
export * from './booking'
export { listRegistrations, registrationDetail } from './records'
