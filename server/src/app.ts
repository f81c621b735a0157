import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { constants as zlibConstants } from 'node:zlib'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import compress from '@fastify/compress'
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config } from './config'
import { FieldCipher } from './crypto'
import type { Database, Db } from './db'
import { AppError, Code } from './errors'
import { LOG_REDACTED_FIELDS, decodeSensitive } from './sensitive'
import { NUL_CHARACTER, TOO_DEEP, holdsNul, isDataException, jsonDeeperThan } from './inputGuards'
import { resolveToken, type AuthContext } from './domain/auth'
import { buildProviders, type Providers } from './plugins/providers'
import { databaseRateStore, type CountedCall } from './domain/limits'
import { registerPaymentBusinesses } from './domain/businesses'
import { startJobs } from './jobs'
import { registerRoutes } from './routes'
import { healthRoutes } from './routes/operations/health'
import { backupRoutes } from './routes/operations/backup'
import type { Lifecycle } from './health'
import { createMetrics, observeRequests, type Metrics } from './metrics'
import { isJsonType, securityHeaders } from './securityHeaders'
import { AccessLog, asyncStdout, logUrl, requestLogFactory } from './requestLog'
import { HospitalCache } from './domain/hospitalCache'
import { closeConnectionsWhileDraining } from './drain'
import { JSON_TYPE } from './route'

z.config(z.locales.zhCN())

export interface AppContext {
  config: Config
  db: Db
  database: Database
  cipher: FieldCipher
  providers: Providers
  lifecycle: Lifecycle
  metrics: Metrics
  /** The hospitals this process has read, forgotten on every change (domain/hospitalCache.ts). */
  hospitals: HospitalCache
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
  interface FastifyRequest {
    auth: AuthContext | null
    /** The caller's calls of this route in its limit's window, this one included (route.ts `callerLimit`); else null. */
    callerCalls: number | null
  }
  interface FastifyContextConfig {
    /** The route's per-caller limit, counted as the caller's session is looked up (domain/limits.ts). */
    callerLimit?: CountedCall
  }
}

/** Marks the requests this server makes to itself (the sandbox cashier's notifications), with a secret of this process. */
const INNER_HEADER = 'x-inner-call'

/** The parts of the server a benchmark may switch off, one at a time, to measure their cost per request. */
export const BENCH_PARTS = ['logging', 'helmet', 'compress', 'rateLimit', 'metrics'] as const
export type BenchPart = (typeof BENCH_PARTS)[number]

function loggerOptions(config: Config, stream: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    stream,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', ...LOG_REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`])],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: logUrl(req.url), id: req.id }),
    },
  }
}

