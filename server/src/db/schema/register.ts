import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, departments, hospitals, patients, users } from './core'
import { orders } from './payment'

// ---- registration (issue 4) ----------------------------------------------------------------------------------------

/** A doctor who sees patients in one department; the clinic tree is `departments` (parent = clinic group). */
export const doctors = pgTable(
  'doctors',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    name: text('name').notNull(),
    /** 主任医师, 副主任医师, 主治医师, 医师. */
    title: text('title').notNull(),
    avatar: text('avatar').notNull().default(''),
    speciality: text('speciality').notNull().default(''),
    intro: text('intro').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('doctors_dept_idx').on(t.deptId), index('doctors_hospital_idx').on(t.hospitalId)],
)

/** A disease a patient may search for, and the department that treats it (spec §3 search results). */
export const diseases = pgTable(
  'diseases',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    name: text('name').notNull(),
    deptId: integer('dept_id').notNull().references(() => departments.id),
  },
  (t) => [index('diseases_hospital_idx').on(t.hospitalId)],
)

/**
 * One doctor's (or a department's general clinic's, doctorId null) morning or afternoon on one day, with its fee and
 * numbered slots. `stopped` is a clinic the hospital called off (停诊): shown, not bookable.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    doctorId: integer('doctor_id').references(() => doctors.id),
    /** YYYY-MM-DD in the hospital's time zone (Asia/Shanghai). */
    visitDate: text('visit_date').notNull(),
    segment: text('segment').$type<'am' | 'pm'>().notNull(),
    /** 普通号, 专家号, 特需号. */
    registerType: text('register_type').notNull(),
    feeFen: integer('fee_fen').notNull(),
    totalSlots: integer('total_slots').notNull(),
    stopped: boolean('stopped').notNull().default(false),
  },
  (t) => [
    index('schedules_dept_date_idx').on(t.deptId, t.visitDate),
    index('schedules_doctor_date_idx').on(t.doctorId, t.visitDate),
    // NULLS NOT DISTINCT: a department's general clinic (doctorId null) also has one schedule per day and segment,
    // so the rolling window can be filled again (insert ... on conflict do nothing) without doubling it
    unique('schedules_key').on(t.deptId, t.doctorId, t.visitDate, t.segment).nullsNotDistinct(),
  ],
)

/** A numbered slot of a schedule with its time range; `registrationId` is set while it is held or booked. */
export const scheduleSlots = pgTable(
  'schedule_slots',
  {
    id: serial('id').primaryKey(),
    scheduleId: integer('schedule_id').notNull().references(() => schedules.id),
    seq: integer('seq').notNull(),
    /** e.g. 08:00-08:30 */
    timeRange: text('time_range').notNull(),
    registrationId: integer('registration_id'),
  },
  // (schedule_id, seq) also serves "the lowest free slot of a schedule" and the free counts: a schedule has a few dozen
  // slots at most, and a second index would slow down writing the rolling window
  (t) => [uniqueIndex('schedule_slots_key').on(t.scheduleId, t.seq)],
)

/**
 * A booking. `holding` keeps the slot until `holdExpiresAt` while the patient pays; `booked` is paid (or free);
 * `cancelled` and `expired` have given the slot back. One patient holds at most one live booking per department,
 * day and segment (the partial unique index is the last line of defence).
 */
export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    regNo: text('reg_no').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    deptId: integer('dept_id').notNull().references(() => departments.id),
    doctorId: integer('doctor_id').references(() => doctors.id),
    /** The HIS's schedule and the place it holds for this booking (in the sandbox HIS: `schedules`, `schedule_slots`). */
    scheduleId: integer('schedule_id').notNull(),
    slotId: integer('slot_id').notNull(),
    visitDate: text('visit_date').notNull(),
    segment: text('segment').$type<'am' | 'pm'>().notNull(),
    seq: integer('seq').notNull(),
    timeRange: text('time_range').notNull(),
    /** 普通号, 专家号, 特需号, as the HIS's schedule named it when booked. */
    registerType: text('register_type').notNull(),
    feeFen: integer('fee_fen').notNull(),
    status: text('status').$type<'holding' | 'booked' | 'cancelled' | 'expired'>().notNull(),
    /** The patient chose to settle with health insurance (paid through /palm/chsPayment, spec §6 chsRegisterList). */
    insurance: boolean('insurance').notNull().default(false),
    /** The payment order; null for a free registration. */
    orderId: integer('order_id').references(() => orders.id),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('registrations_reg_no_key').on(t.regNo),
    uniqueIndex('registrations_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('registrations_one_per_segment')
      .on(t.patientId, t.deptId, t.visitDate, t.segment)
      .where(sql`${t.status} in ('holding', 'booked')`),
    index('registrations_user_idx').on(t.userId, t.createdAt),
    index('registrations_hold_idx').on(t.holdExpiresAt).where(sql`${t.status} = 'holding'`),
  ],
)
