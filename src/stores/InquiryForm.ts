import { makeAutoObservable, runInAction } from 'mobx'
import { searchDiseases } from '@/services/inquiry'
import { toastError } from '@/ui/feedback'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { PictureList } from './base/PictureList'
import { KeywordSearch } from './KeywordSearch'
import type { PatientStore } from './PatientStore'
import type { Inquiry } from '../../types/api/inquiry'
import type { DiseaseCode } from '../../types/api/medical'
import type { Patient } from '../../types/api/patient'
import { DESCRIPTION_MAX, PICTURES_MAX } from '@/utils/internetRules'

export { DESCRIPTION_MAX, PICTURES_MAX }

export const CONSENT_TEXT = '我已阅读并同意《互联网诊疗知情同意书》'
export const NO_CONSENT = '请阅读并同意《互联网诊疗知情同意书》'

export type { FormPicture as InquiryPicture } from './base/PictureList'

/** How a diagnosis of several diseases is written: 原发性高血压、2型糖尿病. */
export const DIAGNOSIS_SEPARATOR = '、'
/** The marks a patient may have typed between the names of a diagnosis. */
const NAME_SEPARATORS = /[、，,；;\s]+/

/** The names a diagnosis in words is made of. */
export const diagnosisNames = (text: string) => text.split(NAME_SEPARATORS).map((n) => n.trim()).filter(Boolean)

/**
 * The hospital's disease list (GET /common/diseaseCode), to name a diagnosis made at the hospital (复诊续方: Chinese
 * internet-hospital rules need one made offline). Searched as the patient types (KeywordSearch: 500 ms after the last
 * key). The renewal call takes the diagnosis as words, not codes, so the words are what is kept: a picked disease adds
 * its name to them, a second tap takes it out, and a name typed by hand counts as picked.
 */
export class DiseasePicker {
  private hospitalCode = ''
  readonly search = new KeywordSearch<DiseaseCode[]>(
    (keyword) => searchDiseases(this.hospitalCode, keyword),
    (found) => found.length === 0,
  )

  constructor() {
    makeAutoObservable<DiseasePicker, 'hospitalCode'>(this, { search: false, hospitalCode: false })
  }

  /** What the patient types, searched in the diseases of this hospital (the doctor's). */
  setKeyword(text: string, hospitalCode: string) {
    this.hospitalCode = hospitalCode
    this.search.setKeyword(text)
  }

  /** Whether the diagnosis names this disease. */
  isPicked(diagnosis: string, name: string) {
    return diagnosisNames(diagnosis).includes(name)
  }

  /**
   * The diagnosis with the disease added (or taken out when it is there); null, with the reason shown, when the
   * words would grow past `max` (the server's limit).
   */
  toggle(diagnosis: string, name: string, max: number): string | null {
    const names = diagnosisNames(diagnosis)
    if (names.includes(name)) return names.filter((n) => n !== name).join(DIAGNOSIS_SEPARATOR)
    const kept = diagnosis.trim()
    const next = kept ? `${kept}${DIAGNOSIS_SEPARATOR}${name}` : name
    if (next.length > max) {
      toastError(`诊断不能超过${max}个字`)
      return null
    }
    return next
  }

  /** Nothing searched. */
  clear() {
    this.search.setKeyword('')
  }
}

/**
 * What the inquiry forms share (图文问诊, 复诊续方, the fever clinic's 快速问诊): the patient (the patient store's
 * current one), the illness in words, up to 9 pictures, the consent, one idempotency key per attempt, and what the
 * attempt ordered.
 */
export class InquiryForm {
  description = ''
  /** Up to 9 pictures of the illness (病情资料). */
  readonly photos = new PictureList(PICTURES_MAX)
  agreed = false
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server orders once. */
  readonly attempt = new IdempotentAttempt()
  /** What the attempt ordered; paying it again never orders a second one. */
  created: Inquiry | null = null
  /** The hospital's diseases, to pick the diagnosis of a follow-up (复诊续方) from. */
  readonly diseases = new DiseasePicker()

  constructor(
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
    /** How long the description may be on this form. */
    readonly descriptionMax = DESCRIPTION_MAX,
  ) {
    makeAutoObservable<InquiryForm, 'patients'>(this, { patients: false, descriptionMax: false, attempt: false, diseases: false, photos: false })
  }

  /** A new attempt with its own key, nothing written yet. */
  reset() {
    this.description = ''
    this.photos.clear()
    this.agreed = false
    this.created = null
    this.attempt.renew()
    this.diseases.clear()
  }

  /** The patient the attempt is for. */
  get patient(): Patient | null {
    return this.patients?.current ?? null
  }

  get pictureUrls(): string[] {
    return this.photos.urls
  }

  setDescription(text: string) {
    if (this.created) return
    this.description = text.slice(0, this.descriptionMax)
  }

  setAgreed(on: boolean) {
    if (this.created) return
    this.agreed = on
  }

  /**
   * One ordering attempt: `check` names what is missing (shown, nothing sent), then the consent is required, then
   * `order` is called with the attempt's key (IdempotentAttempt: a refusal renews it, no answer keeps it). Once
   * ordered, it answers that inquiry again. Refusals are rethrown for the page (the request layer has shown them).
   */
  async submit(check: () => string | null, order: (idempotencyKey: string) => Promise<Inquiry>): Promise<Inquiry | null> {
    if (this.created) return this.created
    if (this.attempt.inFlight) return null
    const problem = check()
    if (problem) {
      toastError(problem)
      return null
    }
    if (!this.agreed) {
      toastError(NO_CONSENT)
      return null
    }
    const inquiry = await this.attempt.run(order)
    runInAction(() => {
      this.created = inquiry
      this.photos.locked = true
    })
    return inquiry
  }

  /** The ordered inquiry as it now stands (paid, checked). */
  apply(inquiry: Inquiry) {
    if (this.created?.id === inquiry.id) this.created = inquiry
  }
}
