import cluster, { type Worker } from 'node:cluster'
import { hostname } from 'node:os'
import { buildApp } from './app'
import { loadConfig, type Config } from './config'
import { SEED_LOCK_KEY, openDatabase, withAdvisoryLock, type Database } from './db'
import { seedOnStart } from './seed'
import { assertReadyForProduction } from './productionCheck'
import { FieldCipher } from './crypto'
import { DRAIN_MESSAGE, drainOnSignals } from './drain'
import { holdDataDir } from './backup'

/** How long the primary waits before starting a worker again in place of one that died. */
const RESTART_DELAY_MS = 1_000

/** Seeds what a starting server seeds, one process at a time on PostgreSQL (several may start together). */
async function seed(config: Config, database: Database): Promise<boolean> {
  const run = () => seedOnStart(config, database.db, new FieldCipher(config.dataKey))
  return database.url ? withAdvisoryLock(database.url, SEED_LOCK_KEY, run) : run()
}

const whereToOpen = (config: Config) => `${config.publicUrl ?? `http://localhost:${config.port}`}/h5/`

/** One server process: the app on its own database connections. A cluster worker leaves the seed to the primary. */
async function serve(config: Config) {
  // PGlite: one process per DATA_DIR; `npm run backup` finds this one there and asks it for the snapshot
  const hold = holdDataDir(config)
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, ...config.database })
  const app = await buildApp(config, database)
  if (cluster.isPrimary && (await seed(config, database))) app.log.info('demo data loaded')
  drainOnSignals(app, database, { graceMs: config.shutdownGraceMs })
  await app.listen({ host: config.host, port: config.port })
  hold.listening(app.server.address())
  app.log.info(`open ${whereToOpen(config)} (database: ${database.kind})`)
  if (config.logLevel === 'silent' && cluster.isPrimary) console.log(`open ${whereToOpen(config)}`)
}

const LEVELS = { error: 50, warn: 40, info: 30 } as const

/** The primary's few lines, in the shape of the workers' pino lines, at LOG_LEVEL. */
function primaryLog(config: Config) {
  const threshold = config.logLevel === 'silent' ? Infinity : (LEVELS[config.logLevel as keyof typeof LEVELS] ?? 0)
  return (level: keyof typeof LEVELS, msg: string, extra: Record<string, unknown> = {}) => {
    if (LEVELS[level] < threshold) return
    process.stdout.write(`${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, hostname: hostname(), role: 'primary', ...extra, msg })}\n`)
  }
}

/**
 * WORKERS > 1: this process migrates and seeds once, then runs that many server processes on the port (node:cluster
 * shares it), each opening the database itself. One that dies is started again; SIGTERM or SIGINT drains them all
 * and exits once they have, 0 when every one drained.
 */
async function primary(config: Config) {
  const log = primaryLog(config)
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, ...config.database })
  try {
    if (await seed(config, database)) log('info', 'demo data loaded')
  } finally {
    await database.close()
  }

  let stopping = false
  let failed = false
  const live = new Set<Worker>()
  const listening = new Set<Worker>()
  const stoppedStarting = new Set<Worker>()
  const start = () => {
    const worker = cluster.fork()
    live.add(worker)
    worker.once('listening', () => {
      listening.add(worker)
      if (listening.size === config.workers) {
        log('info', `open ${whereToOpen(config)} (${config.workers} server processes)`)
        if (config.logLevel === 'silent') console.log(`open ${whereToOpen(config)}`)
      }
    })
    worker.once('exit', (code, signal) => {
      live.delete(worker)
      const wasListening = listening.delete(worker)
      if (stopping) {
        if (code !== 0 && !stoppedStarting.has(worker)) failed = true
        if (live.size === 0) process.exit(failed ? 1 : 0)
        return
      }
      if (!wasListening) {
        // it never started (a setting, the database): starting it again would only loop on the same error
        log('error', 'a server process exited before it listened: stopping', { exitCode: code, signal })
        failed = true
        return stop()
      }
      log('error', 'a server process died: starting another', { exitCode: code, signal })
      setTimeout(() => stopping || start(), RESTART_DELAY_MS).unref()
    })
  }
  const stop = () => {
    stopping = true
    const workers = [...live]
    if (!workers.length) process.exit(failed ? 1 : 0)
    for (const worker of workers) {
      // one still starting has nothing to drain and may not listen for the message yet
      if (listening.has(worker)) {
        if (worker.isConnected()) worker.send(DRAIN_MESSAGE)
      } else {
        stoppedStarting.add(worker)
        worker.process.kill('SIGTERM')
      }
    }
    // each worker exits within its own grace; this only covers one that cannot
    setTimeout(() => {
      log('error', 'server processes still running past the shutdown grace: killing them')
      for (const worker of workers) worker.process.kill('SIGKILL')
      process.exit(1)
    }, config.shutdownGraceMs + 5_000).unref()
  }
  let signals = 0
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1
    if (signals === 1) {
      log('info', 'draining every server process', { signal })
      return stop()
    }
    // a second signal, as to a single process: each worker exits at once
    for (const worker of live) worker.process.kill('SIGTERM')
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  for (let i = 0; i < config.workers; i++) start()
}

async function main() {
  const config = loadConfig()
  // before the database opens: every missing setting in one error, not one per restart
  assertReadyForProduction(config)
  if (config.workers > 1 && !config.databaseUrl) {
    throw new Error(
      `WORKERS=${config.workers} needs DATABASE_URL: the embedded database (PGlite in ${config.dataDir}) opens in one process only. ` +
        'Set DATABASE_URL to a PostgreSQL server, or leave WORKERS unset for one process.',
    )
  }
  if (config.workers > 1 && cluster.isPrimary) return primary(config)
  return serve(config)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
