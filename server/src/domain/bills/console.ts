/**
 * The sandbox HIS's console for staff on the workbench (demo servers): a doctor issues outpatient orders (items of the
 * price catalogue) for a patient booked at the hospital, which become the patient's unpaid bills; a window calls the
 * next number of its queue. Only the staff's own hospital is reachable; another hospital's visit or queue is 2999.
 */
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm'
import type { BillDetail } from '../../../../types/api/palm'
import type { HisCallResult, HisConsoleQueue, HisConsoleVisit, HisOrderInput } from '../../../../types/api/workbench'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { departments, doctors, patients, registrations } from '../../db/schema'
import { hospitalById } from '../hospital'
import { forbidden } from '../../errors'
import { maskName } from '@/utils/mask'
import { addDays, hospitalToday, SEGMENTS } from '../register/rules'
import { GENERAL_CLINIC_NAME } from '../register/schedule'
import type { StaffContext } from '../staff'
import type { SandboxHis } from '../../plugins/providers/hisSandbox'
import { hisPatientOf } from './his'
import { toBillDetail } from './unpaid'
import { announceQueueChange } from '../queue'

/** Visits a doctor may still order for: booked within a week either side of today. */
const VISIT_WINDOW_DAYS = 7
const VISITS_SHOWN = 50

/** The code of the staff's own hospital (the sandbox HIS knows hospitals by code). */
export async function hospitalCodeOf(db: Db, staff: StaffContext): Promise<string> {
  const h = await hospitalById(db, staff.hospitalId)
  if (!h) throw forbidden()
  return h.code
}

/** The doctor who orders (or admits): the signed-in doctor, else (an assistant) the booking's doctor. */
export async function doctorNameFor(db: Db, staff: StaffContext, bookedWith: string): Promise<string> {
  if (staff.kind !== 'doctor' || !staff.doctorId) return bookedWith
  const [me] = await db.select({ name: doctors.name }).from(doctors).where(eq(doctors.id, staff.doctorId))
  return me?.name ?? bookedWith
}

/** GET /his/visits: booked visits at the staff's hospital, nearest to today first (or the one with this number). */
export async function consoleVisits(db: Db, cipher: FieldCipher, staff: StaffContext, query: { regNo?: string }, now: Date): Promise<HisConsoleVisit[]> {
  const today = hospitalToday(now)
  const rows = await db
    .select({ reg: registrations, deptName: departments.name, doctorName: doctors.name, nameEnc: patients.nameEnc })
    .from(registrations)
    .innerJoin(departments, eq(departments.id, registrations.deptId))
    .innerJoin(patients, eq(patients.id, registrations.patientId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .where(
      and(
        eq(registrations.hospitalId, staff.hospitalId),
        eq(registrations.status, 'booked'),
        query.regNo ? eq(registrations.regNo, query.regNo) : undefined,
        gte(registrations.visitDate, addDays(today, -VISIT_WINDOW_DAYS)),
        lte(registrations.visitDate, addDays(today, VISIT_WINDOW_DAYS)),
      ),
    )
    .orderBy(sql`abs(${registrations.visitDate}::date - ${today}::date)`, desc(registrations.id))
    .limit(VISITS_SHOWN)
  return rows.map(({ reg, deptName, doctorName, nameEnc }) => ({
    registrationId: reg.id,
    regNo: reg.regNo,
    visitDate: reg.visitDate,
    segmentText: SEGMENTS[reg.segment].text,
    deptName,
    doctorName: doctorName ?? GENERAL_CLINIC_NAME,
    patientId: reg.patientId,
    patientName: maskName(cipher.decrypt(nameEnc)),
  }))
}

/** POST /his/orders: the doctor's orders for a booked visit of the staff's hospital become unpaid bills, one per place. */
export async function issueConsoleOrders(db: Db, cipher: FieldCipher, his: SandboxHis, staff: StaffContext, input: HisOrderInput, now: Date): Promise<{ patientId: number; bills: BillDetail[] }> {
  const [row] = await db
    .select({ reg: registrations, patient: patients, deptName: departments.name, doctorName: doctors.name })
    .from(registrations)
    .innerJoin(patients, eq(patients.id, registrations.patientId))
    .innerJoin(departments, eq(departments.id, registrations.deptId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .where(and(eq(registrations.id, input.registrationId), eq(registrations.hospitalId, staff.hospitalId), eq(registrations.status, 'booked')))
    .limit(1)
  if (!row) throw forbidden()
  const doctorName = await doctorNameFor(db, staff, row.doctorName ?? GENERAL_CLINIC_NAME)
  const bills = await his.issueOrders(
    {
      hospitalCode: await hospitalCodeOf(db, staff),
      patient: await hisPatientOf(db, cipher, row.patient, staff.hospitalId),
      visitNo: row.reg.regNo,
      visitDate: row.reg.visitDate,
      deptName: row.deptName,
      doctorName,
      items: input.items,
    },
    now,
  )
  return { patientId: row.reg.patientId, bills: bills.map(toBillDetail) }
}

/** GET /his/queues: the windows of the staff's hospital, with how many wait and the number called last. */
export async function consoleQueues(db: Db, his: SandboxHis, staff: StaffContext): Promise<HisConsoleQueue[]> {
  return his.queues(await hospitalCodeOf(db, staff))
}

/** POST /his/queues/{id}/call: the next number of one of the hospital's queues; another hospital's queue is 2999. */
export async function consoleCallNext(db: Db, his: SandboxHis, staff: StaffContext, queueId: number, now: Date): Promise<HisCallResult> {
  const code = await hospitalCodeOf(db, staff)
  if (!(await his.queues(code)).some((q) => q.id === queueId)) throw forbidden()
  const result = await his.callNext(code, queueId, now)
  // every patient waiting there moved up one: their open queue pages are told (domain/queue.ts, chat socket)
  await announceQueueChange(db, { hospitalCode: code, place: result.queue.place, window: result.queue.window })
  return result
}
