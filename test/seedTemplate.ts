import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const SERVER = resolve(__dirname, '..', 'server')

/** The files under `dir` (relative to it), in order. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort()

/**
 * What a migrated and seeded test database depends on: the migrations, the server's code (the seed and everything it
 * calls) and the day (the seed's schedules start today). Test databases are copies of a template built once per key
 * (test/server/harness.ts for the server tests, test/e2e/support.ts for the browser tests' servers); a template of
 * another key is out of date.
 */
export const seedTemplateKey = ['drizzle', 'src']
  .flatMap((folder) => filesUnder(join(SERVER, folder)).map((f) => join(folder, f)))
  .reduce((hash, file) => hash.update(file).update(readFileSync(join(SERVER, file))), createHash('sha256'))
  .update(new Date().toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' }))
  .digest('hex')
  .slice(0, 16)

/** A template of another key (or one left half-built) older than this is not in use. */
const STALE_TEMPLATE_MS = 60 * 60_000

/** Whether a template of another key built at `builtAtMs` is out of use (STALE_TEMPLATE_MS). */
export const isStaleTemplate = (builtAtMs: number) => Date.now() - builtAtMs > STALE_TEMPLATE_MS

/**
 * After a new template is written: removes the other templates in `dir` (those `isTemplate` names), unless they are
 * younger than STALE_TEMPLATE_MS, when another checkout's tests may still be reading or building them. One that is
 * gone by the time it is looked at (another test process renamed its half-built template meanwhile) is passed by.
 */
export function removeStaleTemplates(dir: string, keep: string, isTemplate: (name: string) => boolean = () => true) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (path === keep || !isTemplate(name)) continue
    const built = statSync(path, { throwIfNoEntry: false })
    if (built && isStaleTemplate(built.mtimeMs)) rmSync(path, { recursive: true, force: true })
  }
}
