import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/register'
import { getPayOrder } from '@/services/pay'
import { outcomeUnknown } from '@/services/request'
import { LOCAL, SESSION, local, session } from '@/services/storage'
import { KeywordSearch, type LoadState } from './KeywordSearch'
import { groupByDoctor, isBookable, newIdempotencyKey } from '@/utils/register'
import type { PatientStore } from './PatientStore'
import type { PayOrder } from '../../types/api/payment'
import type {
  ActivityPrice,
  DeptGroup,
  DeptSchedule,
  DeptSort,
  DoctorSchedule,
  RegisterDoctor,
  RegisterRules,
  RegisterSearchResult,
  Registration,
  RegistrationStatus,
  ScheduleItem,
  TimeRange,
} from '../../types/api/register'

export type { LoadState }
export const RECORD_PAGE_SIZE = 10

export type RecordTab = 'all' | 'holding' | 'booked' | 'cancelled'
/** The record tabs of /pages/order/register/index and the status each asks the server for. */
export const RECORD_TABS: { key: RecordTab; label: string; status?: RegistrationStatus }[] = [
  { key: 'all', label: '全部' },
  { key: 'holding', label: '待支付', status: 'holding' },
  { key: 'booked', label: '预约成功', status: 'booked' },
  { key: 'cancelled', label: '已取消', status: 'cancelled' },
]

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
export const detailUrl = (id: number, source = 'list') => `/pages/order/register/detail?source=${source}&type=register&id=${id}`
/** The cashier brings the browser back here (a path under /h5/, as the payment server requires); the page confirms. */
export const payReturnUrl = (id: number) => `/h5${detailUrl(id, 'pay')}`

/** A schedule the confirm page books, with its time ranges. */
export type BookableSchedule = ScheduleItem & { timeRanges: TimeRange[] }

/** The department chosen on the list, kept for the session (spec §3 session key 'dept'). */
export interface ChosenDept {
  id: number
  deptName: string
}

interface CachedDepts {
  groups: DeptGroup[]
  savedAt: number
}


/**
 * Appointment registration (预约挂号, spec §2 Registration pages and Order pages register): the notice rules, the
 * clinic tree (cached per hospital), search, schedules, the booking attempt with its hold and payment, the records
 * and one record's detail.
 */
export class RegisterStore {
  rules: RegisterRules | null = null
  rulesState: LoadState = 'idle'

  deptSort: DeptSort = 'default'
  groups: DeptGroup[] = []
  groupsState: LoadState = 'idle'
  groupIndex = 0

  /** Departments, doctors and diseases matching what the patient types. */
  readonly search = new KeywordSearch<RegisterSearchResult>(
    (keyword) => api.searchRegister(this.requireHospital(), keyword),
    (r) => r.depts.length === 0 && r.doctors.length === 0 && r.diseases.length === 0,
  )

  deptSchedule: DeptSchedule | null = null
  deptScheduleState: LoadState = 'idle'
  selectedDate = ''
  scheduleTab: 'date' | 'doctor' = 'date'

  doctorSchedule: DoctorSchedule | null = null
  doctorScheduleState: LoadState = 'idle'

  deptDoctors: RegisterDoctor[] = []
  deptDoctorsState: LoadState = 'idle'
  private deptDoctorsFor: number | null = null

  /** The confirm page's booking attempt. */
  schedule: BookableSchedule | null = null
  scheduleState: LoadState = 'idle'
  timeRange: string | null = null
  insurance = false
  price: ActivityPrice | null = null
  priceState: LoadState = 'idle'
  private priceFor: string | null = null
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server holds one slot. */
  attemptKey = newIdempotencyKey()
  submitting = false
  /** What the attempt booked: a hold to pay, or a booking already made. */
  booked: Registration | null = null
  paying = false

  recordTab: RecordTab = 'all'
  records: Registration[] = []
  recordsState: LoadState = 'idle'
  private recordsPage = 0
  private recordsSeq = 0

  detail: Registration | null = null
  detailState: LoadState = 'idle'
  cancelling = false

  payOrder: PayOrder | null = null
  payOrderState: LoadState = 'idle'

  constructor(
    private readonly hospitalCode: () => string | undefined = () => undefined,
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
  ) {
    makeAutoObservable<RegisterStore, 'hospitalCode' | 'patients' | 'recordsPage' | 'recordsSeq' | 'priceFor' | 'deptDoctorsFor'>(this, {
      search: false,
      hospitalCode: false,
      patients: false,
      recordsPage: false,
      recordsSeq: false,
      priceFor: false,
      deptDoctorsFor: false,
    })
  }

