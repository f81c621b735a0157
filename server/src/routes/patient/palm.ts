import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode } from '../schemas'
import * as hospital from '../../domain/hospital'
import { rolesOf } from '../../domain/user'

const configKey = z.string().trim().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, '配置项名称格式不正确')
const configEntry = z.object({ key: z.string(), value: z.string(), updatedAt: z.date() })

export async function palmRoutes(app: FastifyInstance) {
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-palm/admin/hospital-config',
    summary: 'All settings of a hospital (its staff only)',
    auth: 'user',
    query: z.object({ hospitalCode }),
    data: z.array(configEntry),
    handler: async ({ query, auth }) => {
      hospital.requireStaff(await rolesOf(db(), auth.userId), query.hospitalCode)
      return hospital.listHospitalConfig(db(), query.hospitalCode)
    },
  })

  route(app, {
    method: 'POST',
    url: '/dld-palm/admin/hospital-config',
    summary: 'Create or change one setting of a hospital (its staff only)',
    auth: 'user',
    body: z.object({ hospitalCode, key: configKey, value: z.string().max(4000) }),
    data: configEntry,
    handler: async ({ body, auth }) => {
      hospital.requireStaff(await rolesOf(db(), auth.userId), body.hospitalCode)
      return hospital.saveHospitalConfig(db(), body.hospitalCode, body.key, body.value, auth.userId)
    },
  })

  route(app, {
    method: 'POST',
    url: '/dld-palm/admin/system/dict',
    summary: 'Entries of a system dictionary (relations, nations, card types ...)',
    auth: 'none',
    body: z.object({ type: z.string().trim().regex(/^[a-z_]{1,40}$/, '字典类型格式不正确') }),
    data: z.array(z.object({ label: z.string(), value: z.string(), sort: z.number() })),
    handler: async ({ body }) => hospital.listDict(db(), body.type),
  })

  route(app, {
    method: 'GET',
    url: '/dld-palm/api/hospital/config/:hospitalCode/:key',
    summary: 'One public setting of a hospital; null when unset',
    auth: 'none',
    params: z.object({ hospitalCode, key: configKey }),
    data: z.object({ key: z.string(), value: z.string().nullable() }),
    handler: async ({ params }) => hospital.publicHospitalConfig(db(), params.hospitalCode, params.key),
  })
}
