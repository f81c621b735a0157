import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, users } from './core'
import { orders } from './payment'
import { doctors } from './register'

// ---- inquiry orders (图文问诊) --------------------------------------------------------------------------------------

export type InquiryStatus = 'unpaid' | 'waiting' | 'inProgress' | 'finished' | 'cancelled' | 'closed'

/**
 * A patient's consultation order with one online doctor. `unpaid` until its order is paid (a free service starts
 * `waiting`); `serviceEndsAt` is 48 h after payment while no doctor has accepted, then 24 h after acceptance. The
 * illness and the complaint are the patient's health information: stored encrypted. One inquiry per (user, key).
 */
export const inquiries = pgTable(
  'inquiries',
  {
    id: serial('id').primaryKey(),
    inquiryNo: text('inquiry_no').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    patientId: integer('patient_id').notNull().references(() => patients.id),
    hospitalId: integer('hospital_id').notNull().references(() => hospitals.id),
    doctorId: integer('doctor_id').notNull().references(() => doctors.id),
    serviceType: text('service_type').$type<'text'>().notNull(),
    kind: text('kind').$type<InquiryKind>().notNull().default('inquiry'),
    descriptionEnc: text('description_enc').notNull(),
    /** Urls of pictures this server stored (`/dld-file/files/...`). */
    pictures: jsonb('pictures').$type<string[]>().notNull().default([]),
    priceFen: integer('price_fen').notNull(),
    status: text('status').$type<InquiryStatus>().notNull(),
    /** The payment order; null for a free consultation. */
    orderId: integer('order_id').references(() => orders.id),
    idempotencyKey: text('idempotency_key').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    serviceEndsAt: timestamp('service_ends_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    complaintEnc: text('complaint_enc'),
    complainedAt: timestamp('complained_at', { withTimezone: true }),
    /** The patient's 问诊单 (intake: offline visit, diagnosis, past history, allergies, medication), health information: one encrypted JSON. */
    intakeEnc: text('intake_enc'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('inquiries_inquiry_no_key').on(t.inquiryNo),
    uniqueIndex('inquiries_idempotency_key').on(t.userId, t.idempotencyKey),
    index('inquiries_user_idx').on(t.userId, t.createdAt),
    // the workbench's 已结束 tab (doctorDesk.ts listDeskInquiries): a doctor's consultations newest paid first, read
    // backwards until a page of finished ones, and the tab's count from the index alone (status last); the waiting and
    // in-progress tabs take inquiries_service_ends_idx
    index('inquiries_doctor_desk_idx').on(t.doctorId, t.paidAt, t.status),
    // the same tab for a physician assistant, who sees the hospital's
    index('inquiries_hospital_desk_idx').on(t.hospitalId, t.paidAt, t.status),
    index('inquiries_service_ends_idx').on(t.serviceEndsAt).where(sql`${t.status} in ('waiting', 'inProgress')`),
  ],
)

/** What kind of consultation an inquiry is: chosen doctor (图文问诊), quick (快速问诊, any doctor of a department), chronic (复诊续方 with my doctor). */
export type InquiryKind = 'inquiry' | 'quick' | 'chronic'
