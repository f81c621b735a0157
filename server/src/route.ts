import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { encodeSensitive } from './sensitive'
import { Code, notBound, unauthenticated } from './errors'
import type { AuthContext } from './domain/auth'
import { patientIdsIn, recordAudit, type Actor, type AuditSubject } from './domain/audit'
import { refuseOverLimit, type CallerLimit } from './domain/limits'

/** Who makes a call: a doctor or assistant at the workbench (its own token), else the signed-in patient. */
function actorOf(req: FastifyRequest): Actor | null {
  const staff = (req as FastifyRequest & { staff?: { staffId: number } | null }).staff
  if (staff) return { kind: 'staff', id: staff.staffId }
  return req.auth?.userId ? { kind: 'patient', id: req.auth.userId } : null
}

/** What every answer of the API is: JSON in UTF-8. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/** The envelope of spec §8, as documented in OpenAPI. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string(), data })

/** none: anyone; identity: a signed-in WeChat/Alipay identity; user: an identity bound to a user (id != 0). */
export type AuthLevel = 'none' | 'optional' | 'identity' | 'user'

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined

export interface RouteContext<B, Q, P, A extends AuthLevel> {
  body: Infer<B>
  query: Infer<Q>
  params: Infer<P>
  auth: A extends 'identity' | 'user' ? AuthContext & (A extends 'user' ? { userId: number } : unknown) : AuthContext | null
  req: FastifyRequest
  reply: FastifyReply
}

export interface RouteSpec<B, Q, P, D extends z.ZodType, A extends AuthLevel> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  summary: string
  auth: A
  body?: B
  query?: Q
  params?: P
  data: D
  /** Per-route limit, e.g. sign-in and SMS calls. */
  rateLimit?: { max: number; timeWindow: number }
  /** Per-caller limit on a call that costs something (domain/limits.ts CALLER_LIMITS), counted in the database. */
  callerLimit?: CallerLimit
  /**
   * Health data or money: every successful call is recorded in the audit log (domain/audit.ts) before it is
   * answered, with the patients its answer is about (patientIdsIn), unless `patients` names them. A GET is recorded as
   * a read and any other method as a change, unless `action` says otherwise (a POST that only reads, as the spec
   * makes several, or the spec's GET that cancels).
   */
  audit?:
    | AuditSubject
    | {
        subject: AuditSubject
        patients?: (ctx: RouteContext<B, Q, P, A>, data: z.input<D>) => Promise<number[]>
        action?: 'read' | 'change'
      }
  /**
   * The handler gives the very same object for the same answer and never changes it (an answer built once from a
   * cached row): its checked and serialised envelope is kept beside the object, for as long as the object lives, and
   * sent again as it is. Only for an answer that is the same for every caller.
   */
  reuse?: true
  handler: (ctx: RouteContext<B, Q, P, A>) => Promise<z.input<D>>
}

/**
 * Registers an API route: zod schemas in, the `{code, msg, data}` envelope out (the one place it is applied),
 * sensitive fields base64-encoded on the way out, and the access level checked before the handler runs.
 */
export function route<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  D extends z.ZodType = z.ZodType,
  A extends AuthLevel = AuthLevel,
>(app: FastifyInstance, spec: RouteSpec<B, Q, P, D, A>): void {
  const tag = spec.url.split('/')[1] ?? 'api'
  const kept = spec.reuse ? new WeakMap<object, string>() : null
  // the handler's own return type is checked against `data` above; Fastify sees the envelope
  app.route({
    method: spec.method,
    url: spec.url,
    config: {
      ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}),
      ...(spec.callerLimit ? { callerLimit: { route: `${spec.method} ${spec.url}`, limit: spec.callerLimit } } : {}),
    },
    schema: {
      summary: spec.summary,
      tags: [tag],
      ...(spec.body ? { body: spec.body as z.ZodType } : {}),
      ...(spec.query ? { querystring: spec.query as z.ZodType } : {}),
      ...(spec.params ? { params: spec.params as z.ZodType } : {}),
      ...(spec.auth === 'none' ? {} : { security: [{ bearer: [] }] }),
      response: { 200: envelope(spec.data) },
    },
    handler: async (req, reply) => {
      const auth = req.auth
      if ((spec.auth === 'identity' || spec.auth === 'user') && !auth) throw unauthenticated()
      if (spec.auth === 'user' && !auth?.userId) throw notBound()
      // counted with the session's lookup (app.ts); the call of a caller signed in always has its count
      if (spec.callerLimit && auth) refuseOverLimit(req.callerCalls!, spec.callerLimit)
      const ctx: RouteContext<B, Q, P, A> = {
        body: req.body as Infer<B>,
        query: req.query as Infer<Q>,
        params: req.params as Infer<P>,
        auth: auth as RouteContext<B, Q, P, A>['auth'],
        req,
        reply,
      }
      const data = await spec.handler(ctx)
      if (spec.audit) {
        const actor = actorOf(req)
        if (actor) {
          const audit = typeof spec.audit === 'string' ? { subject: spec.audit } : spec.audit
          await recordAudit(app.ctx.db, {
            actor,
            action: audit.action ?? (spec.method === 'GET' ? 'read' : 'change'),
            subject: audit.subject,
            route: `${spec.method} ${spec.url}`,
            patientIds: audit.patients ? await audit.patients(ctx, data) : patientIdsIn(audit.subject, data),
            address: req.ip,
            requestId: req.id,
          })
        }
      }
      if (!kept || data === null || typeof data !== 'object') return { code: Code.OK, msg: 'success', data: encodeSensitive(data) }
      let json = kept.get(data)
      if (json === undefined) {
        // the route's own serializer: checked against the schema as any answer is
        json = reply.serialize({ code: Code.OK, msg: 'success', data: encodeSensitive(data) }) as string
        kept.set(data, json)
      }
      // a string of JSON type goes out as it is
      void reply.type(JSON_TYPE)
      return json
    },
  })
}
