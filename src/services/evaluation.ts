import { get, post } from './request'
import type { Page } from '../../types/api/hospital'
import type {
  DoctorEvaluations,
  EvaluationAdded,
  EvaluationInput,
  EvaluationTags,
  GiftInput,
  GiftItem,
  GiftPayment,
  ReceivedGift,
} from '../../types/api/evaluation'

/** Rating a doctor and gifts to doctors, `/dld-hospital/im/evaluate` and `/im/gift` (spec §7 Evaluation and gifts). */
const API = '/dld-hospital/im'

/** The tags a patient picks from: good ones for 4–5 stars, bad ones for 1–3. */
export const getEvaluationTags = () => get<EvaluationTags>(`${API}/evaluate/tags`, undefined, { noLoading: true })

/** Rates the doctor of a finished consultation, once; JSON for the tag list. */
export const addEvaluation = (input: EvaluationInput) => post<EvaluationAdded>(`${API}/evaluate/add`, input, { json: true })

/** A page of a doctor's ratings, newest first, with the count, the good rate and the tag counts; silent: the lists show 加载失败. */
export const listDoctorEvaluations = (q: { doctorId: number; page: number; size: number }) =>
  post<DoctorEvaluations>(`${API}/evaluate/doctor/evaluates`, q, { noLoading: true, silent: true })

/** The gifts a patient may send (prices in fen). */
export const listGifts = () => post<GiftItem[]>(`${API}/gift/gifts`, undefined, { noLoading: true })

/** Sends a gift: made unpaid with its payment order, answered with how to pay it (null once paid or closed). */
export const giftToPay = (input: GiftInput) => post<GiftPayment>(`${API}/gift/toPay`, input)

/** A page of a doctor's received (paid) gifts, the latest first; silent: the list shows 加载失败. */
export const listDoctorGifts = (q: { doctorId: number; page: number; size: number }) =>
  post<Page<ReceivedGift>>(`${API}/gift/doctor/gifts`, q, { noLoading: true, silent: true })
