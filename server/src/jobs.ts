/**
 * Every timer of the server, started when the app is ready and stopped when it closes (a drain waits for the sweep
 * under way, which must not lose the database in the middle of an order):
 * - the order sweep (ORDER_SWEEP_SECONDS, 30 s): unpaid orders past their time close and free their places, refunds
 *   the patient is owed are asked again, old lock-out and rate-limit rows go, and the sandbox cashier delivers what it
 *   still owes;
 * - overdue consultations (each minute): a consultation whose service window ran out closes, refunded when never
 *   accepted (checking one closes it on the spot too);
 * - the schedule window (each hour): the rolling window of bookable days moves on with the hospital's date.
 * The last two do not run in tests, which call them directly.
 */
import type { FastifyInstance } from 'fastify'
import { closeExpiredOrders, retryPendingRefunds } from './domain/payment'
import { closeOverdueInquiries } from './domain/inquiry'
import { hospitalToday } from './domain/register'
import { pruneLoginFailures } from './domain/staff'
import { pruneRateCounters } from './domain/limits'
import { ensureSchedules } from './seed/register'

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
  /** The order sweep under way, which closing waits for. */
  let sweeping: Promise<unknown> | null = null

  app.addHook('onReady', async () => {
    // what the sandbox cashier still owes this server (a crash between taking the money and telling it), not awaited:
    // its deliveries go through this app, which is ready only once this hook returns
    if (providers.pay.sandbox) void providers.pay.sandbox.deliverOwed().catch((err) => app.log.error({ err }, 'sandbox notifications failed'))

    if (config.orderSweepMs > 0) {
      every(config.orderSweepMs, () => {
        if (sweeping) return
        sweeping = Promise.all([
          closeExpiredOrders(db(), new Date(), (orderId, err) => app.log.error({ err, orderId }, 'closing an expired order failed')).then((n) =>
            metrics.ordersClosed.inc(n),
          ),
          retryPendingRefunds(db(), providers, new Date(), undefined, (orderId) =>
            app.log.error({ orderId }, 'a refund the patient is owed was refused again and again: staff must return the money'),
          ).then((n) => metrics.refundsRetried.inc(n)),
          pruneLoginFailures(db()),
          pruneRateCounters(db()),
          providers.pay.sandbox?.deliverOwed(),
        ])
          .then(() => metrics.orderSweeps.inc({ outcome: 'ok' }))
          .catch((err) => {
            metrics.orderSweeps.inc({ outcome: 'failed' })
            app.log.error({ err }, 'order sweep failed')
          })
          .finally(() => (sweeping = null))
      })
    }

    if (config.mode === 'test') return
    every(OVERDUE_INQUIRIES_MS, () => {
      closeOverdueInquiries(db(), providers, new Date(), (inquiryId, err) => app.log.error({ err, inquiryId }, 'closing an overdue inquiry failed')).catch((err) =>
        app.log.error({ err }, 'closing overdue inquiries failed'),
      )
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
