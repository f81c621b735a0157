import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode } from '../schemas'
import { EMPTY_TEXT, MAX_TEXT, TEXT_TOO_LONG, triage } from '../../domain/triage'

/** The patient's words: 1–200 characters after trimming (characters, not UTF-16 units: an emoji is one). */
const text = z
  .string()
  .trim()
  .min(1, EMPTY_TEXT)
  .refine((s) => Array.from(s).length <= MAX_TEXT, TEXT_TOO_LONG)

const triageAnswer = z.object({
  reply: z.string(),
  emergency: z.boolean(),
  departments: z.array(
    z.object({
      id: z.number(),
      deptName: z.string(),
      reason: z.string(),
      doctors: z.array(z.object({ id: z.number(), doctorName: z.string(), title: z.string(), avatar: z.string() })),
    }),
  ),
  disclaimer: z.string(),
  source: z.enum(['offline', 'model']),
})

/** The doctor AI agent (智能导诊, spec §2 /palm/ds/index), `/dld-palm/api/ai`. */
export async function triageRoutes(app: FastifyInstance) {
  const { providers } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'POST',
    url: '/dld-palm/api/ai/triage',
    callerLimit: CALLER_LIMITS.ai,
    summary:
      'Departments of the hospital (at most 3, each with up to 3 doctors) for a complaint; red flags answer emergency, ' +
      'questions about medicines or doses are refused; answered by the configured model or the built-in rules (source)',
    auth: 'user',
    body: z.object({ hospitalCode, text }),
    data: triageAnswer,
    handler: async ({ body, req }) => triage(db(), providers.ai, req.log, body),
  })
}
