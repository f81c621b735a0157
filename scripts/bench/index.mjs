#!/usr/bin/env node
// `npm run bench`: prints figures, asserts nothing.
//  1. H5 first load: the JS and CSS the browser fetches to show the home page of /h5/, gzip bytes, and the largest
//     packages and files in it; then Lighthouse's mobile figures of the home, department list and my consultations,
//     and of a bare Taro 4 + NutUI + MobX app of one page beside them (bareApp.mjs: the floor of this stack); in a
//     throttled Chromium, the home's largest paint and how soon a visitor with no mobile bound who opens the
//     department list sees the bind page (lighthouse.mjs).
//  2. Server: requests per second and latency percentiles of the home-page config call beside a bare route,
//     on the embedded PGlite and, when BENCH_DATABASE_URL is set, on that PostgreSQL server (in a database of its own).
//  3. Booking: registrations per second and latency percentiles of POST /dld-palm/api/register, each a different
//     patient taking a free place, with BENCH_CONNECTIONS requests in flight, in the same runs, after the server's
//     first bookings (printed apart: the process runs their code for the first time, and the clients connect then);
//     how late the server's event loop ran meanwhile (a request the server has not read yet waits that long, out
//     of its sight); and the server process's CPU time per booking, the first ones included (all of its threads; on
//     PGlite it holds the database's work, while PostgreSQL's backends are processes of their own); and the busy time
//     of all the machine's cores per booking (the server's, this load client's, and the rest: PostgreSQL's backends
//     when it runs on this machine), with the bookings a second the cores could make at that cost.
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
//  8. Processes (BENCH_DATABASE_URL only): the home-page config and registration bookings with one server process and
//     with two on the same PostgreSQL database (scripts/bench/processes.mjs).
//  9. Large hospital (BENCH_DATABASE_URL and BENCH_LARGE=1; seeding takes minutes): the patient's list and detail calls
//     on the large seed of scripts/seed-large.ts beside a small one, p50/p99 and their ratio (large.mjs).
// 10. Plugins: the bare route's requests per second on a bare Fastify app with no plugins, on our server, and on our
//     server with each of its per-request parts switched off in turn (logging, helmet, compress, rate limit, metrics):
//     what each costs, in the same run; and with the access log written, as at the info level a hospital runs. All
//     are started first and loaded in turn, round after round (medians). The client keeps to one core and the servers
//     to the other(s) (taskset), so neither measures the other's work.
// BENCH_ONLY=firstload,server,booking,bills,reports,pharmacy,chat,processes,large,plugins runs only those sections (all by default).
import { cpus } from 'node:os'
import WebSocket from 'ws'
import { firstLoad, printFirstLoad } from './firstLoad.mjs'
import { api, bookings, CONNECTIONS, FIRST_BOOKINGS, load, ORDERS_PER_ACCOUNT, percentiles, pinClient, readLoop, unpinClient, SECONDS, startServer, stopServer } from './lib.mjs'
import { bareAppFigures, lighthouseFigures, printLighthouse, throttledBindPage, throttledHomePaint } from './lighthouse.mjs'
import { benchProcesses } from './processes.mjs'
import { large } from './large.mjs'

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

/**
 * Outpatient bills: the unpaid list as fast as CONNECTIONS clients can for SECONDS (each request one of the payers),
 * then each payer's bills paid as one order (init, then the sandbox cashier's confirm), CONNECTIONS in flight.
 */
