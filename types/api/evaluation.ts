/**
 * Rating a doctor (评价) and gifts to doctors (心意), `/dld-hospital/im/evaluate` and `/dld-hospital/im/gift`. Spec §1
 * (doctor ratings, gifts to doctors), §2 /internet/score, /internet/moreEvaluation, /internet/tim/evaluate and
 * /tim/gift, §7 Internet hospital → Evaluation and gifts.
 */
import type { Page } from './hospital'
import type { PayAction } from './payment'

/** `GET /im/evaluate/tags`: the tags a patient may pick, good ones (for a good rating) and bad ones. */
export interface EvaluationTags {
  good: string[]
  bad: string[]
}

/** `POST /im/evaluate/add`: once per inquiry, after it finished (or closed after the doctor accepted). */
export interface EvaluationInput {
  inquiryId: number
  /** 1–5 stars; 4 and 5 count as good. */
  score: number
  /** From EvaluationTags. */
  tags: string[]
  /** Up to 200 characters, may be empty. */
  content: string
  /** Shown as 匿名用户 on the doctor's page. */
  anonymous: boolean
}

/** One rating as the doctor's page shows it. */
export interface Evaluation {
  id: number
  score: number
  tags: string[]
  content: string
  /** The patient's name masked, or 匿名用户. */
  patientName: string
  createdAt: string
}

/** `POST /im/evaluate/add` answers what it stored and the doctor's good rate after it. */
export interface EvaluationAdded {
  evaluation: Evaluation
  inquiryId: number
  doctorId: number
  /** Percent of good ratings (score 4 or 5) among all of the doctor's ratings. */
  goodRate: number
}

export interface EvaluationSummary {
  count: number
  /** Percent, 0–100, the doctor's page's 好评率. */
  goodRate: number
  /** Each tag with how many ratings chose it, the most chosen first. */
  tags: { tag: string; count: number }[]
}

/** `POST /im/evaluate/doctor/evaluates` {doctorId, page, size}: the newest first, with the summary. */
export interface DoctorEvaluations extends Page<Evaluation> {
  summary: EvaluationSummary
}

/** `POST /im/gift/gifts`: one gift of the catalogue. */
export interface GiftItem {
  /** flower, tea, letter, banner */
  code: string
  name: string
  priceFen: number
}

export type GiftStatus = 'unpaid' | 'paid' | 'closed'

/** `POST /im/gift/toPay`: the same idempotencyKey answers the same gift. */
export interface GiftInput {
  doctorId: number
  /** The consultation the gift thanks the doctor for; the caller's own, with that doctor. */
  inquiryId?: number
  giftCode: string
  /** Up to 50 characters, shown on the doctor's page. */
  message: string
  idempotencyKey: string
  /** A page of this app (/h5/...) the cashier returns to. */
  returnUrl: string
}

export interface Gift {
  id: number
  giftNo: string
  doctorId: number
  doctorName: string
  inquiryId: number | null
  giftCode: string
  giftName: string
  priceFen: number
  message: string
  status: GiftStatus
  /** The payment order's number (`GET /dld-pay/order/{orderNo}` after the cashier). */
  orderNo: string | null
  paidAt: string | null
  createdAt: string
}

/** `POST /im/gift/toPay` answers the gift and how to pay it; `pay` is null once it is paid or closed. */
export interface GiftPayment {
  gift: Gift
  pay: PayAction | null
}

/** `POST /im/gift/doctor/gifts` {doctorId, page, size}: a doctor's received (paid) gifts, newest first. */
export interface ReceivedGift {
  id: number
  giftCode: string
  giftName: string
  /** The sender's name masked, or 匿名用户. */
  senderName: string
  message: string
  paidAt: string
}
