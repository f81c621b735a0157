import { makeAutoObservable, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import { uploadFile } from '@/services/auth'
import { toastError } from '@/ui/feedback'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import type { PatientStore } from './PatientStore'
import type { Inquiry } from '../../types/api/inquiry'
import type { Patient } from '../../types/api/patient'
import { DESCRIPTION_MAX, PICTURES_MAX } from '@/utils/internetRules'

export { DESCRIPTION_MAX, PICTURES_MAX }

export const CONSENT_TEXT = '我已阅读并同意《互联网诊疗知情同意书》'
export const NO_CONSENT = '请阅读并同意《互联网诊疗知情同意书》'

/** A picture of the attempt: the server's url and what the phone shows meanwhile. */
export interface InquiryPicture {
  url: string
  preview: string
}

/**
 * What the inquiry forms share (图文问诊, 复诊续方, the fever clinic's 快速问诊): the patient (the patient store's
 * current one), the illness in words, up to 9 pictures, the consent, one idempotency key per attempt, and what the
 * attempt ordered.
 */
export class InquiryForm {
  description = ''
  pictures: InquiryPicture[] = []
  uploading = false
  agreed = false
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server orders once. */
  readonly attempt = new IdempotentAttempt()
  /** What the attempt ordered; paying it again never orders a second one. */
  created: Inquiry | null = null

  constructor(
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
    /** How long the description may be on this form. */
    readonly descriptionMax = DESCRIPTION_MAX,
  ) {
    makeAutoObservable<InquiryForm, 'patients'>(this, { patients: false, descriptionMax: false, attempt: false })
  }

  /** A new attempt with its own key, nothing written yet. */
  reset() {
    this.description = ''
    this.pictures = []
    this.agreed = false
    this.created = null
    this.attempt.renew()
  }

  /** The patient the attempt is for. */
  get patient(): Patient | null {
    return this.patients?.current ?? null
  }

  get pictureUrls(): string[] {
    return this.pictures.map((p) => p.url)
  }

  setDescription(text: string) {
    if (this.created) return
    this.description = text.slice(0, this.descriptionMax)
  }

  setAgreed(on: boolean) {
    if (this.created) return
    this.agreed = on
  }

  /** Chooses pictures and uploads them one by one, up to 9 in all; one that fails stops the rest (the reason is shown). */
  async addPictures() {
    const room = PICTURES_MAX - this.pictures.length
    if (room <= 0 || this.uploading || this.created) return
    const chosen = await Taro.chooseImage({ count: room, sizeType: ['compressed'], sourceType: ['album', 'camera'] }).catch(() => null)
    const paths = (chosen?.tempFilePaths ?? []).slice(0, room)
    if (!paths.length) return
    this.uploading = true
    try {
      for (const path of paths) {
        const { url } = await uploadFile(path)
        runInAction(() => {
          if (this.pictures.length < PICTURES_MAX) this.pictures.push({ url, preview: path })
        })
      }
    } catch {
      // the request layer has shown why
    } finally {
      runInAction(() => {
        this.uploading = false
      })
    }
  }

  removePicture(index: number) {
    if (this.created) return
    this.pictures.splice(index, 1)
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
    })
    return inquiry
  }

  /** The ordered inquiry as it now stands (paid, checked). */
  apply(inquiry: Inquiry) {
    if (this.created?.id === inquiry.id) this.created = inquiry
  }
}
