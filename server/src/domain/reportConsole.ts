/**
 * The sandbox HIS's report desk at the workbench (demo servers): the laboratory, radiology or pathology releases a
 * report (a template, normal or with abnormal findings) for a patient booked at the staff's hospital; the patient
 * sees it unread in 报告查询. Another hospital's visit is 2999.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { doctors, patients, registrations } from '../db/schema'
import { forbidden } from '../errors'
import type { StaffContext } from './staff'
import type { SandboxHis } from '../plugins/providers/hisSandbox'
import { REPORT_TEMPLATES } from '../plugins/providers/hisReports'
import { hisPatientOf } from './bills/his'
import { doctorNameFor, hospitalCodeOf } from './bills/console'
import { GENERAL_CLINIC_NAME } from './register/schedule'

/** GET /his/report-templates: what the desk can release. */
export const reportTemplates = () => REPORT_TEMPLATES.map((t) => ({ key: t.key, kind: t.kind, title: t.title, deptName: t.deptName }))

/** POST /his/reports: a report for the patient of a booked visit at the staff's hospital, released now. */
export async function releaseConsoleReport(
  db: Db,
  cipher: FieldCipher,
  his: SandboxHis,
  staff: StaffContext,
  input: { registrationId: number; template: string; abnormal: boolean },
  now: Date,
) {
  const [row] = await db
    .select({ reg: registrations, patient: patients, doctorName: doctors.name })
    .from(registrations)
    .innerJoin(patients, eq(patients.id, registrations.patientId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .where(and(eq(registrations.id, input.registrationId), eq(registrations.hospitalId, staff.hospitalId)))
    .limit(1)
  if (!row) throw forbidden()
  const report = await his.releaseReport(
    {
      hospitalCode: await hospitalCodeOf(db, staff),
      patient: await hisPatientOf(db, cipher, row.patient, staff.hospitalId),
      template: input.template,
      doctorName: await doctorNameFor(db, staff, row.doctorName ?? GENERAL_CLINIC_NAME),
      abnormal: input.abnormal,
    },
    now,
  )
  return { patientId: row.reg.patientId, reportNo: report.reportNo, title: report.title, abnormalCount: report.abnormalCount }
}
