import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, id } from '../schemas'
import { todayQueue } from '../../domain/queue'

export const todayTicketDto = z.object({
  kind: z.enum(['pharmacy', 'lab', 'exam', 'treatment']),
  place: z.string(),
  window: z.string(),
  location: z.string(),
  ticketNo: z.string(),
  ahead: z.number().int(),
  status: z.enum(['waiting', 'called', 'done', 'cancelled']),
  statusText: z.string(),
  guide: z.string(),
  billNos: z.array(z.string()),
  patientId: z.number().int(),
  patientName: z.string(),
  orderNo: z.string(),
})

/** 排队叫号 (spec §2 /palm/callRegister/index). Live changes come over the chat socket (`{op:'queue'}`, chatSocket.ts). */
export async function queueRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-palm/api/queue/today',
    audit: 'payment',
    summary:
      'Queue calling: today’s numbers of the caller’s patient (patientId; someone else’s is 2999) or of all the caller’s patients at the hospital, from the bills paid today: place, window, location, number, how many wait ahead, status (waiting / called / done) and where to go. Changes are pushed on the chat socket after `{op:"queue", id, hospitalCode, patientId?}`',
    auth: 'user',
    query: z.object({ hospitalCode, patientId: id.optional() }),
    data: z.object({ hospitalCode: z.string(), tickets: z.array(todayTicketDto) }),
    handler: async ({ query, auth }) => todayQueue(db(), cipher, auth.userId, query, new Date()),
  })
}
