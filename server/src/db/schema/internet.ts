import { boolean, index, integer, pgTable, primaryKey, real, serial, text } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, users } from './core'
import { doctors } from './register'

// ---- the internet hospital's doctors (find a doctor online) ----------------------------------------------------------

/**
 * A doctor of `doctors` who consults online (1:1): the service level shown as stars (spec §3), the average reply
 * time in seconds (spec §9), how many consultations they have served, the share of good ratings (percent), and
 * whether they accept consultations now. Name, title, department, speciality and introduction stay in `doctors`;
 * the doctor's IM account is `d_<doctors.id>`.
 */
export const onlineDoctors = pgTable(
  'online_doctors',
  {
    doctorId: integer('doctor_id')
      .primaryKey()
      .references(() => doctors.id),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    /** 0–5, halves allowed (3.5 shows three stars and a half). */
    level: real('level').notNull(),
    /** 0 when not known yet (shown as 6小时, spec §9). */
    avgReplySeconds: integer('avg_reply_seconds').notNull().default(0),
    servedCount: integer('served_count').notNull().default(0),
    /** Good ratings among all ratings, 0–100. */
    goodRate: integer('good_rate').notNull().default(100),
    online: boolean('online').notNull().default(true),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('online_doctors_hospital_idx').on(t.hospitalId)],
)

export type ConsultService = 'text' | 'video'

/** What an online doctor offers and for how much (图文问诊 text, 视频问诊 video), in fen. */
export const onlineDoctorServices = pgTable(
  'online_doctor_services',
  {
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => onlineDoctors.doctorId),
    type: text('type').$type<ConsultService>().notNull(),
    priceFen: integer('price_fen').notNull(),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.type] })],
)

/** A hospital's physician assistant (医生助理), an IM account of its own: `a_<id>`. */
export const physicianAssistants = pgTable(
  'physician_assistants',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    name: text('name').notNull(),
    avatar: text('avatar').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('physician_assistants_hospital_idx').on(t.hospitalId)],
)

/** A patient following an online doctor (粉丝); following twice is one row. */
export const doctorFans = pgTable(
  'doctor_fans',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => onlineDoctors.doctorId),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.doctorId] }), index('doctor_fans_doctor_idx').on(t.doctorId)],
)
