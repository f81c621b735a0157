/**
 * Examination appointments (医技预约, issue 18; spec §7 Reports `med-tech/appointment/*`): the patient's paid
 * examinations that take a slot (CT, MRI, ultrasound, endoscopy) are booked, moved and cancelled in the HIS, which
 * owns the devices, their slots and the places left. Every call first checks that the patient is the caller's (2999);
 * a bill or an appointment the HIS does not answer for this patient is 2999 too, saying nothing about it.
 */
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import type { ExamAppointment, ExamAppointmentDetail, ExamDate, ExamDevice, ExamToBook } from '../../../types/api/medtech'
import type { HisExamAppointment, HisExamOrder, HisPatient, HisProvider } from '../plugins/providers/his'
import { badInput, forbidden } from '../errors'
import { hospitalClock, hospitalInstant } from '@/utils/hospitalClock'
import { maskName } from '@/utils/mask'
import { ownPatientAt } from './bills/his'

/** How many days ahead an examination may be booked (today included). */
export const BOOKING_DAYS = 7
export const TOO_LATE_TO_CHANGE = '检查时间已到，不能再改约或取消，请联系检查科室'

interface PatientAt {
  hospitalCode: string
  patientId: number
}

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

/** Booked and its slot not started: it may be moved or cancelled. */
const changeableAt = (a: HisExamAppointment, now: Date) => a.status === 'booked' && hospitalInstant(a.date, a.startTime).getTime() > now.getTime()

function statusTextOf(a: HisExamAppointment, now: Date): string {
  if (a.status === 'cancelled') return '已取消'
  return changeableAt(a, now) ? '已预约' : '已到检查时间'
}

function toAppointment(a: HisExamAppointment, title: string, now: Date): ExamAppointment {
  return {
    appointmentNo: a.appointmentNo,
    billNo: a.billNo,
    title,
    place: a.place,
    deviceName: a.deviceName,
    location: a.location,
    date: a.date,
    startTime: a.startTime,
    endTime: a.endTime,
    status: a.status,
    statusText: statusTextOf(a, now),
    rescheduled: a.rescheduled,
    changeable: changeableAt(a, now),
    createdAt: a.createdAt,
  }
}

const itemNames = (e: HisExamOrder) => e.bill.items.map((i) => (i.spec ? `${i.name}（${i.spec}）` : i.name))

function toExam(e: HisExamOrder, appointment: HisExamAppointment | undefined, now: Date): ExamToBook {
  return {
    billNo: e.bill.billNo,
    title: e.bill.title,
    items: itemNames(e),
    place: e.bill.place,
    location: e.location,
    deptName: e.bill.deptName,
    doctorName: e.bill.doctorName,
    orderedAt: e.bill.orderedAt,
    amountFen: e.bill.amountFen,
    preparation: e.preparation,
    appointment: appointment ? toAppointment(appointment, e.bill.title, now) : null,
  }
}

/** The patient's own paid examination that takes an appointment; 2999 for any other bill number. */
async function ownExam(his: HisProvider, hospitalCode: string, who: HisPatient, billNo: string): Promise<HisExamOrder> {
  const exam = (await his.paidExams({ hospitalCode, patient: who })).find((e) => e.bill.billNo === billNo)
  if (!exam) throw forbidden()
  return exam
}

/** POST med-tech/appointment/orders: the patient's paid examinations that take an appointment, each with its booked one. */
export async function examsToBook(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt, now: Date): Promise<ExamToBook[]> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const [exams, appointments] = await Promise.all([his.paidExams({ hospitalCode: hospital.code, patient: who }), his.examAppointments({ hospitalCode: hospital.code, patient: who })])
  return exams.map((e) => toExam(e, appointments.find((a) => a.billNo === e.bill.billNo && a.status === 'booked'), now))
}

/** POST med-tech/appointment/date: the days the examination may be booked on, with the places left. */
export async function examDates(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt & { billNo: string }, now: Date): Promise<ExamDate[]> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const exam = await ownExam(his, hospital.code, who, input.billNo)
  return his.examDates({ hospitalCode: hospital.code, place: exam.bill.place, from: hospitalClock(now).date, days: BOOKING_DAYS })
}

/** POST med-tech/appointment/list: the examination's devices and their slots on one day. */
export async function examSlots(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: PatientAt & { billNo: string; date: string },
  now: Date,
): Promise<ExamDevice[]> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const exam = await ownExam(his, hospital.code, who, input.billNo)
  const today = hospitalClock(now).date
  if (input.date < today || input.date > addDays(today, BOOKING_DAYS - 1)) throw badInput(`只能预约今天起${BOOKING_DAYS}天内的检查`)
  return his.examSlots({ hospitalCode: hospital.code, place: exam.bill.place, date: input.date })
}

