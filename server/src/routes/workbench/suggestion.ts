import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { idParam } from '../schemas'
import type { StaffContext } from '../../domain/staff'
import * as suggestion from '../../domain/suggestion'
import { suggestionDto } from '../patient/suggestion'

/** 投诉建议 on the workbench: the staff's hospital's submissions, and answering one (inside the workbench's token scope). */
export async function suggestionDeskRoutes(scope: FastifyInstance, staffOf: (req: FastifyRequest) => StaffContext) {
  const { cipher } = scope.ctx
  const db = () => scope.ctx.db

  route(scope, {
    method: 'GET',
    url: '/dld-doctor/api/suggestions',
    summary: 'Complaints and suggestions to the staff’s hospital, the unanswered first; the patient named by a masked mobile',
    auth: 'none',
    data: z.array(suggestionDto.extend({ mobile: z.string() })),
    handler: async ({ req }) => suggestion.deskSuggestions(db(), cipher, staffOf(req)),
  })

  route(scope, {
    method: 'POST',
    url: '/dld-doctor/api/suggestions/:id/answer',
    summary: 'Answer one complaint or suggestion of the staff’s hospital, once; the patient reads it in the message centre',
    auth: 'none',
    params: idParam,
    body: z.object({ answer: z.string().trim().min(1, '请填写回复').max(suggestion.ANSWER_MAX, `回复不能超过${suggestion.ANSWER_MAX}个字`) }),
    data: suggestionDto,
    handler: async ({ req, params, body }) => suggestion.answerSuggestion(db(), cipher, staffOf(req), params.id, body.answer, new Date()),
  })
}
