/**
 * What the server logs of each request: the access log, one line a request, and the logger a request's own lines go
 * through (`req.log`).
 */
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import pino, { type Bindings, type ChildLoggerOptions, type Level, type LevelWithSilentOrString } from 'pino'

/** Request URLs are logged with their query values removed: codes, tokens and identity numbers travel there. */
export function logUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const keys = [...new URLSearchParams(url.slice(q + 1)).keys()]
  return `${url.slice(0, q)}?${keys.map((k) => `${k}=~`).join('&')}`
}

/**
 * Standard output, written asynchronously: a pipe is written synchronously on Linux, so every access-log line would
 * wait for the reader. Buffered lines are flushed when the process exits (pino's exit hook), crashes included.
 */
let stdoutLog: NodeJS.WritableStream | null = null
export const asyncStdout = () => (stdoutLog ??= pino.destination({ dest: 1, sync: false }) as unknown as NodeJS.WritableStream)

/**
 * The access log: one line a request once its answer has gone, with the request id, the method, the address with its
 * query values left out, the status and the time taken (ms), at info (a route's own level first: health checks log
 * only warnings). Fastify's own log controller wrote two lines a request through the server's logger, whose
 * redaction of some sixty paths cost about 20 µs a line: with the access log at info, two thirds of what a bare
 * request cost (issue 21). These lines hold only the fields above, so they are written by a logger of their own, on
 * the same stream, without it. A request that ended in an error, and every other line, still goes through the
 * server's logger and its redaction.
 */
export class AccessLog extends LogController {
  private readonly lines: pino.Logger

  constructor(level: string, stream: NodeJS.WritableStream) {
    super()
    this.lines = pino({ level }, stream)
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, req, reply)
    const values = this.lines.levels.values
    const routeLevel = req.routeOptions.logLevel
    if ((routeLevel ? (values[routeLevel] ?? this.lines.levelVal) : this.lines.levelVal) > values.info!) return
    this.lines.info(
      { reqId: req.id, req: { method: req.method, url: logUrl(req.url) }, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    )
  }
}

/**
 * Each request's logger (`req.log`), made only when the request writes a line at a level that is logged. Fastify
 * makes a pino child logger (bound to the request id) for every request before any hook runs, whether or not
 * anything is written: with no access log written (warn), that child was most of what logging cost the bare route
 * (issue 21). This one answers the same calls and makes the child on the first line that will be written, with the
 * same bindings and options, so a written line reads exactly as before.
 */
type Pino = FastifyBaseLogger & { levels: { values: Record<string, number> }; levelVal: number }

class RequestLog {
  private made: FastifyBaseLogger | null = null
  /** The lowest level value written: the route's own level (health checks log only warnings) or the server's. */
  private readonly threshold: number

  constructor(
    private readonly parent: Pino,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    this.threshold = options.level ? (parent.levels.values[options.level] ?? parent.levelVal) : parent.levelVal
  }

  get level(): LevelWithSilentOrString {
    return this.options.level ?? this.parent.level
  }

  set level(level: LevelWithSilentOrString) {
    this.own().level = level
  }

  /** The pino child Fastify would have made. */
  private own(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options))
  }

  private write(level: Level, args: unknown[]) {
    if (this.made) (this.made[level] as (...a: unknown[]) => void)(...args)
    else if ((this.parent.levels.values[level] ?? 0) >= this.threshold) (this.own()[level] as (...a: unknown[]) => void)(...args)
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args)
  }
  error(...args: unknown[]) {
    this.write('error', args)
  }
  warn(...args: unknown[]) {
    this.write('warn', args)
  }
  info(...args: unknown[]) {
    this.write('info', args)
  }
  debug(...args: unknown[]) {
    this.write('debug', args)
  }
  trace(...args: unknown[]) {
    this.write('trace', args)
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.own().child(bindings, options)
  }
}

export const requestLogFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLog(logger as Pino, bindings, options) as unknown as FastifyBaseLogger
