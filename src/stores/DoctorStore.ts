import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/internet'
import { toastSuccess } from '@/ui/feedback'
import type { DoctorSort, OnlineDoctor, OnlineSearchResult } from '../../types/api/internet'
import { KeywordSearch } from './KeywordSearch'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'

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

/**
 * Finding a doctor online (spec §2 /internet/doctorList, /searchParams, /doctor, /pages/doctor): the department chips,
 * the list with its sort and pages, the search, one doctor with the caller's follow, and 我的医生.
 */
export class DoctorStore {
  /** The department chips; a department chosen that is no longer listed is let go (all departments again). */
  readonly depts = new Loadable(
    (hospitalCode: string) => api.listOnlineDepts(hospitalCode),
    (depts) => {
      if (this.deptId !== null && !depts.some((d) => d.id === this.deptId)) this.deptId = null
    },
  )
  /** null: all departments. */
  deptId: number | null = null
  sort: DoctorSort = 'default'

  /** The list in the current department and order; no hospital, nothing to list. */
  readonly list = new PagedList<OnlineDoctor>(
    (q) => api.listOnlineDoctors({ hospitalCode: this.hospitalCode()!, deptId: this.deptId ?? undefined, sort: this.sort, ...q }),
    DOCTOR_PAGE_SIZE,
    { canLoad: () => !!this.hospitalCode() },
  )

  /** Doctors and departments matching what the patient types. */
  readonly search = new KeywordSearch<OnlineSearchResult>(
    (keyword) => api.searchOnline(this.hospitalCode(), keyword),
    (r) => r.doctors.length === 0 && r.depts.length === 0,
  )

  readonly doctor = new Loadable((id: number) => api.getOnlineDoctor(id))
  following = false

  readonly myDoctors = new Loadable(() => api.listMyDoctors())

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<DoctorStore, 'hospitalCode'>(this, {
      depts: false,
      list: false,
      search: false,
      doctor: false,
      myDoctors: false,
      hospitalCode: false,
    })
  }

  /** The hospital whose doctors the pages show. */
  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  // ----- the list -----

  /** Opens the list page: the department chips and the first page in the current department and order. */
  async openList() {
    await Promise.all([this.loadDepts(), this.list.reload()])
  }

  async loadDepts() {
    const code = this.hospitalCode()
    if (!code) return
    await this.depts.load(code).catch(() => undefined)
  }

  chooseDept(deptId: number | null) {
    if (deptId === this.deptId) return
    this.deptId = deptId
    void this.list.reload()
  }

  chooseSort(sort: DoctorSort) {
    if (sort === this.sort) return
    this.sort = sort
    void this.list.reload()
  }

  // ----- search -----

  /** A department found by the search: back to the list, in that department. */
  searchDept(deptId: number) {
    this.deptId = deptId
    void this.list.reload()
  }

  // ----- one doctor -----

  async loadDoctor(id: number) {
    if (this.doctor.value?.id !== id) this.doctor.reset()
    await this.doctor.load(id).catch(() => undefined)
  }

  /** 关注 / 已关注: follows or stops following the doctor on show; one call at a time. */
  async toggleFollow() {
    const doctor = this.doctor.value
    if (!doctor || this.following) return
    this.following = true
    try {
      const state = doctor.followed ? await api.unfollowDoctor(doctor.id) : await api.followDoctor(doctor.id)
      runInAction(() => {
        const shown = this.doctor.value
        if (shown?.id === state.doctorId) this.doctor.value = { ...shown, followed: state.followed, fansCount: state.fansCount }
        // 我的医生 reloads when it opens; drop one unfollowed here so a page kept below shows it gone
        const mine = this.myDoctors.value
        if (mine && !state.followed) this.myDoctors.value = mine.filter((d) => d.id !== state.doctorId)
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
    await this.myDoctors.load().catch(() => undefined)
  }
}
