import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, idParam, id } from '../schemas'
import * as survey from '../../domain/survey'
import { SURVEY_TEXT_MAX } from '@/utils/surveyRules'

const summaryDto = z.object({
  id: z.number(),
  hospitalCode: z.string(),
  title: z.string(),
  intro: z.string(),
  questionCount: z.number().int(),
  answered: z.boolean(),
})
const surveyDto = summaryDto.extend({
  hospitalName: z.string(),
  questions: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['single', 'multiple', 'rating', 'text']),
      title: z.string(),
      required: z.boolean(),
      options: z.array(z.object({ id: z.string(), text: z.string() })),
      maxLength: z.number().int(),
    }),
  ),
})
const answerItem = z.object({
  questionId: z.string().trim().min(1).max(32, survey.UNKNOWN_QUESTION),
  options: z.array(z.string().trim().max(32, survey.UNKNOWN_OPTION)).max(50, survey.UNKNOWN_OPTION).optional(),
  // its range is checked in the domain, so the refusal reads as the patient's words
  rating: z.number().optional(),
  // the question's own limit is checked in the domain; this only keeps a huge body out
  text: z.string().max(SURVEY_TEXT_MAX * 2, `内容不能超过${SURVEY_TEXT_MAX}个字`).optional(),
})
const resultDto = z.object({
  survey: surveyDto,
  answers: z.array(z.object({ questionId: z.string(), options: z.array(z.string()).optional(), rating: z.number().int().optional(), text: z.string().optional() })),
  answeredAt: z.string(),
})

/**
 * Satisfaction surveys (满意度调查), `/dld-hospital/survey` (spec §7 Internet hospital → Surveys). Every call needs a
 * signed-in, bound account: the list says which the caller answered, and answers are one per account.
 */
export async function surveyRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db
  const S = '/dld-hospital/survey'

  route(app, {
    method: 'GET',
    url: `${S}/list`,
    summary: 'The hospital’s satisfaction surveys, each saying whether the caller answered it (已参与)',
    auth: 'user',
    query: z.object({ hospitalCode }),
    data: z.array(summaryDto),
    handler: async ({ query, auth }) => survey.listSurveys(db(), auth.userId, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${S}/result/:id`,
    summary: 'The caller’s own answer to a survey, with the survey (2999 when the caller has not answered it)',
    auth: 'user',
    params: idParam,
    data: resultDto,
    handler: async ({ params, auth }) => survey.surveyResult(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: `${S}/:id`,
    summary: 'One survey with its questions (single choice, multiple choice, 1–5 stars, words) and whether the caller answered it',
    auth: 'user',
    params: idParam,
    data: surveyDto,
    handler: async ({ params, auth }) => survey.getSurvey(db(), auth.userId, params.id),
  })

  route(app, {
    method: 'POST',
    url: S,
    summary:
      'Answer a survey, once per account: options of its questions, stars 1–5, words within each question’s limit, every ' +
      'required question answered; a second answer is refused. The words are stored encrypted',
    auth: 'user',
    body: z.object({ surveyId: id, answers: z.array(answerItem).max(100, survey.UNKNOWN_QUESTION) }),
    data: resultDto,
    handler: async ({ body, auth }) => survey.submitSurvey(db(), cipher, auth.userId, body, new Date()),
  })
}
