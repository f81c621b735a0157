import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/evaluation'
import { getInquiry } from '@/services/inquiry'
import { getOnlineDoctor } from '@/services/internet'
import { getPayOrder } from '@/services/pay'
import { ApiError, outcomeUnknown } from '@/services/request'
import { toastError, toastSuccess } from '@/ui/feedback'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { Inquiry } from '../../types/api/inquiry'
import type { PayOrder } from '../../types/api/payment'
import type {
  DoctorEvaluations,
  Evaluation,
  EvaluationAdded,
  EvaluationSummary,
  Gift,
  GiftItem,
  ReceivedGift,
} from '../../types/api/evaluation'
import { SCORE_MAX, GOOD_SCORE, EVALUATION_CONTENT_MAX as CONTENT_MAX, GIFT_MESSAGE_MAX as MESSAGE_MAX, BAD_SCORE } from '@/utils/internetRules'
import { giftReturnUrl } from '@/pageUrls'

/** The server's limits (server/src/domain/evaluation.ts, gift.ts). */
export { SCORE_MAX, GOOD_SCORE, CONTENT_MAX, MESSAGE_MAX, BAD_SCORE }
export const EVALUATION_PAGE_SIZE = 10
export const GIFT_PAGE_SIZE = 10
/** How many of the newest ratings the doctor's home and the score page show. */
export const NEWEST_COUNT = 2

/** The server's own refusals, shown before asking it when the app can tell. */
export const NO_GIFT = '请选择要送出的心意'
export const EVALUATED_TEXT = '评价成功'
export const THANKS_TEXT = '感谢您的心意'
export const GIFT_CLOSED = '该心意订单已关闭，请重新选择送出'
/** What each number of stars means, under the stars. */
export const SCORE_TEXT = ['', '非常不满意', '不满意', '一般', '满意', '非常满意'] as const

/**
 * Rating doctors and gifts to doctors (spec §2 /internet/tim/evaluate, /tim/gift, /internet/moreEvaluation,
 * /internet/score; §7 Evaluation and gifts): the rating form of one consultation, a doctor's ratings with their summary,
 * and the gift attempt paid through the payment core, with the doctor's received gifts.
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
  submitting = false
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

  // ----- the gift attempt -----
  giftDoctorId = 0
  giftInquiryId: number | undefined = undefined
  readonly catalogue = new Loadable(() => api.listGifts())
  giftCode: string | null = null
  message = ''
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server makes one gift. */
  readonly giftAttempt = new IdempotentAttempt()
  /** What the attempt made; paying again pays the same gift. */
  gift: Gift | null = null
  /** The gift's payment order as the payment core answers it after paying (the cashier's return, WeChat's sheet). */
  readonly paidOrder = new Loadable(async (orderNo: string): Promise<PayOrder | null> => {
    const order = await getPayOrder(orderNo)
    return order.business === 'gift' ? order : null
  })
  readonly received = new PagedList<ReceivedGift>((q) => api.listDoctorGifts({ doctorId: this.giftDoctorId, ...q }), GIFT_PAGE_SIZE, {
    canLoad: () => this.giftDoctorId !== 0,
  })

  /** `onEvaluated` tells whoever shows the consultation (the room) that it was rated. */
  constructor(private readonly onEvaluated: (inquiryId: number) => void = () => undefined) {
    makeAutoObservable<EvaluationStore, 'onEvaluated'>(this, {
      onEvaluated: false,
      doctor: false,
      tags: false,
      evaluations: false,
      catalogue: false,
      giftAttempt: false,
      paidOrder: false,
      received: false,
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
    if (this.submitting || !this.inquiryId) return null
    if (this.score < 1) {
      toastError(BAD_SCORE)
      return null
    }
    this.submitting = true
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
    } finally {
      runInAction(() => {
        this.submitting = false
      })
    }
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

  // ----- the gift attempt -----

  /**
   * Opens the gift page for one doctor (and the consultation it thanks them for): a new attempt with its own key; the
   * catalogue and the received gifts load. Back from the cashier (`orderNo`), the payment core says whether it was paid.
   */
  async openGift(doctorId: number, inquiryId?: number, returnedOrderNo?: string) {
    this.giftDoctorId = doctorId
    this.giftInquiryId = inquiryId
    this.giftCode = null
    this.message = ''
    this.gift = null
    this.paidOrder.reset()
    this.giftAttempt.renew()
    await Promise.all([
      this.loadDoctor(doctorId),
      this.loadCatalogue(),
      this.received.reload(),
      returnedOrderNo ? this.checkPaid(returnedOrderNo) : undefined,
    ])
  }

  async loadCatalogue() {
    await this.catalogue.load().catch(() => undefined)
  }

  /** The gift chosen; another gift is another attempt (a new key), so the server never mistakes one for the other. */
  chooseGift(code: string) {
    if (this.giftAttempt.inFlight || code === this.giftCode) return
    this.giftCode = code
    this.gift = null
    this.giftAttempt.renew()
  }

  setMessage(text: string) {
    this.message = text.slice(0, MESSAGE_MAX)
  }

  get chosenGift(): GiftItem | null {
    return this.catalogue.value?.find((g) => g.code === this.giftCode) ?? null
  }

  /** Paid: the thanks the page shows. */
  get paid(): boolean {
    return this.paidOrder.value?.status === 'paid'
  }

  /**
   * Sends the chosen gift and pays it: the server makes it (or answers the same one for the same key) with how to pay,
   * the platform pays. A business refusal made nothing, so the next tap is a new attempt with a new key; no answer at
   * all may have made it, so the retry keeps the key. When the sheet reports paid, the payment core is asked at once;
   * the cashier comes back to this page, which asks then.
   */
  async sendGift(): Promise<PayOutcome | null> {
    if (this.giftAttempt.inFlight || !this.giftDoctorId) return null
    const item = this.chosenGift
    if (!item) {
      toastError(NO_GIFT)
      return null
    }
    try {
      return await this.giftAttempt.run(async (idempotencyKey) => {
        const res = await api.giftToPay({
          doctorId: this.giftDoctorId,
          inquiryId: this.giftInquiryId,
          giftCode: item.code,
          message: this.message.trim(),
          idempotencyKey,
          returnUrl: giftReturnUrl(this.giftDoctorId, this.giftInquiryId),
        })
        runInAction(() => {
          this.gift = res.gift
        })
        if (!res.pay) {
          // paid meanwhile, or its payment ran out: a closed gift is over, the next tap starts a new one
          if (res.gift.status === 'paid' && res.gift.orderNo) await this.checkPaid(res.gift.orderNo)
          else {
            runInAction(() => {
              this.gift = null
              this.giftAttempt.renew()
            })
            toastError(GIFT_CLOSED)
          }
          return res.gift.status === 'paid' ? 'paid' : 'failed'
        }
        const outcome = await platform.pay(res.pay)
        if (outcome === 'paid' && res.gift.orderNo) await this.checkPaid(res.gift.orderNo)
        return outcome
      })
    } catch (e) {
      runInAction(() => {
        if (!outcomeUnknown(e)) this.gift = null
      })
      throw e
    }
  }

  /** After the thanks: another gift is a new attempt. */
  sendAnother() {
    this.giftCode = null
    this.message = ''
    this.gift = null
    this.paidOrder.reset()
    this.giftAttempt.renew()
  }

  /** The gift's payment order as it now stands; once paid, the doctor's received gifts show it. */
  async checkPaid(orderNo: string) {
    const order = await this.paidOrder.load(orderNo).catch(() => null)
    if (order?.status === 'paid' && this.giftDoctorId) void this.received.reload()
  }
}
