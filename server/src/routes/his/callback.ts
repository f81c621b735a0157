import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { hmacHex, safeEqual } from '../../crypto'
import { announceQueueChange } from '../../domain/queue'
import { hospitalByCode } from '../../domain/hospital'

/** A call is older than this, or that far ahead of our clock: refused, so a captured call cannot be sent again later. */
export const HIS_CALLBACK_SKEW_MS = 5 * 60_000
const BODY_LIMIT = 4096

const queueCall = z.object({
  hospitalCode: z.string().trim().min(1).max(32),
  place: z.string().trim().min(1).max(64),
  window: z.string().trim().min(1).max(64),
  ticketNo: z.string().trim().min(1).max(16),
  calledAt: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'calledAt应为ISO时间'),
})

/**
 * What a real HIS tells the app (the other direction of the contract on HisProvider in providers/his.ts), served only
 * while a real HIS is configured (HIS): the sandbox HIS announces its own queue calls from the workbench console.
 *
 * `POST /dld-his/callback/queue-call` with a JSON body `{hospitalCode, place, window, ticketNo, calledAt}` and headers
 * `x-app-id: {appId}` and `x-signature`: the hex HMAC-SHA256 of the exact body bytes with the HIS `secret`, as the
 * app signs its own calls to the HIS. A window called a number: the patients waiting in that queue (the place and
 * window of the HIS's tickets) are pushed their new positions over the chat socket, exactly as after a call at the
 * sandbox console. Answers `{code: 0, msg: "ok"}`; a wrong app id or signature 401, a call more than five minutes
 * off our clock or a malformed body 400, and nothing is announced.
 */
export async function hisCallbackRoutes(app: FastifyInstance) {
  const cfg = app.ctx.config.his
  if (!cfg) return
  await app.register(async (scope) => {
    // the signature covers the exact bytes the HIS sent: this scope keeps every body as raw text
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body))
    scope.post(
      '/dld-his/callback/queue-call',
      { schema: { summary: 'A real HIS reports that a window called a number (signed like the HIS contract): the patients in that queue are pushed their places', tags: ['dld-his'] } },
      async (req, reply) => {
        const answer = (status: number, code: number, msg: string) => reply.status(status).type('application/json').send(JSON.stringify({ code, msg }))
        const raw = typeof req.body === 'string' ? req.body : ''
        const appId = req.headers['x-app-id']
        const signature = req.headers['x-signature']
        if (appId !== cfg.appId || typeof signature !== 'string' || !safeEqual(signature.toLowerCase(), hmacHex(cfg.secret, raw))) {
          req.log.warn('HIS callback refused: app id or signature not valid')
          return answer(401, 401, 'signature not valid')
        }
        let call: z.infer<typeof queueCall>
        try {
          call = queueCall.parse(JSON.parse(raw))
        } catch {
          return answer(400, 400, 'body not valid')
        }
        if (Math.abs(Date.now() - Date.parse(call.calledAt)) > HIS_CALLBACK_SKEW_MS) return answer(400, 400, 'calledAt too far from now')
        if (!(await hospitalByCode(app.ctx.db, call.hospitalCode))) return answer(400, 400, 'unknown hospitalCode')
        await announceQueueChange(app.ctx.db, { hospitalCode: call.hospitalCode, place: call.place, window: call.window })
        return answer(200, 0, 'ok')
      },
    )
  })
}
