#!/usr/bin/env node
// The home-page config (req/s) and registration bookings (bookings/s) with one server process and with two on the
// same PostgreSQL database (BENCH_WORKERS, as WORKERS runs them), each run on a database of its own; prints figures,
// asserts nothing. Called by index.mjs when BENCH_DATABASE_URL is set; alone: BENCH_DATABASE_URL=... node this file.
// Client, server processes and PostgreSQL share the machine: on two cores a second process has little to gain.
import { pathToFileURL } from 'node:url'
import { CONNECTIONS, SECONDS, bookings, load, startServer, stopServer } from './lib.mjs'

const HOME_CONFIG = '/dld-hospital/common/homePageConfig?hospitalCode=10392'

export async function benchProcesses(databaseUrl) {
  console.log(`\nServer processes on one PostgreSQL database, ${CONNECTIONS} connections, ${SECONDS} s each:`)
  for (const workers of [1, 2]) {
    const server = await startServer({ DATABASE_URL: databaseUrl, BENCH_WORKERS: String(workers) })
    try {
      const home = await load(server.port, HOME_CONFIG)
      const booked = await bookings(server.port, server.bookers, server.places)
      const label = `  ${workers} process${workers > 1 ? 'es' : ''}`.padEnd(14)
      console.log(`${label} home-page config ${String(home.rps).padStart(7)} req/s   p50 ${home.p50} ms   p99 ${home.p99} ms   errors ${home.errors}`)
      console.log(
        `${''.padEnd(14)} registration     ${String(booked.rps).padStart(7)} bookings/s   p50 ${booked.p50} ms   p99 ${booked.p99} ms   ` +
          `(${booked.booked} booked, ${booked.refused} refused${booked.exhausted ? ', ran out of free places' : ''})`,
      )
    } finally {
      await stopServer(server)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.env.BENCH_DATABASE_URL) {
    console.error('Set BENCH_DATABASE_URL to a PostgreSQL server: two processes cannot share the embedded database.')
    process.exit(1)
  }
  await benchProcesses(process.env.BENCH_DATABASE_URL)
}
