#!/usr/bin/env node
// `npm run bench`: prints figures, asserts nothing.
//  1. H5 first load: the JS and CSS the browser fetches to show the home page of /h5/, gzip bytes, and the largest
//     packages and files in it.
//  2. Server: requests per second and latency percentiles of the home-page config call beside a bare route,
//     on the embedded PGlite and, when BENCH_DATABASE_URL is set, on that PostgreSQL server (in a database of its own).
//  3. Booking: registrations per second and latency percentiles of POST /dld-palm/api/register, each a different
//     patient taking a free place, with BENCH_CONNECTIONS requests in flight, in the same runs.
//  4. Bills: POST /dld-palm/api/payment/unpaid/list per second and its percentiles (each request a patient with three
//     unpaid bills in the sandbox HIS); then bill payments per second, each paying one patient's bills as one order:
//     payment/init and the sandbox cashier's confirm (the settlement with the HIS follows on the notification).
//  5. Reports: POST /dld-palm/api/report/list (a patient's lab reports, from the sandbox HIS, with unread marks and the
//     audit row) and POST /assay/detail (one lab report with its items), per second and percentiles, each request one
//     of the account holders with three reports.
//  6. Pharmacy: POST /dld-rpflow/api/order/place per second and its percentiles, each a shop order of one medicine for
//     pickup by one of the bookers (stock taken, the order, its lines and step, and its payment order in one transaction).
//  7. Chat: BENCH_CHAT_CLIENTS (1,000) WebSocket clients of our own chat service, doctors and patients: the server's
//     heap per idle connection; delivery p50/p99 (sending to arrival on the doctor's connection) at a steady
//     BENCH_CHAT_RATE (200) messages per second spread over the patients; then the most messages per second with
//     every patient writing, one message in flight each (there the latency is mostly the queue).
//  8. Plugins: the bare route's requests per second on a bare Fastify app with no plugins, on our server, and on our
//     server with each of its per-request parts switched off in turn (logging, helmet, compress, rate limit, metrics):
//     what each costs, in the same run.
// BENCH_ONLY=firstload,server,booking,bills,reports,pharmacy,chat,plugins runs only those sections (all by default).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import { chromium } from 'playwright-core'
import WebSocket from 'ws'

const root = join(import.meta.dirname, '..', '..')
/** The H5 build measured and served (config/index.ts puts it under BUILD_ROOT, dist by default). */
const buildRoot = resolve(root, process.env.BUILD_ROOT ?? 'dist')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** CALLER_LIMITS.order.max of server/src/domain/limits.ts: the bookings one account may make in an hour. */
const ORDERS_PER_ACCOUNT = 100

function startServer(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/bench/serve.ts'], { cwd: root, env: { ...process.env, H5_DIR: join(buildRoot, 'h5'), ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    const read = (chunk) => {
      out += chunk
      const end = out.indexOf('\n')
      if (end < 0) return
      child.stdout.off('data', read)
      resolve({ child, ...JSON.parse(out.slice(0, end)) })
    }
    child.stdout.on('data', read)
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
}

const memory = async (port) => (await fetch(`http://127.0.0.1:${port}/bench/memory`)).json()

function openChat(port, sig) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