export async function buildApp(
  config: Config,
  database: Database,
  overrides: Partial<Providers> = {},
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream,
  /** Benchmarks only (scripts/bench): parts switched off to measure what each costs a request. */
  bench: { without?: ReadonlySet<BenchPart> } = {},
): Promise<FastifyInstance> {
  const on = (part: BenchPart) => !bench.without?.has(part)
  const logTo = on('logging') ? (logStream ?? asyncStdout()) : null
  const app = Fastify({
    logger: logTo ? loggerOptions(config, logTo) : false,
    // one access-log line a request, and a request's logger made when it writes a line (requestLog.ts); without
    // logging Fastify makes neither
    ...(logTo ? { logController: new AccessLog(config.logLevel, logTo), childLoggerFactory: requestLogFactory } : {}),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // X-Forwarded-* only from the proxies the hospital names: a peer on a private network may be a patient's phone
    // on the hospital's Wi-Fi, and believing it lets a client choose its own address to escape the per-address limits
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    // the router's own refusals (a malformed percent-encoding, an over-long path segment) in the envelope too
    frameworkErrors: (_err, _req, reply) => {
      void (reply as FastifyReply).status(200).type(JSON_TYPE).send(JSON.stringify({ code: Code.BAD_INPUT, msg: '参数错误：请求地址不正确', data: null }))
    },
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const cipher = new FieldCipher(config.dataKey)
  const innerSecret = randomUUID()
  const providers: Providers = {
    // the sandbox cashier delivers its notifications through this app, like a provider calling the notify URL
    ...buildProviders(config, database.db, cipher, app.log, (r) =>
      app.inject({ method: 'POST', url: r.url, headers: { ...r.headers, [INNER_HEADER]: innerSecret }, payload: r.payload }),
    ),
    ...overrides,
  }
  const metrics = createMetrics(database, { process: Boolean(config.metricsToken) })
  registerPaymentBusinesses(providers)
  const hospitalCache = new HospitalCache(database)
  await hospitalCache.start()
  app.addHook('onClose', () => hospitalCache.close())
  app.decorate('ctx', { config, db: database.db, database, cipher, providers, lifecycle: { draining: false }, metrics, hospitals: hospitalCache })
  if (on('metrics')) observeRequests(app, metrics)
  closeConnectionsWhileDraining(app)

  // every timer of the server: order sweep, overdue consultations, the schedule window (jobs.ts)
  startJobs(app)
  app.decorateRequest('auth', null)
  app.decorateRequest('callerCalls', null)

  // hooks every request runs are plain callbacks: an async hook costs a promise per request
  const security = on('helmet') ? securityHeaders() : null
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id)
    if (security) reply.headers(isJsonType(reply.getHeader('content-type')) ? security.api : security.page)
    done(null, payload)
  })

  // brotli's default quality (11) costs ~100 ms of CPU per 200 KB script; 5 is within a few percent of its size
  if (on('compress')) await app.register(compress, { global: true, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } } })
  if (on('rateLimit')) await app.register(rateLimit, {
    global: false,
    // counted in the database, so that every server process on it counts the same calls (domain/limits.ts)
    store: databaseRateStore(() => app.ctx.db),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, code: Code.TOO_MANY, message: `操作过于频繁，请${Math.ceil(ctx.ttl / 1000)}秒后再试` }),
  })
  await app.register(formbody)
  await app.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10 } })

  await app.register(swagger, {
    openapi: {
      info: { title: 'Hospital H5 API', version: '1.0.0', description: 'Every answer is the envelope {code, msg, data} (spec §8).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  // load balancer probes and Prometheus, outside the API's sign-in and envelope
  await healthRoutes(app)
  // `npm run backup` while this process holds the embedded database (backup.ts)
  await backupRoutes(app)

  // hostile input answers 400 before any schema or handler looks at it (inputGuards.ts)
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDeeperThan(body as string)) return done(new AppError(Code.BAD_INPUT, TOO_DEEP), undefined)
    parseJson(req, body as string, done)
  })
  app.addHook('preValidation', (req, _reply, done) => {
    if (holdsNul(req.params) || holdsNul(req.query) || (!req.isMultipart() && holdsNul(req.body))) return done(new AppError(Code.BAD_INPUT, NUL_CHARACTER))
    done()
  })

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    reply.serializer(JSON.stringify) // the route's response schema describes success only (stack notes)
    const send = (code: number, msg: string, status = 200) => reply.status(status).type(JSON_TYPE).send({ code, msg, data: null })
    if (err instanceof AppError) return send(err.code, err.message)
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : ''
      return send(Code.BAD_INPUT, `参数错误：${where ? `${where} ` : ''}${first?.message ?? '格式不正确'}`)
    }
    if (isDataException(err)) {
      req.log.warn({ err }, 'input the schema let through was refused by the database')
      return send(Code.BAD_INPUT, '参数错误：格式不正确')
    }
    const status = (err as FastifyError).statusCode ?? 500
    if (status === 429) return send(Code.TOO_MANY, err.message)
    if (status === 413) return send(Code.BAD_INPUT, '文件过大')
    if (status === 415) return send(Code.BAD_INPUT, '不支持的请求格式')
    if (status >= 400 && status < 500) return send(Code.BAD_INPUT, '请求格式错误')
    req.log.error({ err }, 'unexpected error')
    return send(Code.SERVER, `服务器开小差了，请稍后再试（请求编号 ${req.id}）`, 500)
  })

  // API routes: sensitive fields decoded on the way in, the caller's token resolved once
  await app.register(async (api) => {
    api.addHook('preValidation', async (req) => {
      if (req.body && typeof req.body === 'object' && !req.isMultipart()) req.body = decodeSensitive(req.body)
      if (req.query && typeof req.query === 'object') req.query = decodeSensitive(req.query) as typeof req.query
    })
    api.addHook('onRequest', async (req, reply) => {
      // waits its turn on the embedded database, or is refused before it does anything (nothing half done); a call
      // this server makes to itself inside a request that has its turn goes straight on, or the two would wait for
      // each other; a chat socket's upgrade takes no turn, since the socket stays open for as long as the app does
      // (it would hold its turn for ever) and its frames' statements take theirs on the connection itself
      if (app.ctx.database.admit && req.headers[INNER_HEADER] !== innerSecret && req.headers.upgrade?.toLowerCase() !== 'websocket') {
        const done = await app.ctx.database.admit()
        reply.raw.once('close', done)
      }
      const header = req.headers.authorization
      if (header?.startsWith('Bearer ')) {
        const found = await resolveToken(app.ctx.db, header.slice(7).trim(), new Date(), req.routeOptions.config.callerLimit)
        req.auth = found?.auth ?? null
        req.callerCalls = found?.calls ?? null
      }
    })
    await registerRoutes(api)
  })

  const h5Index = join(config.h5Dir, 'index.html')
  if (existsSync(h5Index)) {
    await app.register(fastifyStatic, {
      root: config.h5Dir,
      prefix: '/h5/',
      index: false,
      wildcard: true,
      cacheControl: false, // set below, per file

      setHeaders(res, path) {
        // hashed file names may be cached for a year; the page that names them, never
        res.setHeader('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable')
      },
    })
  }
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', config.h5Dir, { cacheControl: false })

  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/h5/'))
  app.get('/h5', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/h5/'))
  // browsers ask for /favicon.ico whatever the page says; the app's icon is an SVG beside it
  app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/h5/favicon.svg', 301))
  if (existsSync(h5Index)) app.get('/h5/', { schema: { hide: true } }, async (_req, reply) => sendIndex(reply))
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? ''
    // history mode: any page path under /h5/ is the app; a missing asset (with an extension) is a real 404
    if (req.method === 'GET' && (path === '/h5' || path.startsWith('/h5/')) && !/\.[a-z0-9]+$/i.test(path) && existsSync(h5Index)) {
      return sendIndex(reply)
    }
    reply.serializer(JSON.stringify)
    return reply.status(404).type(JSON_TYPE).send({ code: Code.NOT_FOUND, msg: '请求的资源不存在', data: null })
  })
  return app
}