  /** The hospital the pages book at; registration has no meaning without one. */
  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  private requireHospital(): string {
    const code = this.hospitalCode()
    if (!code) throw new Error('请先选择医院')
    return code
  }

  // ----- notice and rules -----

  async loadRules() {
    const code = this.requireHospital()
    if (this.rules?.hospitalCode === code && this.rulesState === 'done') return this.rules
    this.rulesState = 'loading'
    try {
      const rules = await api.getRegisterRules(code)
      runInAction(() => {
        this.rules = rules
        this.rulesState = 'done'
      })
      return rules
    } catch (e) {
      runInAction(() => {
        this.rulesState = 'failed'
      })
      throw e
    }
  }

  // ----- the clinic tree -----

  get currentGroup(): DeptGroup | null {
    return this.groups[this.groupIndex] ?? this.groups[0] ?? null
  }

  private cacheKey(code: string, sort: DeptSort) {
    return `${code}:${sort}`
  }

  /**
   * spec §3 persistent key "palm department list", per hospital (and order): a cached list shows at once, and the
   * server's answer replaces it each time the page opens, so a changed tree shows on the next visit at the latest.
   * A failed refresh over a cached list keeps the list (failed only when there is nothing to show).
   */
  async loadDepartments(sort: DeptSort = this.deptSort) {
    const code = this.requireHospital()
    const cache = local.get<Record<string, CachedDepts>>(LOCAL.palmDeptList) ?? {}
    const cached = cache[this.cacheKey(code, sort)]
    const sortChanged = sort !== this.deptSort
    this.deptSort = sort
    if (sortChanged) this.groupIndex = 0
    if (cached) {
      this.groups = cached.groups
      this.groupsState = 'done'
    } else {
      this.groups = []
      this.groupsState = 'loading'
    }
    try {
      const groups = await api.listDepartments(code, sort)
      const fresh = local.get<Record<string, CachedDepts>>(LOCAL.palmDeptList) ?? {}
      local.set(LOCAL.palmDeptList, { ...fresh, [this.cacheKey(code, sort)]: { groups, savedAt: Date.now() } })
      runInAction(() => {
        if (this.deptSort !== sort) return
        this.groups = groups
        this.groupsState = 'done'
        if (this.groupIndex >= groups.length) this.groupIndex = 0
      })
    } catch {
      runInAction(() => {
        if (this.deptSort === sort && !cached) this.groupsState = 'failed'
      })
    }
  }

  chooseGroup(index: number) {
    this.groupIndex = index
  }

  /** A department from the tree (introduction page), by id. */
  deptById(id: number) {
    for (const g of this.groups) {
      const d = g.children.find((c) => c.id === id)
      if (d) return d
    }
    return null
  }

  chooseDept(dept: ChosenDept) {
    session.set(SESSION.dept, { id: dept.id, deptName: dept.deptName })
  }

  get chosenDept(): ChosenDept | null {
    return session.get<ChosenDept>(SESSION.dept) ?? null
  }

  // ----- schedules -----

  async loadDeptSchedule(deptId: number) {
    const code = this.requireHospital()
    if (this.deptSchedule?.deptId !== deptId) {
      this.deptSchedule = null
      this.selectedDate = ''
    }
    this.deptScheduleState = 'loading'
    try {
      const schedule = await api.getDeptSchedule(code, deptId)
      runInAction(() => {
        this.deptSchedule = schedule
        this.deptScheduleState = 'done'
        // keep the day the patient was looking at; else the first day with a number left, else the first day
        if (!schedule.days.some((d) => d.visitDate === this.selectedDate))
          this.selectedDate = (schedule.days.find((d) => d.available) ?? schedule.days[0])?.visitDate ?? ''
      })
    } catch (e) {
      runInAction(() => {
        this.deptScheduleState = 'failed'
      })
      throw e
    }
  }

  selectDate(visitDate: string) {
    this.selectedDate = visitDate
  }

  setScheduleTab(tab: 'date' | 'doctor') {
    this.scheduleTab = tab
  }

  get selectedDay() {
    return this.deptSchedule?.days.find((d) => d.visitDate === this.selectedDate) ?? null
  }

  /** 按医生: the department's 14 days gathered per doctor, the general clinic as one entry. */
  get doctorGroups() {
    return groupByDoctor(this.deptSchedule?.days.flatMap((d) => d.items) ?? [])
  }

  async loadDoctorSchedule(doctorId: number) {
    if (this.doctorSchedule?.doctor?.id !== doctorId) this.doctorSchedule = null
    this.doctorScheduleState = 'loading'
    try {
      const schedule = await api.getDoctorSchedule({ doctorId })
      runInAction(() => {
        this.doctorSchedule = schedule
        this.doctorScheduleState = 'done'
      })
    } catch (e) {
      runInAction(() => {
        this.doctorScheduleState = 'failed'
      })
      throw e
    }
  }

