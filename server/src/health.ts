import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrationsFolder, rowsOf, type Database } from './db'

/** Where the process is in its life; a SIGTERM drain (drain.ts) sets `draining`, and readiness answers 503 from then on. */
export interface Lifecycle {
  draining: boolean
}

/** A database that has not answered by then is as good as down to a load balancer (its own check times out soon after). */
export const READY_TIMEOUT_MS = 3000

interface JournalEntry {
  tag: string
  when: number
}

let shipped: JournalEntry[] | null = null

/** The migrations this server was built with (drizzle-kit's journal): drizzle records each one applied by its `when`. */
function shippedMigrations(): JournalEntry[] {
  shipped ??= (JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }).entries
  return shipped
}

/** The tags of the shipped migrations the database has not recorded as applied. */
export async function missingMigrations(database: Database): Promise<string[]> {
  const rows = rowsOf<{ created_at: string | number | bigint }>(await database.db.execute(sql`SELECT created_at FROM drizzle.__drizzle_migrations`))
  const applied = new Set(rows.map((r) => Number(r.created_at)))
  return shippedMigrations()
    .filter((m) => !applied.has(m.when))
    .map((m) => m.tag)
}

/** The driver's error, or one of its causes, says the table does not exist (42P01): nothing was ever migrated. */
function undefinedTable(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '42P01') return true
  return false
}

/**
 * Why this process should get no traffic now, or null when it may: it is draining, its database does not answer
 * (in time), or a migration it needs is not applied. The reasons are for an operator and say nothing secret.
 */
export async function unreadyReason(database: Database, lifecycle: Lifecycle, onError: (err: unknown) => void): Promise<string | null> {
  if (lifecycle.draining) return 'draining'
  let timer: NodeJS.Timeout | undefined
  try {
    const missing = await Promise.race([
      missingMigrations(database),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)
      }),
    ])
    return missing.length ? `migrations not applied: ${missing.join(', ')}` : null
  } catch (err) {
    if (undefinedTable(err)) return 'migrations not applied: none recorded'
    onError(err)
    return 'database unavailable'
  } finally {
    clearTimeout(timer)
  }
}
