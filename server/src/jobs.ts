/**
 * Every timer of the server, started when the app is ready and stopped when it closes (a drain waits for the sweep
 * under way, which must not lose the database in the middle of an order):
 * - the order sweep (ORDER_SWEEP_SECONDS, 30 s): unpaid orders past their time close and free their places, refunds
 *   the patient is owed are asked again, old lock-out and rate-limit rows and one-time codes go, and the sandbox
 *   cashier delivers what it still owes;
 * - overdue consultations (each minute): a consultation whose service window ran out closes, refunded when never
 *   accepted (checking one closes it on the spot too);
 * - the schedule window (each hour): the rolling window of bookable days moves on with the hospital's date.
 * The last two do not run in tests, which call them directly. With several server processes on one database, each
 * round of the first two runs in one of them (an advisory lock); the schedule window's insert skips what exists.
 */
import type { FastifyInstance } from 'fastify'
import { closeExpiredOrders, retryPendingRefunds } from './domain/payment'
import { closeOverdueInquiries } from './domain/inquiry'
import { hospitalToday } from './domain/register'
import { pruneLoginFailures, pruneStaffSessions } from './domain/staff'
import { pruneRateCounters } from './domain/limits'
import { pruneOneTimeCodes, pruneSessions } from './domain/auth'
import { ensureSchedules } from './seed/register'
import { OVERDUE_LOCK_KEY, SWEEP_LOCK_KEY } from './db'

const OVERDUE_INQUIRIES_MS = 60 * 1000
const SCHEDULE_WINDOW_MS = 60 * 60 * 1000

export function startJobs(app: FastifyInstance): void {
  const { config, providers, metrics } = app.ctx
  const db = () => app.ctx.db
  const timers: NodeJS.Timeout[] = []
  const every = (ms: number, run: () => void) => {
    const timer = setInterval(run, ms)
    timer.unref()
    timers.push(timer)
  }
  /**
   * Every server process on the database runs these timers; one of them does each round's work, the others skip it
   * (two sweeps at once would ask the payment provider for the same refunds and deliver the sandbox cashier's
   * notifications twice). Answers null when skipped.
   */
  const once = <T>(key: number, work: () => Promise<T>) => app.ctx.database.unlessRunningElsewhere(key, work)
  /** The order sweep under way, which closing waits for. */
  let sweeping: Promise<unknown> | null = null

  app.addHook('onReady', async () => {
    // what the sandbox cashier still owes this server (a crash between taking the money and telling it), not awaited:
    // its deliveries go through this app, which is ready only once this hook returns
    const { sandbox } = providers.pay
    if (sandbox) void once(SWEEP_LOCK_KEY, () => sandbox.deliverOwed()).catch((err) => app.log.error({ err }, 'sandbox notifications failed'))

    if (config.orderSweepMs > 0) {
      every(config.orderSweepMs, () => {
        if (sweeping) return
        sweeping = once(SWEEP_LOCK_KEY, () =>
          Promise.all([
            closeExpiredOrders(db(), new Date(), (orderId, err) => app.log.error({ err, orderId }, 'closing an expired order failed')).then((n) =>
              metrics.ordersClosed.inc(n),
            ),
            retryPendingRefunds(db(), providers, new Date(), undefined, (orderId) =>
              app.log.error({ orderId }, 'a refund the patient is owed was refused again and again: staff must return the money'),
            ).then((n) => metrics.refundsRetried.inc(n)),
            pruneLoginFailures(db()),
            pruneRateCounters(db()),
            pruneOneTimeCodes(db()),
            pruneSessions(db()),
            pruneStaffSessions(db()),
            providers.pay.sandbox?.deliverOwed(),
          ]),
        )
          .then((ran) => metrics.orderSweeps.inc({ outcome: ran ? 'ok' : 'elsewhere' }))
          .catch((err) => {
            metrics.orderSweeps.inc({ outcome: 'failed' })
            app.log.error({ err }, 'order sweep failed')
          })
          .finally(() => (sweeping = null))
      })
    }

    if (config.mode === 'test') return
    every(OVERDUE_INQUIRIES_MS, () => {
      once(OVERDUE_LOCK_KEY, () =>
        closeOverdueInquiries(db(), providers, new Date(), (inquiryId, err) => app.log.error({ err, inquiryId }, 'closing an overdue inquiry failed')),
      ).catch((err) => app.log.error({ err }, 'closing overdue inquiries failed'))
    })
    // the sandbox HIS's schedules: seeding fills the window at start; from then on it moves when the date does (a real
    // HIS keeps its own)
    let filledFor = hospitalToday(new Date())
    if (providers.his.kind === 'sandbox') every(SCHEDULE_WINDOW_MS, () => {
      const today = hospitalToday(new Date())
      if (today === filledFor) return
      ensureSchedules(db(), today)
        .then(() => (filledFor = today))
        .catch((err) => app.log.error({ err }, 'filling the schedule window failed'))
    })
  })

  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer)
    await sweeping
    providers.pay.close()
  })
}
