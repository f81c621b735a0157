import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { PGlite } from '@electric-sql/pglite'
import { create as createTar, extract as extractTar } from 'tar'
import type { Database } from './db'
import { migrationsFolder } from './db'

/**
 * Backups of the embedded database (README "Backups"): one tar.gz holding
 *   manifest.json   what the rest is (format version, when, migrations applied, sizes, checksum of the dump)
 *   database.tgz    PGlite's own dump of its data directory (`dumpDataDir('gzip')`), one snapshot
 *   keys/           data.key and app-secret.key as generated into DATA_DIR: without data.key nothing sealed can be read
 *   uploads/        the uploaded pictures and PDFs
 * PGlite is one process's database: while a server holds DATA_DIR the dump comes from that server (a loopback-only call
 * with a token derived from the app secret); otherwise this process opens the directory itself.
 */

export const BACKUP_FORMAT = 'hospital-h5-backup'
export const BACKUP_VERSION = 1
/** Where the running server answers the backup call (outside the API: no envelope, no sign-in, hidden). */
export const BACKUP_PATH = '/internal/backup'
const DUMP_FILE = 'database.tgz'
const MANIFEST_FILE = 'manifest.json'
/** The generated secrets config.ts writes into DATA_DIR, and the variables that replace them. */
const KEY_FILES = [
  { file: 'data.key', env: 'DATA_KEY' },
  { file: 'app-secret.key', env: 'APP_SECRET' },
] as const
/** Written into DATA_DIR by the process that has the database open (holdDataDir). */
export const HOLDER_FILE = 'in-use.json'

/** A refusal or failure the operator can act on: the commands print its message alone, without a stack. */
export class BackupError extends Error {}

export interface AppliedMigration {
  /** The migration's name in server/drizzle (null for one this version of the code does not have). */
  tag: string | null
  /** Drizzle's key for it: the journal's `when`. */
  createdAt: number
}

/** What the process holding the database says about the snapshot it took. */
export interface SnapshotInfo {
  /** Every transaction committed before this instant is in the dump, none after it. */
  snapshotAt: number
  serverVersion: string
  migrations: AppliedMigration[]
}

export interface Manifest {
  format: typeof BACKUP_FORMAT
  version: number
  createdAt: string
  database: { kind: 'pglite'; file: string; bytes: number; sha256: string; serverVersion: string; migrations: AppliedMigration[] }
  uploads: { files: number; bytes: number }
  keys: { file: string; bytes: number }[]
  /** Keys the server took from the environment when the backup was made: they are not in the file. */
  keysFromEnvironment: string[]
}

// ---- the snapshot, in the process that holds the database ------------------------------------------------------

const journal = (): { when: number; tag: string }[] =>
  (JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] }).entries

function namedMigrations(createdAt: number[]): AppliedMigration[] {
  const tags = new Map(journal().map((e) => [e.when, e.tag]))
  return createdAt.map((when) => ({ tag: tags.get(when) ?? null, createdAt: when }))
}

async function appliedMigrations(pglite: PGlite): Promise<AppliedMigration[]> {
  const { rows } = await pglite.query<{ created_at: string | number }>('select created_at from drizzle.__drizzle_migrations order by created_at')
  return namedMigrations(rows.map((r) => Number(r.created_at)))
}

/**
 * One consistent copy of a PGlite database. dumpDataDir alone waits only for the statement under way, and a
 * transaction lets go of that lock between its statements: holding the transaction lock as well means no transaction
 * is half done in the copy. The checkpoint first leaves little write-ahead log for a restore to replay.
 */
export async function snapshotPglite(pglite: PGlite): Promise<{ dump: Blob } & SnapshotInfo> {
  const migrations = await appliedMigrations(pglite)
  const { rows } = await pglite.query<{ server_version: string }>('show server_version')
  await pglite.query('CHECKPOINT')
  return pglite._runExclusiveTransaction(async () => {
    const snapshotAt = Date.now()
    const dump = await pglite.dumpDataDir('gzip')
    return { dump, snapshotAt, serverVersion: rows[0]?.server_version ?? '', migrations }
  })
}

/** The PGlite behind a Database (drizzle keeps its client as $client), or null on PostgreSQL. */
export function pgliteOf(database: Database): PGlite | null {
  const client = (database.db as unknown as { $client?: unknown }).$client
  return database.kind === 'pglite' && client instanceof PGlite ? client : null
}

