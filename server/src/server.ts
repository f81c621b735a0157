import { buildApp } from './app'
import { loadConfig } from './config'
import { openDatabase } from './db'
import { seedOnStart } from './seed'
import { assertReadyForProduction } from './productionCheck'
import { FieldCipher } from './crypto'
import { drainOnSignals } from './drain'
import { holdDataDir } from './backup'

async function main() {
  const config = loadConfig()
  // before the database opens: every missing setting in one error, not one per restart
  assertReadyForProduction(config)
  // PGlite: one process per DATA_DIR; `npm run backup` finds this one there and asks it for the snapshot
  const hold = holdDataDir(config)
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
  const app = await buildApp(config, database)
  if (await seedOnStart(config, database.db, new FieldCipher(config.dataKey))) app.log.info('demo data loaded')
  drainOnSignals(app, database, { graceMs: config.shutdownGraceMs })
  await app.listen({ host: config.host, port: config.port })
  hold.listening(app.server.address())
  const where = config.publicUrl ?? `http://localhost:${config.port}`
  app.log.info(`open ${where}/h5/ (database: ${database.kind})`)
  if (config.logLevel === 'silent') console.log(`open ${where}/h5/`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
