import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema'
import { busy } from '../errors'
import { DATABASE_DEFAULTS, type DatabaseSettings } from '../config'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** What a domain function takes: the database or an open transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The server's URL (PostgreSQL), so that a second process or test app can open the same database. */
  url: string | null
  /**
   * Calls `handler` with each payload NOTIFYed on `channel` by any process on this database (PostgreSQL: one
   * dedicated connection, opened again after it drops; PGlite: in this process). Answers how to stop.
   * `onState` hears when that connection drops (false: payloads sent from now on are lost) and when it is back
   * (true); whoever keeps something on the strength of the payloads must not trust it in between.
   */
  listen(channel: string, handler: (payload: string) => void, onState?: (listening: boolean) => void): Promise<() => Promise<void>>
  /**
   * Runs `work` unless another process on this database is running work under the same key (a PostgreSQL advisory
   * lock on a pooled connection, taken without waiting), answering null when it did not run. PGlite has one process:
   * it always runs. For the timers every server process runs: one of them does each round's work.
   */
  unlessRunningElsewhere<T>(key: number, work: () => Promise<T>): Promise<T | null>
  /** The connection pool as it stands (PostgreSQL; PGlite has none), for the operator's metrics. */
  poolStats?(): { total: number; idle: number; waiting: number }
  /**
   * PGlite: where its one connection's time goes since the start: statements and transactions run, the time they
   * waited for the connection and the time they held it, and the longest queue seen.
   */
  queueStats?(): { ops: number; waitMs: number; runMs: number; maxWaiting: number; requests: number; waitingRequests: number }
  /**
   * PGlite: lets a request start on the database, first come first served; answers the function to call when it is
   * done. Throws busy at once when too many already wait.
   */
  admit?(): Promise<() => void>
  close(): Promise<void>
}

/**
 * Statements sent on behalf of one piece of work, for tests that hold a request to the queries it may make (a rule
 * about work done, not time). Only a database opened with `countQueries` records them, and only inside
 * `queriesOf`. Transaction control (BEGIN, COMMIT) is left out: the node-postgres driver sends it as statements and
 * PGlite does not, and the figure must be the same on both.
 */
const counting = new AsyncLocalStorage<string[]>()
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i
const countingLogger: Logger = {
  logQuery(query) {
    const log = counting.getStore()
    if (log && !TRANSACTION_CONTROL.test(query)) log.push(query)
  },
}

/** Runs `work` and answers the statements it sent (on a database opened with `countQueries`), in order. */
export async function queriesOf(work: () => Promise<unknown>): Promise<string[]> {
  const log: string[] = []
  await counting.run(log, work)
  return log
}

/** How long PGlite's statements may keep the event loop from its turn (Gate). */
const YIELD_AFTER_MS = 5

/**
 * PGlite has one connection: every statement outside a transaction and every transaction takes it in turn. They pass
 * through this gate, first come first served, so that where the time goes is known (PGlite's own lock behaves the
 * same; the gate only makes it visible). Statements inside a transaction go through the transaction's object and
 * are part of its turn. Measured under load, the gate's queue stays short: PGlite runs in this thread, so while it
 * runs nothing else does, and the wait is spread over every request in flight (see Admission).
 */
