import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { forbidden } from '../../errors'
import { signUser } from '../../plugins/providers/im'
import { unreadCount } from '../../domain/hospital'
import { patientImAccount } from '@/utils/chatRules'

export async function imRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/dld-im/im/user-sig',
    summary: 'Instant-messaging signature: Tencent TLSSigAPIv2 when configured, else our chat service’s own',
    auth: 'user',
    query: z.object({ imAccount: z.string().max(64).optional() }),
    data: z.object({ driver: z.enum(['tim', 'local']), sdkAppId: z.number(), imAccount: z.string(), userSig: z.string(), expire: z.number() }),
    handler: async ({ query, auth }) => {
      const own = patientImAccount(auth.userId)
      if (query.imAccount && query.imAccount !== own) throw forbidden()
      return signUser(app.ctx.config, own)
    },
  })

  route(app, {
    method: 'GET',
    url: '/dld-im/im/update-unread-count',
    summary: 'Total unread consultation messages of the signed-in user',
    auth: 'user',
    data: z.object({ unreadCount: z.number() }),
    handler: async ({ auth }) => ({ unreadCount: await unreadCount(app.ctx.db, auth.userId) }),
  })
}
