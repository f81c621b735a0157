#!/usr/bin/env node
// `npm run bench`: prints figures, asserts nothing.
//  1. H5 first load: the JS and CSS the browser fetches to show the home page of /h5/, gzip bytes.
//  2. Server: requests per second and latency percentiles of the home-page config call beside a bare route,
//     on the embedded PGlite and, when BENCH_DATABASE_URL is set, on that PostgreSQL server.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import { chromium } from 'playwright-core'

const root = join(import.meta.dirname, '..', '..')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

function startServer(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/serve.ts'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.once('data', (line) => resolve({ child, ...JSON.parse(String(line)) }))
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
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
    const bytes = gzipSync(readFileSync(join(root, 'dist', path)), { level: 9 }).length
    if (path.endsWith('.js')) js += bytes
    else css += bytes
  }
  return { files: assets.size, js, css }
}

async function load(port, path) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: SECONDS })
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const runs = [{ name: 'PGlite (embedded)', env: {} }]
if (process.env.BENCH_DATABASE_URL) runs.push({ name: 'PostgreSQL', env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } })

for (const [i, run] of runs.entries()) {
  const server = await startServer(run.env)
  try {
    if (i === 0) {
      const fl = await firstLoad(server.port)
      console.log(`H5 first load of /h5/ (home of 10392): ${fl.files} files, JS ${kb(fl.js)} + CSS ${kb(fl.css)} = ${kb(fl.js + fl.css)} gzip`)
    }
    console.log(`\nServer on ${run.name}, ${CONNECTIONS} connections, ${SECONDS} s each (client and server share the machine):`)
    for (const [label, path] of [
      ['bare route', '/bench/bare'],
      ['home-page config', '/dld-hospital/common/homePageConfig?hospitalCode=10392'],
    ]) {
      const r = await load(server.port, path)
      console.log(`  ${label.padEnd(18)} ${String(r.rps).padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   errors ${r.errors}`)
    }
  } finally {
    server.child.kill()
  }
}