/** The token the backup call wants: only someone who can read the app secret (DATA_DIR) can make it. */
export const backupToken = (secret: string) => createHmac('sha256', secret).update('hospital-h5 backup call v1').digest('hex')

export function sameBackupToken(sent: string, secret: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(sent), digest(backupToken(secret)))
}

/** The peer is this machine (IPv4 loopback, also IPv4-mapped, or ::1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1'
}

/** The snapshot's description in one response header: the migrations by their numbers alone, so it stays small. */
export const encodeSnapshotInfo = (info: SnapshotInfo) =>
  Buffer.from(JSON.stringify({ ...info, migrations: info.migrations.map((m) => m.createdAt) }), 'utf8').toString('base64url')

function decodeSnapshotInfo(header: string): SnapshotInfo {
  const raw = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { snapshotAt: unknown; serverVersion: unknown; migrations: unknown }
  if (typeof raw.snapshotAt !== 'number' || !Array.isArray(raw.migrations) || !raw.migrations.every((m) => typeof m === 'number')) throw new Error('incomplete')
  return { snapshotAt: raw.snapshotAt, serverVersion: String(raw.serverVersion ?? ''), migrations: namedMigrations(raw.migrations as number[]) }
}

// ---- who holds DATA_DIR ------------------------------------------------------------------------------------------

interface Holder {
  pid: number
  role: 'server' | 'backup'
  hostname: string
  since: string
  /** Where a server listens, once it does. */
  address?: string
  port?: number
}

function readHolder(dataDir: string): Holder | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), 'utf8')) as Holder
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' // someone else's process, alive
  }
}

/**
 * A holder that is still there: another process on this machine that has not exited, or (unless `sameHostOnly`) one
 * written on another machine or container sharing the folder, whose pid cannot be checked from here.
 */
function liveHolder(dataDir: string, sameHostOnly = false): Holder | null {
  const h = readHolder(dataDir)
  if (!h || typeof h.pid !== 'number') return null
  if (h.hostname !== hostname()) return sameHostOnly ? null : h
  return alive(h.pid) ? h : null
}

function writeHolder(dataDir: string, holder: Holder) {
  const file = join(dataDir, HOLDER_FILE)
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(holder) + '\n')
  renameSync(`${file}.${process.pid}`, file)
}

function releaseHolder(dataDir: string) {
  // only our own: a later holder's file stays
  if (readHolder(dataDir)?.pid === process.pid) rmSync(join(dataDir, HOLDER_FILE), { force: true })
}

const describeHolder = (h: Holder) =>
  h.hostname !== hostname() ? `a process on ${h.hostname} (pid ${h.pid}, ${h.role})` : h.role === 'server' ? `a server (pid ${h.pid})` : `a backup (pid ${h.pid})`

/**
 * Marks DATA_DIR as held by this server process until it exits, so that `npm run backup` asks this process for the
 * snapshot instead of opening the directory a second time, and so that a second server on the same folder refuses to
 * start. Nothing to do with DATABASE_URL (the database is not in DATA_DIR). Call `listening` once the server listens.
 */
export function holdDataDir(config: { dataDir: string; databaseUrl: string | null }): { listening(address: AddressInfo | string | null): void } {
  if (config.databaseUrl) return { listening() {} }
  const { dataDir } = config
  // a holder from another host is most likely this server's previous container, killed before it could clean up:
  // refusing to start on it would keep the hospital's server down after an out-of-memory kill
  const stale = readHolder(dataDir)
  if (stale && stale.hostname !== hostname()) process.emitWarning(`DATA_DIR was last held by ${describeHolder(stale)}; taking it over`)
  const other = liveHolder(dataDir, true)
  // our own pid: a container's server is pid 1 every time, and this file is its previous life's
  if (other && other.pid !== process.pid) {
    throw new Error(
      `DATA_DIR ${dataDir} is in use by ${describeHolder(other)}: the embedded database opens in one process at a time. ` +
        `Stop it first, or, if no such process runs, remove ${join(dataDir, HOLDER_FILE)}.`,
    )
  }
  mkdirSync(dataDir, { recursive: true })
  const holder: Holder = { pid: process.pid, role: 'server', hostname: hostname(), since: new Date().toISOString() }
  writeHolder(dataDir, holder)
  process.once('exit', () => releaseHolder(dataDir))
  return {
    listening(address) {
      if (!address || typeof address === 'string') return
      writeHolder(dataDir, { ...holder, address: address.address, port: address.port })
    },
  }
}