async function chat(port, { doctors, patients }) {
  const before = await memory(port)
  const sent = new Map() // clientId -> time sent
  const latencies = []
  const desks = []
  for (let i = 0; i < doctors.length; i += 50) desks.push(...(await Promise.all(doctors.slice(i, i + 50).map((d) => openChat(port, d.sig)))))
  const phones = []
  for (let i = 0; i < patients.length; i += 50) phones.push(...(await Promise.all(patients.slice(i, i + 50).map((p) => openChat(port, p.sig)))))
  await new Promise((r) => setTimeout(r, 1000))
  const idle = await memory(port)
  const clients = desks.length + phones.length
  for (const ws of desks) {
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw))
      if (f.op !== 'message') return
      const at = sent.get(f.message.payload)
      if (at !== undefined) latencies.push(performance.now() - at)
    })
  }
  const percentile = (q) => {
    const sorted = [...latencies].sort((a, b) => a - b)
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
  }

  // steady load: one message every 1000/RATE ms from the next patient in turn
  const RATE = Number(process.env.BENCH_CHAT_RATE ?? 200)
  let n = 0
  await new Promise((resolve) => {
    const stopAt = Date.now() + SECONDS * 1000
    const timer = setInterval(() => {
      if (Date.now() >= stopAt) return clearInterval(timer), resolve()
      for (let k = 0; k < RATE / 100; k++) {
        const i = n++ % phones.length
        const id = `s${n}p${i}steady`
        sent.set(id, performance.now())
        phones[i].send(JSON.stringify({ op: 'send', id, message: { clientId: id.padEnd(12, '0'), to: doctors[i % doctors.length].account, type: 'text', payload: id } }))
      }
    }, 10)
  })
  await new Promise((r) => setTimeout(r, 1000)) // the last deliveries
  const steady = { sent: n, arrived: latencies.length, p50: percentile(0.5), p99: percentile(0.99) }
  latencies.length = 0

  let delivered = 0
  let failed = 0
  const until = Date.now() + SECONDS * 1000
  let seq = 0
  const writer = (ws, i) =>
    new Promise((resolve) => {
      const next = () => {
        if (Date.now() >= until) return resolve()
        const id = `m${i}x${++seq}`
        sent.set(id, performance.now())
        ws.send(JSON.stringify({ op: 'send', id, message: { clientId: `${id}bench${i}`.padEnd(12, '0'), to: doctors[i % doctors.length].account, type: 'text', payload: id } }))
      }
      ws.once('close', resolve) // refused (too fast) or dropped: this writer stops
      ws.on('message', (raw) => {
        const f = JSON.parse(String(raw))
        if (f.op !== 'reply') return
        if (f.ok) delivered++
        else failed++
        next()
      })
      next()
    })
  const started = Date.now()
  await Promise.all(phones.map(writer))
  const elapsed = (Date.now() - started) / 1000
  await new Promise((r) => setTimeout(r, 500)) // the last deliveries
  for (const ws of [...desks, ...phones]) ws.terminate()
  return {
    clients,
    heapPerConnectionKB: ((idle.heapUsed + idle.external - before.heapUsed - before.external) / clients / 1024).toFixed(1),
    rate: RATE,
    steady,
    mps: Math.round(delivered / elapsed),
    arrived: latencies.length,
    failed,
    p50: percentile(0.5),
    p99: percentile(0.99),
  }
}

async function firstLoad(port) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
  const assets = new Set()
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    if (/\.(js|css)$/.test(path)) assets.add(path)
  })
  await page.goto(`http://127.0.0.1:${port}/h5/?hospitalCode=10392`)
  await page.waitForURL(/\/pages\/sys\/merge\/index/, { timeout: 30_000 })
  await page.getByText('预约挂号').waitFor({ timeout: 30_000 })
  await browser.close()
  let js = 0
  let css = 0
  for (const path of assets) {
    const bytes = gzipSync(readFileSync(join(buildRoot, path)), { level: 9 }).length
    if (path.endsWith('.js')) js += bytes
    else css += bytes
  }
  return { files: assets.size, js, css, largest: largestModules([...assets]) }
}

/**
 * The packages and project files the first load's scripts are made of, largest first, with their sizes before
 * minification (config/bundleStats.ts writes them at each H5 production build).
 */
function largestModules(assets, count = 15) {
  const statsFile = join(buildRoot, 'h5-bundle-stats.json')
  if (!existsSync(statsFile)) return []
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'))
  const sizes = new Map()
  for (const path of assets) {
    for (const [name, size] of Object.entries(stats[path.replace(/^\/h5\//, '')] ?? {})) sizes.set(name, (sizes.get(name) ?? 0) + size)
  }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, count)
}

async function load(port, path) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: SECONDS })
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
}

/**
 * Books free places as fast as `CONNECTIONS` clients can for `SECONDS`: each request a different patient on a place
 * that patient may take (one per department, day and segment). Answers bookings per second and latency percentiles.
 */
