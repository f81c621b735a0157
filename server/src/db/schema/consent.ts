import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core'
import { createdAt, users } from './core'

/**
 * An account's consent to the platform's user agreement and privacy policy (PIPL art. 14: consent given freely and
 * explicitly, with the text the person read). Rows are only ever added: a new version of either text asks again, and
 * the history shows which text the person agreed to and when. A version is the hash of the text (domain/protocol.ts).
 */
export const protocolConsents = pgTable(
  'protocol_consents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    userAgreementVersion: text('user_agreement_version').notNull(),
    privacyPolicyVersion: text('privacy_policy_version').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('protocol_consents_user_idx').on(t.userId, t.id)],
)
