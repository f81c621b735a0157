import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { SMS_RESEND_MS } from '../../domain/auth'
import { closeAccount, closureStatus, exportAccount, sendAccountCode } from '../../domain/account'
import { recordAudit } from '../../domain/audit'

const smsCode = z.string().regex(/^\d{6}$/, '请输入6位验证码')
const rows = z.array(z.record(z.string(), z.unknown()))

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
      // only automated tests read the code from the answer (as /dld-auth/token/smsBindCode)
      return { sent: true, resendAfter: SMS_RESEND_MS / 1000, mobile, ...(config.mode === 'test' ? { devCode: code } : {}) }
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
    }),
    handler: async ({ auth, body, req }) => {
      const { patientIds, ...copy } = await exportAccount(db(), cipher, auth.userId, body.code)
      const at = { route: 'POST /dld-user/user/export', userId: auth.userId, address: req.ip, requestId: req.id }
      await recordAudit(db(), { actor: { kind: 'patient', id: auth.userId }, action: 'read', subject: 'account', patientIds, ...at })
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
      const at = { route: 'POST /dld-user/user/close', userId: auth.userId, address: req.ip, requestId: req.id }
      await closeAccount(db(), cipher, auth.userId, body.code, (tx, patientIds) =>
        recordAudit(tx, { actor: { kind: 'patient', id: auth.userId }, action: 'change', subject: 'account', patientIds, ...at }),
      )
      return { closed: true as const }
    },
  })
}
