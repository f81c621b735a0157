import { makeAutoObservable, observable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/bills'
import { getClinicBalance } from '@/services/recharge'
import { getPayOrder } from '@/services/pay'
import { SESSION, session } from '@/services/storage'
import { PAYMENT_PAY_RETURN_URL } from '@/pageUrls'
import { isChsHospital } from '@/utils/insuranceRules'
import { isReportBill } from '@/utils/reportBill'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable, type LoadState } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { BillDetail, BillPayStart, BillPayment, BillPaymentDetail, PriceItem, UnpaidBill, UnpaidVisit, WaitQueue } from '../../types/api/palm'
import type { ReportBillInput } from '../../types/api/reportBill'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

export const PAYMENT_PAGE_SIZE = 10
export const PRICE_PAGE_SIZE = 20

/** A bill of the unpaid list with the visit it belongs to. */
export type ChosenBill = UnpaidBill & { visit: UnpaidVisit }

/** A price item as the paged list keeps it (the catalogue has codes, the list wants a number to tell items apart). */
export type PriceRow = PriceItem & { id: number }

/** The payment the patient left for the cashier (spec §3 session key `payment`): the detail finds it by order number. */
interface PendingPayment {
  id: number
  orderNo: string
}

/** How the chosen bills are paid: online, from the hospital-card balance, or with health insurance (医保支付). */
export type BillPayChannel = 'cashier' | 'account' | 'insurance'

/** What paying did: the payment record's id, and how the channel ended (null: nothing left to pay, e.g. paid already). */
export interface PayResult {
  id: number
  outcome: PayOutcome | null
}

/**
 * Outpatient payment (门诊缴费, spec §2 Palm pages Payment and Order pages payment): the chosen patient's unpaid bills
 * and the bills chosen to pay together (shared by /palm/payment/list and /mergeList), each bill's items, paying them
 * as one order with an idempotency key, the paid records, one record with where to go next, cancelling, refunding,
 * and the price catalogue (价格公示).
 */
export class BillStore {
  readonly unpaid = new Loadable(
    (hospitalCode: string, patientId: number) => api.listUnpaidBills({ hospitalCode, patientId }),
    (visits) => this.chooseDefault(visits),
  )
  /** Whose bills `unpaid` holds (hospital:patient). */
  private unpaidFor: string | null = null
  /** The bill numbers chosen to pay together. */
  selected: string[] = []
  /** Each bill's items, by bill number, read once when first opened. */
  readonly details = observable.map<string, { state: LoadState; value: BillDetail | null }>()
  /** One key per choice of bills: a retry of an answer that never came pays the same order. */
  readonly attempt = new IdempotentAttempt()
  readonly payment = new OneAtATime()
  /**
   * How the chosen bills are paid (spec §2 payType): online in the cashier, or from the patient's hospital-card balance
   * (门诊预交金), which pays at once without a cashier; the server refuses a balance that is short; or with health
   * insurance at a chsList hospital (spec §6), whose split and cash part the chsPayment page works out.
   */
  channel: BillPayChannel = 'cashier'
  /** The chosen patient's hospital-card balance, for the choice of how to pay. */
  readonly balance = new Loadable((hospitalCode: string, patientId: number) => getClinicBalance(hospitalCode, patientId))

  readonly records = new PagedList<BillPayment>(
    (q) => api.listPaidBillPayments({ hospitalCode: this.hospitalCode(), patientId: this.patients?.current?.id, ...q }),
    PAYMENT_PAGE_SIZE,
    { canLoad: () => !!this.hospitalCode() },
  )
  /** A report's bill (报告缴费), read afresh each time it is opened. */
  readonly reportBill = new Loadable((input: ReportBillInput) => api.getReportBill(input))
  readonly record = new Loadable((id: number) => api.getBillPayment(id))
  readonly queue = new Loadable((id: number) => api.getWaitQueue(id))
  /** Cancelling or refunding: one at a time. */
  readonly change = new OneAtATime()

  keyword = ''
  readonly prices = new PagedList<PriceRow>(
    async (q) => {
      const res = await api.listPrices({ hospitalCode: this.hospitalCode()!, keyword: this.keyword || undefined, ...q })
      return { ...res, records: res.records.map((p, i) => ({ ...p, id: (q.page - 1) * q.size + i + 1 })) }
    },
    PRICE_PAGE_SIZE,
    { canLoad: () => !!this.hospitalCode() },
  )

  constructor(
    private readonly hospitalCode: () => string | undefined = () => undefined,
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
  ) {
    makeAutoObservable<BillStore, 'unpaidFor' | 'hospitalCode' | 'patients' | 'startPaying'>(this, {
      unpaid: false,
      unpaidFor: false,
      details: false,
      attempt: false,
      payment: false,
      balance: false,
      reportBill: false,
      records: false,
      record: false,
      queue: false,
      change: false,
      prices: false,
      hospitalCode: false,
      patients: false,
      startPaying: false,
    })
  }

