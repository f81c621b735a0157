import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { idParam, mobile, id } from '../schemas'
import * as accompany from '../../domain/accompany'

const relation = z.string().trim().min(1, '请选择陪护人与就诊人的关系').max(10, '请选择陪护人与就诊人的关系')

const accompanyDto = z.object({
  id: z.number(),
  patientId: z.number(),
  name: z.string(),
  idCard: z.string(),
  mobile: z.string(),
  relation: z.string(),
  createdAt: z.string(),
})

/** Escorts (陪护人) of the caller's patients: `/dld-palm/api/accompany` (spec §7 Accompany). */
export async function accompanyRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'POST',
    url: '/dld-palm/api/accompany',
    summary: 'Add an escort to one of the caller’s patients (the patient must be complete)',
    audit: 'escort',
    auth: 'user',
    body: z.object({
      patientId: id,
      name: z.string().trim().min(1, '请输入陪护人姓名').max(20, '陪护人姓名不能超过20个字'),
      // checked by the identity-card rules in the domain, for a message the patient can act on
      idCard: z.string().trim().min(1, '请输入陪护人身份证号').max(32, '陪护人身份证号不正确'),
      mobile,
      relation,
    }),
    data: accompanyDto,
    handler: async ({ auth, body }) => accompany.addAccompany(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'PUT',
    url: '/dld-palm/api/accompany',
    summary: 'Change an escort’s mobile and relation (name and identity number cannot change)',
    audit: 'escort',
    auth: 'user',
    body: z.object({ id: id, mobile, relation }),
    data: accompanyDto,
    handler: async ({ auth, body }) => accompany.updateAccompany(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: '/dld-palm/api/accompany/list/:id',
    summary: 'The escorts of one of the caller’s patients (id = patient id), masked',
    audit: 'escort',
    auth: 'user',
    params: idParam,
    data: z.array(accompanyDto),
    handler: async ({ auth, params }) => accompany.listAccompanies(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-palm/api/accompany/:id',
    summary: 'One escort, whole, for the edit page',
    audit: 'escort',
    auth: 'user',
    params: idParam,
    data: accompanyDto,
    handler: async ({ auth, params }) => accompany.getAccompany(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'POST',
    url: '/dld-palm/api/accompany/:id',
    summary: 'Unbind an escort',
    audit: 'escort',
    auth: 'user',
    params: idParam,
    data: z.object({ id: z.number() }),
    handler: async ({ auth, params }) => accompany.unbindAccompany(db(), auth.userId, params.id),
  })
}
