import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/evaluation'
import { getInquiry } from '@/services/inquiry'
import { getOnlineDoctor } from '@/services/internet'
import { ApiError, outcomeUnknown } from '@/services/request'
import { toastError, toastSuccess } from '@/ui/feedback'
import { GiftStore } from './GiftStore'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { Inquiry } from '../../types/api/inquiry'
import type { DoctorEvaluations, Evaluation, EvaluationAdded, EvaluationSummary } from '../../types/api/evaluation'
import { SCORE_MAX, GOOD_SCORE, EVALUATION_CONTENT_MAX as CONTENT_MAX, GIFT_MESSAGE_MAX as MESSAGE_MAX, BAD_SCORE } from '@/utils/internetRules'
import { pageStore } from './base/pageStore'

/** The server's limits (server/src/domain/evaluation.ts, gift.ts). */
export { SCORE_MAX, GOOD_SCORE, CONTENT_MAX, MESSAGE_MAX, BAD_SCORE }
export const EVALUATION_PAGE_SIZE = 10
/** How many of the newest ratings the doctor's home and the score page show. */
export const NEWEST_COUNT = 2

/** What the pages say once a rating or a gift is made. */
export const EVALUATED_TEXT = '评价成功'
export const THANKS_TEXT = '感谢您的心意'
/** What each number of stars means, under the stars. */
export const SCORE_TEXT = ['', '非常不满意', '不满意', '一般', '满意', '非常满意'] as const

/**
 * Rating doctors and gifts to doctors (spec §2 /internet/tim/evaluate, /tim/gift, /internet/moreEvaluation,
 * /internet/score; §7 Evaluation and gifts): the rating form of one consultation and a doctor's ratings with their
 * summary. The gift attempt is GiftStore's; the gift page reads it through this store.
 */
export class EvaluationStore {
  /** The doctor the score and gift pages show. */
  readonly doctor = new Loadable((id: number) => getOnlineDoctor(id))

  // ----- the rating form -----
  inquiryId = 0
  /** The consultation rated (its doctor, whether it was rated already); the form works without it. */
  inquiry: Inquiry | null = null
  readonly tags = new Loadable(() => api.getEvaluationTags())
  score = 0
  chosenTags: string[] = []
  content = ''
  anonymous = true
  readonly submission = new OneAtATime()
  /** What the server stored. */
  added: EvaluationAdded | null = null
  /** The server's refusal of the last submission, shown on the page. */
  refusal: string | null = null

  // ----- a doctor's ratings -----
  /** The doctor whose ratings `evaluations` holds; 0 before one is opened. */
  evaluationsFor = 0
  summary: EvaluationSummary | null = null
  readonly evaluations = new PagedList<Evaluation, DoctorEvaluations>(
    (q) => api.listDoctorEvaluations({ doctorId: this.evaluationsFor, ...q }),
    EVALUATION_PAGE_SIZE,
    {
      canLoad: () => this.evaluationsFor !== 0,
      onPage: (res) => {
        this.summary = res.summary
      },
    },
  )

  /** The gift page's attempt (its doctor is `doctor` above). */
  readonly gifts = new GiftStore()

  /** `onEvaluated` tells whoever shows the consultation (the room) that it was rated. */
  constructor(private readonly onEvaluated: (inquiryId: number) => void = () => undefined) {
    makeAutoObservable<EvaluationStore, 'onEvaluated'>(this, {
      onEvaluated: false,
      doctor: false,
      tags: false,
      submission: false,
      evaluations: false,
      gifts: false,
    })
  }

  /** The doctor by id (the score page's level, the gift page's name). */
  async loadDoctor(id: number) {
    if (this.doctor.value?.id !== id) this.doctor.reset()
    await this.doctor.load(id).catch(() => undefined)
  }

  // ----- the rating form -----

  /** Opens the form for one consultation: nothing chosen, anonymous on; the tags and the consultation load. */
  async openEvaluation(inquiryId: number) {
    this.inquiryId = inquiryId
    this.inquiry = null
    this.score = 0
    this.chosenTags = []
    this.content = ''
    this.anonymous = true
    this.added = null
    this.refusal = null
    await Promise.all([
      this.loadTags(),
      getInquiry(inquiryId)
        .then((inq) => runInAction(() => (this.inquiry = inq)))
        .catch(() => undefined),
    ])
  }

  async loadTags() {
    await this.tags.load().catch(() => undefined)
  }

  /** The tags that go with the stars chosen: good ones for 4–5, bad ones for 1–3, none before a score. */
  get tagOptions(): string[] {
    const tags = this.tags.value
    if (!tags || this.score < 1) return []
    return this.score >= GOOD_SCORE ? tags.good : tags.bad
  }

  /** Tapping a star; tags of the other kind are dropped when the rating crosses between good and bad. */
  setScore(score: number) {
    if (this.added || !Number.isInteger(score) || score < 1 || score > SCORE_MAX) return
    this.score = score
    const options = this.tagOptions
    this.chosenTags = this.chosenTags.filter((t) => options.includes(t))
  }

  toggleTag(tag: string) {
    if (this.added || !this.tagOptions.includes(tag)) return
    this.chosenTags = this.chosenTags.includes(tag) ? this.chosenTags.filter((t) => t !== tag) : [...this.chosenTags, tag]
  }

  setContent(text: string) {
    if (this.added) return
    this.content = text.slice(0, CONTENT_MAX)
  }

  setAnonymous(on: boolean) {
    if (this.added) return
    this.anonymous = on
  }

  /** Rates the doctor; null when refused (here without a score, or by the server: its text is kept for the page). */
  async submit(): Promise<EvaluationAdded | null> {
    if (this.added) return this.added
    if (!this.inquiryId) return null
    if (this.score < 1) {
      toastError(BAD_SCORE)
      return null
    }
    return this.submission.run(async () => {
      this.refusal = null
      try {
        const added = await api.addEvaluation({
          inquiryId: this.inquiryId,
          score: this.score,
          tags: this.chosenTags,
          content: this.content.trim(),
          anonymous: this.anonymous,
        })
        runInAction(() => {
          this.added = added
          if (this.inquiry?.id === added.inquiryId) this.inquiry = { ...this.inquiry, evaluated: true }
        })
        toastSuccess(EVALUATED_TEXT)
        this.onEvaluated(added.inquiryId)
        return added
      } catch (e) {
        runInAction(() => {
          // the request layer has shown it as a toast too
          if (e instanceof ApiError && !outcomeUnknown(e)) this.refusal = e.message
        })
        return null
      }
    })
  }

  // ----- a doctor's ratings -----

  /** A doctor's ratings from the newest, with the summary (the score page, the doctor's home, the full list). */
  async openDoctorEvaluations(doctorId: number) {
    if (this.evaluationsFor !== doctorId) this.summary = null
    this.evaluationsFor = doctorId
    await this.evaluations.reload()
  }

  /** The newest ratings the doctor's home and the score page show. */
  get newest(): Evaluation[] {
    return this.evaluations.items.slice(0, NEWEST_COUNT)
  }

  // ----- the gift page: its doctor here, its attempt in `gifts` -----

  async openGift(doctorId: number, inquiryId?: number, returnedOrderNo?: string) {
    await Promise.all([this.loadDoctor(doctorId), this.gifts.open(doctorId, inquiryId, returnedOrderNo)])
  }
}

/** The evaluation store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useEvaluationStore = pageStore(
  (root) =>
    // a rating made while the room shows that consultation: the room reloads it (已评价 instead of 评价医生)
    new EvaluationStore((inquiryId) => {
      if (root.chat.order.id === inquiryId) void root.chat.order.load()
    }),
)
