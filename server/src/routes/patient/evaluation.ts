import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { id, pageSize, pageNo as page } from '../schemas'
import { route } from '../../route'
import * as evaluation from '../../domain/evaluation'

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
const size = pageSize(evaluation.MAX_PAGE_SIZE)

const evaluationDto = z.object({
  id: z.number(),
  score: z.number().int(),
  tags: z.array(z.string()),
  content: z.string(),
  patientName: z.string(),
  createdAt: z.string(),
})

/**
 * Rating a doctor (评价), `/dld-hospital/im/evaluate` (spec §7 Internet hospital → Evaluation and gifts): the tags, one
 * rating per finished consultation (moving the doctor's good rate), and a doctor's ratings.
 */
export async function evaluationRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital/im/evaluate'

  route(app, {
    method: 'GET',
    url: `${H}/tags`,
    summary: 'The tags a patient may pick when rating a doctor: good ones and bad ones',
    auth: 'user',
    data: z.object({ good: z.array(z.string()), bad: z.array(z.string()) }),
    handler: async () => evaluation.evaluationTags(),
  })

  route(app, {
    method: 'POST',
    url: `${H}/add`,
    summary:
      'Rate the doctor of one of the caller’s consultations, once, after it finished (or closed after the doctor accepted); ' +
      'the doctor’s good rate (share of 4 and 5 stars) moves in the same transaction',
    auth: 'user',
    body: z.object({
      inquiryId: id,
      score: z.coerce.number().int(evaluation.BAD_SCORE).min(evaluation.SCORE_MIN, evaluation.BAD_SCORE).max(evaluation.SCORE_MAX, evaluation.BAD_SCORE),
      tags: z.array(z.string().trim().max(20, evaluation.UNKNOWN_TAG)).max(evaluation.TAGS_MAX, evaluation.UNKNOWN_TAG).default([]),
      content: z.string().trim().max(evaluation.CONTENT_MAX, `评价内容不能超过${evaluation.CONTENT_MAX}个字`).default(''),
      anonymous: flag.default(true),
    }),
    data: z.object({ evaluation: evaluationDto, inquiryId: z.number(), doctorId: z.number(), goodRate: z.number().int() }),
    handler: async ({ body, auth }) => evaluation.addEvaluation(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/doctor/evaluates`,
    summary: 'A doctor’s ratings, newest first (names masked, or 匿名用户), with the count, good rate and tag counts',
    auth: 'user',
    body: z.object({ doctorId: id, page, size }),
    data: z.object({
      records: z.array(evaluationDto),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
      summary: z.object({
        count: z.number().int(),
        goodRate: z.number().int(),
        tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
      }),
    }),
    handler: async ({ body }) => evaluation.doctorEvaluations(db(), cipher, body),
  })
}
