import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { id, pageNo, pageSize } from '../schemas'
import { route } from '../../route'
import * as message from '../../domain/message'


const userMessageDto = z.object({
  id: z.number(),
  kind: z.enum(['inquiry', 'register', 'payment', 'system']),
  title: z.string(),
  content: z.string(),
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
})

/**
 * The message centre (消息中心), `/dld-hospital/message` (spec §2 /pages/message/index, §7 `GET /message/messageList`):
 * the caller's notices, and `POST /message/read`, this server's own call to mark them read (the spec lists none).
 */
export async function messageRoutes(app: FastifyInstance) {
  const db = () => app.ctx.db
  const H = '/dld-hospital/message'

  route(app, {
    method: 'GET',
    url: `${H}/messageList`,
    summary: 'The caller’s notices, newest first, each with its read flag, and how many are unread in all',
    auth: 'user',
    query: z.object({
      page: pageNo,
      size: pageSize(message.MAX_PAGE_SIZE),
    }),
    data: z.object({ records: z.array(userMessageDto), total: z.number().int(), page: z.number().int(), size: z.number().int(), unread: z.number().int() }),
    handler: async ({ query, auth }) => message.listMessages(db(), auth.userId, query),
  })

  route(app, {
    method: 'POST',
    url: `${H}/read`,
    summary: 'Mark one of the caller’s notices read (by id), or all of them (no id). Not in the spec: this server’s own call',
    auth: 'user',
    // no body at all: every notice
    body: z.object({ id: id.optional().or(z.literal('').transform(() => undefined)) }).nullish(),
    data: z.object({ marked: z.number().int(), unread: z.number().int() }),
    handler: async ({ body, auth }) => message.markMessagesRead(db(), auth.userId, body?.id, new Date()),
  })
}
