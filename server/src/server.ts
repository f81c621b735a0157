import { buildApp } from './app'
import { loadConfig } from './config'
import { openDatabase } from './db'
import { seedIfEmpty } from './seed'
import { FieldCipher } from './crypto'
import { drainOnSignals } from './drain'

async function main() {
  const config = loadConfig()
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
  const app = await buildApp(config, database)
  if (await seedIfEmpty(database.db, new FieldCipher(config.dataKey))) app.log.info('demo data loaded')
  drainOnSignals(app, database, { graceMs: config.shutdownGraceMs })
  await app.listen({ host: config.host, port: config.port })
  const where = config.publicUrl ?? `http://localhost:${config.port}`
  app.log.info(`open ${where}/h5/ (database: ${database.kind})`)
  if (config.logLevel === 'silent') console.log(`open ${where}/h5/`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
