import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema'

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
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Runs `work` unless another process on this database is running work under the same key (a PostgreSQL advisory
   * lock on a pooled connection, taken without waiting), answering null when it did not run. PGlite has one process:
   * it always runs. For the timers every server process runs: one of them does each round's work.
   */
  unlessRunningElsewhere<T>(key: number, work: () => Promise<T>): Promise<T | null>
  /** The connection pool as it stands (PostgreSQL; PGlite has none), for the operator's metrics. */
  poolStats?(): { total: number; idle: number; waiting: number }
  close(): Promise<void>
}

/** How long a dropped LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1000

/** A dedicated connection that LISTENs on a channel and connects again when the server drops it. */
async function pgListen(url: string, channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | null = null
  const connect = async () => {
    const c = new pg.Client({ connectionString: url })
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handler(n.payload)
    })
    c.on('error', (err) => {
      process.emitWarning(`LISTEN ${channel} connection lost: ${err.message}`)
      if (client === c) client = null
      void c.end().catch(() => undefined)
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), RELISTEN_MS)
    })
    await c.connect()
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    client = c
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
export async function openDatabase(opts: { url: string | null; dataDir: string; pglite?: PGlite }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.DB_POOL_SIZE ?? 10) })
    // an idle connection the server closes (a restart, a failover) leaves the pool and is replaced on next use;
    // without a listener node-postgres raises it as an uncaught error and the process dies
    pool.on('error', (err) => process.emitWarning(`PostgreSQL closed an idle connection: ${err.message}`))
    const db = drizzlePg(pool, { schema }) as unknown as Db
    await withAdvisoryLock(opts.url, MIGRATION_LOCK_KEY, () => migratePg(db as never, { migrationsFolder }))
    const url = opts.url
    return {
      db,
      kind: 'postgres',
      url,
      listen: (channel, handler) => pgListen(url, channel, handler),
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
  const db = drizzlePglite(client, { schema }) as unknown as Db
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
    close: async () => (owned ? pglite.close() : undefined),
  }
}

/**
 * A new, empty database on a PostgreSQL server, for a test run or a benchmark that must not touch anyone's data:
 * answers its URL and a function that drops it (closing whatever is still connected).
 */
export async function scratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
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
