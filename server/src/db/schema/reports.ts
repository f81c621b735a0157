import { doublePrecision, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, patients, sessions, users } from './core'

/**
 * The sandbox HIS's reports (检验, 检查, 病理), released by the laboratory, radiology or pathology (the workbench
 * console does it on a demo server). Patients are known by the HIS's blind key, as on his_bills; the name is encrypted.
 */
export const hisReports = pgTable(
  'his_reports',
  {
    id: serial('id').primaryKey(),
    hospitalCode: text('hospital_code').notNull(),
    reportNo: text('report_no').notNull(),
    patientKey: text('patient_key').notNull(),
    patientNameEnc: text('patient_name_enc').notNull(),
    kind: text('kind').$type<'lab' | 'imaging' | 'pathology'>().notNull(),
    title: text('title').notNull(),
    deptName: text('dept_name').notNull(),
    doctorName: text('doctor_name').notNull(),
    reporterName: text('reporter_name').notNull(),
    checkerName: text('checker_name').notNull(),
    specimen: text('specimen').notNull().default(''),
    modality: text('modality').notNull().default(''),
    examPart: text('exam_part').notNull().default(''),
    device: text('device').notNull().default(''),
    findings: text('findings').notNull().default(''),
    impression: text('impression').notNull().default(''),
    /** The cloud film's study (DICOM StudyInstanceUID); '' when the study has no images online. */
    studyUid: text('study_uid').notNull().default(''),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('his_reports_report_no_key').on(t.hospitalCode, t.reportNo), index('his_reports_patient_idx').on(t.hospitalCode, t.patientKey, t.kind, t.reportedAt)],
)

/** The items of a sandbox lab report, in the laboratory's order. */
export const hisReportItems = pgTable(
  'his_report_items',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => hisReports.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    unit: text('unit').notNull(),
    range: text('range').notNull(),
    low: doublePrecision('low'),
    high: doublePrecision('high'),
    flag: text('flag').$type<'H' | 'L' | 'N' | ''>().notNull(),
    sort: integer('sort').notNull(),
  },
  (t) => [index('his_report_items_report_idx').on(t.reportId, t.sort)],
)

/**
 * The app's own number for a report the HIS listed for a patient (the pages and the read marks name it): one per
 * hospital, patient and HIS report number. The HIS stays the owner of the report itself.
 */
export const reportRefs = pgTable(
  'report_refs',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    kind: text('kind').$type<'lab' | 'imaging' | 'pathology'>().notNull(),
    reportNo: text('report_no').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('report_refs_key').on(t.hospitalId, t.patientId, t.reportNo)],
)

/** A report an account has opened (the list's 未读 marks are the reports without a row here). */
export const reportReads = pgTable(
  'report_reads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    refId: integer('ref_id')
      .notNull()
      .references(() => reportRefs.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_reads_key').on(t.userId, t.refId)],
)

/** A relative's reports proven by the SMS code sent to their mobile, for one sign-in session. */
export const reportVerifications = pgTable(
  'report_verifications',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    verifiedAt: createdAt(),
  },
  (t) => [uniqueIndex('report_verifications_key').on(t.sessionId, t.patientId)],
)