async function bills(port, payers) {
  const hospitalCode = '10392'
  const list = (p) => api(port, p.token, '/dld-palm/api/payment/unpaid/list', { hospitalCode, patientId: p.patientId })
  const listFigures = await readLoop(payers, list)

  // what each payer pays (not timed)
  const jobs = []
  for (const p of payers) {
    const env = await list(p)
    const billNos = (env.data ?? []).flatMap((v) => v.bills.filter((b) => !b.paying).map((b) => b.billNo))
    if (billNos.length) jobs.push({ ...p, billNos })
  }
  const latencies = []
  let paid = 0
  const reasons = new Map()
  let next = 0
  const started = Date.now()
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

const dbStats = async (port) => (await fetch(`http://127.0.0.1:${port}/bench/db`)).json()
/** How late the server's event loop ran since the last ask (serve.ts). */
const loopDelay = async (port) => (await fetch(`http://127.0.0.1:${port}/bench/loop`)).json()
/** The server process's CPU time so far, in ms (serve.ts). */
const cpuMs = async (port) => {
  const { user, system } = await (await fetch(`http://127.0.0.1:${port}/bench/cpu`)).json()
  return (user + system) / 1000
}

/** The CPU time of all the machine's cores so far, busy and idle, in ms (every process's: the server, its database, this client). */
const machineCpuMs = () =>
  cpus().reduce((sum, { times: t }) => ({ busy: sum.busy + t.user + t.nice + t.sys + t.irq, idle: sum.idle + t.idle }), { busy: 0, idle: 0 })

/** This process's CPU time so far (the load client), in ms. */
const clientCpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Rounds of the plugins section: every variant is loaded once a round, for SECONDS / 2 (at least 2 s). */
const PLUGIN_ROUNDS = 5

/**
 * The bare route on a bare Fastify app, on our server, and on our server without each of its parts. All the variants'
 * servers are started first and stay up; then every round loads each of them in turn, the order turned by one each
 * round, after a warm-up load of each; each variant's figures are the median of its rounds. Measured one server after
 * another instead (started, loaded twice, stopped), the same variant ran at 18,758 and 36,418 requests a second in one
 * run: whatever else the machine did at the time fell on one variant.
 */
async function plugins() {
  const variants = [
    ['bare Fastify, no plugins', { BENCH_PLAIN: '1' }],
    ['our server', {}],
    // as a hospital runs it: the access log written (to the bench's pipe, which drops it)
    ['  with the access log (info)', { BENCH_LOG_LEVEL: 'info' }],
    ...['logging', 'helmet', 'compress', 'rateLimit', 'metrics'].map((part) => [`  without ${part}`, { BENCH_WITHOUT: part }]),
    ['  without all of them', { BENCH_WITHOUT: 'logging,helmet,compress,rateLimit,metrics' }],
  ]
  const seconds = Math.max(2, Math.round(SECONDS / 2))
  // the client on the first core and the servers on the others, so that neither takes the other's time: sharing both
  // cores, the same variant measured 30 and 45 thousand requests a second in one run
  const serverCpus = pinClient()
  const where = serverCpus ? `client on core 0, servers on ${serverCpus}` : 'client and servers share the machine'
  console.log(
    `\nPlugins: the bare route, ${CONNECTIONS} connections, ${PLUGIN_ROUNDS} rounds of ${seconds} s each, the variants in turn, medians ` +
      `(PGlite, no fixtures; ${where}):`,
  )
  const runsOf = new Map(variants.map(([label]) => [label, []]))
  const servers = []
  try {
    for (const [, env] of variants) servers.push(await startServer({ BENCH_FIXTURES: '0', ...env }, { cpus: serverCpus }))
    for (const server of servers) await load(server.port, '/bench/bare', 1)
    for (let round = 0; round < PLUGIN_ROUNDS; round++) {
      for (let i = 0; i < variants.length; i++) {
        const v = (i + round) % variants.length
        runsOf.get(variants[v][0]).push(await load(servers[v].port, '/bench/bare', seconds))
      }
    }
  } finally {
    for (const server of servers) await stopServer(server)
    if (serverCpus) unpinClient()
  }
  const median = (label, key) => percentiles(runsOf.get(label).map((r) => r[key])).p50
  const plain = median(variants[0][0], 'rps')
  const ours = median('our server', 'rps')
  for (const [label, env] of variants) {
    const rps = median(label, 'rps')
    const cost = env.BENCH_WITHOUT
      ? `   the part costs ${Math.round(100 * (1 - ours / rps))} % of a request`
      : env.BENCH_LOG_LEVEL
        ? `   writing it costs ${Math.round(100 * (1 - rps / ours))} % of a request`
        : ''
    const errors = runsOf.get(label).reduce((sum, r) => sum + r.errors, 0)
    const spread = runsOf.get(label).map((r) => r.rps)
    console.log(
      `  ${label.padEnd(28)} ${String(rps).padStart(7)} req/s (${Math.round((100 * rps) / plain)} % of bare Fastify; rounds ${Math.min(...spread)}-${Math.max(...spread)})   ` +
        `p50 ${median(label, 'p50')} ms   p99 ${median(label, 'p99')} ms   errors ${errors}${cost}`,
    )
  }
}
const runs = [{ name: 'PGlite (embedded)', env: {} }]
if (process.env.BENCH_DATABASE_URL) runs.push({ name: 'PostgreSQL', env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } })

