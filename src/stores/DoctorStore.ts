import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/internet'
import { findOpenInquiry } from '@/services/inquiry'
import { toastSuccess } from '@/ui/feedback'
import type { DoctorSort, InternetCity, OnlineDoctor, OnlineSearchResult } from '../../types/api/internet'
import type { RecommendedDoctor } from '../../types/api/consultation'
import type { Inquiry } from '../../types/api/inquiry'
import { KeywordSearch } from './KeywordSearch'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import { pageStore } from './base/pageStore'

/** Doctors per page of the list; the next page loads when the patient reaches the bottom. */
export const DOCTOR_PAGE_SIZE = 10

/** The sort tabs of /internet/doctorList/index. */
export const DOCTOR_SORTS: { key: DoctorSort; label: string }[] = [
  { key: 'default', label: '综合' },
  { key: 'level', label: '服务等级' },
  { key: 'replyTime', label: '回复快' },
  { key: 'price', label: '价格低' },
]

/** How many doctors each section of the internet hospital's home shows (问诊过的医生, 为您推荐, 热门医生). */
export const HOME_SECTION_SIZE = 3

/** 我的医生's two orders: accepting consultations first (getMyDoctor), or the latest followed first (fans/doctor/list). */
export type MyDoctorsOrder = 'accepting' | 'recent'
export const MY_DOCTORS_ORDERS: { value: MyDoctorsOrder; label: string }[] = [
  { value: 'accepting', label: '可问诊优先' },
  { value: 'recent', label: '最近关注' },
]

