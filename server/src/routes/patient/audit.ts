import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { id, pageSize, pageNo as page } from '../schemas'
import { forbidden } from '../../errors'
import { ACCESS_PAGE_MAX, accessRecords, searchAudit } from '../../domain/audit'
import { rolesOf } from '../../domain/user'

const auditEntry = z.object({
  id: z.number(),
  at: z.string(),
  actorKind: z.enum(['patient', 'staff', 'admin']),
  actorId: z.number(),
  action: z.enum(['read', 'change']),
  subject: z.string(),
  route: z.string(),
  patientId: z.number().nullable(),
  userId: z.number().nullable(),
  address: z.string(),
  requestId: z.string(),
})

/** The audit log (domain/audit.ts): administrators search it; a patient reads who at the hospital opened their records. */
export async function auditRoutes(app: FastifyInstance) {
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-palm/admin/audit',
    summary: 'Search the audit log of health data and money by patient and/or actor, newest first (administrators only)',
    auth: 'user',
    query: z.object({ patientId: id.optional(), actorKind: z.enum(['patient', 'staff', 'admin']).optional(), actorId: id.optional(), page }),
    data: z.object({ total: z.number(), list: z.array(auditEntry) }),
    handler: async ({ auth, query }) => {
      if (!(await rolesOf(db(), auth.userId)).includes('admin')) throw forbidden()
      return searchAudit(db(), query)
    },
  })

  route(app, {
    method: 'GET',
    url: '/dld-user/user/access-log',
    summary: '访问记录: who at the hospital read or changed the data of the caller’s patients or chat, newest first',
    auth: 'user',
    query: z.object({ page, size: pageSize(ACCESS_PAGE_MAX) }),
    data: z.object({
      records: z.array(z.object({ id: z.number(), at: z.string(), who: z.string(), what: z.string() })),
      total: z.number(),
      page: z.number(),
      size: z.number(),
    }),
    handler: async ({ auth, query }) => accessRecords(db(), auth.userId, query),
  })
}