class Gate {
  private running = false
  private readonly queue: (() => void)[] = []
  readonly stats = { ops: 0, waitMs: 0, runMs: 0, maxWaiting: 0 }
  /** Since when statements have come without the event loop having a turn; null: it has had one since the last. */
  private busySince: number | null = null
  /**
   * PGlite answers in this thread and its answers come as resolved promises, so statement after statement of every
   * request in flight would run in one turn of the event loop, and no request would be read, no connection accepted
   * and no timer run (the admission queue's) until all of them were done: under the booking benchmark the loop was
   * late by 0.1-0.37 s on average and up to 1 s, and a request waited unread for seconds. After YIELD_AFTER_MS of
   * statements without a turn, the next one waits for the loop to have one (late by about 25 ms then, at most 0.1 s).
   */
  private async letTheLoopTurn() {
    const now = performance.now()
    if (this.busySince === null) {
      this.busySince = now
      setImmediate(() => (this.busySince = null))
    } else if (now - this.busySince > YIELD_AFTER_MS) await new Promise((resolve) => setImmediate(resolve))
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.letTheLoopTurn()
    const queued = performance.now()
    if (this.running) {
      await new Promise<void>((resolve) => this.queue.push(resolve))
      this.stats.maxWaiting = Math.max(this.stats.maxWaiting, this.queue.length + 1)
    }
    this.running = true
    const started = performance.now()
    try {
      return await work()
    } finally {
      const done = performance.now()
      this.stats.ops++
      this.stats.waitMs += started - queued
      this.stats.runMs += done - started
      const next = this.queue.shift()
      if (next) next()
      else this.running = false
    }
  }
}

/**
 * PGlite runs in this thread, one statement at a time. With many requests in flight each booking's dozen statements
 * take turns with every other request's, so every request waits for all of them: the tail grows with the number in
 * flight. Only `maxActive` requests work on the database at once; the others wait their turn in order (the same
 * throughput, but a request that started finishes first). Beyond `maxWaiting` waiting a new request is answered
 * busy at once instead of joining a wait that only grows, and a request that has waited `maxWaitMs` for its turn
 * is answered busy then, having done nothing: at a peak beyond what one process can serve (a morning release of
 * appointments) a patient hears 当前使用人数较多 within a second or two and may try again, rather than watching a
 * spinner for as long as the queue is, and the database does not spend its turns on requests whose phones gave up.
 */
class Admission {
  active = 0
  private readonly queue: (() => void)[] = []
  constructor(
    readonly maxActive: number,
    readonly maxWaiting: number,
    readonly maxWaitMs: number,
  ) {}
  get waiting() {
    return this.queue.length
  }
  async enter(): Promise<() => void> {
    if (this.active < this.maxActive) this.active++
    else if (this.queue.length >= this.maxWaiting) throw busy()
    // the leaving request hands its place over, so `active` stays as it is
    else
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          clearTimeout(timer)
          resolve()
        }
        // a turn handed over clears the timer first: a request that timed out is in the queue no more
        const timer = setTimeout(() => {
          this.queue.splice(this.queue.indexOf(turn), 1)
          reject(busy())
        }, this.maxWaitMs)
        this.queue.push(turn)
      })
    let left = false
    return () => {
      if (left) return
      left = true
      const next = this.queue.shift()
      if (next) next()
      else this.active--
    }
  }
}

type QueryOptions = { parsers?: Record<number, (value: string, typeId: number) => unknown> } | undefined

/**
 * drizzle passes its parsers (timestamps, dates, intervals and numeric arrays kept as PostgreSQL writes them) with
 * every statement, and PGlite then copies its map of all 318 parsers into a new object for that statement: about
 * 0.2 ms each time, as long as a simple statement takes itself. So they go into the client's own map instead, where
 * PGlite reads them without a copy. drizzle is the only caller that passes parsers; the client's other callers
 * (backup, the advisory lock) read no value of those types.
 */
function withoutParserCopies(target: PGlite, options: QueryOptions): QueryOptions {
  if (!options?.parsers) return options
  Object.assign(target.parsers, options.parsers)
  return { ...options, parsers: undefined }
}

/** A statement's arguments with its parsers set on the client (withoutParserCopies). */
function queryArgs(target: PGlite, args: unknown[]): unknown[] {
  return args.length > 2 ? [args[0], args[1], withoutParserCopies(target, args[2] as QueryOptions), ...args.slice(3)] : args
}

/** A transaction's object, whose statements set their parsers on the client (withoutParserCopies). */
function transactionWithoutParserCopies(target: PGlite, tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(tx, key, receiver) {
      const value = Reflect.get(tx, key, receiver)
      if (key !== 'query' || typeof value !== 'function') return value
      return (...args: unknown[]) => value.apply(tx, queryArgs(target, args))
    },
  })
}