const SERVER_SECTIONS = ['server', ...FIXTURE_SECTIONS]
for (const [i, run] of runs.entries()) {
  // the first load is measured once, from the first run's server; the other sections on every run's
  if (!(i === 0 && want('firstload')) && !SERVER_SECTIONS.some(want)) break
  const server = await startServer({ ...run.env, ...(FIXTURE_SECTIONS.some(want) ? {} : { BENCH_FIXTURES: '0' }) })
  try {
    if (i === 0 && want('firstload')) {
      printFirstLoad(await firstLoad(server.port))
      printLighthouse(await lighthouseFigures(server.port), await throttledHomePaint(server.port), await throttledBindPage(server.port), await bareAppFigures())
    }
    if (SERVER_SECTIONS.some(want)) console.log(`\nServer on ${run.name}, ${CONNECTIONS} connections, ${SECONDS} s each (client and server share the machine):`)
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
      const cpuBefore = await cpuMs(server.port)
      const machineBefore = machineCpuMs()
      const clientBefore = clientCpuMs()
      await loopDelay(server.port) // from here
      const b = await bookings(server.port, server.bookers, server.places)
      const machineAfter = machineCpuMs()
      const client = clientCpuMs() - clientBefore
      const late = await loopDelay(server.port)
      const cpu = (await cpuMs(server.port)) - cpuBefore
      console.log(
        `  ${'registration'.padEnd(18)} ${String(b.rps).padStart(7)} bookings/s   p50 ${b.p50} ms   p99 ${b.p99} ms   ` +
          `(${b.booked} booked, ${b.refused} refused${b.exhausted ? ', ran out of free places' : ''})`,
      )
      console.log(
        `    before those, the server's first ${FIRST_BOOKINGS} (its code not yet run; ${CONNECTIONS} clients connecting at once): p50 ${b.first.p50} ms   p99 ${b.first.p99} ms   ` +
          `longest ${b.first.maxMs} ms   (${b.first.booked} booked, ${b.first.refused} refused)`,
      )
      for (const [msg, n] of b.reasons) console.log(`    refused ${n}: ${msg}`)
      console.log(
        `    server's event loop late by ${late.meanMs} ms on average, p99 ${late.p99Ms} ms, at most ${late.maxMs} ms (a request waits unread meanwhile)`,
      )
      const all = b.booked + b.first.booked
      if (all) {
        console.log(`    server process's CPU time: ${(cpu / all).toFixed(1)} ms a booking, the first ones with the others (${all} booked)`)
        // what a booking costs the whole machine, and so the most bookings a second its cores could make at that cost:
        // the server's figure holds PGlite's work, while PostgreSQL's backends are processes of their own (the rest)
        const busy = (machineAfter.busy - machineBefore.busy) / all
        const idle = (machineAfter.idle - machineBefore.idle) / all
        const rest = Math.max(0, busy - cpu / all - client / all)
        console.log(
          `    the machine's ${cpus().length} cores: ${busy.toFixed(1)} ms busy a booking (the server ${(cpu / all).toFixed(1)}, the load client ${(client / all).toFixed(1)}, ` +
            `${run.env.DATABASE_URL ? 'PostgreSQL and the rest' : 'the rest'} ${rest.toFixed(1)}), ${idle.toFixed(1)} ms idle; at that cost they make at most ` +
            `${Math.round((cpus().length * 1000) / busy)} bookings/s`,
        )
      }
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
    if (want('bills')) {
      const o = await bills(server.port, server.billPayers)
      console.log(`  ${'unpaid bills list'.padEnd(18)} ${String(o.list.rps).padStart(7)} req/s   p50 ${o.list.p50} ms   p99 ${o.list.p99} ms   errors ${o.list.errors}`)
      console.log(`  ${'bill payment'.padEnd(18)} ${String(o.pay.rps).padStart(7)} payments/s   p50 ${o.pay.p50} ms   p99 ${o.pay.p99} ms   (${o.pay.paid} of ${o.pay.of} paid: init and cashier)`)
      for (const [msg, n] of o.pay.reasons) console.log(`    refused ${n}: ${msg}`)
    }
    if (want('reports')) {
      const r = await reports(server.port, server.reportReaders)
      console.log(`  ${'lab report list'.padEnd(18)} ${String(r.list.rps).padStart(7)} req/s   p50 ${r.list.p50} ms   p99 ${r.list.p99} ms   errors ${r.list.errors}`)
      console.log(`  ${'lab report detail'.padEnd(18)} ${String(r.detail.rps).padStart(7)} req/s   p50 ${r.detail.p50} ms   p99 ${r.detail.p99} ms   errors ${r.detail.errors}`)
    }
    if (want('pharmacy')) {
      const ph = await pharmacyOrders(server.port, server.bookers, server.pharmacy)
      console.log(`  ${'pharmacy order'.padEnd(18)} ${String(ph.rps).padStart(7)} orders/s   p50 ${ph.p50} ms   p99 ${ph.p99} ms   errors ${ph.errors}`)
    }
    if (want('chat')) {
      const c = await chat(server.port, server.chat)
      console.log(`  chat, ${c.clients} connected clients: ${c.heapPerConnectionKB} KB heap per idle connection`)
      console.log(`  ${'  steady'.padEnd(18)} ${String(c.rate).padStart(7)} messages/s   delivery p50 ${c.steady.p50} ms   p99 ${c.steady.p99} ms   (${c.steady.arrived} of ${c.steady.sent} delivered)`)
      console.log(`  ${'  flat out'.padEnd(18)} ${String(c.mps).padStart(7)} messages/s   delivery p50 ${c.p50} ms   p99 ${c.p99} ms   (${c.arrived} delivered, ${c.failed} refused)`)
    }
  } finally {
    await stopServer(server)
  }
}

if (process.env.BENCH_DATABASE_URL && want('processes')) await benchProcesses(process.env.BENCH_DATABASE_URL)
if (process.env.BENCH_DATABASE_URL && process.env.BENCH_LARGE === '1' && want('large')) await large(process.env.BENCH_DATABASE_URL)
if (want('plugins')) await plugins()