async function bookings(port, bookers, places) {
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
  const latencies = []
  let booked = 0
  let refused = 0
  const reasons = new Map()
  let next = 0
  const until = Date.now() + SECONDS * 1000
  const started = Date.now()
  async function client() {
    while (Date.now() < until && next < jobs.length) {
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
  const elapsed = (Date.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return { rps: Math.round(booked / elapsed), booked, refused, reasons, p50: at(0.5), p99: at(0.99), exhausted: next >= jobs.length }
}

/** Percentiles of a list of latencies (ms), sorted in place. */
function percentiles(latencies) {
  latencies.sort((a, b) => a - b)
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return { p50: at(0.5), p99: at(0.99) }
}

const api = async (port, token, path, body, form = false) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
  })
  return form ? { code: res.ok ? 200 : res.status } : res.json()
}

/**
 * Outpatient bills: the unpaid list as fast as CONNECTIONS clients can for SECONDS (each request one of the payers),
 * then each payer's bills paid as one order (init, then the sandbox cashier's confirm), CONNECTIONS in flight.
 */
async function bills(port, payers) {
  const hospitalCode = '10392'
  const list = (p) => api(port, p.token, '/dld-palm/api/payment/unpaid/list', { hospitalCode, patientId: p.patientId })
  let latencies = []
  let listed = 0
  let errors = 0
  let next = 0
  const until = Date.now() + SECONDS * 1000
  let started = Date.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const p = payers[next++ % payers.length]
        const t0 = performance.now()
        const env = await list(p)
        latencies.push(performance.now() - t0)
        if (env.code === 200) listed++
        else errors++
      }
    }),
  )
  const listFigures = { rps: Math.round(listed / ((Date.now() - started) / 1000)), ...percentiles(latencies), errors }

  // what each payer pays (not timed)
  const jobs = []
  for (const p of payers) {
    const env = await list(p)
    const billNos = (env.data ?? []).flatMap((v) => v.bills.filter((b) => !b.paying).map((b) => b.billNo))
    if (billNos.length) jobs.push({ ...p, billNos })
  }
  latencies = []
  let paid = 0
  const reasons = new Map()
  next = 0
  started = Date.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]
        const t0 = performance.now()
        const env = await api(port, job.token, '/dld-palm/api/payment/init', {
          hospitalCode,
          patientId: job.patientId,
          billNos: job.billNos.join(','),
          returnUrl: '/h5/pages/order/payment/detail?source=pay',
          idempotencyKey: `bench-bill-${job.patientId}-${Date.now()}`,
        })
        if (env.code !== 200) {
          reasons.set(env.msg, (reasons.get(env.msg) ?? 0) + 1)
          continue
        }
        const q = new URL(env.data.action.url, 'http://x').searchParams
        const confirmed = await api(port, null, '/sandbox/pay/cashier', { orderNo: q.get('orderNo'), returnUrl: q.get('returnUrl'), sign: q.get('sign'), action: 'confirm' }, true)
        latencies.push(performance.now() - t0)
        if (confirmed.code === 200) paid++
        else reasons.set(`cashier HTTP ${confirmed.code}`, (reasons.get(`cashier HTTP ${confirmed.code}`) ?? 0) + 1)
      }
    }),
  )
  const elapsed = (Date.now() - started) / 1000
  return { list: listFigures, pay: { rps: Math.round(paid / elapsed), paid, of: jobs.length, ...percentiles(latencies), reasons } }
}