/** The PGlite client drizzle is given: its statements and transactions pass through the gate. */
function gated(client: PGlite, gate: Gate): PGlite {
  return new Proxy(client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      // PGlite's methods use private fields: they must run on the client itself, not on this proxy
      switch (key) {
        case 'query':
          return (...args: unknown[]) => gate.run(() => value.apply(target, queryArgs(target, args)))
        case 'exec':
          return (...args: unknown[]) => gate.run(() => value.apply(target, args))
        case 'transaction':
          return (callback: (tx: Transaction) => Promise<unknown>) =>
            gate.run(() => target.transaction((tx) => callback(transactionWithoutParserCopies(target, tx))))
        default:
          return value.bind(target)
      }
    },
  })
}

/**
 * node-postgres sends a statement with parameters unnamed, and PostgreSQL parses and plans it again every time. A pool
 * of this client names each statement text the first time it is sent (`s0`, `s1`, ... in this process), so that each
 * connection parses it once and keeps it (the protocol's named prepared statements; PostgreSQL plans it again when a
 * table it reads changes): under the booking benchmark PostgreSQL's time a booking fell by about two fifths. Texts are
 * named up to `limit` (DB_NAMED_STATEMENTS), so that texts built anew each time (a list of varying length) cannot make
 * every connection keep statements without end; beyond it they go unnamed as before. A statement
 * without parameters (BEGIN, COMMIT, a migration, which may hold several) is left as it is: only statements with
 * parameters may be named. A statement drizzle already named (`.prepare(name)`) keeps its name, unless the limit is 0.
 */
function namingClient(limit: number): typeof pg.Client {
  const names = new Map<string, string>()
  return class NamingClient extends pg.Client {
    // node-postgres's overloads of query; the one taken here is a config object, with its values inside or beside it
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (config && typeof config === 'object' && typeof config.text === 'string') {
        if (limit === 0) config = { ...config, name: undefined }
        else if (config.name === undefined && (values?.length || config.values?.length)) {
          let name = names.get(config.text)
          if (!name && names.size < limit) names.set(config.text, (name = `s${names.size}`))
          if (name) config = { ...config, name }
        }
      }
      return super.query(config, values, callback)
    }
  }
}

/** How long a dropped LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1000

/**
 * A dedicated connection that LISTENs on a channel and connects again when the server drops it, every RELISTEN_MS
 * until it is back (a failed attempt tries again too).
 */
async function pgListen(url: string, channel: string, handler: (payload: string) => void, onState?: (listening: boolean) => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | null = null
  const again = () => {
    if (stopped) return
    retry = setTimeout(() => {
      connect().then(
        () => onState?.(true),
        (err: Error) => {
          process.emitWarning(`LISTEN ${channel} could not connect again: ${err.message}`)
          again()
        },
      )
    }, RELISTEN_MS)
  }
  const connect = async () => {
    const c = new pg.Client({ connectionString: url })
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handler(n.payload)
    })
    c.on('error', (err) => {
      void c.end().catch(() => undefined)
      if (client !== c) return // failed while connecting: connect() rejects and its caller decides
      process.emitWarning(`LISTEN ${channel} connection lost: ${err.message}`)
      client = null
      onState?.(false)
      again()
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    } catch (err) {
      await c.end().catch(() => undefined)
      throw err
    }
    if (stopped) await c.end().catch(() => undefined)
    else client = c
  }
  await connect()
  return async () => {
    stopped = true
    if (retry) clearTimeout(retry)
    await client?.end().catch(() => undefined)
  }
}

/** Walks a driver error and its causes for a unique violation and answers the constraint's name. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? ''
  }
  return null
}

/** The rows of a raw `execute` (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

export const migrationsFolder = join(__dirname, '..', '..', 'drizzle')

/** The advisory lock every server process takes to migrate (any fixed number nothing else locks on: "h5mg"). */
export const MIGRATION_LOCK_KEY = 0x68356d67
/** The advisory lock under which a starting server seeds ("h5sd"). */
export const SEED_LOCK_KEY = 0x68357364
/** The advisory locks of the timers (jobs.ts): the order sweep ("h5sw") and closing overdue consultations ("h5oc"). */
export const SWEEP_LOCK_KEY = 0x68357377
export const OVERDUE_LOCK_KEY = 0x68356f63

