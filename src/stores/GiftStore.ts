import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/evaluation'
import { getPayOrder } from '@/services/pay'
import { outcomeUnknown } from '@/services/request'
import { toastError } from '@/ui/feedback'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { PayOrder } from '../../types/api/payment'
import type { Gift, GiftItem, ReceivedGift } from '../../types/api/evaluation'
import { GIFT_MESSAGE_MAX } from '@/utils/internetRules'
import { giftReturnUrl } from '@/pageUrls'

export const GIFT_PAGE_SIZE = 10

/** The server's own refusals (server/src/domain/gift.ts), shown before asking it when the app can tell. */
export const NO_GIFT = '请选择要送出的心意'
export const GIFT_CLOSED = '该心意订单已关闭，请重新选择送出'

/**
 * A gift to a doctor (spec §2 /tim/gift, §7 Evaluation and gifts): the catalogue, the gift attempt paid through the
 * payment core, and the doctor's received gifts.
 */
export class GiftStore {
  doctorId = 0
  /** The consultation the gift thanks the doctor for, when there is one. */
  inquiryId: number | undefined = undefined
  readonly catalogue = new Loadable(() => api.listGifts())
  giftCode: string | null = null
  message = ''
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server makes one gift. */
  readonly attempt = new IdempotentAttempt()
  /** What the attempt made; paying again pays the same gift. */
  gift: Gift | null = null
  /** The gift's payment order as the payment core answers it after paying (the cashier's return, WeChat's sheet). */
  readonly paidOrder = new Loadable(async (orderNo: string): Promise<PayOrder | null> => {
    const order = await getPayOrder(orderNo)
    return order.business === 'gift' ? order : null
  })
  readonly received = new PagedList<ReceivedGift>((q) => api.listDoctorGifts({ doctorId: this.doctorId, ...q }), GIFT_PAGE_SIZE, {
    canLoad: () => this.doctorId !== 0,
  })

  constructor() {
    makeAutoObservable(this, { catalogue: false, attempt: false, paidOrder: false, received: false })
  }

  /**
   * Opens the gift page for one doctor (and the consultation it thanks them for): a new attempt with its own key; the
   * catalogue and the received gifts load. Back from the cashier (`orderNo`), the payment core says whether it was paid.
   */
  async open(doctorId: number, inquiryId?: number, returnedOrderNo?: string) {
    this.doctorId = doctorId
    this.inquiryId = inquiryId
    this.giftCode = null
    this.message = ''
    this.gift = null
    this.paidOrder.reset()
    this.attempt.renew()
    await Promise.all([this.loadCatalogue(), this.received.reload(), returnedOrderNo ? this.checkPaid(returnedOrderNo) : undefined])
  }

  async loadCatalogue() {
    await this.catalogue.load().catch(() => undefined)
  }

  /** The gift chosen; another gift is another attempt (a new key), so the server never mistakes one for the other. */
  choose(code: string) {
    if (this.attempt.inFlight || code === this.giftCode) return
    this.giftCode = code
    this.gift = null
    this.attempt.renew()
  }

  setMessage(text: string) {
    this.message = text.slice(0, GIFT_MESSAGE_MAX)
  }

  get chosen(): GiftItem | null {
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
  async send(): Promise<PayOutcome | null> {
    if (this.attempt.inFlight || !this.doctorId) return null
    const item = this.chosen
    if (!item) {
      toastError(NO_GIFT)
      return null
    }
    try {
      return await this.attempt.run(async (idempotencyKey) => {
        const res = await api.giftToPay({
          doctorId: this.doctorId,
          inquiryId: this.inquiryId,
          giftCode: item.code,
          message: this.message.trim(),
          idempotencyKey,
          returnUrl: giftReturnUrl(this.doctorId, this.inquiryId),
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
              this.attempt.renew()
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
    this.attempt.renew()
  }

  /** The gift's payment order as it now stands; once paid, the doctor's received gifts show it. */
  async checkPaid(orderNo: string) {
    const order = await this.paidOrder.load(orderNo).catch(() => null)
    if (order?.status === 'paid' && this.doctorId) void this.received.reload()
  }
}
