import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, id } from '../schemas'
import * as escortPass from '../../domain/escortPass'

export const escortPassDto = z.object({
  token: z.string(),
  escortId: z.number(),
  patientId: z.number(),
  escortName: z.string(),
  patientName: z.string(),
  relation: z.string(),
  hospitalName: z.string(),
  deptName: z.string(),
  ward: z.string(),
  bed: z.string(),
  admissionNo: z.string(),
  expiresAt: z.string(),
  issuedAt: z.string(),
})

/** 电子陪护证 (spec §2 /palm/hospitalization/escort/eleAttend): `GET /dld-palm/api/accompany/pass` (types/api/escortPass.ts). */
export async function escortPassRoutes(app: FastifyInstance) {
  const { cipher, providers, config } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-palm/api/accompany/pass',
    summary: 'An electronic escort pass (电子陪护证) for one of the caller’s escorts while the patient is in hospital at the hospital: a signed token for 24 h (names masked)',
    audit: 'escort',
    auth: 'user',
    query: z.object({ escortId: id, hospitalCode }),
    data: escortPassDto,
    handler: async ({ auth, query }) => escortPass.issuePass(db(), cipher, providers.his, config.secret, auth.userId, query, new Date()),
  })
}
