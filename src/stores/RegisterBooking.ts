import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/register'
import { isBookable } from '@/utils/register'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable, type LoadState } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import type { PatientStore } from './PatientStore'
import type { RegisterCatalogue } from './RegisterCatalogue'
import type { RegisterRecords } from './RegisterRecords'
import type { Registration, ScheduleItem, TimeRange } from '../../types/api/register'
import { payReturnUrl } from '@/pageUrls'

/** A schedule the confirm page books, with its time ranges. */
export type BookableSchedule = ScheduleItem & { timeRanges: TimeRange[] }

/**
 * The booking attempt of the confirm page (spec §2 /palm/register/confirm): one schedule, its time range, insurance,
 * the fee this patient pays, the hold or booking it made, and paying a hold.
 */
export class RegisterBooking {
  /** The schedule the page books with the hospital's rules beside it; null when the answer does not hold it. */
  readonly bookable = new Loadable(
    async (scheduleId: number): Promise<BookableSchedule | null> => {
      const [answer] = await Promise.all([api.getDoctorSchedule({ scheduleId }), this.catalogue.loadRules().catch(() => null)])
      return answer.items.find((i) => i.scheduleId === scheduleId) ?? null
    },
    (item) => {
      // the first range with a number left, so one tap books the earliest time
      this.timeRange = item?.timeRanges.find((r) => r.remaining > 0)?.timeRange ?? null
    },
  )
  timeRange: string | null = null
  insurance = false
  /** The fee for `priceFor` (schedule:patient), the hospital's activities applied. */
  readonly price = new Loadable((scheduleId: number, patientId: number) => api.getActivityPrice(scheduleId, patientId))
  private priceFor: string | null = null
  /** One key per attempt: a retry of an answer that never came sends the same key, so the server holds one slot. */
  readonly attempt = new IdempotentAttempt()
  /** What the attempt booked: a hold to pay, or a booking already made. */
  booked: Registration | null = null
  readonly payment = new OneAtATime()

  constructor(
    private readonly catalogue: RegisterCatalogue,
    private readonly patients: Pick<PatientStore, 'current'> | null,
    private readonly records: Pick<RegisterRecords, 'loadDetail'>,
  ) {
    makeAutoObservable<RegisterBooking, 'catalogue' | 'patients' | 'records' | 'priceFor'>(this, {
      bookable: false,
      price: false,
      attempt: false,
      payment: false,
      catalogue: false,
      patients: false,
      records: false,
      priceFor: false,
    })
  }

  get schedule(): BookableSchedule | null {
    return this.bookable.value
  }

  /** A schedule the answer does not hold (gone, or of another hospital) is a failure to show, like an answer that failed. */
  get scheduleState(): LoadState {
    return this.bookable.state === 'done' && !this.schedule ? 'failed' : this.bookable.state
  }

  /** Opens the confirm page on one schedule: a new attempt with its own key, nothing chosen yet. */
  async openBooking(scheduleId: number) {
    this.bookable.reset()
    this.timeRange = null
    this.insurance = false
    this.price.reset()
    this.priceFor = null
    this.booked = null
    this.attempt.renew()
    await this.bookable.load(scheduleId)
  }

  chooseTimeRange(range: TimeRange) {
    if (range.remaining <= 0 || this.booked) return
    this.timeRange = range.timeRange
  }

  setInsurance(on: boolean) {
    if (this.booked) return
    this.insurance = on && !!this.catalogue.rules.value?.insurance
  }

  /** The patient the attempt books for: the patient store's current one (chosen here or on the patient page). */
  get patient() {
    return this.patients?.current ?? null
  }

  /** The fee this patient pays for this schedule (the hospital's activities, e.g. free for the elderly). */
  async loadPrice() {
    const schedule = this.schedule
    const patient = this.patient
    if (!schedule || !patient) {
      this.price.reset()
      this.priceFor = null
      return
    }
    const key = `${schedule.scheduleId}:${patient.id}`
    if (this.priceFor === key && this.price.state !== 'failed') return
    this.priceFor = key
    await this.price.load(schedule.scheduleId, patient.id).catch(() => undefined)
  }

  /** What the patient pays: the activity price once known for this patient, else the schedule's fee. */
  get payFen(): number | null {
    if (!this.schedule) return null
    const key = this.patient ? `${this.schedule.scheduleId}:${this.patient.id}` : null
    const price = this.price.value
    if (price && this.price.state === 'done' && this.priceFor === key) return price.payFen
    return null
  }

  /** Why the attempt cannot be submitted yet, or null when it can. */
  get blocker(): string | null {
    if (!this.schedule) return '号源信息加载中'
    if (!isBookable(this.schedule)) return this.schedule.stopped ? '该医生本时段停诊' : '该时段号源已约满'
    if (!this.patient) return '请先添加就诊人'
    if (!this.timeRange) return '请选择就诊时段'
    if (this.payFen === null) return this.price.state === 'failed' ? '挂号费获取失败，请重试' : '挂号费计算中'
    return null
  }

  /** Books the slot (IdempotentAttempt: double taps send one request; a refusal renews the key, no answer keeps it). */
  async submit(): Promise<Registration | null> {
    if (this.attempt.inFlight || this.booked || this.blocker) return null
    const schedule = this.schedule!
    const free = this.payFen === 0
    const input = {
      scheduleId: schedule.scheduleId,
      patientId: this.patient!.id,
      timeRange: this.timeRange!,
      insurance: this.insurance && !!this.catalogue.rules.value?.insurance,
    }
    const registration = await this.attempt.run((idempotencyKey) =>
      free ? api.applyFreeRegistration({ ...input, idempotencyKey }) : api.createRegistration({ ...input, idempotencyKey }),
    )
    runInAction(() => {
      this.booked = registration
    })
    return registration
  }

  /**
   * Pays a held registration: the server answers how (a cashier to open, or WeChat's sheet), the platform does it.
   * When the sheet reports paid the server is asked at once (it, not the sheet, decides); the cashier returns to
   * the detail page, which asks then.
   */
  async pay(registration: Registration): Promise<PayOutcome> {
    return this.payment.run(async () => {
      const action = await api.payRegistration(registration.id, payReturnUrl(registration.id))
      const outcome = await platform.pay(action)
      if (outcome === 'paid') await this.records.loadDetail(registration.id, true).catch(() => undefined)
      return outcome
    }, 'failed')
  }

  /** A registration as it now stands (a record loaded, cancelled, paid): the attempt's own shows it too. */
  sync(registration: Registration) {
    if (this.booked?.id === registration.id) this.booked = registration
  }
}