// ---- writing a backup --------------------------------------------------------------------------------------------

export interface BackupOptions {
  dataDir: string
  uploadDir: string
  /** The file to write; it must not exist. */
  out: string
  /** DATA_KEY and APP_SECRET, to say when the keys are not in files (and the secret for the backup call). */
  env?: NodeJS.ProcessEnv
}

export interface BackupResult {
  file: string
  bytes: number
  manifest: Manifest
  /** Where the snapshot came from. */
  source: string
}

/** hospital-h5-backup-20250102-030405.tar.gz, in UTC. */
export function defaultBackupName(now = new Date()): string {
  return `hospital-h5-backup-${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}.tar.gz`
}

function appSecretOf(dataDir: string, env: NodeJS.ProcessEnv): string {
  if (env.APP_SECRET) return env.APP_SECRET
  const file = join(dataDir, 'app-secret.key')
  if (!existsSync(file)) throw new BackupError(`cannot make the backup call: neither APP_SECRET nor ${file} is there`)
  return readFileSync(file, 'utf8').trim()
}

/** Asks the server that holds DATA_DIR for the snapshot, over the loopback address, and writes it to `file`. */
async function dumpFromServer(holder: Holder, secret: string, file: string): Promise<SnapshotInfo> {
  if (!holder.port) throw new BackupError(`${describeHolder(holder)} holds DATA_DIR but is not listening yet: try again in a moment`)
  const host = !holder.address || holder.address === '0.0.0.0' ? '127.0.0.1' : holder.address === '::' ? '::1' : holder.address
  if (!isLoopback(host)) {
    throw new BackupError(`the server (pid ${holder.pid}) listens on ${holder.address} only, and it answers the backup call on the loopback address alone: start it with HOST=0.0.0.0 or 127.0.0.1`)
  }
  const where = `${host.includes(':') ? `[${host}]` : host}:${holder.port}`
  return new Promise<SnapshotInfo>((resolveInfo, reject) => {
    const req = request({ host, port: holder.port, method: 'POST', path: BACKUP_PATH, headers: { authorization: `Bearer ${backupToken(secret)}` } }, (res) => {
      if (res.statusCode !== 200) {
        let body = ''
        res.setEncoding('utf8').on('data', (c: string) => (body += c))
        res.on('end', () => reject(new BackupError(`the server (pid ${holder.pid}, ${where}) refused the backup call: ${res.statusCode} ${body}`)))
        return
      }
      let info: SnapshotInfo
      try {
        info = decodeSnapshotInfo(String(res.headers['x-backup-database'] ?? ''))
      } catch {
        res.resume()
        return reject(new BackupError(`the server (pid ${holder.pid}, ${where}) answered the backup call without describing its snapshot`))
      }
      const expected = Number(res.headers['content-length'] ?? NaN)
      pipeline(res, createWriteStream(file, { mode: 0o600 }))
        .then(() => {
          // a connection cut short leaves a shorter file, which would only show when someone restores it
          if (Number.isFinite(expected) && statSync(file).size !== expected) throw new BackupError(`the server's snapshot arrived incomplete (${statSync(file).size} of ${expected} bytes)`)
          resolveInfo(info)
        })
        .catch(reject)
    })
    req.on('error', (err) =>
      reject(new BackupError(`${describeHolder(holder)} holds DATA_DIR but does not answer on ${where} (${err.message}); if it is not running, remove ${HOLDER_FILE} from DATA_DIR`)),
    )
    req.end()
  })
}

/** No server holds DATA_DIR: open the database here (and hold the folder meanwhile), dump it, close it. */
async function dumpFromDirectory(dataDir: string, file: string): Promise<SnapshotInfo> {
  const pgdata = join(dataDir, 'pgdata')
  if (!existsSync(join(pgdata, 'PG_VERSION'))) throw new BackupError(`there is no embedded database to back up in ${pgdata}`)
  // PGlite keeps this file while the database is open and removes it when it closes
  if (existsSync(join(pgdata, 'postmaster.pid'))) {
    throw new BackupError(
      `${pgdata} is open or was not closed (postmaster.pid is there), and no server of this machine says it holds it. ` +
        'If a server runs (in another container?), run the backup where it runs; if the last one stopped without closing it, start the server and back up while it runs.',
    )
  }
  writeHolder(dataDir, { pid: process.pid, role: 'backup', hostname: hostname(), since: new Date().toISOString() })
  const release = () => releaseHolder(dataDir)
  process.once('exit', release)
  try {
    const pglite = await PGlite.create(pgdata)
    try {
      const { dump, ...info } = await snapshotPglite(pglite)
      writeFileSync(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 })
      return info
    } finally {
      await pglite.close()
    }
  } finally {
    release()
    process.off('exit', release)
  }
}

