import { makeAutoObservable } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/physical'
import type { ReportRef } from '@/services/physical'
import { getPayOrder, startPayment } from '@/services/pay'
import { physicalPayReturnUrl, physicalFilePreviewUrl } from '@/pageUrls'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { PhysicalAppointment, PhysicalDay } from '../../types/api/physical'

export const PHYSICAL_PAGE_SIZE = 10

/** What booking did: the appointment's id, and how the channel ended (null: nothing left to pay). */
export interface BookResult {
  id: number
  outcome: PayOutcome | null
}

/**
 * Physical exams (体检) of the chosen patient: the packages that suit them, one package's days, booking and paying
 * through the payment core with an idempotency key, the appointments, one appointment, cancelling, and the reports.
 * One per page: pages read fresh from the server.
 */
export class PhysicalStore {
  readonly packages = new Loadable((hospitalCode: string, patientId?: number) => api.getPhysicalPackages(hospitalCode, patientId))
  readonly pkg = new Loadable((hospitalCode: string, code: string) => api.getPhysicalPackage(hospitalCode, code))
  readonly days = new Loadable((hospitalCode: string) => api.getPhysicalDays(hospitalCode))
  readonly appointment = new Loadable((id: number) => api.getPhysicalAppointment(id))
  readonly reports = new Loadable((hospitalCode: string, patientId: number) => api.listPhysicalReports(hospitalCode, patientId))
  readonly report = new Loadable((ref: ReportRef) => api.getPhysicalReport(ref))
  readonly appointments: PagedList<PhysicalAppointment>
  /** One key per choice of patient, package and day: a retry of an answer that never came books the same exam. */
  readonly attempt = new IdempotentAttempt()
  readonly payment = new OneAtATime()
  readonly cancelling = new OneAtATime()

  chosenDate: string | null = null

  constructor(
    private readonly hospitalCode: () => string | undefined = () => undefined,
    private readonly patients: Pick<PatientStore, 'current'> | null = null,
    /** The paid ones only (已缴费的体检) instead of every appointment. */
    paidOnly = false,
  ) {
    this.appointments = new PagedList<PhysicalAppointment>(
      (q) => api.listPhysicalAppointments({ hospitalCode: this.hospitalCode(), ...q }, paidOnly),
      PHYSICAL_PAGE_SIZE,
      { canLoad: () => !!this.hospitalCode() },
    )
    makeAutoObservable<PhysicalStore, 'hospitalCode' | 'patients'>(this, {
      packages: false,
      pkg: false,
      days: false,
      appointment: false,
      reports: false,
      report: false,
      appointments: false,
      attempt: false,
      payment: false,
      cancelling: false,
      hospitalCode: false,
      patients: false,
    })
  }

  get patient() {
    return this.patients?.current ?? null
  }

  /** The packages that suit the chosen patient (all of them before one is chosen). */
  async loadPackages() {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode) return this.packages.reset()
    await this.packages.load(hospitalCode, this.patient?.id).catch(() => undefined)
  }

  async loadPackage(code: string) {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode) return
    await Promise.all([this.pkg.load(hospitalCode, code).catch(() => undefined), this.days.load(hospitalCode).catch(() => undefined)])
  }

  chooseDate(day: PhysicalDay) {
    if (!day.open || day.remaining <= 0) return
    if (day.date !== this.chosenDate) this.attempt.renew()
    this.chosenDate = day.date
  }

  /** Books the package on the chosen day for the chosen patient, then hands the payment to the platform. */
  async book(packageCode: string): Promise<BookResult | null> {
    return this.payment.run(async () => {
      const hospitalCode = this.hospitalCode()
      const patient = this.patient
      const date = this.chosenDate
      if (!hospitalCode || !patient || !date) return null
      const start = await this.attempt.run((idempotencyKey) =>
        api.bookPhysical({ hospitalCode, patientId: patient.id, packageCode, date, returnUrl: physicalPayReturnUrl(), idempotencyKey }),
      )
      const { id, order } = start.appointment
      if (!start.action) return { id, outcome: null }
      // the cashier is asked again with the appointment's id in its return address: the browser comes back to it
      const action = start.action.kind === 'redirect' ? await startPayment({ orderNo: order.orderNo, returnUrl: physicalPayReturnUrl(id) }) : start.action
      return { id, outcome: await platform.pay(action) }
    })
  }

  /** Pays an appointment still waiting for its money (去支付). */
  async payAgain(a: PhysicalAppointment): Promise<PayOutcome | null> {
    return this.payment.run(async () => {
      const outcome = await platform.pay(await startPayment({ orderNo: a.order.orderNo, returnUrl: physicalPayReturnUrl(a.id) }))
      if (outcome === 'paid') await this.loadAppointment(a.id, true).catch(() => undefined)
      return outcome
    })
  }

  /** One appointment; `confirm` (back from paying) asks about a still-waiting order first, then reads it again. */
  async loadAppointment(id: number, confirm = false) {
    if (this.appointment.value?.id !== id) this.appointment.reset()
    let a = await this.appointment.load(id)
    if (confirm && a.status === 'holding') {
      await getPayOrder(a.order.orderNo).catch(() => undefined)
      a = await this.appointment.load(id)
    }
    return a
  }

  /** Cancels one appointment (a paid one is refunded); the appointment as it now is. */
  async cancel(id: number) {
    return this.cancelling.run(async () => {
      await api.cancelPhysicalAppointment(id)
      return this.loadAppointment(id, false)
    })
  }

  async loadReports() {
    const hospitalCode = this.hospitalCode()
    const patient = this.patient
    if (!hospitalCode || !patient) return this.reports.reset()
    const shown = this.reports.value
    if (shown && shown[0] && shown[0].patientId !== patient.id) this.reports.reset()
    await this.reports.load(hospitalCode, patient.id).catch(() => undefined)
  }

  /** A report of the current hospital, as the report calls name it. */
  refOf(patientId: number, examNo: string): ReportRef {
    return { hospitalCode: this.hospitalCode() ?? '', patientId, examNo }
  }

  /** The report's PDF as bytes, for the H5 viewer (pdf.js). */
  pdfBytes(ref: ReportRef) {
    return api.getPhysicalReportPdf(ref)
  }

  /** The report's PDF: the app's viewer on H5, the system's document viewer in a mini-program. */
  async openPdf(ref: ReportRef) {
    await platform.openDocument({ previewPage: physicalFilePreviewUrl(ref), download: () => api.downloadPhysicalReportPdf(ref), fileType: 'pdf' })
  }
}
