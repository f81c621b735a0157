import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const MIGRATIONS = resolve(__dirname, '..', 'server', 'drizzle')
const SEED = resolve(__dirname, '..', 'server', 'src', 'seed')
const filesOf = (dir: string, ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n')

/**
 * What a migrated and seeded test database depends on: the migrations, the seed and the day (the seed's schedules
 * start today). Test databases are copies of a template built once per key (test/server/harness.ts for the server
 * tests, test/e2e/support.ts for the browser tests' servers); a template of another key is out of date.
 */
export const seedTemplateKey = createHash('sha256')
  .update(filesOf(MIGRATIONS, '.sql'))
  .update(filesOf(SEED, '.ts'))
  .update(new Date().toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' }))
  .digest('hex')
  .slice(0, 16)
