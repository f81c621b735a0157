import { RegisterBooking } from './RegisterBooking'
import { RegisterCatalogue } from './RegisterCatalogue'
import { RegisterRecords } from './RegisterRecords'
import type { PatientStore } from './PatientStore'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

export { type ChosenDept } from './RegisterCatalogue'
export { RECORD_TABS } from './RegisterRecords'

/**
 * Appointment registration (预约挂号, spec §2 Registration pages and Order pages register), in three parts: the
 * catalogue (rules, clinic tree, search, schedules), the booking attempt (hold, pay, confirm) and the patient's
 * records (list and detail). A record that changes shows in the booking attempt that made it.
 */
export class RegisterStore {
  readonly catalogue: RegisterCatalogue
  readonly records: RegisterRecords
  readonly booking: RegisterBooking

  constructor(hospitalCode: () => string | undefined = () => undefined, patients: Pick<PatientStore, 'current'> | null = null) {
    this.catalogue = new RegisterCatalogue(hospitalCode)
    this.records = new RegisterRecords(hospitalCode, (registration) => this.booking.sync(registration))
    this.booking = new RegisterBooking(this.catalogue, patients, this.records)
  }
}

/** The register store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useRegisterStore = pageStore((root) => new RegisterStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