async function detailOf(his: HisProvider, hospitalCode: string, who: HisPatient, patientId: number, a: HisExamAppointment, now: Date): Promise<ExamAppointmentDetail> {
  const exam = (await his.paidExams({ hospitalCode, patient: who })).find((e) => e.bill.billNo === a.billNo)
  // performed (or refunded at the window) since: the bill as the HIS has it, without the notes for before
  const bill = exam?.bill ?? (await his.bills({ hospitalCode, patient: who, billNos: [a.billNo] }))[0]
  return {
    ...toAppointment(a, bill?.title ?? '', now),
    patientId,
    patientName: maskName(who.name),
    hospitalCode,
    items: exam ? itemNames(exam) : (bill?.items ?? []).map((i) => (i.spec ? `${i.name}（${i.spec}）` : i.name)),
    preparation: exam?.preparation ?? [],
  }
}

/**
 * POST med-tech/appointment/order: books the examination into a slot, or moves its booked appointment there in one
 * step of the HIS (the new place taken and the old freed together). The same idempotency key answers the same.
 */
export async function bookExam(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: PatientAt & { billNo: string; slotId: number; idempotencyKey: string },
  now: Date,
): Promise<ExamAppointmentDetail> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  await ownExam(his, hospital.code, who, input.billNo)
  const live = (await his.examAppointments({ hospitalCode: hospital.code, patient: who })).find((a) => a.billNo === input.billNo && a.status === 'booked')
  if (live && live.slotId !== input.slotId && !changeableAt(live, now)) throw badInput(TOO_LATE_TO_CHANGE)
  const made = await his.bookExam({ hospitalCode: hospital.code, patient: who, billNo: input.billNo, slotId: input.slotId, requestNo: `${userId}:${input.idempotencyKey}` })
  return detailOf(his, hospital.code, who, patient.id, made, now)
}

async function ownAppointment(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt & { appointmentNo: string }) {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const found = (await his.examAppointments({ hospitalCode: hospital.code, patient: who })).find((a) => a.appointmentNo === input.appointmentNo)
  if (!found) throw forbidden()
  return { patient, hospital, who, appointment: found }
}

/** POST med-tech/appointment/detail: one of the patient's appointments with its examination's preparation notes. */
export async function appointmentDetail(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt & { appointmentNo: string }, now: Date) {
  const { patient, hospital, who, appointment } = await ownAppointment(db, cipher, his, userId, input)
  return detailOf(his, hospital.code, who, patient.id, appointment, now)
}

/** POST med-tech/appointment/cancel: frees the place while the slot has not started; a cancelled one is answered as it is. */
export async function cancelAppointment(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt & { appointmentNo: string }, now: Date) {
  const { patient, hospital, who, appointment } = await ownAppointment(db, cipher, his, userId, input)
  if (appointment.status === 'cancelled') return detailOf(his, hospital.code, who, patient.id, appointment, now)
  if (!changeableAt(appointment, now)) throw badInput(TOO_LATE_TO_CHANGE)
  const done = await his.cancelExam({ hospitalCode: hospital.code, patient: who, appointmentNo: appointment.appointmentNo })
  return detailOf(his, hospital.code, who, patient.id, done, now)
}

/** The patient's appointments at the hospital, newest first (the order records page). */
export async function listAppointments(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: PatientAt, now: Date): Promise<ExamAppointmentDetail[]> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const appointments = await his.examAppointments({ hospitalCode: hospital.code, patient: who })
  if (!appointments.length) return []
  const [exams, bills] = await Promise.all([
    his.paidExams({ hospitalCode: hospital.code, patient: who }),
    his.bills({ hospitalCode: hospital.code, patient: who, billNos: [...new Set(appointments.map((a) => a.billNo))] }),
  ])
  return appointments.map((a) => {
    const exam = exams.find((e) => e.bill.billNo === a.billNo)
    const bill = exam?.bill ?? bills.find((b) => b.billNo === a.billNo)
    return {
      ...toAppointment(a, bill?.title ?? '', now),
      patientId: patient.id,
      patientName: maskName(who.name),
      hospitalCode: hospital.code,
      items: (bill?.items ?? []).map((i) => (i.spec ? `${i.name}（${i.spec}）` : i.name)),
      preparation: exam?.preparation ?? [],
    }
  })
}
