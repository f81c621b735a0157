import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/internet'
import { toastSuccess } from '@/services/request'
import type { DoctorSort, OnlineDept, OnlineDoctor, OnlineDoctorInfo, OnlineSearchResult } from '../../types/api/internet'
import { KeywordSearch, type LoadState } from './KeywordSearch'

/** Doctors per page of the list; the next page loads when the patient reaches the bottom. */
export const DOCTOR_PAGE_SIZE = 10

/** The sort tabs of /internet/doctorList/index. */
export const DOCTOR_SORTS: { key: DoctorSort; label: string }[] = [
  { key: 'default', label: '综合' },
  { key: 'level', label: '服务等级' },
  { key: 'replyTime', label: '回复快' },
  { key: 'price', label: '价格低' },
]

// The internet doctor pages' addresses, in one place.
export const DOCTOR_LIST_URL = '/internet/doctorList/index'
export const DOCTOR_SEARCH_URL = '/internet/searchParams/index'
export const onlineDoctorUrl = (id: number) => `/internet/doctor/index?id=${id}`
/** 图文问诊 with one doctor (the inquiry page belongs to the consultation orders). */
export const inquiryUrl = (doctorId: number) => `/internet/inquiry/index?doctorId=${doctorId}`

/**
 * Finding a doctor online (spec §2 /internet/doctorList, /searchParams, /doctor, /pages/doctor): the department chips,
 * the list with its sort and pages, the search, one doctor with the caller's follow, and 我的医生.
 */
export class DoctorStore {
  depts: OnlineDept[] = []
  deptsState: LoadState = 'idle'
  /** null: all departments. */
  deptId: number | null = null
  sort: DoctorSort = 'default'

  doctors: OnlineDoctor[] = []
  total = 0
  /** idle: more to load; done: all loaded. */
  listState: LoadState = 'idle'
  private page = 0
  private listSeq = 0

  /** Doctors and departments matching what the patient types. */
  readonly search = new KeywordSearch<OnlineSearchResult>(
    (keyword) => api.searchOnline(this.hospitalCode(), keyword),
    (r) => r.doctors.length === 0 && r.depts.length === 0,
  )

  doctor: OnlineDoctorInfo | null = null
  doctorState: LoadState = 'idle'
  following = false

  myDoctors: OnlineDoctor[] = []
  myDoctorsState: LoadState = 'idle'

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<DoctorStore, 'hospitalCode' | 'page' | 'listSeq'>(this, {
      search: false,
      hospitalCode: false,
      page: false,
      listSeq: false,
    })
  }

  /** The hospital whose doctors the pages show. */
  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  // ----- the list -----

  /** Opens the list page: the department chips and the first page in the current department and order. */
  async openList() {
    await Promise.all([this.loadDepts(), this.reloadList()])
  }

  async loadDepts() {
    const code = this.hospitalCode()
    if (!code) return
    this.deptsState = 'loading'
    try {
      const depts = await api.listOnlineDepts(code)
      runInAction(() => {
        this.depts = depts
        this.deptsState = 'done'
        if (this.deptId !== null && !depts.some((d) => d.id === this.deptId)) this.deptId = null
      })
    } catch {
      runInAction(() => {
        this.deptsState = 'failed'
      })
    }
  }

  chooseDept(deptId: number | null) {
    if (deptId === this.deptId) return
    this.deptId = deptId
    void this.reloadList()
  }

  chooseSort(sort: DoctorSort) {
    if (sort === this.sort) return
    this.sort = sort
    void this.reloadList()
  }

  /** The first page again (a new department or order); an answer to an older choice that arrives late is dropped. */
  reloadList() {
    this.listSeq++
    this.page = 0
    this.doctors = []
    this.total = 0
    this.listState = 'idle'
    return this.loadMore(true)
  }

  /** The next page (reaching the bottom); `retry` also after a failed page. */
  async loadMore(retry = false) {
    const code = this.hospitalCode()
    if (!code) return
    if (this.listState === 'loading' || this.listState === 'done' || (this.listState === 'failed' && !retry)) return
    const seq = this.listSeq
    const page = this.page + 1
    this.listState = 'loading'
    try {
      const answer = await api.listOnlineDoctors({ hospitalCode: code, deptId: this.deptId ?? undefined, sort: this.sort, page, size: DOCTOR_PAGE_SIZE })
      runInAction(() => {
        if (seq !== this.listSeq) return
        this.page = page
        const known = new Set(this.doctors.map((d) => d.id))
        this.doctors = [...this.doctors, ...answer.records.filter((d) => !known.has(d.id))]
        this.total = answer.total
        this.listState = answer.records.length < DOCTOR_PAGE_SIZE || this.doctors.length >= answer.total ? 'done' : 'idle'
      })
    } catch {
      runInAction(() => {
        if (seq === this.listSeq) this.listState = 'failed'
      })
    }
  }

  // ----- search -----

  /** A department found by the search: back to the list, in that department. */
  searchDept(deptId: number) {
    this.deptId = deptId
    void this.reloadList()
  }

  // ----- one doctor -----

  async loadDoctor(id: number) {
    if (this.doctor?.id !== id) this.doctor = null
    this.doctorState = 'loading'
    try {
      const doctor = await api.getOnlineDoctor(id)
      runInAction(() => {
        this.doctor = doctor
        this.doctorState = 'done'
      })
    } catch {
      runInAction(() => {
        this.doctorState = 'failed'
      })
    }
  }

  /** 关注 / 已关注: follows or stops following the doctor on show; one call at a time. */
  async toggleFollow() {
    const doctor = this.doctor
    if (!doctor || this.following) return
    this.following = true
    try {
      const state = doctor.followed ? await api.unfollowDoctor(doctor.id) : await api.followDoctor(doctor.id)
      runInAction(() => {
        if (this.doctor?.id === state.doctorId) this.doctor = { ...this.doctor, followed: state.followed, fansCount: state.fansCount }
        // 我的医生 reloads when it opens; drop one unfollowed here so a page kept below shows it gone
        if (!state.followed) this.myDoctors = this.myDoctors.filter((d) => d.id !== state.doctorId)
      })
      toastSuccess(state.followed ? '已关注' : '已取消关注')
    } catch {
      // the request layer has shown why
    } finally {
      runInAction(() => {
        this.following = false
      })
    }
  }

  // ----- 我的医生 -----

  async loadMyDoctors() {
    this.myDoctorsState = 'loading'
    try {
      const doctors = await api.listMyDoctors()
      runInAction(() => {
        this.myDoctors = doctors
        this.myDoctorsState = 'done'
      })
    } catch {
      runInAction(() => {
        this.myDoctorsState = 'failed'
      })
    }
  }
}
