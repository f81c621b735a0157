import { makeAutoObservable } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/recharge'
import type { RechargeKind } from '@/services/recharge'
import { getPayOrder, startPayment } from '@/services/pay'
import { accountPayReturnUrl, rechargePayReturnUrl } from '@/pageUrls'
import { hospitalToday } from '@/utils/hospitalClock'
import { yuan } from '@/utils/register'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { InpatientView, RechargeRecord } from '../../types/api/palm'
import { CLINIC_LIMITS, INPATIENT_LIMITS } from '@/utils/rechargeRules'

export const RECHARGE_PAGE_SIZE = 10

/** The outpatient account's choices (the server names none for it): 50, 100, 200, 500 yuan. */
export const CLINIC_AMOUNTS_FEN = [5_000, 10_000, 20_000, 50_000]

/**
 * An amount the patient typed, in yuan (whole yuan or up to two decimals: 100, 100.5, 100.50), as whole fen; null
 * when it is not such a number. Read digit by digit, never through a float of yuan.
 */
export function yuanTextToFen(text: string): number | null {
  const m = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/** The day before `today` (YYYY-MM-DD), by the calendar. */
export function dayBefore(today: string): string {
  const d = new Date(`${today}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() - 1)
  return d.toISOString().slice(0, 10)
}

/** What a top-up did: the record's id, and how the channel ended (null: nothing left to pay). */
export interface TopUpResult {
  id: number
  outcome: PayOutcome | null
}

/**
 * The outpatient account (门诊预交金, kind clinic: /palm/accountRecharge/*) or the inpatient deposit (住院预交金, kind
 * inpatient: /palm/hospitalization/*, /pages/order/recharge/*) of the chosen patient: the stay or the balance, the
 * amount chosen or typed, a top-up paid through the payment core with an idempotency key, the records, one record and
 * the day's charges (每日清单). One per page: pages read fresh from the server.
 */
export class RechargeStore {
  readonly stay = new Loadable((hospitalCode: string, patientId: number) => api.getInpatient(hospitalCode, patientId))
  readonly balance = new Loadable((hospitalCode: string, patientId: number) => api.getClinicBalance(hospitalCode, patientId))
  readonly amounts = new Loadable((hospitalCode: string) => api.getRechargeAmounts(hospitalCode))
  readonly daily = new Loadable((input: { hospitalCode: string; patientId: number; admissionNo: string; date: string }) => api.getDailyCharges(input))
  /** The discharge settlement of a finished stay (出院结算). */
  readonly settlement = new Loadable((input: { hospitalCode: string; patientId: number; admissionNo: string }) => api.getDischargeSettlement(input))
  readonly records: PagedList<RechargeRecord>
  readonly record = new Loadable((id: number) => api.getRecharge(this.kind, id))
  /** One key per amount: a retry of an answer that never came pays the same top-up. */
  readonly attempt = new IdempotentAttempt()
  readonly payment = new OneAtATime()

  /** One of the choices, in fen; null while the patient types an amount of their own. */
  chosenFen: number | null = null
  /** The amount the patient typed, in yuan, as typed. */
  ownText = ''
  /** The day of the stay the daily bill shows. */
  day: string | null = null

  constructor(
    readonly kind: RechargeKind,
    private readonly hospitalCode: () => string | undefined = () => undefined,
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
    /** The records of the chosen patient only (else every patient's of the caller at the hospital). */
    byPatient = true,
  ) {
    this.records = new PagedList<RechargeRecord>(
      (q) => api.listRecharges(kind, { hospitalCode: this.hospitalCode(), patientId: byPatient ? this.patients?.current?.id : undefined, ...q }),
      RECHARGE_PAGE_SIZE,
      { canLoad: () => !!this.hospitalCode() && (!byPatient || !!this.patients?.current) },
    )
    makeAutoObservable<RechargeStore, 'hospitalCode' | 'patients'>(this, {
      stay: false,
      balance: false,
      amounts: false,
      daily: false,
      settlement: false,
      records: false,
      record: false,
      attempt: false,
      payment: false,
      kind: false,
      hospitalCode: false,
      patients: false,
    })
  }

  get patient() {
    return this.patients?.current ?? null
  }

  /** The chosen patient's current stay (kind inpatient) or account balance (kind clinic); another patient starts afresh. */
  async loadPatient() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    const target = this.kind === 'inpatient' ? this.stay : this.balance
    if (!hospitalCode || !patient) return target.reset()
    const shown = target.value as { patientId: number } | null
    if (shown && shown.patientId !== patient.id) target.reset()
    await target.load(hospitalCode, patient.id).catch(() => undefined)
  }

  /** The choices of this hospital (the inpatient deposit's come from the server). */
  async loadAmounts() {
    const hospitalCode = this.hospitalCode()
    if (this.kind === 'clinic' || !hospitalCode) return
    const got = await this.amounts.load(hospitalCode).catch(() => null)
    if (got && this.chosenFen === null && !this.ownText) this.choose(got.amountsFen[0] ?? null)
  }

  /** One of the hospital's amounts asked for by the page before (预交金's choices): chosen once the choices are known. */
  async loadAmountsChoosing(fen: number | null) {
    await this.loadAmounts()
    if (fen !== null && this.choices.includes(fen)) this.choose(fen)
  }

  /** The settlement of one of the caller's patients' stays (出院结算). */
  async loadSettlement(patientId: number, admissionNo: string) {
    const hospitalCode = this.hospitalCode()
    const shown = this.settlement.value
    if (shown && (shown.patientId !== patientId || shown.admissionNo !== admissionNo)) this.settlement.reset()
    if (!hospitalCode || !patientId || !admissionNo) return
    await this.settlement.load({ hospitalCode, patientId, admissionNo }).catch(() => undefined)
  }

  get choices(): number[] {
    return this.kind === 'clinic' ? CLINIC_AMOUNTS_FEN : (this.amounts.value?.amountsFen ?? [])
  }

  get limits() {
    return this.kind === 'clinic' ? CLINIC_LIMITS : (this.amounts.value ?? INPATIENT_LIMITS)
  }

  choose(fen: number | null) {
    if (fen !== this.amountFen) this.attempt.renew()
    this.chosenFen = fen
    this.ownText = ''
  }

  setOwn(text: string) {
    const before = this.amountFen
    this.ownText = text
    this.chosenFen = null
    if (this.amountFen !== before) this.attempt.renew()
  }

  /** The amount to pay, in fen, once it is a valid one. */
  get amountFen(): number | null {
    if (this.chosenFen !== null) return this.chosenFen
    const fen = yuanTextToFen(this.ownText)
    if (fen === null) return null
    return fen >= this.limits.minFen && fen <= this.limits.maxFen ? fen : null
  }

  /** Why the typed amount cannot be paid, in the patient's words; null when it can (or nothing is typed). */
  get amountError(): string | null {
    if (this.chosenFen !== null || !this.ownText.trim()) return null
    const fen = yuanTextToFen(this.ownText)
    if (fen === null) return '请输入正确的金额（整数或最多两位小数）'
    if (fen < this.limits.minFen || fen > this.limits.maxFen) return `充值金额应在${yuan(this.limits.minFen)}至${yuan(this.limits.maxFen)}之间`
    return null
  }

  /** The stay a deposit can be paid into: in hospital. */
  get openStay(): InpatientView | null {
    const stay = this.stay.value
    return stay && stay.status === 'in' && stay.patientId === this.patient?.id ? stay : null
  }

  private returnUrl(id?: number) {
    return this.kind === 'clinic' ? accountPayReturnUrl(id) : rechargePayReturnUrl(id)
  }

  /**
   * Tops up with the amount chosen: the record with the attempt's key, then the platform's channel. A cashier is asked
   * for again with the record's id in its return address, so that the browser comes back to this very top-up.
   */
  async topUp(): Promise<TopUpResult | null> {
    return this.payment.run(async () => {
      const hospitalCode = this.hospitalCode()
      const patient = this.patient
      const amountFen = this.amountFen
      if (!hospitalCode || !patient || amountFen === null) return null
      const stay = this.openStay
      if (this.kind === 'inpatient' && !stay) return null
      const start = await this.attempt.run((idempotencyKey) => {
        const input = { hospitalCode, patientId: patient.id, amountFen, returnUrl: this.returnUrl(), idempotencyKey }
        return this.kind === 'clinic' ? api.rechargeClinic(input) : api.rechargeInpatient({ ...input, admissionNo: stay!.admissionNo })
      })
      const { id, orderNo } = start.record
      if (!start.action) return { id, outcome: null }
      const action = start.action.kind === 'redirect' ? await startPayment({ orderNo, returnUrl: this.returnUrl(id) }) : start.action
      return { id, outcome: await platform.pay(action) }
    })
  }

  /** Pays a record still waiting for its money (去支付 on the record). */
  async payAgain(record: RechargeRecord): Promise<PayOutcome | null> {
    return this.payment.run(async () => {
      const action = await startPayment({ orderNo: record.orderNo, returnUrl: this.returnUrl(record.id) })
      const outcome = await platform.pay(action)
      if (outcome === 'paid') await this.loadRecord(record.id, true).catch(() => undefined)
      return outcome
    })
  }

  /** The record the cashier came back to without its id (`orderNo=` only): found among the caller's top-ups. */
  async findByOrderNo(orderNo: string): Promise<number | null> {
    await getPayOrder(orderNo).catch(() => undefined)
    const page = await api.listRecharges(this.kind, { page: 1, size: 50 }).catch(() => null)
    return page?.records.find((r) => r.orderNo === orderNo)?.id ?? null
  }

  /**
   * One record; with `confirm` (back from paying) a record still waiting asks the server about its order first (it asks
   * the provider when no notification came yet), then is read again. Once paid, the balance it went into as it now is.
   */
  async loadRecord(id: number, confirm = false) {
    if (this.record.value?.id !== id) this.record.reset()
    let record = await this.record.load(id)
    if (confirm && (record.status === 'created' || record.status === 'paying')) {
      await getPayOrder(record.orderNo).catch(() => undefined)
      record = await this.record.load(id)
    }
    if (record.status === 'paid') {
      if (this.kind === 'inpatient') await this.stay.load(record.hospitalCode, record.patientId).catch(() => undefined)
      else await this.balance.load(record.hospitalCode, record.patientId).catch(() => undefined)
    }
    return record
  }

  /** The days of the stay with charges, newest first. */
  get days(): { date: string; amountFen: number }[] {
    return [...(this.stay.value?.days ?? [])].reverse()
  }

  /** The day to open on: the one asked for, else yesterday, else the latest day with charges. */
  defaultDay(asked?: string, now = new Date()): string | null {
    const dates = this.days.map((d) => d.date)
    if (asked && dates.includes(asked)) return asked
    const yesterday = dayBefore(hospitalToday(now))
    if (dates.includes(yesterday)) return yesterday
    return dates[0] ?? null
  }

  /** One day's charges of the stay on show. */
  async showDay(date: string | null) {
    this.day = date
    const stay = this.stay.value
    const hospitalCode = this.hospitalCode() ?? stay?.hospitalCode
    if (!date || !stay || !hospitalCode) return this.daily.reset()
    this.daily.reset()
    await this.daily.load({ hospitalCode, patientId: stay.patientId, admissionNo: stay.admissionNo, date }).catch(() => undefined)
  }
}
