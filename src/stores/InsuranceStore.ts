import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/insurance'
import { ApiError } from '@/services/request'
import { Latest } from './base/Latest'
import { OneAtATime } from './base/OneAtATime'
import type { InsuranceIdentity, InsuranceSplit, InsuranceTestUser } from '../../types/api/insurance'
import { pageStore } from './base/pageStore'

/**
 * 'checking' the authorisation; 'needAuth' the patient must authorise on the voucher page; 'uploading' the fees;
 * 'ready' the split is known and the cash part can be paid; 'failed' something refused (error says what).
 */
export type InsuranceStep = 'idle' | 'checking' | 'needAuth' | 'uploading' | 'ready' | 'failed'

export interface InsuranceOrder {
  orderNo: string
  patientId: number
  hospitalCode: string
  /** This page, to come back to from the voucher page. */
  redirect: string
}

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : '医保结算失败，请稍后重试')

/**
 * Health insurance payment of one unpaid order (医保移动支付, spec §6 chsList, §7 "Insurance"): the patient's
 * authorisation with their insurance voucher, the fee upload that splits the order, and paying the cash part. The
 * voucher page is a full page visit: it comes back to the same page with `authCode`, which is redeemed once.
 */
export class InsuranceStore {
  step: InsuranceStep = 'idle'
  identity: InsuranceIdentity | null = null
  split: InsuranceSplit | null = null
  error: string | null = null
  /**
   * The insurance platform's test person, on a test platform (the sandbox) only: the authorisation page lists them,
   * and the patient must be them. null elsewhere (the server refuses to name one) and until asked.
   */
  testUser: InsuranceTestUser | null = null
  private testUserAsked = false
  readonly payment = new OneAtATime()
  private readonly spentCodes = new Set<string>()
  /** prepare and loadSplit both fill `split`: only the latest one's answers are shown. */
  private readonly latest = new Latest()

  constructor() {
    makeAutoObservable<InsuranceStore, 'spentCodes' | 'latest' | 'testUserAsked'>(this, { payment: false, spentCodes: false, latest: false, testUserAsked: false })
  }

  /**
   * Works out the split: redeems `authCode` when the voucher page sent one (a refusal, e.g. someone else's voucher,
   * is kept in `error`), then asks whether the patient is authorised, and uploads the fees when they are.
   */
  async prepare(order: InsuranceOrder, authCode?: string) {
    const current = this.latest.next()
    this.step = 'checking'
    this.error = null
    this.split = null
    if (authCode) {
      // out of the address bar, so a refresh or going back cannot send it again
      platform.stripParams(['authCode'])
      if (!this.spentCodes.has(authCode)) {
        this.spentCodes.add(authCode)
        try {
          await api.queryInsuranceUser(platform.authProvider(), authCode, order.patientId)
        } catch (e) {
          runInAction(() => {
            if (current()) this.error = messageOf(e)
          })
        }
      }
    }
    try {
      const identity = await api.identifyInsurance({ patientId: order.patientId, hospitalCode: order.hospitalCode, redirect: order.redirect })
      if (!current()) return
      runInAction(() => {
        this.identity = identity
        this.step = identity.authorized ? 'uploading' : 'needAuth'
      })
      if (!identity.authorized) {
        await this.loadTestUser()
        return
      }
      const split = await api.uploadInsuranceFees(order.orderNo)
      runInAction(() => {
        if (!current()) return
        this.split = split
        this.step = 'ready'
      })
    } catch (e) {
      runInAction(() => {
        if (!current()) return
        this.error = messageOf(e)
        this.step = 'failed'
      })
    }
  }

  /** Asks once whether the platform is a test one with a test person (a refusal means it is not). */
  async loadTestUser() {
    if (this.testUserAsked) return
    this.testUserAsked = true
    try {
      const person = await api.getInsuranceTestUser()
      runInAction(() => {
        this.testUser = person
      })
    } catch (e) {
      // the server's refusal says there is none; no answer at all may be asked again
      runInAction(() => {
        this.testUserAsked = e instanceof ApiError && e.code !== 0
      })
    }
  }

  /** Leaves for the voucher page (it comes back with authCode). */
  authorise() {
    if (this.identity?.authUrl) platform.leaveTo(this.identity.authUrl)
  }

  /** Pays the cash part; the cashier comes back to `returnUrl`, WeChat's sheet answers here. */
  async pay(orderNo: string, returnUrl: string): Promise<PayOutcome> {
    if (this.step !== 'ready') return 'failed'
    return this.payment.run(async () => {
      try {
        return await platform.pay(await api.payWithInsurance({ orderNo, returnUrl }))
      } catch {
        return 'failed' // the request layer has shown why
      }
    }, 'failed')
  }

  /** The split of an order already paid or closed (the settlement detail). */
  async loadSplit(orderNo: string) {
    const current = this.latest.next()
    this.split = null
    try {
      const split = await api.getInsuranceSplit(orderNo)
      runInAction(() => {
        if (current()) this.split = split
      })
    } catch {
      // the page still shows the order's own amounts
    }
  }

  reset() {
    this.latest.drop()
    this.step = 'idle'
    this.identity = null
    this.split = null
    this.error = null
  }
}

/** The insurance store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useInsuranceStore = pageStore(() => new InsuranceStore())