/** Reads as fast as CONNECTIONS clients can for SECONDS, each request the next of `jobs`; answers rate and percentiles. */
async function readLoop(jobs, call) {
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

/** Reports: each reader's lab report list, then one lab report's detail (both audited, as every read of one is). */
async function reports(port, readers) {
  const hospitalCode = '10392'
  const list = (r) => api(port, r.token, '/dld-palm/api/report/list', { hospitalCode, patientId: r.patientId, kind: 'lab', page: 1, size: 10 })
  const listFigures = await readLoop(readers, list)
  const details = []
  for (const r of readers) {
    const env = await list(r)
    const first = env.data?.records?.[0]
    if (first) details.push({ token: r.token, id: first.id })
  }
  const detailFigures = await readLoop(details, (d) => api(port, d.token, '/dld-palm/api/assay/detail', { id: d.id }))
  return { list: listFigures, detail: detailFigures }
}

/**
 * Pharmacy orders placed as fast as CONNECTIONS clients can for SECONDS: shop orders of one over-the-counter medicine
 * for pickup, the bookers in turn (within the per-account order limit), each order under its own key; every one takes
 * stock from the same row.
 */
async function pharmacyOrders(port, bookers, shelf) {
  const jobs = Array.from({ length: bookers.length * ORDERS_PER_ACCOUNT }, (_, n) => ({ token: bookers[n % bookers.length].token, key: `bench-rx-${String(n).padStart(8, '0')}` }))
  return readLoop(jobs, (job) =>
    api(port, job.token, '/dld-rpflow/api/order/place', { source: 'shop', lines: [{ drugId: shelf.drugId, quantity: 1 }], storeId: shelf.storeId, delivery: 'pickup', idempotencyKey: job.key }),
  )
}

const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null
const want = (section) => !ONLY || ONLY.has(section)
/** The sections that need the seeded patients, bills and chat clients of serve.ts. */
const FIXTURE_SECTIONS = ['booking', 'bills', 'reports', 'pharmacy', 'chat']

async function stopServer(server) {
  await new Promise((resolve) => {
    server.child.once('exit', resolve)
    server.child.kill()
  })
}

const dbStats = async (port) => (await fetch(`http://127.0.0.1:${port}/bench/db`)).json()

/** The bare route on a bare Fastify app, on our server, and on our server without each of its parts. */
async function plugins() {
  const variants = [
    ['bare Fastify, no plugins', { BENCH_PLAIN: '1' }],
    ['our server', {}],
    ...['logging', 'helmet', 'compress', 'rateLimit', 'metrics'].map((part) => [`  without ${part}`, { BENCH_WITHOUT: part }]),
    ['  without all of them', { BENCH_WITHOUT: 'logging,helmet,compress,rateLimit,metrics' }],
  ]
  console.log(`\nPlugins: the bare route, ${CONNECTIONS} connections, ${SECONDS} s each (PGlite, no fixtures):`)
  let plain = 0
  let ours = 0
  for (const [label, env] of variants) {
    const server = await startServer({ BENCH_FIXTURES: '0', ...env })
    try {
      const r = await load(server.port, '/bench/bare')
      if (env.BENCH_PLAIN) plain = r.rps
      const share = plain ? ` (${Math.round((100 * r.rps) / plain)} % of bare Fastify)` : ''
      const cost = ours && env.BENCH_WITHOUT ? `   the part costs ${Math.round(100 * (1 - ours / r.rps))} % of a request` : ''
      if (label === 'our server') ours = r.rps
      console.log(`  ${label.padEnd(28)} ${String(r.rps).padStart(7)} req/s${share}   p50 ${r.p50} ms   p99 ${r.p99} ms   errors ${r.errors}${cost}`)
    } finally {
      await stopServer(server)
    }
  }
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const runs = [{ name: 'PGlite (embedded)', env: {} }]
if (process.env.BENCH_DATABASE_URL) runs.push({ name: 'PostgreSQL', env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } })

for (const [i, run] of runs.entries()) {
  if (!['firstload', 'server', ...FIXTURE_SECTIONS].some(want)) break
  const server = await startServer({ ...run.env, ...(FIXTURE_SECTIONS.some(want) ? {} : { BENCH_FIXTURES: '0' }) })
  try {
    if (i === 0 && want('firstload')) {
      const fl = await firstLoad(server.port)
      console.log(`H5 first load of /h5/ (home of 10392): ${fl.files} files, JS ${kb(fl.js)} + CSS ${kb(fl.css)} = ${kb(fl.js + fl.css)} gzip`)
      if (fl.largest.length) console.log(`  largest in it (before minification): ${fl.largest.map(([name, size]) => `${name} ${kb(size)}`).join(', ')}`)
    }
    console.log(`\nServer on ${run.name}, ${CONNECTIONS} connections, ${SECONDS} s each (client and server share the machine):`)
    for (const [label, path] of want('server')
      ? [
          ['bare route', '/bench/bare'],
          ['home-page config', '/dld-hospital/common/homePageConfig?hospitalCode=10392'],
        ]
      : []) {
      const r = await load(server.port, path)
      console.log(`  ${label.padEnd(18)} ${String(r.rps).padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   errors ${r.errors}`)
    }
    if (want('booking')) {
      const before = await dbStats(server.port)
      const b = await bookings(server.port, server.bookers, server.places)
      console.log(
        `  ${'registration'.padEnd(18)} ${String(b.rps).padStart(7)} bookings/s   p50 ${b.p50} ms   p99 ${b.p99} ms   ` +
          `(${b.booked} booked, ${b.refused} refused${b.exhausted ? ', ran out of free places' : ''})`,
      )
      for (const [msg, n] of b.reasons) console.log(`    refused ${n}: ${msg}`)
      const after = await dbStats(server.port)
      if (before && after) {
        // PGlite's one connection during the bookings: how long each statement or transaction waited for it and held it
        const ops = after.ops - before.ops
        const per = (ms) => (ops ? (ms / ops).toFixed(2) : '0')
        console.log(
          `    PGlite connection: ${ops} statements and transactions, each waited ${per(after.waitMs - before.waitMs)} ms and held it ${per(after.runMs - before.runMs)} ms on average; longest queue ${after.maxWaiting}`,
        )
      }
    }
    if (!['bills', 'reports', 'pharmacy', 'chat'].some(want)) continue
    const o = await bills(server.port, server.billPayers)
    console.log(`  ${'unpaid bills list'.padEnd(18)} ${String(o.list.rps).padStart(7)} req/s   p50 ${o.list.p50} ms   p99 ${o.list.p99} ms   errors ${o.list.errors}`)
    console.log(`  ${'bill payment'.padEnd(18)} ${String(o.pay.rps).padStart(7)} payments/s   p50 ${o.pay.p50} ms   p99 ${o.pay.p99} ms   (${o.pay.paid} of ${o.pay.of} paid: init and cashier)`)
    for (const [msg, n] of o.pay.reasons) console.log(`    refused ${n}: ${msg}`)
    const r = await reports(server.port, server.reportReaders)
    console.log(`  ${'lab report list'.padEnd(18)} ${String(r.list.rps).padStart(7)} req/s   p50 ${r.list.p50} ms   p99 ${r.list.p99} ms   errors ${r.list.errors}`)
    console.log(`  ${'lab report detail'.padEnd(18)} ${String(r.detail.rps).padStart(7)} req/s   p50 ${r.detail.p50} ms   p99 ${r.detail.p99} ms   errors ${r.detail.errors}`)
    const ph = await pharmacyOrders(server.port, server.bookers, server.pharmacy)
    console.log(`  ${'pharmacy order'.padEnd(18)} ${String(ph.rps).padStart(7)} orders/s   p50 ${ph.p50} ms   p99 ${ph.p99} ms   errors ${ph.errors}`)
    const c = await chat(server.port, server.chat)
    console.log(`  chat, ${c.clients} connected clients: ${c.heapPerConnectionKB} KB heap per idle connection`)
    console.log(`  ${'  steady'.padEnd(18)} ${String(c.rate).padStart(7)} messages/s   delivery p50 ${c.steady.p50} ms   p99 ${c.steady.p99} ms   (${c.steady.arrived} of ${c.steady.sent} delivered)`)
    console.log(`  ${'  flat out'.padEnd(18)} ${String(c.mps).padStart(7)} messages/s   delivery p50 ${c.p50} ms   p99 ${c.p99} ms   (${c.arrived} delivered, ${c.failed} refused)`)
  } finally {
    // the server drops its own database on the way out
    await stopServer(server)
  }
}
if (want('plugins')) await plugins()