  /** The doctors of one department (its introduction page). */
  async loadDeptDoctors(deptId: number) {
    const code = this.requireHospital()
    if (this.deptDoctorsFor !== deptId) this.deptDoctors = []
    this.deptDoctorsFor = deptId
    this.deptDoctorsState = 'loading'
    try {
      const doctors = await api.listDoctors(code, deptId)
      runInAction(() => {
        if (this.deptDoctorsFor !== deptId) return
        this.deptDoctors = doctors
        this.deptDoctorsState = 'done'
      })
    } catch {
      runInAction(() => {
        if (this.deptDoctorsFor === deptId) this.deptDoctorsState = 'failed'
      })
    }
  }

  // ----- the booking attempt (confirm page) -----

  /** Opens the confirm page on one schedule: a new attempt with its own key, nothing chosen yet. */
  async openBooking(scheduleId: number) {
    this.schedule = null
    this.scheduleState = 'loading'
    this.timeRange = null
    this.insurance = false
    this.price = null
    this.priceState = 'idle'
    this.priceFor = null
    this.booked = null
    this.attemptKey = newIdempotencyKey()
    try {
      const [answer] = await Promise.all([api.getDoctorSchedule({ scheduleId }), this.loadRules().catch(() => null)])
      const item = answer.items.find((i) => i.scheduleId === scheduleId) ?? null
      runInAction(() => {
        this.schedule = item
        this.scheduleState = item ? 'done' : 'failed'
        // the first range with a number left, so one tap books the earliest time
        this.timeRange = item?.timeRanges.find((r) => r.remaining > 0)?.timeRange ?? null
      })
    } catch (e) {
      runInAction(() => {
        this.scheduleState = 'failed'
      })
      throw e
    }
  }

  chooseTimeRange(range: TimeRange) {
    if (range.remaining <= 0 || this.booked) return
    this.timeRange = range.timeRange
  }

  setInsurance(on: boolean) {
    if (this.booked) return
    this.insurance = on && !!this.rules?.insurance
  }

  /** The patient the attempt books for: the patient store's current one (chosen here or on the patient page). */
  get patient() {
    return this.patients?.current ?? null
  }

  /** The fee this patient pays for this schedule (the hospital's activities, e.g. free for the elderly). */
  async loadPrice() {
    const schedule = this.schedule
    const patient = this.patient
    if (!schedule || !patient) {
      this.price = null
      this.priceState = 'idle'
      return
    }
    const key = `${schedule.scheduleId}:${patient.id}`
    if (this.priceFor === key && this.priceState !== 'failed') return
    this.priceFor = key
    this.priceState = 'loading'
    try {
      const price = await api.getActivityPrice(schedule.scheduleId, patient.id)
      runInAction(() => {
        if (this.priceFor !== key) return
        this.price = price
        this.priceState = 'done'
      })
    } catch {
      runInAction(() => {
        if (this.priceFor !== key) return
        this.price = null
        this.priceState = 'failed'
      })
    }
  }

  /** What the patient pays: the activity price once known for this patient, else the schedule's fee. */
  get payFen(): number | null {
    if (!this.schedule) return null
    const key = this.patient ? `${this.schedule.scheduleId}:${this.patient.id}` : null
    if (this.price && this.priceState === 'done' && this.priceFor === key) return this.price.payFen
    return null
  }

  /** Why the attempt cannot be submitted yet, or null when it can. */
  get blocker(): string | null {
    if (!this.schedule) return '号源信息加载中'
    if (!isBookable(this.schedule)) return this.schedule.stopped ? '该医生本时段停诊' : '该时段号源已约满'
    if (!this.patient) return '请先添加就诊人'
    if (!this.timeRange) return '请选择就诊时段'
    if (this.payFen === null) return this.priceState === 'failed' ? '挂号费获取失败，请重试' : '挂号费计算中'
    return null
  }

  /**
   * Books the slot. Double taps send one request. A business refusal (an answer with a code: full, duplicate,
   * incomplete …) created nothing, so the next tap is a new attempt with a new key; no answer at all (network,
   * timeout, 5xx) may have booked, so the retry keeps the key and the server answers that same booking.
   */
  async submit(): Promise<Registration | null> {
    if (this.submitting || this.booked || this.blocker) return null
    const schedule = this.schedule!
    const free = this.payFen === 0
    const input = {
      scheduleId: schedule.scheduleId,
      patientId: this.patient!.id,
      timeRange: this.timeRange!,
      insurance: this.insurance && !!this.rules?.insurance,
      idempotencyKey: this.attemptKey,
    }
    this.submitting = true
    try {
      const registration = free ? await api.applyFreeRegistration(input) : await api.createRegistration(input)
      runInAction(() => {
        this.booked = registration
      })
      return registration
    } catch (e) {
      runInAction(() => {
        if (!outcomeUnknown(e)) this.attemptKey = newIdempotencyKey()
      })
      throw e
    } finally {
      runInAction(() => {
        this.submitting = false
      })
    }
  }

