import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/inquiry'
import { getOnlineDoctor } from '@/services/internet'
import { ApiError } from '@/services/request'
import { isBuiltPage } from '@/routes'
import { pathOf } from '@/utils/routeRules'
import { InquiryForm } from './InquiryForm'
import { DOCTOR_OFFLINE, NO_DESCRIPTION } from './InquiryStore'
import { Loadable } from './base/Loadable'
import { diagnosisText, type RecordStore } from './RecordStore'
import type { PatientStore } from './PatientStore'
import type { PrescriptionStore } from './PrescriptionStore'
import type { Inquiry } from '../../types/api/inquiry'
import { DOCTOR_LIST_URL } from '@/pageUrls'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

/** The server's limits and refusals for 复诊续方 (server/src/domain/consultationHistory.ts), verbatim. */
export const DIAGNOSIS_MAX = 100
export const MEDICINES_MAX = 10
export const MEDICINE_NAME_MAX = 50
export const NO_DIAGNOSIS = '请填写诊断'
export const NO_MEDICINE = '请填写需要续方的药品'
export const NOT_MY_DOCTOR = '复诊续方仅限您关注的医生或曾为该就诊人接诊的医生'

/**
 * Where the notice continues to: `next` when it is a page of this app (decoded once more when the platform handed it
 * over still encoded), else the doctor list. Never another site.
 */
export function noticeNext(next: string | undefined): string {
  let url = (next ?? '').trim()
  if (/^%2F/i.test(url)) {
    try {
      url = decodeURIComponent(url)
    } catch {
      url = ''
    }
  }
  return url.startsWith('/') && !url.startsWith('//') && isBuiltPage(url) ? url : DOCTOR_LIST_URL
}

/**
 * How the notice continues to `url`: back, when it is the page the notice was opened from (the form's consent line),
 * so what the patient wrote there stays; otherwise in the notice's place.
 */
export function noticeContinuation(url: string, openPages: { route?: string }[]): 'back' | 'redirect' {
  const below = openPages[openPages.length - 2]?.route
  if (!below) return 'redirect'
  return pathOf(below.startsWith('/') ? below : `/${below}`) === pathOf(url) ? 'back' : 'redirect'
}

/**
 * 复诊续方 (spec §2 /internet/inquiry/useMedicine): a renewal with a doctor the caller follows or who served this
 * patient before: the inquiry form's parts, plus the diagnosis given before and 1–10 medicines to renew. Paid like
 * 图文问诊 (InquiryStore.pay).
 */
export class FollowUpStore {
  readonly doctor = new Loadable((id: number) => getOnlineDoctor(id))
  readonly form: InquiryForm
  diagnosis = ''
  /** The rows of medicine names; one empty row to start with. */
  medicines: string[] = ['']
  /** The server's refusal of this doctor (not followed, never served this patient), shown on the page. */
  refusal: string | null = null

  constructor(patients: Pick<PatientStore, 'current'> | null = null) {
    this.form = new InquiryForm(patients)
    makeAutoObservable(this, { doctor: false, form: false })
  }

  /** Opens the page for one doctor: a new attempt, nothing written yet. */
  async openRenewal(doctorId: number) {
    this.form.reset()
    this.diagnosis = ''
    this.medicines = ['']
    this.refusal = null
    if (this.doctor.value?.id !== doctorId) this.doctor.reset()
    await this.doctor.load(doctorId).catch(() => undefined)
  }

  /** The doctor's price (a renewal costs what 图文问诊 costs), or null when the doctor does not offer it. */
  get priceFen(): number | null {
    return this.doctor.value?.services.find((s) => s.type === 'text')?.priceFen ?? null
  }

  /** Why the attempt cannot be submitted at all, or null (what the patient writes is checked on submitting). */
  get blocker(): string | null {
    const doctor = this.doctor.value
    if (!doctor) return '医生信息加载中'
    if (!doctor.online || this.priceFen === null) return DOCTOR_OFFLINE
    if (!this.form.patient) return '请先添加就诊人'
    if (this.form.photos.uploading) return '图片上传中'
    return null
  }

  get canAddMedicine() {
    return !this.form.created && this.medicines.length < MEDICINES_MAX
  }

  setDiagnosis(text: string) {
    if (this.form.created) return
    this.diagnosis = text.slice(0, DIAGNOSIS_MAX)
  }

  setMedicine(index: number, name: string) {
    if (this.form.created || index < 0 || index >= this.medicines.length) return
    this.medicines[index] = name.slice(0, MEDICINE_NAME_MAX)
  }

  addMedicine() {
    if (this.canAddMedicine) this.medicines.push('')
  }

  /** Takes a row out; the last row stays (emptied). */
  removeMedicine(index: number) {
    if (this.form.created) return
    if (this.medicines.length > 1) this.medicines.splice(index, 1)
    else this.medicines = ['']
  }

  /**
   * The case chosen on the history cases page (RecordStore.chosenCase) fills the diagnosis, when it was chosen for the
   * patient the form is for; it is taken either way, so it fills the form once.
   */
  takeChosenCase(records: Pick<RecordStore, 'chosenCase' | 'clearChosenCase'>) {
    const chosen = records.chosenCase
    if (!chosen) return
    records.clearChosenCase()
    if (this.form.created || chosen.patientId !== this.form.patient?.id) return
    this.diagnosis = diagnosisText(chosen).slice(0, DIAGNOSIS_MAX)
  }

  /**
   * The medicines chosen on 用药记录 or 续方用药清单 (PrescriptionStore.continueDrug) join the rows, when chosen for the
   * patient the form is for; they are taken either way, so they fill the form once.
   */
  takeMedicines(prescriptions: Pick<PrescriptionStore, 'continueDrug' | 'clearContinueDrug'>) {
    const chosen = prescriptions.continueDrug
    if (!chosen) return
    prescriptions.clearContinueDrug()
    if (this.form.created || chosen.patientId !== this.form.patient?.id) return
    const rows = this.medicines.filter((m) => m.trim())
    for (const name of chosen.medicines) if (!rows.includes(name)) rows.push(name)
    this.medicines = rows.slice(0, MEDICINES_MAX)
  }

  /** What the patient wrote, checked as the server checks it; the first thing missing, or null. */
  private problem(): string | null {
    if (!this.form.description.trim()) return NO_DESCRIPTION
    if (!this.diagnosis.trim()) return NO_DIAGNOSIS
    if (!this.medicines.some((m) => m.trim())) return NO_MEDICINE
    return null
  }

  /**
   * Orders the renewal (POST /inquiry/chronicInquiry); answers the inquiry, or null when refused here. The server's
   * refusal of the doctor stays on the page as well as in the toast.
   */
  async submit(): Promise<Inquiry | null> {
    const form = this.form
    if (!form.created && this.blocker) return null
    this.refusal = null
    try {
      return await form.submit(
        () => this.problem(),
        (idempotencyKey) =>
          api.chronicInquiry({
            doctorId: this.doctor.value!.id,
            patientId: form.patient!.id,
            description: form.description.trim(),
            diagnosis: this.diagnosis.trim(),
            medicines: this.medicines.map((m) => m.trim()).filter(Boolean),
            pictures: form.pictureUrls,
            idempotencyKey,
          }),
      )
    } catch (e) {
      if (e instanceof ApiError && e.message === NOT_MY_DOCTOR) {
        runInAction(() => {
          this.refusal = e.message
        })
      }
      throw e
    }
  }
}

/** The followUp store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useFollowUpStore = pageStore((root) => new FollowUpStore(usePatientStore.of(root)))
