// What the benchmarks share: the seeded bench server (serve.ts), calls to it, and latency figures.
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

export const root = join(import.meta.dirname, '..', '..')
/** The H5 build measured and served (config/index.ts puts it under BUILD_ROOT, dist by default). */
export const buildRoot = resolve(root, process.env.BUILD_ROOT ?? 'dist')
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

/** Starts scripts/bench/serve.ts with `env`; answers the child and what its first line says. */
export function startServer(env) {
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

/** Percentiles of a list of latencies (ms), sorted in place. */
export function percentiles(latencies) {
  latencies.sort((a, b) => a - b)
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return { p50: at(0.5), p99: at(0.99) }
}

export const api = async (port, token, path, body, form = false) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
  })
  return form ? { code: res.ok ? 200 : res.status } : res.json()
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

