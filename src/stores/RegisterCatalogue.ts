import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/register'
import { LOCAL, SESSION, local, session } from '@/services/storage'
import { groupByDoctor } from '@/utils/register'
import { KeywordSearch } from './KeywordSearch'
import { Loadable, type LoadState } from './base/Loadable'
import type { DeptGroup, DeptSort, RegisterSearchResult } from '../../types/api/register'

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
 * What the hospital offers to book (spec §2 Registration pages): the notice rules, the clinic tree (cached per
 * hospital), search, a department's schedules by day or by doctor, one doctor's schedule, and a department's doctors.
 */
export class RegisterCatalogue {
  readonly rules = new Loadable((hospitalCode: string) => api.getRegisterRules(hospitalCode))

  deptSort: DeptSort = 'default'
  groups: DeptGroup[] = []
  groupsState: LoadState = 'idle'
  groupIndex = 0

  /** Departments, doctors and diseases matching what the patient types. */
  readonly search = new KeywordSearch<RegisterSearchResult>(
    (keyword) => api.searchRegister(this.requireHospital(), keyword),
    (r) => r.depts.length === 0 && r.doctors.length === 0 && r.diseases.length === 0,
  )

  /** A department's 14 days; a fresh answer keeps the day the patient was looking at, else the first with a number left. */
  readonly deptSchedule = new Loadable(
    (hospitalCode: string, deptId: number) => api.getDeptSchedule(hospitalCode, deptId),
    (schedule) => {
      if (!schedule.days.some((d) => d.visitDate === this.selectedDate))
        this.selectedDate = (schedule.days.find((d) => d.available) ?? schedule.days[0])?.visitDate ?? ''
    },
  )
  selectedDate = ''
  scheduleTab: 'date' | 'doctor' = 'date'

  readonly doctorSchedule = new Loadable((doctorId: number) => api.getDoctorSchedule({ doctorId }))

  readonly deptDoctors = new Loadable((hospitalCode: string, deptId: number) => api.listDoctors(hospitalCode, deptId))
  private deptDoctorsFor: number | null = null

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<RegisterCatalogue, 'hospitalCode' | 'deptDoctorsFor'>(this, {
      rules: false,
      search: false,
      deptSchedule: false,
      doctorSchedule: false,
      deptDoctors: false,
      hospitalCode: false,
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

  /** The hospital's rules, read once per hospital. */
  async loadRules() {
    const code = this.requireHospital()
    const rules = this.rules.value
    if (rules?.hospitalCode === code && this.rules.state === 'done') return rules
    return this.rules.load(code)
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
    if (this.deptSchedule.value?.deptId !== deptId) {
      this.deptSchedule.reset()
      this.selectedDate = ''
    }
    await this.deptSchedule.load(code, deptId)
  }

  selectDate(visitDate: string) {
    this.selectedDate = visitDate
  }

  setScheduleTab(tab: 'date' | 'doctor') {
    this.scheduleTab = tab
  }

  get selectedDay() {
    return this.deptSchedule.value?.days.find((d) => d.visitDate === this.selectedDate) ?? null
  }

  /** 按医生: the department's 14 days gathered per doctor, the general clinic as one entry. */
  get doctorGroups() {
    return groupByDoctor(this.deptSchedule.value?.days.flatMap((d) => d.items) ?? [])
  }

  async loadDoctorSchedule(doctorId: number) {
    if (this.doctorSchedule.value?.doctor?.id !== doctorId) this.doctorSchedule.reset()
    await this.doctorSchedule.load(doctorId)
  }

  /** The doctors of one department (its introduction page). */
  async loadDeptDoctors(deptId: number) {
    const code = this.requireHospital()
    if (this.deptDoctorsFor !== deptId) this.deptDoctors.reset()
    this.deptDoctorsFor = deptId
    await this.deptDoctors.load(code, deptId).catch(() => undefined)
  }
}