const sha256File = async (file: string) => {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/**
 * Writes a backup of DATA_DIR's embedded database, uploads and keys to `out` (mode 0600: it holds the data key), through
 * the server that holds DATA_DIR when one does, otherwise by opening the database here. What `npm run backup` does.
 */
export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const env = opts.env ?? process.env
  const out = resolve(opts.out)
  if (existsSync(out)) throw new BackupError(`${out} exists already: name a new file`)
  const holder = liveHolder(opts.dataDir)
  if (holder && (holder.role !== 'server' || holder.hostname !== hostname())) {
    throw new BackupError(`DATA_DIR is in use by ${describeHolder(holder)}: try again when it has finished`)
  }
  mkdirSync(dirname(out), { recursive: true })
  // beside the output, so the finished archive is renamed into place and a failure leaves no half-written backup
  const staging = mkdtempSync(join(dirname(out), '.hospital-h5-backup-'))
  try {
    const dumpFile = join(staging, DUMP_FILE)
    const info = holder ? await dumpFromServer(holder, appSecretOf(opts.dataDir, env), dumpFile) : await dumpFromDirectory(opts.dataDir, dumpFile)
    const source = holder ? `the running server (pid ${holder.pid})` : 'the database folder (no server was running)'

    // uploads are written whole before the row that names them is committed (domain/file.ts): a file changed after
    // the snapshot is named by no row in it, and may still be being written
    const uploads: string[] = []
    let uploadBytes = 0
    if (existsSync(opts.uploadDir)) {
      symlinkSync(resolve(opts.uploadDir), join(staging, 'uploads'), 'dir')
      for (const name of readdirSync(opts.uploadDir).sort()) {
        const s = statSync(join(opts.uploadDir, name))
        if (!s.isFile() || s.mtimeMs >= info.snapshotAt) continue
        uploads.push(`uploads/${name}`)
        uploadBytes += s.size
      }
    } else {
      mkdirSync(join(staging, 'uploads'))
    }

    mkdirSync(join(staging, 'keys'), { mode: 0o700 })
    const keys: Manifest['keys'] = []
    for (const { file } of KEY_FILES) {
      const path = join(opts.dataDir, file)
      if (!existsSync(path)) continue
      copyFileSync(path, join(staging, 'keys', file))
      chmodSync(join(staging, 'keys', file), 0o600)
      keys.push({ file, bytes: statSync(path).size })
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date(info.snapshotAt).toISOString(),
      database: {
        kind: 'pglite',
        file: DUMP_FILE,
        bytes: statSync(dumpFile).size,
        sha256: await sha256File(dumpFile),
        serverVersion: info.serverVersion,
        migrations: info.migrations,
      },
      uploads: { files: uploads.length, bytes: uploadBytes },
      keys,
      keysFromEnvironment: KEY_FILES.filter((k) => env[k.env]).map((k) => k.env),
    }
    writeFileSync(join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n')

    const archive = join(staging, 'archive.tar.gz')
    await createTar(
      // level 1: the dump is gzip already and pictures and PDFs do not shrink; the rest is small
      { file: archive, cwd: staging, gzip: { level: 1 }, portable: true, follow: true, noDirRecurse: true, strict: true, mode: 0o600 },
      [MANIFEST_FILE, DUMP_FILE, 'keys', ...keys.map((k) => `keys/${k.file}`), 'uploads', ...uploads],
    )
    chmodSync(archive, 0o600)
    if (existsSync(out)) throw new BackupError(`${out} appeared while the backup was written: name a new file`)
    renameSync(archive, out)
    return { file: out, bytes: statSync(out).size, manifest, source }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

// ---- restoring one -----------------------------------------------------------------------------------------------

export interface RestoreOptions {
  file: string
  dataDir: string
  uploadDir: string
  /** Move a non-empty DATA_DIR (and upload folder) aside instead of refusing. */
  force?: boolean
  now?: Date
}

export interface RestoreResult {
  manifest: Manifest
  /** Folders that were there and were moved aside (--force). */
  movedAside: string[]
  /** Migrations of this code the backup predates: the server applies them when it starts. */
  pendingMigrations: string[]
}

const isEmptyOrMissing = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0
const inside = (parent: string, child: string) => {
  const rel = relative(parent, child)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/** The only entries a backup has: anything else (a link, a path that climbs out) means it is not one of ours. */
const ALLOWED_ENTRY = /^(manifest\.json|database\.tgz|keys\/?|keys\/(data\.key|app-secret\.key)|uploads\/?|uploads\/[A-Za-z0-9_.-]+)$/

function checkManifest(m: Manifest, dir: string) {
  if (m?.format !== BACKUP_FORMAT) throw new BackupError('this file is not a hospital-h5 backup (no manifest of ours)')
  if (typeof m.version !== 'number' || m.version > BACKUP_VERSION) throw new BackupError(`this backup is format version ${m.version}, newer than this server reads (${BACKUP_VERSION}): restore it with the version that made it`)
  const dump = join(dir, DUMP_FILE)
  if (!existsSync(dump) || statSync(dump).size !== m.database.bytes) throw new BackupError('the database dump in this backup is missing or of the wrong size')
  const uploads = existsSync(join(dir, 'uploads')) ? readdirSync(join(dir, 'uploads')) : []
  const bytes = uploads.reduce((sum, name) => sum + statSync(join(dir, 'uploads', name)).size, 0)
  if (uploads.length !== m.uploads.files || bytes !== m.uploads.bytes) {
    throw new BackupError(`the backup's uploads do not match its manifest (${uploads.length} files, ${bytes} bytes; the manifest says ${m.uploads.files}, ${m.uploads.bytes})`)
  }
  for (const k of m.keys) {
    if (!existsSync(join(dir, 'keys', k.file)) || statSync(join(dir, 'keys', k.file)).size !== k.bytes) throw new BackupError(`the key file ${k.file} in this backup is missing or damaged`)
  }
  const known = new Set(journal().map((e) => e.when))
  const unknown = m.database.migrations.filter((x) => !known.has(x.createdAt))
  if (unknown.length) {
    throw new BackupError(`this backup was made by a newer version of the server (migrations this one does not have: ${unknown.map((x) => x.tag ?? x.createdAt).join(', ')}): restore it with that version`)
  }
}

/**
 * Brings an empty or missing DATA_DIR back to the state a backup holds: database, keys and uploads. Everything is
 * unpacked and checked in a folder beside it first (the archive whole, the dump's checksum, the database opening and
 * answering), and only then renamed into place, so a damaged archive leaves the target as it was. A non-empty target is
 * refused, or with `force` moved aside (never deleted). What `npm run restore` does.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const file = resolve(opts.file)
  const dataDir = resolve(opts.dataDir)
  const uploadDir = resolve(opts.uploadDir)
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`${file}: no such file`)
  const holder = existsSync(dataDir) ? liveHolder(dataDir) : null
  if (holder) throw new BackupError(`DATA_DIR ${dataDir} is in use by ${describeHolder(holder)}: stop it before restoring`)
  const uploadsApart = !inside(dataDir, uploadDir)
  const targets = uploadsApart ? [dataDir, uploadDir] : [dataDir]
  const occupied = targets.filter((dir) => !isEmptyOrMissing(dir))
  if (occupied.length && !opts.force) {
    throw new BackupError(
      `${occupied.join(' and ')} ${occupied.length > 1 ? 'are' : 'is'} not empty: a restore brings back an empty or missing DATA_DIR. ` +
        'Point DATA_DIR at a new folder, or pass --force to move the present one aside (nothing is deleted).',
    )
  }

  mkdirSync(dirname(dataDir), { recursive: true })
  const staging = mkdtempSync(join(dirname(dataDir), `.${basename(dataDir)}.restoring-`))
  try {
    const unpacked = join(staging, 'archive')
    mkdirSync(unpacked)
    const strange: string[] = []
    try {
      await extractTar({
        file,
        cwd: unpacked,
        strict: true,
        filter: (path, entry) => {
          const type = 'type' in entry ? entry.type : ''
          const ok = ALLOWED_ENTRY.test(path) && (type === 'File' || type === 'OldFile' || type === 'Directory')
          if (!ok) strange.push(path)
          return ok
        },
      })
    } catch (err) {
      throw new BackupError(`${file} is not a readable backup (damaged or cut short?): ${(err as Error).message}`)
    }
    if (strange.length) throw new BackupError(`${file} is not a hospital-h5 backup: it holds ${strange.slice(0, 3).join(', ')}`)
    let manifest: Manifest
    try {
      manifest = JSON.parse(readFileSync(join(unpacked, MANIFEST_FILE), 'utf8')) as Manifest
    } catch {
      throw new BackupError(`${file} is not a hospital-h5 backup: it has no readable manifest`)
    }
    checkManifest(manifest, unpacked)
    const dump = join(unpacked, DUMP_FILE)
    if ((await sha256File(dump)) !== manifest.database.sha256) throw new BackupError('the database dump in this backup is damaged (its checksum differs from the manifest)')

    // DATA_DIR as it will be: the database loaded and opened once (which also proves the dump is whole), keys, uploads
    const stagedData = join(staging, 'data')
    mkdirSync(join(stagedData, 'pgdata'), { recursive: true })
    let restored: AppliedMigration[]
    try {
      const pglite = await PGlite.create({ dataDir: join(stagedData, 'pgdata'), loadDataDir: new Blob([readFileSync(dump)]) })
      try {
        restored = await appliedMigrations(pglite)
      } finally {
        await pglite.close()
      }
    } catch (err) {
      throw new BackupError(`the database in this backup does not open: ${(err as Error).message}`)
    }
    if (restored.length !== manifest.database.migrations.length) throw new BackupError('the restored database does not hold the migrations its manifest lists')
    for (const k of manifest.keys) {
      renameSync(join(unpacked, 'keys', k.file), join(stagedData, k.file))
      chmodSync(join(stagedData, k.file), 0o600)
    }
    const stagedUploads = uploadsApart ? join(staging, 'uploads') : join(stagedData, relative(dataDir, uploadDir))
    mkdirSync(dirname(stagedUploads), { recursive: true })
    if (existsSync(join(unpacked, 'uploads'))) renameSync(join(unpacked, 'uploads'), stagedUploads)
    else mkdirSync(stagedUploads)

    // into place: the present folders aside (--force) or away (empty), the staged ones renamed in
    const stamp = (opts.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
    const movedAside: string[] = []
    const swaps: [string, string][] = uploadsApart ? [[stagedData, dataDir], [stagedUploads, uploadDir]] : [[stagedData, dataDir]]
    for (const [staged, target] of swaps) {
      if (existsSync(target)) {
        if (isEmptyOrMissing(target)) rmdirSync(target)
        else {
          const aside = `${target}.before-restore-${stamp}`
          renameSync(target, aside)
          movedAside.push(aside)
        }
      }
      mkdirSync(dirname(target), { recursive: true })
      renameSync(staged, target)
    }
    chmodSync(dataDir, 0o700)
    const have = new Set(manifest.database.migrations.map((x) => x.createdAt))
    return { manifest, movedAside, pendingMigrations: journal().filter((e) => !have.has(e.when)).map((e) => e.tag) }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

// ---- PostgreSQL ----------------------------------------------------------------------------------------------------

/** What to run instead when DATABASE_URL is set: PostgreSQL's own tools, and the files that are not in the database. */
export function postgresInstructions(kind: 'backup' | 'restore', paths: { dataDir: string; uploadDir: string }, env: NodeJS.ProcessEnv = process.env): string {
  const keys = KEY_FILES.map((k) => (env[k.env] ? `${k.env} (set in the environment: keep its value with the dump)` : `${join(paths.dataDir, k.file)} (${k.env})`))
  const lines =
    kind === 'backup'
      ? [
          'DATABASE_URL is set: the database is on a PostgreSQL server. Back it up with PostgreSQL’s own tools:',
          '',
          `  pg_dump -Fc -f hospital-h5-$(date -u +%Y%m%d-%H%M%S).dump "$DATABASE_URL"`,
          '',
          'and copy beside the dump (keep them as safe as the data: the key decrypts identity numbers and other sealed fields):',
          `  uploads:  ${paths.uploadDir}`,
          ...keys.map((k) => `  key:      ${k}`),
        ]
      : [
          'DATABASE_URL is set: the database is on a PostgreSQL server. Restore it with PostgreSQL’s own tools, into an empty database:',
          '',
          '  pg_restore --no-owner --exit-on-error -d "$DATABASE_URL" FILE.dump',
          '',
          'then put back what was copied beside the dump:',
          `  uploads:  ${paths.uploadDir}`,
          ...keys.map((k) => `  key:      ${k}`),
        ]
  return lines.join('\n')
}

/** 4.4 MB */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i += 1
  }
  return `${v.toFixed(1)} ${units[i]}`
}
