// A seeded server for the benchmarks, with one bare route beside the real ones; prints its port.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/src/app'
import { loadConfig } from '../../server/src/config'
import { openDatabase } from '../../server/src/db'
import { FieldCipher } from '../../server/src/crypto'
import { seedIfEmpty } from '../../server/src/seed'

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'h5-bench-'))
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
  const database = await openDatabase({ url: config.databaseUrl, dataDir })
  await seedIfEmpty(database.db, new FieldCipher(config.dataKey))
  const app = await buildApp(config, database)
  app.get('/bench/bare', async () => ({ code: 200, msg: 'success', data: null }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, database: database.kind }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
