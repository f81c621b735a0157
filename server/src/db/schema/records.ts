import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, patients, users } from './core'
import { inquiries } from './inquiry'
import { orders } from './payment'
import { doctors } from './register'

/**
 * The doctor's electronic medical record of one inquiry (门诊病历): written on the workbench, read by the patient
 * (`/im/medical/...`, `/pages/medicalHistory`). The fields (chief complaint, present illness, past history,
 * diagnosis, advice) are health information: stored encrypted as one JSON object. One record per inquiry; rewriting
 * it replaces it while the inquiry is open.
 */
export const medicalRecords = pgTable(
  'medical_records',
  {
    id: serial('id').primaryKey(),
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    fieldsEnc: text('fields_enc').notNull(),
    /** Codes from the hospital's disease list (`/common/diseaseCode`), shown with the diagnosis. */
    diseaseCodes: jsonb('disease_codes').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('medical_records_inquiry_key').on(t.inquiryId), index('medical_records_user_idx').on(t.userId, t.createdAt)],
)

/** A patient's rating of one finished inquiry (评价): once per inquiry, 1–5 stars, chosen tags and words. */
export const evaluations = pgTable(
  'evaluations',
  {
    id: serial('id').primaryKey(),
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    score: integer('score').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    content: text('content').notNull().default(''),
    /** Shown on the doctor's page without the patient's name when set. */
    anonymous: boolean('anonymous').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('evaluations_inquiry_key').on(t.inquiryId), index('evaluations_doctor_idx').on(t.doctorId, t.createdAt)],
)

export type GiftStatus = 'unpaid' | 'paid' | 'closed'

/** A gift (心意) a patient sends a doctor, paid through the payment core (business 'gift'); idempotent per (user, key). */
export const gifts = pgTable(
  'gifts',
  {
    id: serial('id').primaryKey(),
    giftNo: text('gift_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    inquiryId: integer('inquiry_id').references(() => inquiries.id),
    /** One of the catalogue's codes (domain/gift.ts). */
    giftCode: text('gift_code').notNull(),
    priceFen: integer('price_fen').notNull(),
    message: text('message').notNull().default(''),
    status: text('status').$type<GiftStatus>().notNull(),
    orderId: integer('order_id').references(() => orders.id),
    idempotencyKey: text('idempotency_key').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('gifts_gift_no_key').on(t.giftNo),
    uniqueIndex('gifts_idempotency_key').on(t.userId, t.idempotencyKey),
    index('gifts_doctor_idx').on(t.doctorId, t.createdAt),
  ],
)

/**
 * The message centre (消息中心, `/message/messageList`): notices to one user about their orders and consultations,
 * written by the domain in the same transaction as the change they tell of.
 */
export const userMessages = pgTable(
  'user_messages',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<'inquiry' | 'register' | 'payment' | 'system'>().notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** The app page it opens, e.g. `/pages/order/inquiry/detail?id=3`; '' when none. */
    link: text('link').notNull().default(''),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_messages_user_idx').on(t.userId, t.id)],
)
