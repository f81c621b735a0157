// `npm run backup [FILE]` and `npm run restore [--force] FILE` (README "Backups"); the work is in backup.ts.
import { resolve } from 'node:path'
import { loadConfig } from './config'
import { BackupError, createBackup, defaultBackupName, formatBytes, postgresInstructions, restoreBackup } from './backup'

const USAGE = 'usage: npm run backup [FILE]   |   npm run restore -- [--force] FILE'

function paths() {
  // placeholders for the keys: loadConfig would otherwise generate them into DATA_DIR, and a restore wants it untouched
  const config = loadConfig(process.env, { secret: '-', dataKey: '-' })
  return { dataDir: config.dataDir, uploadDir: config.uploadDir, databaseUrl: config.databaseUrl }
}

const migrationsText = (m: { tag: string | null }[]) => `${m.length} migrations${m.length ? ` (through ${m[m.length - 1]!.tag ?? 'one this version does not have'})` : ''}`

async function backup(args: string[]) {
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) throw new BackupError(USAGE)
  const { dataDir, uploadDir, databaseUrl } = paths()
  if (databaseUrl) {
    console.log(postgresInstructions('backup', { dataDir, uploadDir }))
    return 1 // nothing was written: a scheduled job must not take this for a backup
  }
  // npm runs scripts from the project folder; a name the operator typed is relative to where they typed it
  const here = process.env.INIT_CWD ?? process.cwd()
  const out = resolve(here, args[0] ?? defaultBackupName())
  const result = await createBackup({ dataDir, uploadDir, out })
  const m = result.manifest
  console.log(`backup written to ${result.file} (${formatBytes(result.bytes)}, ${result.bytes} bytes)`)
  console.log(`  database: snapshot of ${m.createdAt} from ${result.source}, ${migrationsText(m.database.migrations)}, ${formatBytes(m.database.bytes)}`)
  console.log(`  uploads:  ${m.uploads.files} files, ${formatBytes(m.uploads.bytes)}`)
  console.log(`  keys:     ${m.keys.map((k) => k.file).join(', ') || 'none'}`)
  console.log('It holds the key that decrypts identity numbers and other sealed fields: it is readable by its owner only (0600); keep it as safe as the data.')
  for (const name of m.keysFromEnvironment) console.log(`${name} is set in the environment and is not in this file: keep its value with the backup.`)
  return 0
}

async function restore(args: string[]) {
  // `npm run restore FILE --force` without `--` hands --force to npm, which passes it on as npm_config_force
  const force = args.includes('--force') || process.env.npm_config_force === 'true'
  const files = args.filter((a) => a !== '--force')
  if (files.length !== 1 || files[0]!.startsWith('-')) throw new BackupError(USAGE)
  const { dataDir, uploadDir, databaseUrl } = paths()
  if (databaseUrl) {
    console.log(postgresInstructions('restore', { dataDir, uploadDir }))
    return 1
  }
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]!)
  const result = await restoreBackup({ file, dataDir, uploadDir, force })
  const m = result.manifest
  for (const aside of result.movedAside) console.log(`moved the previous folder aside to ${aside}`)
  console.log(`restored ${file} (made ${m.createdAt}) into ${dataDir}`)
  console.log(`  database: ${migrationsText(m.database.migrations)}; uploads: ${m.uploads.files} files; keys: ${m.keys.map((k) => k.file).join(', ') || 'none'}`)
  if (result.pendingMigrations.length) console.log(`  the server applies ${result.pendingMigrations.length} newer migrations when it starts (${result.pendingMigrations.join(', ')})`)
  for (const name of m.keysFromEnvironment) console.log(`The server that made it took ${name} from the environment: start this one with the same ${name}.`)
  console.log('Start the server (npm start) on it.')
  return 0
}

async function main() {
  const [command, ...args] = process.argv.slice(2)
  if (command === 'backup') return backup(args)
  if (command === 'restore') return restore(args)
  throw new BackupError(USAGE)
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err)
    process.exit(1)
  },
)
