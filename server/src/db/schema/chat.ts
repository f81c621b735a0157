import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { ChatMessageType } from '../../../../types/api/chat'
import { createdAt } from './core'

// ---- our own chat service (issue 5) --------------------------------------------------------------------------------

/**
 * Every message between two IM accounts (a patient `0_<userId>`, a doctor `d_<doctorId>`), append-only. One
 * conversation per pair of accounts (`pairKey`, the two in order), tagged with the consultation order it belongs to.
 * The content is a patient's health information: stored encrypted. The sender's own id of the message (`clientId`)
 * makes a resend after a dropped connection store it once.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    fromAccount: text('from_account').notNull(),
    toAccount: text('to_account').notNull(),
    pairKey: text('pair_key').notNull(),
    orderNo: text('order_no'),
    type: text('type').$type<ChatMessageType>().notNull(),
    payloadEnc: text('payload_enc').notNull(),
    /** The doctor side's marks of a turn in the order (start, return, doctorBusy, orderFinished), else ''. */
    description: text('description').notNull().default(''),
    clientId: text('client_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_messages_client_key').on(t.fromAccount, t.clientId),
    index('chat_messages_pair_idx').on(t.pairKey, t.id),
    index('chat_messages_to_idx').on(t.toAccount, t.fromAccount, t.id),
  ],
)

/** How far one account has read its conversation with a peer: messages after lastReadId are unread. */
export const chatReads = pgTable(
  'chat_reads',
  {
    account: text('account').notNull(),
    peer: text('peer').notNull(),
    lastReadId: integer('last_read_id').notNull().default(0),
  },
  (t) => [uniqueIndex('chat_reads_key').on(t.account, t.peer)],
)
