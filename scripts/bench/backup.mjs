#!/usr/bin/env node
// `node scripts/bench/backup.mjs`: prints figures, asserts nothing. Not part of `npm run bench` (it adds half a minute).
// A server starts on a new DATA_DIR in a temporary folder and seeds the demo hospitals; then, timing the real commands
// as an operator runs them (process start included):
//  1. `npm run backup` while that server runs (the snapshot comes from the server), and the archive's size;
//  2. `npm run backup` again after it has stopped (the command opens the database itself);
//  3. `npm run restore` of the first archive into an empty DATA_DIR.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'hospital-h5-bench-backup-'))
const dataDir = join(work, 'data')
const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ORDER_SWEEP_SECONDS: '0' }
delete env.DATABASE_URL

const command = (args, extraEnv = {}) =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/backupCommand.ts', ...args], { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (c) => (out += c))
    child.once('exit', (code) => (code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, out }) : reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`))))
  })

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const holder = join(dataDir, 'in-use.json')
  const deadline = Date.now() + 120_000
  // the server says where it listens in DATA_DIR once it does (and the demo data is seeded by then)
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}`)
    const port = existsSync(holder) ? JSON.parse(readFileSync(holder, 'utf8')).port : undefined
    if (port && (await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false))) {
      return { stop: async () => (child.kill('SIGTERM'), await exited) }
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGKILL')
  throw new Error('the server did not start within 2 minutes')
}

try {
  const started = performance.now()
  const server = await startServer()
  console.log(`demo data seeded into a new DATA_DIR and served in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  const online = join(work, 'online.tar.gz')
  const live = await command(['backup', online], { INIT_CWD: work })
  await server.stop()
  const offline = join(work, 'offline.tar.gz')
  const stopped = await command(['backup', offline], { INIT_CWD: work })
  const restored = await command(['restore', online], { DATA_DIR: join(work, 'restored'), INIT_CWD: work })

  const rows = [
    ['backup, server running', live.seconds, statSync(online).size],
    ['backup, server stopped', stopped.seconds, statSync(offline).size],
    ['restore into an empty DATA_DIR', restored.seconds, null],
  ]
  console.log('\nbackup and restore of the demo data (wall time of the command, process start included)')
  for (const [what, seconds, bytes] of rows) {
    console.log(`  ${what.padEnd(32)} ${seconds.toFixed(2).padStart(6)} s${bytes === null ? '' : `   archive ${bytes.toLocaleString('en')} bytes (${(bytes / 1024 / 1024).toFixed(1)} MiB)`}`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
