import type { FastifyInstance } from 'fastify'
import type { Database } from './db'

export interface DrainOptions {
  /** How long the drain may take before the process exits anyway (SHUTDOWN_GRACE_SECONDS). */
  graceMs: number
  /** process.exit; a test passes its own. */
  exit?: (code: number) => void
}

export type DrainOutcome = 'drained' | 'failed' | 'timed out'

/**
 * While draining, every answer is its connection's last: a keep-alive connection would otherwise hold the drain open
 * after its request is answered, and the client's next request would find a closed server instead of another one.
 * Registered before any route or plugin, so that every one of them inherits it.
 */
export function closeConnectionsWhileDraining(app: FastifyInstance) {
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (app.ctx.lifecycle.draining) reply.header('connection', 'close')
    done(null, payload)
  })
}

/**
 * Stops the server without dropping anyone's request, for a rolling restart behind a load balancer: readiness answers
 * 503 at once, the server stops accepting connections, finishes the requests in flight, closes chat sockets with 1001
 * (the app reconnects, elsewhere), stops the order sweep, closes the database and exits, 0 when all of it went well.
 * Past the grace it exits anyway, 1, saying so: the orchestrator's SIGKILL would come soon after, without a word.
 */
export async function drain(app: FastifyInstance, database: Database, opts: DrainOptions): Promise<DrainOutcome> {
  const exit = opts.exit ?? ((code: number) => process.exit(code))
  app.ctx.lifecycle.draining = true
  let timer: NodeJS.Timeout | undefined
  const graceOver = new Promise<DrainOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), opts.graceMs)
  })
  // app.close runs the websocket, server and sweep hooks in that order (app.ts, routes/chatSocket.ts)
  const work = (async (): Promise<DrainOutcome> => {
    await app.close()
    await database.close()
    return 'drained'
  })().catch((err: unknown) => {
    app.log.error({ err }, 'draining failed')
    return 'failed' as const
  })
  const outcome = await Promise.race([work, graceOver])
  clearTimeout(timer)
  if (outcome === 'timed out') app.log.error(`shutdown grace of ${opts.graceMs / 1000} s passed with work unfinished: exiting anyway`)
  else if (outcome === 'drained') app.log.info('drained: exiting')
  exit(outcome === 'drained' ? 0 : 1)
  return outcome
}

/** What the primary of WORKERS > 1 sends each server process to drain it (server.ts). */
export const DRAIN_MESSAGE = 'hospital-h5:drain'

/**
 * Drains on the first SIGTERM or SIGINT, or DRAIN_MESSAGE from the cluster's primary; a second signal while draining
 * (Ctrl-C again) exits at once. The primary's message after a Ctrl-C, which reaches every process of the terminal
 * anyway, is not a second signal. Answers how to remove the handlers.
 */
export function drainOnSignals(app: FastifyInstance, database: Database, opts: DrainOptions): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code))
  let draining = false
  const start = (signal: NodeJS.Signals | 'primary') => {
    draining = true
    app.log.info({ signal, graceSeconds: opts.graceMs / 1000 }, 'draining: no new connections, finishing the requests in flight')
    void drain(app, database, { ...opts, exit })
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) {
      app.log.warn({ signal }, 'second signal while draining: exiting now')
      return exit(1)
    }
    start(signal)
  }
  const onMessage = (message: unknown) => {
    if (message === DRAIN_MESSAGE && !draining) start('primary')
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  process.on('message', onMessage)
  return () => {
    process.off('SIGTERM', onSignal)
    process.off('SIGINT', onSignal)
    process.off('message', onMessage)
  }
}
