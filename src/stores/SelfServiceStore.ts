import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/selfService'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import type { BillStore, PayResult } from './BillStore'
import type { PatientStore } from './PatientStore'
import type { SelfServiceItem } from '../../types/api/selfService'
import { pageStore } from './base/pageStore'
import { useBillStore } from './BillStore'
import { usePatientStore } from './PatientStore'

/**
 * Self-service tests (自助开单, spec §2 /palm/selfService/index and /confirm/index): the tests the current patient may
 * order, the ones chosen (shared by both pages), and paying them: the server checks the rules again and makes one
 * unpaid bill (with this choice's idempotency key), which is paid as any bill is (BillStore.payBills).
 */
export class SelfServiceStore {
  readonly items = new Loadable((hospitalCode: string, patientId: number) => api.listSelfServiceItems({ hospitalCode, patientId }), (items) => this.keepAllowed(items))
  /** Whose tests `items` holds (hospital:patient). */
  private itemsFor: string | null = null
  /** The chosen tests' codes, in the order chosen. */
  selected: string[] = []
  /** One key per choice: a retry of an answer that never came answers the same bill. */
  readonly attempt = new IdempotentAttempt()
  readonly payment = new OneAtATime()
  /** The bills paid last: paying the same bills again keeps the bill store's payment key. */
  private lastBillNos = ''

  constructor(
    private readonly hospitalCode: () => string | undefined,
    private readonly patients: Pick<PatientStore, 'current'>,
    private readonly bills: Pick<BillStore, 'payBills'>,
  ) {
    makeAutoObservable<SelfServiceStore, 'itemsFor' | 'hospitalCode' | 'patients' | 'bills' | 'lastBillNos'>(this, {
      items: false,
      itemsFor: false,
      attempt: false,
      payment: false,
      hospitalCode: false,
      patients: false,
      bills: false,
      lastBillNos: false,
    })
  }

  get patient() {
    return this.patients.current ?? null
  }

  /** The current patient's tests; another patient starts with nothing chosen. */
  async load() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    if (!hospitalCode || !patient) {
      this.items.reset()
      this.itemsFor = null
      this.choose([])
      return
    }
    const key = `${hospitalCode}:${patient.id}`
    if (this.itemsFor !== key) {
      this.items.reset()
      this.choose([])
    }
    this.itemsFor = key
    await this.items.load(hospitalCode, patient.id).catch(() => undefined)
  }

  get list(): SelfServiceItem[] {
    return this.items.value ?? []
  }

  private keepAllowed(items: SelfServiceItem[]) {
    this.choose(this.selected.filter((code) => items.some((i) => i.code === code && i.allowed)))
  }

  private choose(codes: string[]) {
    if (codes.join() !== this.selected.join()) this.attempt.renew()
    this.selected = codes
  }

  isSelected(code: string) {
    return this.selected.includes(code)
  }

  /** A test not allowed for this patient cannot be chosen. */
  toggle(item: SelfServiceItem) {
    if (!item.allowed) return
    this.choose(this.isSelected(item.code) ? this.selected.filter((c) => c !== item.code) : [...this.selected, item.code])
  }

  /** The chosen tests, in the list's order. */
  get chosen(): SelfServiceItem[] {
    return this.list.filter((i) => this.selected.includes(i.code))
  }

  get totalFen(): number {
    return this.chosen.reduce((sum, i) => sum + i.priceFen, 0)
  }

  /** What the patient should know before coming, each once (空腹 ...). */
  get notices(): string[] {
    return [...new Set(this.chosen.map((i) => i.notes).filter(Boolean))]
  }

  /** Whether any chosen test needs fasting. */
  get fasting(): boolean {
    return this.notices.some((n) => n.includes('空腹') && !n.includes('无需空腹'))
  }

  /** 确认并支付: the bill for the chosen tests (made once per choice), then paying it like any bill. */
  pay(): Promise<PayResult | null> {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    const codes = this.chosen.map((i) => i.code)
    if (!hospitalCode || !patient || !codes.length) return Promise.resolve(null)
    return this.payment.run(async () => {
      const bill = await this.attempt.run((idempotencyKey) => api.createSelfServiceBill({ hospitalCode, patientId: patient.id, codes, idempotencyKey }))
      const billNos = bill.billNos.join()
      const renew = billNos !== this.lastBillNos
      runInAction(() => {
        this.lastBillNos = billNos
      })
      const result = await this.bills.payBills({ hospitalCode, patientId: patient.id, billNos: bill.billNos }, renew)
      if (result && (result.outcome === 'paid' || result.outcome === null)) runInAction(() => this.choose([]))
      return result
    })
  }
}

/** The selfService store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useSelfServiceStore = pageStore((root) => new SelfServiceStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root), useBillStore.of(root)))
