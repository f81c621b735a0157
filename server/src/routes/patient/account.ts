import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { smsCode } from '../schemas'
import { CALLER_LIMITS } from '../../domain/limits'
import { codeSentAnswer } from '../../domain/auth'
import { closeAccount, closureStatus, exportAccount, sendAccountCode } from '../../domain/account'
import { recordAudit, type AuditEvent } from '../../domain/audit'

const rows = z.array(z.record(z.string(), z.unknown()))

/** The account's own audit entry, written by the call itself: only the call knows which patients the account had. */
const accountAudit = (req: FastifyRequest, call: string, userId: number, action: AuditEvent['action'], patientIds: number[]): AuditEvent => ({
  actor: { kind: 'patient', id: userId },
  action,
  subject: 'account',
  route: call,
  patientIds,
  userId,
  address: req.ip,
  requestId: req.id,
})

/** 账号与隐私 (domain/account.ts): the holder's copy of their data, and closing the account. */
export async function accountRoutes(app: FastifyInstance) {
  const { cipher, config, providers } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-user/user/closure',
    summary: 'Where the account’s codes go (masked) and what keeps it from being closed now',
    auth: 'user',
    data: z.object({ mobile: z.string(), blockers: z.array(z.string()) }),
    handler: async ({ auth }) => closureStatus(db(), cipher, auth.userId),
  })

  route(app, {
    method: 'POST',
    url: '/dld-user/user/accountCode',
    summary: "Send a code to the account's own mobile, to download its data ('export') or close it ('close')",
    auth: 'user',
    callerLimit: CALLER_LIMITS.sms,
    rateLimit: { max: config.smsPerAddressPerMinute, timeWindow: 60_000 },
    body: z.object({ purpose: z.enum(['export', 'close']) }),
    data: z.object({ sent: z.boolean(), resendAfter: z.number(), mobile: z.string(), devCode: z.string().optional() }),
    handler: async ({ auth, body }) => {
      const { mobile, code } = await sendAccountCode(db(), cipher, providers.sms, auth.userId, body.purpose)
      return { ...codeSentAnswer(code, config.mode), mobile }
    },
  })

  route(app, {
    method: 'POST',
    url: '/dld-user/user/export',
    summary: 'Everything the hospital holds about the account, decrypted (PIPL art. 45), proven by an export code',
    auth: 'user',
    rateLimit: { max: 10, timeWindow: 60_000 },
    body: z.object({ code: smsCode }),
    data: z.object({
      exportedAt: z.string(),
      notice: z.string(),
      account: z.record(z.string(), z.unknown()),
      patients: rows,
      escorts: rows,
      addresses: rows,
      registrations: rows,
      orders: rows,
      consultations: rows,
      chat: rows,
      evaluations: rows,
      gifts: rows,
      followedDoctors: rows,
      messages: rows,
      files: rows,
      surveys: rows,
      consents: rows,
      suggestions: rows,
    }),
    handler: async ({ auth, body, req }) => {
      const { patientIds, ...copy } = await exportAccount(db(), cipher, auth.userId, body.code)
      await recordAudit(db(), accountAudit(req, 'POST /dld-user/user/export', auth.userId, 'read', patientIds))
      return copy
    },
  })

  route(app, {
    method: 'POST',
    url: '/dld-user/user/close',
    summary: 'Close the account, proven by a close code: unbinds and clears it, keeping the records the law requires',
    auth: 'user',
    rateLimit: { max: 10, timeWindow: 60_000 },
    body: z.object({ code: smsCode }),
    data: z.object({ closed: z.literal(true) }),
    handler: async ({ auth, body, req }) => {
      await closeAccount(db(), cipher, auth.userId, body.code, (tx, patientIds) =>
        recordAudit(tx, accountAudit(req, 'POST /dld-user/user/close', auth.userId, 'change', patientIds)),
      )
      return { closed: true as const }
    },
  })
}
