import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { unauthenticated } from '../../errors'
import { idParam } from '../schemas'
import { resolveStaffToken, type StaffContext } from '../../domain/staff'
import * as survey from '../../domain/survey'

/**
 * 满意度 on the workbench: the staff's hospital's surveys with their answer counts, and one survey's results (counts
 * per option, the stars' mean, the newest words with the author masked). Behind a workbench token, resolved here as
 * in routes/workbench/index.ts; another hospital's survey answers 2999.
 */
export async function surveyDeskRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
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
      method: 'GET',
      url: '/dld-doctor/api/surveys',
      summary: 'The satisfaction surveys of the staff’s hospital with how many answered each',
      auth: 'none',
      data: z.array(z.object({ id: z.number(), title: z.string(), questionCount: z.number().int(), answerCount: z.number().int() })),
      handler: async ({ req }) => survey.deskSurveys(db(), staffOf(req)),
    })

    route(scope, {
      method: 'GET',
      url: '/dld-doctor/api/surveys/:id',
      summary: 'One survey’s results for staff of its hospital: counts per option, the stars’ counts and mean, the newest words (author masked)',
      auth: 'none',
      params: idParam,
      data: z.object({
        id: z.number(),
        title: z.string(),
        answerCount: z.number().int(),
        questions: z.array(
          z.object({
            id: z.string(),
            kind: z.enum(['single', 'multiple', 'rating', 'text']),
            title: z.string(),
            answered: z.number().int(),
            options: z.array(z.object({ id: z.string(), text: z.string(), count: z.number().int() })),
            average: z.number().nullable(),
            latest: z.array(z.object({ text: z.string(), author: z.string(), answeredAt: z.string() })),
          }),
        ),
      }),
      handler: async ({ req, params }) => survey.deskSurveyResults(db(), cipher, staffOf(req), params.id),
    })
  })
}
