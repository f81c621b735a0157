import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Database } from './db'

/**
 * What the server counts for the hospital's monitoring (Prometheus text at `GET /metrics`, routes/operations/health.ts).
 * One registry per app, not prom-client's global one: tests build many apps in one process, and each counts its own.
 */
export interface Metrics {
  registry: Registry
  requests: Counter<'method' | 'route' | 'status_class'>
  requestSeconds: Histogram<'method' | 'route' | 'status_class'>
  chatConnections: Gauge
  orderSweeps: Counter<'outcome'>
  ordersClosed: Counter
  refundsRetried: Counter
  paymentNotifications: Counter<'provider' | 'outcome'>
}

export function createMetrics(database: Database, opts: { process: boolean }): Metrics {
  const registry = new Registry()
  const registers = [registry]
  // memory, CPU and event-loop lag; only for a server whose metrics are read (the lag monitor runs for ever)
  if (opts.process) collectDefaultMetrics({ register: registry })
  new Gauge({
    name: 'db_info',
    help: 'The database this server uses (1 for its kind)',
    labelNames: ['kind'],
    registers,
    collect() {
      this.set({ kind: database.kind }, 1)
    },
  })
  if (database.poolStats) {
    const stats = database.poolStats
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const s = stats()
        this.set({ state: 'total' }, s.total)
        this.set({ state: 'idle' }, s.idle)
        this.set({ state: 'waiting' }, s.waiting)
      },
    })
  }
  const http = ['method', 'route', 'status_class'] as const
  return {
    registry,
    requests: new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status class', labelNames: http, registers }),
    requestSeconds: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and status class',
      labelNames: http,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    chatConnections: new Gauge({ name: 'chat_connections_open', help: 'Chat WebSocket connections open on this process', registers }),
    orderSweeps: new Counter({ name: 'order_sweeps_total', help: 'Runs of the sweep that closes expired orders and retries refunds', labelNames: ['outcome'], registers }),
    ordersClosed: new Counter({ name: 'orders_closed_total', help: 'Unpaid orders the sweep closed when their time ran out', registers }),
    refundsRetried: new Counter({ name: 'refunds_retried_total', help: 'Pending refunds the sweep asked the provider for again', registers }),
    paymentNotifications: new Counter({
      name: 'payment_notifications_total',
      help: 'Payment and refund notifications received, by provider and outcome',
      labelNames: ['provider', 'outcome'],
      registers,
    }),
  }
}

/**
 * Counts every answer by its route pattern (`/dld-pay/order/:orderNo`), never the raw URL: ids in URLs would make a
 * series per order, and put order numbers in the monitoring system.
 */
export function observeRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', (req, reply, done) => {
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_class: `${Math.floor(reply.statusCode / 100)}xx` }
    metrics.requests.inc(labels)
    metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000)
    done()
  })
}
