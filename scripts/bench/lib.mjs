// What the benchmarks share: the seeded bench server (serve.ts), the loads run against it, calls to it, and latency figures.
import { execFileSync, spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'

export const root = join(import.meta.dirname, '..', '..')
/** The H5 build measured and served (config/index.ts puts it under BUILD_ROOT, dist by default). */
export const buildRoot = resolve(root, process.env.BUILD_ROOT ?? 'dist')
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** CALLER_LIMITS.order.max of server/src/domain/limits.ts: the bookings one account may make in an hour. */
export const ORDERS_PER_ACCOUNT = 100

/** Starts scripts/bench/serve.ts with `env` and answers what it prints once ready (its port and prepared data) and the child. */
export function startServer(env = {}, { cpus } = {}) {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, '--expose-gc', '--import', 'tsx', 'scripts/bench/serve.ts']
    // `cpus` (taskset's list, e.g. '1'): the server runs on those cores only (pinClient)
    const [file, ...args] = cpus ? ['taskset', '-c', cpus, ...command] : command
    const child = spawn(file, args, { cwd: root, env: { ...process.env, H5_DIR: join(buildRoot, 'h5'), ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    // the first line that is not a log line (a log level of info writes some first); what follows is let go by
    const read = (chunk) => {
      out += chunk
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = JSON.parse(out.slice(0, end))
        out = out.slice(end + 1)
        if (line.level !== undefined) continue
        child.stdout.off('data', read)
        child.stdout.resume()
        return resolve({ child, ...line })
      }
    }
    child.stdout.on('data', read)
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
}

export async function load(port, path, seconds = SECONDS) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: seconds })
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
}

/** The bookings made before the measured ones (`bookings`): twice the connections, so that every client makes some. */
export const FIRST_BOOKINGS = 2 * CONNECTIONS

/**
 * Books free places with `CONNECTIONS` clients at once: each request a different patient on a place that patient may
 * take (one per department, day and segment). First the FIRST_BOOKINGS bookings a server makes after it starts, whose
 * code the process has not run yet (`first`: their latency percentiles and the longest). Their clients connect at once,
 * as phones do at a release of appointments, and most of their tail is the connecting: since libuv 1.45 a Node process
 * accepts one new connection per turn of its event loop, and under bookings a turn of PGlite's server takes about 30 ms,
 * so the 50th connection is read about 1.5 s after the first (measured: first 100 p99 1.5-1.9 s; on 50 connections
 * opened before them, 0.8-1.2 s). Then, as on a server that has been taking bookings (a hospital's at its morning
 * release of appointments), as many as the clients can for `SECONDS`: bookings per second and latency percentiles.
 */
export async function bookings(port, bookers, places) {
  // patients taken account by account in turn (the first patient of every account, then the second ...), so that the
  // bookings spread over all accounts and none reaches the per-account order limit in the run
  const perBooker = Math.max(...bookers.map((b) => b.patientIds.length))
  const patients = []
  for (let p = 0; p < perBooker; p++) for (const b of bookers) if (p < b.patientIds.length) patients.push({ id: b.patientIds[p], token: b.token })
  const ordersOf = new Map()
  // pair places with patients so that no patient takes two places of one department, day and segment
  const nextPatient = new Map()
  const jobs = []
  for (const [scheduleId, timeRange, group] of places) {
    const n = nextPatient.get(group) ?? 0
    if (n >= patients.length) continue
    const patient = patients[n]
    if ((ordersOf.get(patient.token) ?? 0) >= ORDERS_PER_ACCOUNT) continue
    nextPatient.set(group, n + 1)
    ordersOf.set(patient.token, (ordersOf.get(patient.token) ?? 0) + 1)
    jobs.push({ scheduleId, timeRange, patient })
  }
  let next = 0
  const reasons = new Map()
  /** Books with CONNECTIONS clients until `done` says so or the jobs run out. */
  async function book(done) {
    const latencies = []
    let booked = 0
    let refused = 0
    async function client() {
      while (!done() && next < jobs.length) {
        const job = jobs[next++]
        const body = JSON.stringify({ scheduleId: job.scheduleId, patientId: job.patient.id, timeRange: job.timeRange, idempotencyKey: `bench-${String(next).padStart(8, '0')}` })
        const t0 = performance.now()
        const res = await fetch(`http://127.0.0.1:${port}/dld-palm/api/register`, {
          method: 'POST',
          headers: { authorization: `Bearer ${job.patient.token}`, 'content-type': 'application/json' },
          body,
        })
        const env = await res.json()
        latencies.push(performance.now() - t0)
        if (env.code === 200) booked++
        else {
          refused++
          reasons.set(env.msg, (reasons.get(env.msg) ?? 0) + 1)
        }
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, client))
    return { booked, refused, latencies }
  }
  const first = await book(() => next >= FIRST_BOOKINGS)
  const until = Date.now() + SECONDS * 1000
  const started = Date.now()
  const { booked, refused, latencies } = await book(() => Date.now() >= until)
  const elapsed = (Date.now() - started) / 1000
  return {
    rps: Math.round(booked / elapsed),
    booked,
    refused,
    // the refusals of both, by message
    reasons,
    ...percentiles(latencies),
    first: { booked: first.booked, refused: first.refused, ...percentiles(first.latencies), maxMs: Math.round(Math.max(0, ...first.latencies)) },
    exhausted: next >= jobs.length,
  }
}

/** The cores this process may run on, as it started (pinning it changes what availableParallelism answers). */
const CORES = availableParallelism()

/**
 * Keeps this process (the load client, all its threads) on the first core and answers the other cores (taskset's
 * list) for the server; `unpinClient` lets it run anywhere again. Answers null where taskset is missing or there is
 * one core only: nothing is pinned then.
 */
export function pinClient() {
  if (CORES < 2) return null
  try {
    execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' })
    return CORES === 2 ? '1' : `1-${CORES - 1}`
  } catch {
    return null
  }
}

export function unpinClient() {
  execFileSync('taskset', ['-a', '-cp', `0-${CORES - 1}`, String(process.pid)], { stdio: 'ignore' })
}

/** Stops the bench server (it drops its own database on the way out). */
export function stopServer(server) {
  return new Promise((resolve) => {
    server.child.once('exit', resolve)
    server.child.kill()
  })
}

/** Percentiles of a list of latencies (ms), sorted in place. */
export function percentiles(latencies) {
  latencies.sort((a, b) => a - b)
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return { p50: at(0.5), p99: at(0.99) }
}

/**
 * POSTs `body` as JSON and answers the envelope; or, `form`, as a page's form (the sandbox cashier's) and answers
 * { code: 200 } when the page sent the browser on (303, what the cashier answers a payment with; the page it sends
 * to is not fetched, so no H5 build is needed), else { code: the HTTP status }.
 */
export const api = async (port, token, path, body, form = false) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    redirect: form ? 'manual' : 'follow',
  })
  return form ? { code: res.status === 303 ? 200 : res.status } : res.json()
}

/** Reads as fast as CONNECTIONS clients can for SECONDS, each request the next of `jobs`; answers rate and percentiles. */
export async function readLoop(jobs, call) {
  const latencies = []
  let ok = 0
  let errors = 0
  let next = 0
  const started = Date.now()
  const until = started + SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const job = jobs[next++ % jobs.length]
        const t0 = performance.now()
        const env = await call(job)
        latencies.push(performance.now() - t0)
        if (env.code === 200) ok++
        else errors++
      }
    }),
  )
  return { rps: Math.round(ok / ((Date.now() - started) / 1000)), ...percentiles(latencies), errors }
}

