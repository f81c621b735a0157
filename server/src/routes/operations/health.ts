import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { unreadyReason } from '../../health'

const sha256 = (s: string) => createHash('sha256').update(s).digest()

/** Hashing first gives equal lengths, so the comparison takes the same time whatever the caller sent. */
function sameToken(sent: string, expected: string): boolean {
  return timingSafeEqual(sha256(sent), sha256(expected))
}

/**
 * For the hospital's load balancer and monitoring, outside the API: plain JSON whose HTTP status is the answer (a load
 * balancer reads the status, not an envelope), no sign-in, no rate limit, hidden from /openapi.json. Probes come every
 * few seconds: their log lines are kept for warnings only.
 */
export async function healthRoutes(app: FastifyInstance) {
  const quiet = { schema: { hide: true }, logLevel: 'warn' as const }

  // the process is up and its event loop turns: anything more belongs to readiness
  app.get('/health/live', quiet, async () => ({ status: 'live' }))

  app.get('/health/ready', quiet, async (req, reply) => {
    const reason = await unreadyReason(app.ctx.database, app.ctx.lifecycle, (err) => req.log.warn({ err }, 'readiness: the database check failed'))
    if (reason) return reply.status(503).send({ status: 'unavailable', reason })
    return { status: 'ready' }
  })

  const token = app.ctx.config.metricsToken
  if (!token) return // off unless the hospital sets METRICS_TOKEN: then GET /metrics answers 404 like any unknown path
  app.get('/metrics', quiet, async (req, reply) => {
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ') || !sameToken(header.slice(7).trim(), token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized' })
    }
    const { registry } = app.ctx.metrics
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}