  // ----- paying -----

  /**
   * Pays a held registration: the server answers how (a cashier to open, or WeChat's sheet), the platform does it.
   * When the sheet reports paid the server is asked at once (it, not the sheet, decides); the cashier returns to
   * the detail page, which asks then.
   */
  async pay(registration: Registration): Promise<PayOutcome> {
    if (this.paying) return 'failed'
    this.paying = true
    try {
      const action = await api.payRegistration(registration.id, payReturnUrl(registration.id))
      const outcome = await platform.pay(action)
      if (outcome === 'paid') await this.loadDetail(registration.id, true).catch(() => undefined)
      return outcome
    } finally {
      runInAction(() => {
        this.paying = false
      })
    }
  }

  // ----- records -----

  async switchRecordTab(tab: RecordTab) {
    if (tab === this.recordTab && this.recordsState !== 'failed' && this.recordsState !== 'idle') return
    this.recordTab = tab
    await this.reloadRecords()
  }

  async reloadRecords() {
    this.records = []
    this.recordsPage = 0
    this.recordsState = 'idle'
    await this.loadMoreRecords(true)
  }

  /** The next page of the current tab; an answer for a tab the patient has left is dropped. */
  async loadMoreRecords(retry = false) {
    if (this.recordsState === 'loading' || this.recordsState === 'done') return
    if (this.recordsState === 'failed' && !retry) return
    const seq = ++this.recordsSeq
    const page = this.recordsPage + 1
    const status = RECORD_TABS.find((t) => t.key === this.recordTab)?.status
    this.recordsState = 'loading'
    try {
      const res = await api.listRegistrations({ hospitalCode: this.hospitalCode(), status, page, size: RECORD_PAGE_SIZE })
      runInAction(() => {
        if (seq !== this.recordsSeq) return
        const known = new Set(this.records.map((r) => r.id))
        this.records = [...this.records, ...res.records.filter((r) => !known.has(r.id))]
        this.recordsPage = page
        this.recordsState = page * RECORD_PAGE_SIZE >= res.total || res.records.length === 0 ? 'done' : 'idle'
      })
    } catch {
      runInAction(() => {
        if (seq === this.recordsSeq) this.recordsState = 'failed'
      })
    }
  }

  // ----- one record -----

  /** One registration; back from the cashier (`confirm`) the server first asks the provider how the payment went. */
  async loadDetail(id: number, confirm = false) {
    if (this.detail?.id !== id) this.detail = null
    this.detailState = 'loading'
    try {
      const registration = confirm ? await api.confirmRegistration(id) : await api.getRegistration(id)
      runInAction(() => {
        this.apply(registration)
        this.detailState = 'done'
      })
      return registration
    } catch (e) {
      runInAction(() => {
        this.detailState = 'failed'
      })
      throw e
    }
  }

  /** Cancels a hold or a booking; a paid one is refunded by the server. */
  async cancel(id: number) {
    if (this.cancelling) return null
    this.cancelling = true
    try {
      const registration = await api.cancelRegistration(id)
      runInAction(() => this.apply(registration))
      return registration
    } finally {
      runInAction(() => {
        this.cancelling = false
      })
    }
  }

  /** A registration as it now stands, wherever the pages show it. */
  private apply(registration: Registration) {
    this.detail = registration
    if (this.booked?.id === registration.id) this.booked = registration
    this.records = this.records.map((r) => (r.id === registration.id ? registration : r))
  }

  // ----- insurance split (chsPayment) -----

  /** The order of a registration (`type=register&id=`) or an order by number, for the insurance/self-pay split. */
  async loadPayOrder(by: { registrationId: number } | { orderNo: string }) {
    this.payOrder = null
    this.payOrderState = 'loading'
    try {
      const order = 'orderNo' in by ? await getPayOrder(by.orderNo) : (await this.loadDetail(by.registrationId)).order
      runInAction(() => {
        this.payOrder = order
        this.payOrderState = 'done'
      })
    } catch (e) {
      runInAction(() => {
        this.payOrderState = 'failed'
      })
      throw e
    }
  }
}