/**
 * Finding a doctor online (spec §2 /internet/doctorList, /searchParams, /doctor, /pages/doctor, the internet home): the
 * department chips, the list with its sort and pages and its 地区 (a city's hospitals), the search, one doctor with the
 * caller's follow and open inquiry, 我的医生 in either order, and the home's 问诊过的医生 / 为您推荐 / 热门医生.
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
    (q) => api.listOnlineDoctors({ hospitalCode: this.hospital!, deptId: this.deptId ?? undefined, sort: this.sort, ...q }),
    DOCTOR_PAGE_SIZE,
    { canLoad: () => !!this.hospital },
  )

  /** 地区: the cities with internet hospitals, read when the patient first looks for another place. */
  readonly cities = new Loadable(() => api.listInternetCities())
  /** The hospital chosen under 地区 (the list shows one hospital at a time), while the app is at the one it was chosen from. */
  private place: { code: string; from: string | undefined } | null = null

  /** Doctors and departments matching what the patient types, in the list's hospital (all of them without one). */
  readonly search = new KeywordSearch<OnlineSearchResult>(
    (keyword) => api.searchOnline(this.hospital, keyword),
    (r) => r.doctors.length === 0 && r.depts.length === 0,
  )

  readonly doctor = new Loadable((id: number) => api.getOnlineDoctor(id))
  following = false
  /** The caller's open inquiry (unpaid, waiting, in progress) with a doctor, by doctor: 继续问诊 on the doctor's home. */
  readonly openInquiry = new Loadable(async (doctorId: number) => ({ doctorId, inquiry: await findOpenInquiry({ doctorId }) }))

  myDoctorsOrder: MyDoctorsOrder = 'accepting'
  readonly myDoctors = new Loadable(() => (this.myDoctorsOrder === 'recent' ? api.listFollowedDoctors() : api.listMyDoctors()))

  /** The internet home's 热门医生 (the app's hospital, or every internet hospital without one). */
  readonly hot = new Loadable(() => api.listHotDoctors(this.hospitalCode()))
  /** The internet home's doctors for a signed-in patient: those they consulted, then the best rated accepting ones. */
  readonly recommended = new Loadable((hospitalCode: string) => api.listRecommendedDoctors(hospitalCode))

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<DoctorStore, 'hospitalCode'>(this, {
      depts: false,
      list: false,
      cities: false,
      search: false,
      doctor: false,
      openInquiry: false,
      myDoctors: false,
      hot: false,
      recommended: false,
      hospitalCode: false,
    })
  }

  /** The hospital whose doctors the list and the search show: the one chosen under 地区, else the app's. */
  get hospital(): string | undefined {
    return this.placeCode ?? this.hospitalCode()
  }

  /** The hospital chosen under 地区; null: the app's own (also once the app moved to another hospital). */
  get placeCode(): string | null {
    const place = this.place
    return place && place.from === this.hospitalCode() ? place.code : null
  }

  // ----- the list -----

  /** Opens the list page: the department chips and the first page in the current department and order. */
  async openList() {
    await Promise.all([this.loadDepts(), this.list.reload()])
  }

  async loadDepts() {
    const code = this.hospital
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

  // ----- 地区 -----

  async loadCities() {
    if (this.cities.state === 'loading' || this.cities.state === 'done') return
    await this.cities.load().catch(() => undefined)
  }

  /** The city of the list's hospital, once the cities are known. */
  get city(): InternetCity | null {
    const code = this.hospital
    return this.cities.value?.find((c) => c.hospitals.some((h) => h.hospitalCode === code)) ?? null
  }

  /** What 地区 reads: the city and the hospital the list shows; null until the cities are known. */
  get placeText(): string | null {
    const city = this.city
    const hospital = city?.hospitals.find((h) => h.hospitalCode === this.hospital)
    return city && hospital ? `${city.city} · ${hospital.hospitalName}` : null
  }

  /** A city under 地区: the list narrows to its hospitals, showing the app's own when it is one of them, else the first. */
  chooseCity(city: InternetCity) {
    if (city.city === this.city?.city) return
    const own = city.hospitals.find((h) => h.hospitalCode === this.hospitalCode())
    const first = own ?? city.hospitals[0]
    if (first) this.chooseHospital(first.hospitalCode)
  }

  /** A hospital under 地区: its departments and doctors, from all departments. */
  chooseHospital(hospitalCode: string) {
    if (hospitalCode === this.hospital) return
    this.moveTo(hospitalCode)
    this.deptId = null
    void this.list.reload()
    // what the search found was of the other hospital
    if (this.search.keyword.trim()) void this.search.run()
  }

  /** The list's hospital becomes this one; its department chips are read afresh. */
  private moveTo(hospitalCode: string) {
    const own = this.hospitalCode()
    this.place = hospitalCode === own ? null : { code: hospitalCode, from: own }
    this.depts.reset()
    void this.loadDepts()
  }

  // ----- search -----

  /** A department found by the search: back to the list, in that department (of its hospital, when all were searched). */
  searchDept(dept: { id: number; hospitalCode?: string }) {
    if (dept.hospitalCode && dept.hospitalCode !== this.hospital) {
      this.moveTo(dept.hospitalCode)
      void this.loadCities()
    }
    this.deptId = dept.id
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

  /** Whether the caller has an open inquiry with the doctor; answers quietly (no answer: the page offers what it always does). */
  async loadOpenInquiry(doctorId: number) {
    if (this.openInquiry.value?.doctorId !== doctorId) this.openInquiry.reset()
    await this.openInquiry.load(doctorId).catch(() => undefined)
  }

  /** The caller's open inquiry with this doctor, or null (none, or not known yet). */
  openInquiryWith(doctorId: number): Inquiry | null {
    const open = this.openInquiry.value
    return open?.doctorId === doctorId ? open.inquiry : null
  }

  // ----- 我的医生 -----

  async loadMyDoctors() {
    await this.myDoctors.load().catch(() => undefined)
  }

  /** 可问诊优先 / 最近关注: the same doctors in the other order, from the call that keeps it. */
  chooseMyDoctorsOrder(order: MyDoctorsOrder) {
    if (order === this.myDoctorsOrder) return
    this.myDoctorsOrder = order
    void this.loadMyDoctors()
  }

  // ----- the internet hospital's home -----

  /**
   * 热门医生 for everyone; 问诊过的医生 and 为您推荐 only for a signed-in patient of a hospital (the call needs both: a
   * visitor's would send them to sign in).
   */
  async loadHome(signedIn: boolean) {
    const code = this.hospitalCode()
    const personal = signedIn && !!code
    if (!personal) this.recommended.reset()
    await Promise.all([this.hot.load().catch(() => undefined), personal ? this.recommended.load(code).catch(() => undefined) : undefined])
  }

  /** 问诊过的医生: the doctors the patient consulted, the latest first. */
  get consultedDoctors(): RecommendedDoctor[] {
    return (this.recommended.value ?? []).filter((d) => d.consulted).slice(0, HOME_SECTION_SIZE)
  }

  /** 为您推荐: the best rated doctors accepting consultations whom the patient has not consulted. */
  get suggestedDoctors(): RecommendedDoctor[] {
    return (this.recommended.value ?? []).filter((d) => !d.consulted).slice(0, HOME_SECTION_SIZE)
  }

  /** 热门医生: the most consulted accepting now, less those the sections above already show. */
  get hotDoctors(): OnlineDoctor[] {
    const shown = new Set([...this.consultedDoctors, ...this.suggestedDoctors].map((d) => d.id))
    return (this.hot.value ?? []).filter((d) => !shown.has(d.id)).slice(0, HOME_SECTION_SIZE)
  }
}

/** The doctor store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useDoctorStore = pageStore((root) => new DoctorStore(() => root.hospital.hospital?.hospitalCode))
