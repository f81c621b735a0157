/**
 * The message centre (消息中心, spec §2 /pages/message/index, §7 `GET /message/messageList`): notices to one user about
 * their consultations and orders. A notice is written in the same transaction as the change it tells of, so there is
 * never a notice of something that did not happen, nor a change nobody was told of.
 */
import { userMessages } from '../db/schema'
import type { Tx } from '../db'

export type UserMessageKind = (typeof userMessages.$inferInsert)['kind']

export interface NewUserMessage {
  userId: number
  kind: UserMessageKind
  title: string
  content: string
  /** The app page the notice opens, e.g. `/pages/order/inquiry/detail?id=3`. */
  link?: string
}

/** Adds a notice inside the caller's transaction. The content is what the patient reads: no identity numbers. */
export async function addUserMessage(tx: Tx, message: NewUserMessage, now = new Date()) {
  await tx.insert(userMessages).values({ ...message, link: message.link ?? '', createdAt: now })
}
