import { makeAutoObservable, runInAction } from 'mobx'
import type { ExamAppointmentDetail, ExamDate, ExamDevice, ExamToBook } from '../../types/api/medtech'
import * as api from '@/services/medtech'
import { Loadable } from './base/Loadable'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { OneAtATime } from './base/OneAtATime'
import type { PatientStore } from './PatientStore'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

/**
 * Examination appointments (医技预约, spec §2 /palm/inspectReserve/index, /pages/order/inspection/index,
 * /pages/order/inspectReserve/index): the chosen patient's paid examinations that take a slot, the days and the
 * devices' slots of the one being booked, booking or moving it (one idempotency key per attempt), the appointment
 * records, one appointment and cancelling it.
 */
export class MedTechStore {
  readonly exams: Loadable<ExamToBook[], [string, number]>
  readonly dates: Loadable<ExamDate[], [string, number, string]>
  readonly slots: Loadable<ExamDevice[], [string, number, string, string]>
  readonly records: Loadable<ExamAppointmentDetail[], [string, number]>
  readonly appointment: Loadable<ExamAppointmentDetail, [string, number, string]>
  readonly attempt = new IdempotentAttempt()
  readonly action = new OneAtATime()
  /** The examination being booked or moved, its day and its slot. */
  billNo: string | null = null
  date: string | null = null
  slotId: number | null = null

  constructor(
    private readonly hospitalCode: () => string | undefined,
    private readonly patients: PatientStore,
  ) {
    this.exams = new Loadable((code: string, patientId: number) => api.listExamsToBook({ hospitalCode: code, patientId }))
    this.dates = new Loadable((code: string, patientId: number, billNo: string) => api.listExamDates({ hospitalCode: code, patientId, billNo }))
    this.slots = new Loadable((code: string, patientId: number, billNo: string, date: string) => api.listExamSlots({ hospitalCode: code, patientId, billNo, date }))
    this.records = new Loadable((code: string, patientId: number) => api.listExamAppointments({ hospitalCode: code, patientId }))
    this.appointment = new Loadable((code: string, patientId: number, appointmentNo: string) => api.getExamAppointment({ hospitalCode: code, patientId, appointmentNo }))
    makeAutoObservable<MedTechStore, 'hospitalCode' | 'patients'>(this, { hospitalCode: false, patients: false })
  }

  private get who(): [string, number] | null {
    const code = this.hospitalCode()
    const patient = this.patients.current
    return code && patient ? [code, patient.id] : null
  }

  get exam(): ExamToBook | null {
    return this.exams.value?.find((e) => e.billNo === this.billNo) ?? null
  }

  get slot() {
    for (const d of this.slots.value ?? []) {
      const s = d.slots.find((x) => x.slotId === this.slotId)
      if (s) return { ...s, deviceName: d.deviceName, location: d.location }
    }
    return null
  }

  async loadExams(): Promise<void> {
    const who = this.who
    if (!who) return
    await this.exams.load(...who).catch(() => undefined)
  }

  /** Opens an examination for booking: its days, then the first day with places and its slots. */
  async chooseExam(billNo: string | null): Promise<void> {
    this.billNo = billNo
    this.date = null
    this.slotId = null
    this.dates.reset()
    this.slots.reset()
    this.attempt.renew()
    const who = this.who
    if (!who || !billNo) return
    const dates = await this.dates.load(...who, billNo).catch(() => null)
    const first = dates?.find((d) => d.remaining > 0)
    if (first) await this.chooseDate(first.date)
  }

  async chooseDate(date: string): Promise<void> {
    const who = this.who
    if (!who || !this.billNo) return
    this.date = date
    this.slotId = null
    // the day before's slots are not this day's: nothing to tap until they arrive
    this.slots.reset()
    await this.slots.load(...who, this.billNo, date).catch(() => undefined)
  }

  chooseSlot(slotId: number) {
    this.slotId = slotId
  }

  /** Books the examination into the chosen slot (or moves its appointment there); null when nothing is chosen. */
  async book(): Promise<ExamAppointmentDetail | null> {
    return this.action.run(async () => {
      const who = this.who
      const billNo = this.billNo
      const slotId = this.slotId
      if (!who || !billNo || slotId === null) return null
      try {
        const made = await this.attempt.run((idempotencyKey) => api.bookExam({ hospitalCode: who[0], patientId: who[1], billNo, slotId, idempotencyKey }))
        runInAction(() => {
          this.billNo = null
          this.slotId = null
        })
        return made
      } catch (e) {
        // the slot filled meanwhile: the places as they are now
        if (this.date) await this.chooseDate(this.date)
        throw e
      } finally {
        void this.loadExams()
      }
    })
  }

  async loadRecords(): Promise<void> {
    const who = this.who
    if (!who) return
    await this.records.load(...who).catch(() => undefined)
  }

  async loadAppointment(hospitalCode: string, patientId: number, appointmentNo: string): Promise<void> {
    if (this.appointment.value?.appointmentNo !== appointmentNo) this.appointment.reset()
    await this.appointment.load(hospitalCode, patientId, appointmentNo).catch(() => undefined)
  }

  /** Cancels the appointment on show; the place is freed. */
  async cancel(): Promise<ExamAppointmentDetail | null> {
    const a = this.appointment.value
    if (!a) return null
    return this.action.run(async () => {
      const done = await api.cancelExamAppointment({ hospitalCode: a.hospitalCode, patientId: a.patientId, appointmentNo: a.appointmentNo })
      await this.appointment.load(a.hospitalCode, a.patientId, a.appointmentNo).catch(() => undefined)
      return done
    })
  }
}

/** The medTech store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useMedTechStore = pageStore((root) => new MedTechStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
