/**
 * The sandbox HIS's inpatient console for staff on the workbench (demo servers): the hospital's stays, admitting the
 * patient of a booking there (ward and bed), posting a day's charges from the price catalogue, and the discharge
 * settlement. What it does is what the patient's deposit pages (/dld-palm/api/recharge/*) read. Only the staff's own
 * hospital is reachable: another hospital's booking or stay is 2999.
 */
import { and, eq } from 'drizzle-orm'
import type { HisAdmitInput, HisAdmitResult, HisChargeInput, HisConsoleAdmission } from '../../../../types/api/workbench'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { departments, doctors, patients, registrations } from '../../db/schema'
import { forbidden } from '../../errors'
import type { SandboxHis } from '../../plugins/providers/hisSandbox'
import { maskName } from '@/utils/mask'
import { GENERAL_CLINIC_NAME } from '../register/schedule'
import type { StaffContext } from '../staff'
import { doctorNameFor, hospitalCodeOf } from '../bills/console'
import { hisPatientOf } from '../bills/his'

/** GET /his/admissions: the staff's hospital's stays, those in hospital first, then the latest discharged. */
export async function consoleAdmissions(db: Db, his: SandboxHis, staff: StaffContext): Promise<HisConsoleAdmission[]> {
  return his.consoleAdmissions(await hospitalCodeOf(db, staff))
}

/** POST /his/admissions: the patient of a booking at the staff's hospital is admitted (refused while already in hospital). */
export async function admitFromBooking(db: Db, cipher: FieldCipher, his: SandboxHis, staff: StaffContext, input: HisAdmitInput, now: Date): Promise<HisAdmitResult> {
  const [row] = await db
    .select({ reg: registrations, patient: patients, deptName: departments.name, doctorName: doctors.name })
    .from(registrations)
    .innerJoin(patients, eq(patients.id, registrations.patientId))
    .innerJoin(departments, eq(departments.id, registrations.deptId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .where(and(eq(registrations.id, input.registrationId), eq(registrations.hospitalId, staff.hospitalId), eq(registrations.status, 'booked')))
    .limit(1)
  if (!row) throw forbidden()
  const patient = await hisPatientOf(db, cipher, row.patient, staff.hospitalId)
  const admission = await his.admit(
    {
      hospitalCode: await hospitalCodeOf(db, staff),
      patient,
      deptName: row.deptName,
      ward: input.ward,
      bed: input.bed,
      doctorName: await doctorNameFor(db, staff, row.doctorName ?? GENERAL_CLINIC_NAME),
    },
    now,
  )
  return { ...admission, patientName: maskName(patient.name), patientId: row.reg.patientId }
}

/** A stay of the staff's own hospital (2999 for any other number: another hospital's stays are not there to find). */
async function ownStay(db: Db, his: SandboxHis, staff: StaffContext, admissionNo: string): Promise<string> {
  const code = await hospitalCodeOf(db, staff)
  if (!(await his.consoleAdmission(code, admissionNo))) throw forbidden()
  return code
}

/** POST /his/admissions/{admissionNo}/charges: one day's items, priced from the catalogue, while in hospital. */
export async function postConsoleCharges(db: Db, his: SandboxHis, staff: StaffContext, admissionNo: string, input: HisChargeInput, now: Date): Promise<HisConsoleAdmission> {
  const code = await ownStay(db, his, staff, admissionNo)
  await his.postCharges({ hospitalCode: code, admissionNo, date: input.date, items: input.items }, now)
  return (await his.consoleAdmission(code, admissionNo))!
}

/** POST /his/admissions/{admissionNo}/discharge: the settlement, the balance returned or owed; again answers it as it is. */
export async function dischargeConsole(db: Db, his: SandboxHis, staff: StaffContext, admissionNo: string, now: Date): Promise<HisConsoleAdmission> {
  const code = await ownStay(db, his, staff, admissionNo)
  await his.discharge(code, admissionNo, now)
  return (await his.consoleAdmission(code, admissionNo))!
}
