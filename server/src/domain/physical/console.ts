/**
 * The sandbox physical-exam centre's desk on the workbench (demo servers): the day's paid exams at the staff's own
 * hospital, checking a patient in, and finishing the exam, which releases its report (structured and PDF) to the
 * patient. Another hospital's exam is 2999.
 */
import { inArray } from 'drizzle-orm'
import type { Db } from '../../db'
import { physicalAppointments } from '../../db/schema'
import { forbidden } from '../../errors'
import type { SandboxHis } from '../../plugins/providers/hisSandbox'
import type { PhysicalConsoleRow } from '../../plugins/providers/hisPhysicalSandbox'
import { hospitalToday } from '@/utils/hospitalClock'
import type { StaffContext } from '../staff'
import { hospitalCodeOf } from '../bills/console'

export interface PhysicalDeskRow extends PhysicalConsoleRow {
  /** The app's patient, when the exam was booked in the app (for the audit log); null for one booked at the desk. */
  patientId: number | null
}

async function withPatients(db: Db, rows: PhysicalConsoleRow[]): Promise<PhysicalDeskRow[]> {
  if (!rows.length) return []
  const booked = await db
    .select({ examNo: physicalAppointments.examNo, patientId: physicalAppointments.patientId })
    .from(physicalAppointments)
    .where(inArray(physicalAppointments.examNo, rows.map((r) => r.examNo)))
  const byNo = new Map(booked.map((b) => [b.examNo, b.patientId]))
  return rows.map((r) => ({ ...r, patientId: byNo.get(r.examNo) ?? null }))
}

/** GET /his/physical: the day's exams (today by default), booked order. */
export async function consolePhysicalDay(db: Db, his: SandboxHis, staff: StaffContext, date: string | undefined, now: Date): Promise<PhysicalDeskRow[]> {
  return withPatients(db, await his.physicalDay(await hospitalCodeOf(db, staff), date ?? hospitalToday(now)))
}

/** POST /his/physical/:examNo/check-in: the patient is at the centre (only on the exam day). */
export async function consoleCheckIn(db: Db, his: SandboxHis, staff: StaffContext, examNo: string, now: Date): Promise<PhysicalDeskRow> {
  const done = await his.physicalCheckIn(await hospitalCodeOf(db, staff), examNo, now)
  // another hospital's exam, or none: nothing said about which
  if (!done) throw forbidden()
  return (await withPatients(db, [done]))[0]!
}

/** POST /his/physical/:examNo/finish: the exam is done; its report is written and released to the patient. */
export async function consoleFinish(db: Db, his: SandboxHis, staff: StaffContext, examNo: string, now: Date): Promise<PhysicalDeskRow> {
  const done = await his.physicalFinish(await hospitalCodeOf(db, staff), examNo, now)
  if (!done) throw forbidden()
  return (await withPatients(db, [done]))[0]!
}