  get patient() {
    return this.patients?.current ?? null
  }

  /** The current patient's unpaid bills; a different patient starts with nothing on show and nothing chosen. */
  async loadUnpaid() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    if (!hospitalCode || !patient) {
      this.unpaid.reset()
      this.unpaidFor = null
      this.selected = []
      return
    }
    const key = `${hospitalCode}:${patient.id}`
    if (this.unpaidFor !== key) {
      this.unpaid.reset()
      this.selected = []
    }
    this.unpaidFor = key
    await this.unpaid.load(hospitalCode, patient.id).catch(() => undefined)
  }

  /** The unpaid bills whose report waits for them (报告缴费: tests and examinations, src/utils/reportBill.ts). */
  get reportBills(): UnpaidBill[] {
    return this.visits.flatMap((v) => v.bills.filter((b) => isReportBill(b.category)))
  }

  get visits(): UnpaidVisit[] {
    return this.unpaid.value ?? []
  }

  /** Chosen by default: every bill of the newest visit that is not already in a payment; a choice still there is kept. */
  private chooseDefault(visits: UnpaidVisit[]) {
    const payable = new Set(visits.flatMap((v) => v.bills.filter((b) => !b.paying).map((b) => b.billNo)))
    const kept = this.selected.filter((no) => payable.has(no))
    const next = kept.length ? kept : (visits.find((v) => v.bills.some((b) => !b.paying))?.bills.filter((b) => !b.paying).map((b) => b.billNo) ?? [])
    this.choose(next)
  }

  private choose(billNos: string[]) {
    if (billNos.join() !== this.selected.join()) this.attempt.renew()
    this.selected = billNos
  }

  isSelected(billNo: string) {
    return this.selected.includes(billNo)
  }

  toggle(bill: UnpaidBill) {
    if (bill.paying) return
    this.choose(this.isSelected(bill.billNo) ? this.selected.filter((no) => no !== bill.billNo) : [...this.selected, bill.billNo])
  }

  /** The bills of one department of one visit that may be paid now (合并支付 on the list: /deptMergeList). */
  payableOfDept(visitNo: string, deptName: string): UnpaidBill[] {
    const visit = this.visits.find((v) => v.visitNo === visitNo && v.deptName === deptName)
    return visit ? visit.bills.filter((b) => !b.paying) : []
  }

  /** Chooses exactly the payable bills of one department of one visit, to pay them as one order; answers how many. */
  chooseDept(visitNo: string, deptName: string): number {
    const billNos = this.payableOfDept(visitNo, deptName).map((b) => b.billNo)
    this.choose(billNos)
    return billNos.length
  }

  /** Chooses just this bill, when it may be paid now (单独支付: /payType); answers whether it could be. */
  chooseOne(billNo: string): boolean {
    const payable = this.visits.some((v) => v.bills.some((b) => b.billNo === billNo && !b.paying))
    this.choose(payable ? [billNo] : [])
    return payable
  }

  /** The chosen bills, in the list's order, with their visits. */
  get chosen(): ChosenBill[] {
    return this.visits.flatMap((visit) => visit.bills.filter((b) => this.selected.includes(b.billNo)).map((b) => ({ ...b, visit })))
  }

  /** What the chosen bills cost together, in fen (whole fen: integer sums are exact). */
  get totalFen(): number {
    return this.chosen.reduce((sum, b) => sum + b.amountFen, 0)
  }

  /** One bill's items (unpaid/detail), read once; a failed read is read again when asked. */
  async loadDetail(billNo: string, patientId = this.patient?.id) {
    const hospitalCode = this.hospitalCode()
    const known = this.details.get(billNo)
    if (!hospitalCode || !patientId || known?.state === 'done' || known?.state === 'loading') return
    this.details.set(billNo, { state: 'loading', value: known?.value ?? null })
    try {
      const value = await api.getUnpaidBill({ hospitalCode, patientId, billNo })
      runInAction(() => this.details.set(billNo, { state: 'done', value }))
    } catch {
      runInAction(() => this.details.set(billNo, { state: 'failed', value: null }))
    }
  }

  detailOf(billNo: string) {
    return this.details.get(billNo) ?? { state: 'idle' as LoadState, value: null }
  }

  /**
   * Pays bills as one order: payment/init with the attempt's key and the return page, then the platform's channel
   * (the cashier on H5 leaves the page and comes back to the record). `renew` starts a new attempt (paying a record again).
   */
  payBills(input: { hospitalCode: string; patientId: number; billNos: string[]; sourceType?: 0 | 2; channel?: BillPayChannel }, renew = false): Promise<PayResult | null> {
    return this.startPaying((idempotencyKey) => api.payBills({ ...input, returnUrl: PAYMENT_PAY_RETURN_URL, idempotencyKey }), renew)
  }

  /** Pays one report's bill (报告缴费, report/init) the same way, one bill, one order. */
  payReport(input: { hospitalCode: string; patientId: number; billNo: string }): Promise<PayResult | null> {
    return this.startPaying((idempotencyKey) => api.payReportBill({ ...input, returnUrl: PAYMENT_PAY_RETURN_URL, idempotencyKey }), true)
  }

  private startPaying(begin: (idempotencyKey: string) => Promise<BillPayStart>, renew: boolean): Promise<PayResult | null> {
    return this.payment.run(async () => {
      if (renew) this.attempt.renew()
      const start = await this.attempt.run(begin)
      const pending: PendingPayment = { id: start.record.id, orderNo: start.record.orderNo }
      session.set(SESSION.payment, pending)
      // with insurance nothing goes to a channel here: the chsPayment page uploads the bills and takes the cash part
      if (!start.action) return { id: start.record.id, outcome: null }
      const outcome = await platform.pay(start.action)
      return { id: start.record.id, outcome }
    })
  }

  /** Pays the chosen bills of the list. */
  payChosen() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    if (!hospitalCode || !patient || !this.selected.length) return Promise.resolve(null)
    return this.payBills({ hospitalCode, patientId: patient.id, billNos: [...this.selected], channel: this.payChannel })
  }

  /** Reads the chosen patient's balance (the confirm page offers it when it covers the total). */
  async loadBalance() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    if (!hospitalCode || !patient) return
    await this.balance.load(hospitalCode, patient.id).catch(() => undefined)
  }

  /** Whether the balance covers the chosen bills (false while it is not known). */
  get balanceCovers(): boolean {
    const b = this.balance.value
    return !!b && b.patientId === this.patient?.id && b.balanceFen >= this.totalFen
  }

  /** Whether the hospital takes health insurance online (spec §6 chsList): only then is 医保支付 offered. */
  get insuranceOffered(): boolean {
    return isChsHospital(this.hospitalCode())
  }

  /** How the chosen bills will be paid: the balance only while it covers them, insurance only where it is taken. */
  get payChannel(): BillPayChannel {
    if (this.channel === 'insurance') return this.insuranceOffered ? 'insurance' : 'cashier'
    return this.channel === 'account' && this.balanceCovers ? 'account' : 'cashier'
  }

  /** Another way to pay is another order: a new key, so the server does not answer the other way's order. */
  chooseChannel(channel: BillPayChannel) {
    if (channel === this.channel) return
    this.channel = channel
    this.attempt.renew()
  }

  /**
   * The record the cashier came back to (`orderNo=`): the one left for the cashier on this tab, else found among the
   * caller's payments. The server is asked about the order first (it asks the provider when no notification came yet).
   */
  async findByOrderNo(orderNo: string): Promise<number | null> {
    await getPayOrder(orderNo).catch(() => undefined)
    const pending = session.get<PendingPayment>(SESSION.payment)
    if (pending?.orderNo === orderNo) return pending.id
    const page = await api.listBillPayments({ hospitalCode: this.hospitalCode(), page: 1, size: 50 }).catch(() => null)
    return page?.records.find((r) => r.orderNo === orderNo)?.id ?? null
  }

  /** One record, and once it is paid where to go next. */
  async loadRecord(id: number) {
    if (this.record.value?.id !== id) {
      this.record.reset()
      this.queue.reset()
    }
    const record = await this.record.load(id)
    if (record.status === 'paid' || record.status === 'refunding') await this.queue.load(id).catch(() => undefined)
    return record
  }

  /** A record still unpaid after the channel said paid: the server asks the provider, then the record is read again. */
  async confirmPaid(record: BillPaymentDetail) {
    if (record.status !== 'created' && record.status !== 'paying') return
    await getPayOrder(record.orderNo).catch(() => undefined)
    await this.loadRecord(record.id).catch(() => undefined)
  }

  get shownRecord(): BillPaymentDetail | null {
    return this.record.value
  }

  get shownQueue(): WaitQueue | null {
    return this.queue.value
  }

  /** Gives up an unpaid payment; the record is read again. */
  cancel(id: number) {
    return this.change.run(async () => {
      const after = await api.cancelBillPayment(id)
      await this.loadRecord(id).catch(() => undefined)
      this.unpaidFor = null
      return after
    })
  }

  /** Refunds a paid payment (all of it); the record is read again and the list shows it. */
  refund(id: number) {
    return this.change.run(async () => {
      const after = await api.refundBillPayment(id)
      runInAction(() => this.records.update((r) => (r.id === id ? after : r)))
      await this.loadRecord(id).catch(() => undefined)
      return after
    })
  }

  /** A new search of the catalogue. */
  async searchPrices(keyword: string) {
    this.keyword = keyword.trim()
    await this.prices.reload()
  }
}

/** The bills store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useBillStore = pageStore((root) => new BillStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