/**
 * Runs `work` under a PostgreSQL advisory lock held on a connection of its own: processes starting together on one
 * database take turns (two migrating at once race to create drizzle's table and apply a migration twice; two seeding
 * an empty database at once would seed it twice). The others wait, then find the work done.
 */
export async function withAdvisoryLock<T>(url: string, key: number, work: () => Promise<T>): Promise<T> {
  const lock = new pg.Client({ connectionString: url })
  await lock.connect()
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [key])
    return await work()
  } finally {
    // ending the session releases the lock too; unlocking first frees the next process without waiting for that
    await lock.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined)
    await lock.end().catch(() => undefined)
  }
}

/** PostgreSQL when a URL is given, otherwise PGlite in `dataDir/pgdata` (or an already open PGlite, for tests). */
export async function openDatabase(opts: {
  url: string | null
  dataDir: string
  pglite?: PGlite
  countQueries?: boolean
} & Partial<DatabaseSettings>): Promise<Database> {
  const logger = opts.countQueries ? countingLogger : undefined
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? DATABASE_DEFAULTS.poolSize,
      Client: namingClient(opts.namedStatements ?? DATABASE_DEFAULTS.namedStatements),
    })
    // an idle connection the server closes (a restart, a failover) leaves the pool and is replaced on next use;
    // without a listener node-postgres raises it as an uncaught error and the process dies
    pool.on('error', (err) => process.emitWarning(`PostgreSQL closed an idle connection: ${err.message}`))
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db
    await withAdvisoryLock(opts.url, MIGRATION_LOCK_KEY, () => migratePg(db as never, { migrationsFolder }))
    const url = opts.url
    return {
      db,
      kind: 'postgres',
      url,
      listen: (channel, handler, onState) => pgListen(url, channel, handler, onState),
      async unlessRunningElsewhere(key, work) {
        const client = await pool.connect()
        // a connection that failed to unlock leaves the pool: ending it is what releases its lock
        let broken: Error | undefined
        try {
          const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key])
          if (!rows[0]?.ok) return null
          try {
            return await work()
          } finally {
            await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((err: Error) => (broken = err))
          }
        } finally {
          client.release(broken)
        }
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    }
  }
  let client = opts.pglite
  if (!client) {
    const dir = join(opts.dataDir, 'pgdata')
    mkdirSync(dir, { recursive: true }) // PGlite does not create the parent folder (stack notes)
    client = await PGlite.create(dir)
  }
  const gate = new Gate()
  const admission = new Admission(
    opts.activeRequests ?? DATABASE_DEFAULTS.activeRequests,
    opts.queueMax ?? DATABASE_DEFAULTS.queueMax,
    opts.queueWaitMs ?? DATABASE_DEFAULTS.queueWaitMs,
  )
  const db = drizzlePglite(gated(client, gate), { schema, logger }) as unknown as Db
  await migratePglite(db as never, { migrationsFolder })
  const owned = !opts.pglite
  const pglite = client
  return {
    db,
    kind: 'pglite',
    url: null,
    async listen(channel, handler) {
      const stop = await pglite.listen(channel, handler)
      return async () => stop()
    },
    unlessRunningElsewhere: (_key, work) => work(),
    queueStats: () => ({ ...gate.stats, requests: admission.active, waitingRequests: admission.waiting }),
    admit: () => admission.enter(),
    close: async () => (owned ? pglite.close() : undefined),
  }
}

/**
 * A new database on a PostgreSQL server, for a test run or a benchmark that must not touch anyone's data: empty, or
 * a copy of `template` (a database nobody is connected to); answers its URL and a function that drops it (closing
 * whatever is still connected).
 */
export async function scratchDatabase(serverUrl: string, prefix: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}
