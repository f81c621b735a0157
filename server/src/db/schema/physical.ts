import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, users } from './core'
import { orders } from './payment'

// ---- physical-exam appointments (体检预约) ---------------------------------------------------------------------------

/**
 * One physical exam booked through the app and paid through the payment core (order business 'physical'). The place
 * is the HIS's (held in the transaction that makes this row, released when the order closes or the exam is cancelled);
 * `examNo` is the number the HIS knows the exam by. `hisKind` names the HIS told.
 */
export const physicalAppointments = pgTable(
  'physical_appointments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    orderId: integer('order_id').notNull().references(() => orders.id),
    hisKind: text('his_kind').$type<'sandbox' | 'http'>().notNull(),
    examNo: text('exam_no').notNull(),
    packageCode: text('package_code').notNull(),
    packageName: text('package_name').notNull(),
    examDate: text('exam_date').notNull(),
    amountFen: integer('amount_fen').notNull(),
    status: text('status').$type<'holding' | 'booked' | 'cancelled' | 'expired'>().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('physical_appointments_order_key').on(t.orderId),
    uniqueIndex('physical_appointments_exam_no_key').on(t.examNo),
    uniqueIndex('physical_appointments_idempotency_key').on(t.userId, t.idempotencyKey),
    // one live exam a day for a patient: the last line of defence behind the check in the booking
    uniqueIndex('physical_appointments_patient_day_key')
      .on(t.patientId, t.hospitalId, t.examDate)
      .where(sql`${t.status} in ('holding', 'booked')`),
    index('physical_appointments_user_idx').on(t.userId, t.createdAt),
    check('physical_appointments_amount_positive', sql`${t.amountFen} > 0`),
  ],
)

// ---- the sandbox HIS: the physical-exam centre -------------------------------------------------------------------

/**
 * A day of a sandbox centre: its capacity and the places taken (held or paid). A place is taken only by an update
 * conditional on `booked < capacity`, so the count never passes the capacity whatever arrives at once.
 */
export const hisPhysicalDays = pgTable(
  'his_physical_days',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    examDate: text('exam_date').notNull(),
    capacity: integer('capacity').notNull(),
    booked: integer('booked').notNull().default(0),
  },
  (t) => [
    unique('his_physical_days_key').on(t.hospitalCode, t.examDate),
    check('his_physical_days_within', sql`${t.booked} >= 0 and ${t.booked} <= ${t.capacity}`),
  ],
)

/** An exam at a sandbox centre: the place it holds, its check-in and finish, and its report (sealed: health data). */
export const hisPhysicalExams = pgTable(
  'his_physical_exams',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    examNo: text('exam_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    /** 1 male, 2 female; and the birth date, for the report's header. */
    sex: integer('sex').$type<1 | 2>().notNull(),
    birthday: text('birthday').notNull(),
    packageCode: text('package_code').notNull(),
    packageName: text('package_name').notNull(),
    examDate: text('exam_date').notNull(),
    status: text('status').$type<'held' | 'paid' | 'released' | 'checkedIn' | 'finished'>().notNull(),
    orderNo: text('order_no'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The report (JSON) encrypted at rest; null until the exam is finished. */
    reportEnc: text('report_enc'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('his_physical_exams_no_key').on(t.hospitalCode, t.examNo),
    index('his_physical_exams_patient_idx').on(t.hospitalCode, t.patientKey),
    index('his_physical_exams_day_idx').on(t.hospitalCode, t.examDate),
  ],
)
