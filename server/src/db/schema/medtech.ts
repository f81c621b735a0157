import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, users } from './core'
import { orders } from './payment'

// ---- nucleic-acid tests bought through the app (issue 18) ----------------------------------------------------------

/**
 * One nucleic-acid test (核酸检测) bought through the app: one order of the payment core (business 'nucleic',
 * businessId = this id). The HIS registers the test when it is paid and answers the sample number the sampling QR code
 * carries (`sampleNo`). Its status is the order's; the result is the HIS's, read when asked.
 */
export const nucleicOrders = pgTable(
  'nucleic_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    orderId: integer('order_id').notNull().references(() => orders.id),
    hisKind: text('his_kind').$type<'sandbox' | 'http'>().notNull(),
    kindCode: text('kind_code').notNull(),
    kindName: text('kind_name').notNull(),
    amountFen: integer('amount_fen').notNull(),
    sampleNo: text('sample_no'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('nucleic_orders_order_key').on(t.orderId),
    uniqueIndex('nucleic_orders_idempotency_key').on(t.userId, t.idempotencyKey),
    index('nucleic_orders_user_idx').on(t.userId, t.createdAt),
  ],
)

// ---- the sandbox HIS: examination devices and their slots, nucleic tests ------------------------------------------

/**
 * An examination device of a sandbox hospital (a CT scanner, an MRI, an ultrasound room, an endoscopy room) at one
 * of the HIS's places, with its daily timetable: `times` the slots' 'HH:MM-HH:MM' ranges, comma-separated, each with
 * `perSlot` places, on the weekdays of `weekdays` (ISO, 1 = Monday).
 */
export const hisExamDevices = pgTable(
  'his_exam_devices',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    place: text('place').notNull(),
    name: text('name').notNull(),
    location: text('location').notNull(),
    times: text('times').notNull(),
    perSlot: integer('per_slot').notNull(),
    weekdays: text('weekdays').notNull(),
    sort: integer('sort').notNull(),
  },
  (t) => [unique('his_exam_devices_key').on(t.hospitalCode, t.name), index('his_exam_devices_place_idx').on(t.hospitalCode, t.place)],
)

/**
 * One time slot of a device on one day, with its places. `booked` only moves by a conditional update inside the
 * booking's transaction (`booked < capacity`), and the check constraint is the last line of defence.
 */
export const hisExamSlots = pgTable(
  'his_exam_slots',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => hisExamDevices.id),
    date: text('date').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    capacity: integer('capacity').notNull(),
    booked: integer('booked').notNull().default(0),
  },
  (t) => [unique('his_exam_slots_key').on(t.deviceId, t.date, t.startTime), check('his_exam_slots_capacity', sql`${t.booked} >= 0 and ${t.booked} <= ${t.capacity}`)],
)

/**
 * An examination appointment (医技预约) of the sandbox HIS: one paid examination bill in one slot. A reschedule moves
 * the same row to another slot; a cancelled one frees its place. At most one live appointment per bill.
 * `requestNo` is the app's idempotency key of the booking that made or last moved it.
 */
export const hisExamAppointments = pgTable(
  'his_exam_appointments',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    appointmentNo: text('appointment_no').notNull(),
    billNo: text('bill_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    slotId: integer('slot_id')
      .notNull()
      .references(() => hisExamSlots.id),
    status: text('status').$type<'booked' | 'cancelled'>().notNull(),
    requestNo: text('request_no').notNull(),
    rescheduled: integer('rescheduled').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('his_exam_appointments_no').on(t.hospitalCode, t.appointmentNo),
    uniqueIndex('his_exam_appointments_live_key').on(t.hospitalCode, t.billNo).where(sql`${t.status} = 'booked'`),
    index('his_exam_appointments_patient_idx').on(t.hospitalCode, t.patientKey),
    index('his_exam_appointments_slot_idx').on(t.slotId),
  ],
)

/** The nucleic-acid tests a sandbox hospital sells (单检 one tube per person, 混检 ten people per tube). */
export const hisNucleicKinds = pgTable(
  'his_nucleic_kinds',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    priceFen: integer('price_fen').notNull(),
    description: text('description').notNull(),
    place: text('place').notNull(),
    sort: integer('sort').notNull(),
  },
  (t) => [unique('his_nucleic_kinds_key').on(t.hospitalCode, t.code)],
)

/**
 * A nucleic-acid test registered by the sandbox HIS once paid (one per app order), sampled at the sampling point
 * and released with its result (阴性 / 阳性) at the console.
 */
export const hisNucleicTests = pgTable(
  'his_nucleic_tests',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    sampleNo: text('sample_no').notNull(),
    orderNo: text('order_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    kindCode: text('kind_code').notNull(),
    kindName: text('kind_name').notNull(),
    amountFen: integer('amount_fen').notNull(),
    status: text('status').$type<'unpaid' | 'registered' | 'sampled' | 'reported' | 'cancelled'>().notNull(),
    result: text('result').$type<'阴性' | '阳性'>(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
    sampledAt: timestamp('sampled_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [
    unique('his_nucleic_tests_sample').on(t.hospitalCode, t.sampleNo),
    unique('his_nucleic_tests_order').on(t.hospitalCode, t.orderNo),
    index('his_nucleic_tests_patient_idx').on(t.hospitalCode, t.patientKey),
  ],
)
