import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, idempotencyKey } from '../schemas'
import * as suggestion from '../../domain/suggestion'

export const suggestionDto = z.object({
  id: z.number(),
  kind: z.enum(['complaint', 'suggestion', 'praise']),
  content: z.string(),
  pictures: z.array(z.string()),
  status: z.enum(['open', 'answered']),
  answer: z.string(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
})

/** 投诉建议 (spec §7 POST /userSuggestion; the list of the caller's own is not in the spec: the page shows their answers). */
export async function suggestionRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'POST',
    url: '/dld-hospital/userSuggestion',
    summary: 'A complaint, suggestion or praise to a hospital, with up to 4 uploaded pictures; the same idempotencyKey is the same submission; 5 a day',
    auth: 'user',
    body: z.object({
      hospitalCode,
      kind: z.enum(['complaint', 'suggestion', 'praise'], { message: '请选择反馈类型' }),
      content: z
        .string()
        .trim()
        .min(suggestion.SUGGESTION_MIN, `请至少填写${suggestion.SUGGESTION_MIN}个字`)
        .max(suggestion.SUGGESTION_MAX, `内容不能超过${suggestion.SUGGESTION_MAX}个字`),
      pictures: z.array(z.string().max(200)).max(suggestion.SUGGESTION_PICTURES_MAX, `最多上传${suggestion.SUGGESTION_PICTURES_MAX}张图片`).default([]),
      idempotencyKey,
    }),
    data: suggestionDto,
    handler: async ({ auth, body }) => suggestion.submitSuggestion(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/userSuggestion/list',
    summary: 'The caller’s own complaints and suggestions to a hospital with their answers, newest first',
    auth: 'user',
    query: z.object({ hospitalCode }),
    data: z.array(suggestionDto),
    handler: async ({ auth, query }) => suggestion.mySuggestions(db(), cipher, auth.userId, query.hospitalCode),
  })
}
