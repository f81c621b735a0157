import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { unauthenticated } from '../../errors'
import { resolveStaffToken, type StaffContext } from '../../domain/staff'
import * as escortPass from '../../domain/escortPass'

const checkDto = z.object({
  valid: z.boolean(),
  reason: z.enum(['forged', 'expired', 'ended', 'unbound']).nullable(),
  reasonText: z.string(),
  pass: z
    .object({
      escortName: z.string(),
      patientName: z.string(),
      relation: z.string(),
      deptName: z.string(),
      ward: z.string(),
      bed: z.string(),
      admissionNo: z.string(),
      expiresAt: z.string(),
    })
    .nullable(),
})

/**
 * The ward's check of an electronic escort pass on the workbench: `POST /dld-doctor/api/escort-pass/verify`, behind a
 * workbench token (resolved here as in routes/workbench/index.ts; a patient's token means nothing to it).
 */
export async function escortPassDeskRoutes(app: FastifyInstance) {
  const { cipher, providers, config } = app.ctx
  const db = () => app.ctx.db

  await app.register(async (scope) => {
    scope.decorateRequest('staff', null)
    scope.addHook('onRequest', async (req) => {
      const header = req.headers.authorization
      req.staff = header?.startsWith('Bearer ') ? await resolveStaffToken(db(), header.slice(7).trim()) : null
      if (!req.staff) throw unauthenticated()
    })
    const staffOf = (req: FastifyRequest): StaffContext => {
      if (!req.staff) throw unauthenticated()
      return req.staff
    }

    route(scope, {
      method: 'POST',
      url: '/dld-doctor/api/escort-pass/verify',
      summary: 'Check a scanned electronic escort pass (电子陪护证) at the ward: valid, or why not (forged, expired, stay ended, escort unbound); staff of the issuing hospital only',
      audit: { subject: 'escort', patients: async ({ body }) => escortPass.passPatients(config.secret, body.token) },
      auth: 'none',
      body: z.object({ token: z.string().trim().min(1, '请扫描陪护证').max(2000, '无效的陪护证') }),
      data: checkDto,
      handler: async ({ req, body }) => escortPass.verifyPass(db(), cipher, providers.his, config.secret, staffOf(req), body.token, new Date()),
    })
  })
}
