/**
 * The message centre's reading side (消息中心, spec §2 /pages/message/index, §7 `GET /message/messageList`): the
 * caller's notices, newest first, and marking them read. Notices are written by the domain where things change
 * (domain/userMessage addUserMessage). Marking read (`POST /message/read`) is this server's own call: the spec lists
 * none, and without one a notice would stay unread for ever.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { MessageReadResult, UserMessage, UserMessagePage } from '../../../types/api/message'
import type { Db } from '../db'
import { userMessages } from '../db/schema'
import { forbidden } from '../errors'

export const MAX_PAGE_SIZE = 50

type Row = typeof userMessages.$inferSelect

const toMessage = (r: Row): UserMessage => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  content: r.content,
  link: r.link,
  read: r.readAt !== null,
  createdAt: r.createdAt.toISOString(),
})

async function unreadOf(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)))
  return row?.n ?? 0
}

/** GET /message/messageList: the caller's notices, the latest written first, and how many of all of them are unread. */
export async function listMessages(db: Db, userId: number, query: { page: number; size: number }): Promise<UserMessagePage> {
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(userMessages)
      .where(eq(userMessages.userId, userId))
      .orderBy(desc(userMessages.id))
      .limit(size)
      .offset((query.page - 1) * size),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(userMessages)
      .where(eq(userMessages.userId, userId)),
    unreadOf(db, userId),
  ])
  return { records: rows.map(toMessage), total: total?.n ?? 0, page: query.page, size, unread }
}

/**
 * POST /message/read: one of the caller's notices read (2999 for someone else's or a missing one), or all of the
 * caller's notices without an id. Reading one already read changes nothing.
 */
export async function markMessagesRead(db: Db, userId: number, id: number | undefined, now: Date): Promise<MessageReadResult> {
  if (id !== undefined) {
    const [own] = await db
      .select({ id: userMessages.id })
      .from(userMessages)
      .where(and(eq(userMessages.id, id), eq(userMessages.userId, userId)))
    if (!own) throw forbidden()
  }
  const marked = await db
    .update(userMessages)
    .set({ readAt: now })
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt), id !== undefined ? eq(userMessages.id, id) : undefined))
    .returning({ id: userMessages.id })
  return { marked: marked.length, unread: await unreadOf(db, userId) }
}
