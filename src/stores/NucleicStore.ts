import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import type { NucleicKind, NucleicOrder, NucleicResult } from '../../types/api/medtech'
import type { Page } from '../../types/api/hospital'
import * as api from '@/services/medtech'
import { getPayOrder, startPayment } from '@/services/pay'
import { Loadable } from './base/Loadable'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { OneAtATime } from './base/OneAtATime'
import type { PatientStore } from './PatientStore'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

/**
 * Nucleic-acid tests (核酸检测, spec §2 /palm/nucleic/*, /palm/report/nucleic/*, and the customer-specific nucleic
 * pages): the kinds the hospital sells, buying one for the chosen patient through the payment core (one idempotency
 * key per attempt), the caller's tests with their sampling QR codes, cancelling with a refund before sampling, and the
 * chosen patient's results. The pages of the palm package and of a hospital's own package share it.
 */
export class NucleicStore {
  readonly kinds: Loadable<NucleicKind[], [string]>
  readonly orders: Loadable<Page<NucleicOrder>, [string | undefined]>
  readonly results: Loadable<NucleicResult[], [string, number]>
  readonly attempt = new IdempotentAttempt()
  readonly payment = new OneAtATime()
  kindCode: string | null = null
  /** The QR codes drawn so far, by test. */
  codes = new Map<number, { sampleNo: string; image: string }>()

  constructor(
    private readonly hospitalCode: () => string | undefined,
    private readonly patients: PatientStore,
  ) {
    this.kinds = new Loadable((code: string) => api.listNucleicKinds(code), (kinds) => {
      if (!kinds.some((k) => k.code === this.kindCode)) this.kindCode = kinds[0]?.code ?? null
    })
    this.orders = new Loadable((code: string | undefined) => api.listNucleicOrders({ hospitalCode: code, page: 1, size: 50 }))
    this.results = new Loadable((code: string, patientId: number) => api.listNucleicResults({ hospitalCode: code, patientId }))
    makeAutoObservable<NucleicStore, 'hospitalCode' | 'patients'>(this, { hospitalCode: false, patients: false })
  }

  get kind(): NucleicKind | null {
    return this.kinds.value?.find((k) => k.code === this.kindCode) ?? null
  }

  chooseKind(code: string) {
    if (code !== this.kindCode) this.attempt.renew()
    this.kindCode = code
  }

  async loadKinds(): Promise<void> {
    const code = this.hospitalCode()
    if (code) await this.kinds.load(code).catch(() => undefined)
  }

  async loadOrders(): Promise<void> {
    await this.orders.load(this.hospitalCode()).catch(() => undefined)
  }

  /** The results of the chosen patient, or of the one named (a result opened by its address). */
  async loadResults(patientId = this.patients.current?.id): Promise<void> {
    const code = this.hospitalCode()
    if (code && patientId) await this.results.load(code, patientId).catch(() => undefined)
  }

  /** Buys the chosen test for the chosen patient and hands it to the channel; the cashier comes back to `returnUrl`. */
  async buy(returnUrl: string): Promise<{ order: NucleicOrder; outcome: PayOutcome | null } | null> {
    return this.payment.run(async () => {
      const hospitalCode = this.hospitalCode()
      const patient = this.patients.current
      const kindCode = this.kindCode
      if (!hospitalCode || !patient || !kindCode) return null
      const start = await this.attempt.run((idempotencyKey) => api.purchaseNucleic({ hospitalCode, patientId: patient.id, kindCode, returnUrl, idempotencyKey }))
      runInAction(() => this.attempt.renew())
      if (!start.action) return { order: start.record, outcome: null }
      return { order: start.record, outcome: await platform.pay(start.action) }
    })
  }

  /** Pays a test still waiting for its money (去支付). */
  async payAgain(order: NucleicOrder, returnUrl: string): Promise<PayOutcome | null> {
    return this.payment.run(async () => {
      const outcome = await platform.pay(await startPayment({ orderNo: order.orderNo, returnUrl }))
      if (outcome === 'paid') await this.loadOrders()
      return outcome
    })
  }

  /** Back from the cashier (`orderNo=`): the server asks about the order if no notification came yet, then the list. */
  async confirmReturn(orderNo: string): Promise<void> {
    await getPayOrder(orderNo).catch(() => undefined)
    await this.loadOrders()
  }

  /** The test's sampling QR code, drawn by the server. */
  async showCode(id: number): Promise<void> {
    const code = await api.getNucleicCode(id)
    runInAction(() => this.codes.set(id, { sampleNo: code.sampleNo, image: code.image }))
  }

  hideCode(id: number) {
    this.codes.delete(id)
  }

  /** Cancels a test: an unpaid one is given up, a paid one not sampled yet refunded. */
  async cancel(id: number): Promise<NucleicOrder | null> {
    return this.payment.run(async () => {
      const done = await api.cancelNucleic(id)
      runInAction(() => this.codes.delete(id))
      await this.loadOrders()
      return done
    })
  }
}

/** The nucleic store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useNucleicStore = pageStore((root) => new NucleicStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
