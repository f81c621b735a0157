import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt } from './core'
import { onlineDoctors, physicianAssistants } from './internet'
import { pharmacists } from './pharmacy'

// ---- the doctor side: staff accounts of the doctors' workbench --------------------------------------------------------

/**
 * A doctor's or physician assistant's sign-in to the workbench the server serves (`/workbench/`). The password is kept
 * only as a scrypt hash. Exactly one of doctorId / assistantId / pharmacistId is set, matching `kind`.
 */
export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'doctor' | 'assistant' | 'pharmacist'>().notNull(),
    doctorId: integer('doctor_id').references(() => onlineDoctors.doctorId),
    assistantId: integer('assistant_id').references(() => physicianAssistants.id),
    pharmacistId: integer('pharmacist_id').references(() => pharmacists.id),
    login: text('login').notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_accounts_login_key').on(t.login)],
)

/** Workbench bearer tokens, stored only as hashes (like patients' `sessions`, but never valid on patient calls). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_sessions_token_key').on(t.tokenHash), index('staff_sessions_expires_idx').on(t.expiresAt)],
)
