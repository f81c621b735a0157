/**
 * Per-caller limits on the calls that cost the hospital something: a model's answer, an SMS, an order or a payment.
 * Counted per account (the user, or the WeChat/Alipay identity before a mobile is bound) in fixed windows kept in
 * rate_counters, so every server process counts the same calls; the per-address limits of route.ts stay on top.
 * A patient never meets them in ordinary use: they stop a script, or a stolen token, from running up costs.
 */
import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../db'
import { rateCounters } from '../db/schema'
import { AppError, Code } from '../errors'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

export interface CallerLimit {
  max: number
  windowMs: number
}

/** The limits, by what a call costs. */
export const CALLER_LIMITS = {
  /** 智能导诊: each answer may cost a model call. */
  ai: { max: 30, windowMs: HOUR },
  /** SMS codes asked by one account (each mobile has its own limits too, domain/auth.ts). */
  sms: { max: 20, windowMs: HOUR },
  /** Orders created: bookings, consultations, gifts (a family booking for everyone makes a handful). */
  order: { max: 100, windowMs: HOUR },
  /** Payments started (each opens a cashier or a provider's prepay). */
  pay: { max: 200, windowMs: HOUR },
} satisfies Record<string, CallerLimit>

export const tooMany = (seconds: number) => new AppError(Code.TOO_MANY, `操作过于频繁，请${seconds}秒后再试`)

/** A call that counts against its caller's limit: its route (method and url) and the route's limit. */
export interface CountedCall {
  route: string
  limit: CallerLimit
}

/** The start of the fixed window a call at `now` falls in. */
export function windowStart(limit: CallerLimit, now: number): Date {
  return new Date(Math.floor(now / limit.windowMs) * limit.windowMs)
}

/**
 * Refuses a call past `limit.max`, saying when to try again. `calls`: the caller's calls in the window, this one
 * included, counted with the session's lookup (domain/auth.ts resolveToken).
 */
export function refuseOverLimit(calls: number, limit: CallerLimit, now = Date.now()): void {
  if (calls > limit.max) throw tooMany(Math.max(1, Math.ceil((windowStart(limit, now).getTime() + limit.windowMs - now) / 1000)))
}

/** Forgets windows older than a day (the order sweep calls it). */
export async function pruneRateCounters(db: Db, now = Date.now()): Promise<void> {
  await db.delete(rateCounters).where(lt(rateCounters.windowStart, new Date(now - 24 * HOUR)))
}

type RateResult = { current: number; ttl: number }
type RateCallback = (err: Error | null, res?: RateResult) => void

/**
 * The store of @fastify/rate-limit's per-address limits (sign-in, SMS, uploads), in rate_counters beside the
 * per-caller limits: its own in-memory store would let each server process count alone, so N processes would allow
 * N times the limit. Fixed windows, one row per (route, address, window); the order sweep prunes old ones.
 */
export function databaseRateStore(db: () => Db) {
  return class DatabaseRateStore {
    private readonly route: string
    /** The plugin's options; a route's child store has `routeInfo` (its method and url) among them. */
    constructor(options: object = {}) {
      const info = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo
      this.route = info?.url ? `${[info.method ?? ''].flat().join(',')} ${info.url}` : 'all'
    }

    private at(key: string, timeWindow: number, now: number) {
      const windowStart = Math.floor(now / timeWindow) * timeWindow
      return { key: `addr ${this.route} ${key}`, windowStart: new Date(windowStart), ttl: windowStart + timeWindow - now }
    }

    incr(key: string, cb: RateCallback, timeWindow: number) {
      const { ttl, ...row } = this.at(key, timeWindow, Date.now())
      db()
        .insert(rateCounters)
        .values({ ...row, count: 1 })
        .onConflictDoUpdate({ target: [rateCounters.key, rateCounters.windowStart], set: { count: sql`${rateCounters.count} + 1` } })
        .returning({ count: rateCounters.count })
        .then(([counted]) => cb(null, { current: counted?.count ?? 1, ttl }), (err: Error) => cb(err))
    }

    read(key: string, cb: RateCallback, timeWindow: number) {
      const { ttl, ...row } = this.at(key, timeWindow, Date.now())
      db()
        .select({ count: rateCounters.count })
        .from(rateCounters)
        .where(and(eq(rateCounters.key, row.key), eq(rateCounters.windowStart, row.windowStart)))
        .then(([counted]) => cb(null, { current: counted?.count ?? 0, ttl: counted ? ttl : 0 }), (err: Error) => cb(err))
    }

    child(routeOptions: object) {
      return new DatabaseRateStore(routeOptions)
    }
  }
}
