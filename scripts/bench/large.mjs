// The patient's list and detail calls on a large hospital (scripts/seed-large.ts: 100,000 patients, 1,000,000 orders and
// 1,000,000 chat messages) beside the same calls on a small one (the demo seed and 1 % of the large seed, so that each
// account has the same history and only the tables differ), each in a fresh database of its own on the PostgreSQL
// server of `url`, dropped at the end. Readers are accounts of the seed picked at random (serve.ts largeReaders).
// Run by index.mjs when BENCH_DATABASE_URL and BENCH_LARGE=1 are set; seeding the large hospital takes minutes.
import { api, CONNECTIONS, readLoop, SECONDS, startServer, stopServer } from './lib.mjs'

const SMALL_SCALE = 0.01
const LARGE_SCALE = Number(process.env.BENCH_LARGE_SCALE ?? 1)

const get = async (port, token, path) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } })
  return res.json()
}

/** The calls measured, each with what it needs of a reader; `prepare` finds what a detail call opens. */
const CALLS = [
  ['my registrations', (port, r) => get(port, r.token, '/dld-palm/api/register/list?page=1&size=10')],
  ['registration detail', (port, r) => get(port, r.token, `/dld-palm/api/register/detail?id=${r.registrationId}`), (r) => r.registrationId],
  ['bill payment list', (port, r) => get(port, r.token, '/dld-palm/api/payment/list?page=1&size=10')],
  ['lab report list', (port, r) => api(port, r.token, '/dld-palm/api/report/list', { hospitalCode: '10392', patientId: r.patientId, kind: 'lab', page: 1, size: 10 })],
  ['lab report detail', (port, r) => api(port, r.token, '/dld-palm/api/assay/detail', { id: r.reportId }), (r) => r.reportId],
  ['consultation list', (port, r) => get(port, r.token, '/dld-hospital/inquiry/order/list?page=1&size=10')],
  ['my consultations tab', (port, r) => get(port, r.token, '/dld-hospital/im/patient/record/list')],
  ['chat history', (port, r) => get(port, r.token, `/dld-hospital/manage/order/chatRecord/${r.inquiryId}`), (r) => r.inquiryId],
  ['pharmacy order list', (port, r) => get(port, r.token, '/dld-rpflow/api/order/orderList?page=1&size=10')],
]

async function measure(url, scale) {
  const server = await startServer({ DATABASE_URL: url, BENCH_LARGE_SCALE: String(scale) })
  try {
    const { port, readers } = server
    // the report a reader opens: the first of their lab report list (not timed)
    for (const r of readers) {
      const env = await api(port, r.token, '/dld-palm/api/report/list', { hospitalCode: '10392', patientId: r.patientId, kind: 'lab', page: 1, size: 10 })
      r.reportId = env.data?.records?.[0]?.id ?? null
    }
    const figures = new Map()
    for (const [label, call, needs] of CALLS) {
      const jobs = needs ? readers.filter((r) => needs(r) != null) : readers
      figures.set(label, jobs.length ? await readLoop(jobs, (r) => call(port, r)) : null)
    }
    return { seedSeconds: server.seedSeconds, readers: readers.length, figures }
  } finally {
    // the server drops its own database on the way out
    await stopServer(server)
  }
}

export async function large(url) {
  console.log(`\nLarge hospital on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s each, accounts picked at random:`)
  const small = await measure(url, SMALL_SCALE)
  const big = await measure(url, LARGE_SCALE)
  console.log(`  seeded: small (demo + ${SMALL_SCALE * 100} % of the large seed) ${small.seedSeconds.toFixed(1)} s, large (x${LARGE_SCALE}) ${big.seedSeconds.toFixed(1)} s`)
  console.log(`  ${'call'.padEnd(22)} ${'small p50/p99 ms'.padStart(17)} ${'large p50/p99 ms'.padStart(17)}  p99 large/small   large req/s   errors`)
  for (const [label] of CALLS) {
    const s = small.figures.get(label)
    const b = big.figures.get(label)
    if (!s || !b) {
      console.log(`  ${label.padEnd(22)} (no reader had one)`)
      continue
    }
    const ratio = s.p99 ? (b.p99 / s.p99).toFixed(2) : '-'
    console.log(
      `  ${label.padEnd(22)} ${`${s.p50} / ${s.p99}`.padStart(17)} ${`${b.p50} / ${b.p99}`.padStart(17)}  ${ratio.padStart(15)}   ${String(b.rps).padStart(11)}   ${s.errors + b.errors}`,
    )
  }
}
