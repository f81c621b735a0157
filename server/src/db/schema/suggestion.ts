import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, users } from './core'
import { staffAccounts } from './staff'
import type { SuggestionKind } from '../../../../types/api/suggestion'

/**
 * 投诉建议: what a patient tells a hospital (a complaint, a suggestion, praise) and the hospital's one answer. The
 * words may tell of an illness and are kept encrypted; they are cleared when the account closes (`contentEnc` null),
 * the row stays for the hospital's complaint statistics. `(userId, idempotencyKey)` makes a repeated submission one.
 */
export const userSuggestions = pgTable(
  'user_suggestions',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    idempotencyKey: text('idempotency_key').notNull(),
    kind: text('kind').$type<SuggestionKind>().notNull(),
    contentEnc: text('content_enc'),
    pictures: jsonb('pictures').$type<string[]>().notNull().default([]),
    status: text('status').$type<'open' | 'answered'>().notNull().default('open'),
    answer: text('answer').notNull().default(''),
    answeredBy: integer('answered_by').references(() => staffAccounts.id),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_suggestions_idempotency_key').on(t.userId, t.idempotencyKey),
    index('user_suggestions_user_idx').on(t.userId, t.id),
    index('user_suggestions_desk_idx').on(t.hospitalId, t.status, t.id),
  ],
)
