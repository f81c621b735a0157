import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/src/app'
import { loadConfig, type Config } from '../../server/src/config'
import { openDatabase, rowsOf, type Database } from '../../server/src/db'
import { FieldCipher } from '../../server/src/crypto'
import { seedIfEmpty, DEMO } from '../../server/src/seed'
import { hospitals, ledgerEntries, scheduleSlots, schedules } from '../../server/src/db/schema'
import { insertMessage } from '../../server/src/domain/chat'
import { patientImAccount } from '../../src/utils/chatRules'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { BACKUP_PATH, BackupError, HOLDER_FILE, backupToken, createBackup, holdDataDir, restoreBackup } from '../../server/src/backup'
import { b64, callApi, idCardFor, signInUser, unb64, type TestApp } from './harness'
import { confirmAtCashier, newKey } from './fixtures'

/**
 * A backup of a real data directory (not the harness's in-memory copy): a server with a patient, a paid registration,
 * a chat message and an upload is backed up while it runs, the way `npm run backup` reaches it, and restored into an
 * empty folder, where a new server must find the same rows, the same file and the same keys.
 */

interface Running {
  config: Config
  database: Database
  app: FastifyInstance
}

async function startOn(dataDir: string): Promise<Running> {
  // the keys come from DATA_DIR (generated on first start, restored later), as they do for `npm start`
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir })
  const database = await openDatabase({ url: null, dataDir })
  await seedIfEmpty(database.db, new FieldCipher(config.dataKey))
  const app = await buildApp(config, database)
  await app.ready()
  return { config, database, app }
}

async function stop(r: Running | undefined) {
  if (!r) return
  await r.app.close()
  await r.database.close()
}

/** Rows in every table of the schema, and drizzle's list of migrations. */
async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = rowsOf<{ schema: string; name: string }>(
    await database.db.execute(
      "select table_schema as schema, table_name as name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2",
    ),
  )
  const counts: Record<string, number> = {}
  for (const t of tables) {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(`select count(*)::int as n from "${t.schema}"."${t.name}"`))
    counts[`${t.schema}.${t.name}`] = row!.n
  }
  return counts
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** One file uploaded as the app does (multipart, field `file`). */
async function upload(app: FastifyInstance, headers: Record<string, string>, bytes: Buffer) {
  const boundary = `----BackupTest${randomBytes(8).toString('hex')}`
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.png"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const res = await app.inject({ method: 'POST', url: '/dld-file/files-upload', payload, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } })
  const env = res.json() as { code: number; msg: string; data: { url: string } }
  assert.equal(env.code, 200, env.msg)
  return env.data.url
}

const root = mkdtempSync(join(tmpdir(), 'hospital-h5-backup-'))
const dataDir = join(root, 'data')
let original: Running | undefined
let restored: Running | undefined
let archive: string
let countsAtBackup: Record<string, number>
let caller: Awaited<ReturnType<typeof signInUser>>
let patientId: number
const idCard = idCardFor('19800214', '371')
const uploaded = Buffer.concat([PNG_SIGNATURE, randomBytes(20_000)])
let uploadName: string

before(async () => {
  original = await startOn(dataDir)
  const { app, database } = original
  const t = { app, database, config: original.config } as TestApp

  caller = await signInUser(app)
  const mobile = `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  const sms = await callApi<{ devCode: string }>(app, 'POST', '/dld-auth/token/smsBindCode', { caller, body: { mobile, purpose: 'patient' } })
  assert.equal(sms.code, 200, sms.msg)
  const bound = await callApi<{ id: number }>(app, 'POST', '/dld-palm/api/patient/bind', {
    caller,
    body: { name: '沈备份', idCard: b64(idCard), mobile, code: sms.data.devCode, relation: '本人' },
  })
  assert.equal(bound.code, 200, bound.msg)
  patientId = bound.data.id

  // a registration paid in the sandbox cashier: the order, its payment and the ledger's entries
  const [slot] = await database.db
    .select({ scheduleId: schedules.id, timeRange: scheduleSlots.timeRange })
    .from(scheduleSlots)
    .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
    .innerJoin(hospitals, eq(hospitals.id, schedules.hospitalId))
    .where(and(eq(hospitals.code, DEMO.both.code), eq(schedules.stopped, false), gt(schedules.feeFen, 0), gt(schedules.visitDate, new Date().toISOString().slice(0, 10)), isNull(scheduleSlots.registrationId)))
    .limit(1)
  const booked = await callApi<{ id: number }>(app, 'POST', '/dld-palm/api/register', {
    caller,
    body: { scheduleId: slot!.scheduleId, patientId, timeRange: slot!.timeRange, idempotencyKey: newKey('bk') },
  })
  assert.equal(booked.code, 200, booked.msg)
  const pay = await callApi<{ url: string }>(app, 'POST', '/dld-palm/api/register/pay', { caller, body: { id: booked.data.id, returnUrl: '/h5/pages/order/register/detail' } })
  assert.equal(pay.code, 200, pay.msg)
  assert.equal((await confirmAtCashier(t, pay.data.url)).statusCode, 303)
  const confirmed = await callApi<{ status: string }>(app, 'POST', `/dld-palm/api/confirm/${booked.data.id}`, { caller })
  assert.equal(confirmed.data.status, 'booked', confirmed.msg)
  await (app.ctx.providers.pay.sandbox as SandboxPay).settled()
  assert.ok((await database.db.select().from(ledgerEntries)).length > 0, 'the payment is in the ledger')

  await database.db.transaction((tx) =>
    insertMessage(tx, app.ctx.cipher, 'd_1', { to: patientImAccount(caller.userId), type: 'text', payload: '备份前的消息', clientId: newKey('msg') }),
  )
  uploadName = (await upload(app, caller.headers, uploaded)).split('/').pop()!

  // as server.ts does: hold DATA_DIR, listen, say where
  const hold = holdDataDir(original.config)
  await app.listen({ host: '127.0.0.1', port: 0 })
  hold.listening(app.server.address())
  archive = join(root, 'backup.tar.gz')
  // what `npm run backup` does: it finds the server in DATA_DIR and asks it, with the token from app-secret.key
  await createBackup({ dataDir, uploadDir: original.config.uploadDir, out: archive, env: {} })
  countsAtBackup = await rowCounts(database)
})

after(async () => {
  await stop(restored)
  await stop(original)
  rmSync(root, { recursive: true, force: true })
})

describe('npm run backup, then npm run restore', () => {
  it('writes one archive readable by its owner only', () => {
    assert.equal(statSync(archive).mode & 0o777, 0o600)
    assert.deepEqual(
      readdirSync(root).filter((f) => f.startsWith('.')),
      [],
      'no temporary folder left beside it',
    )
  })

  it('brings an empty folder back to the same rows, files and keys', async () => {
    const target = join(root, 'restored')
    mkdirSync(target)
    const result = await restoreBackup({ file: archive, dataDir: target, uploadDir: join(target, 'uploads') })
    assert.equal(result.manifest.uploads.files, 1)
    assert.deepEqual(result.movedAside, [])
    assert.equal(statSync(join(target, 'data.key')).mode & 0o777, 0o600)

    restored = await startOn(target)
    assert.equal(restored.config.dataKey, original!.config.dataKey)
    assert.equal(restored.config.secret, original!.config.secret)
    assert.deepEqual(await rowCounts(restored.database), countsAtBackup)
    assert.ok(countsAtBackup['public.chat_messages']! > 0 && countsAtBackup['public.ledger_entries']! > 0 && countsAtBackup['public.files']! > 0)

    assert.ok(readFileSync(join(target, 'uploads', uploadName)).equals(uploaded))
    const served = await restored.app.inject({ method: 'GET', url: `/dld-file/files/${uploadName}` })
    assert.equal(served.statusCode, 200)
    assert.ok(served.rawPayload.equals(uploaded))

    // the patient's session and identity number, sealed with the restored key, read back through the API
    const patient = await callApi<{ idCard: string; name: string }>(restored.app, 'GET', `/dld-palm/api/patient/${patientId}`, { caller })
    assert.equal(patient.code, 200, patient.msg)
    assert.equal(unb64(patient.data.idCard), idCard)
    assert.equal(patient.data.name, '沈备份')
    const registrations = await callApi<{ records: { status: string; order: { status: string } | null }[] }>(restored.app, 'GET', '/dld-palm/api/register/list', { caller })
    assert.deepEqual(
      registrations.data.records.map((r) => [r.status, r.order?.status]),
      [['booked', 'paid']],
    )
  })

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    const target = join(root, 'occupied')
    mkdirSync(target)
    writeFileSync(join(target, 'notes.txt'), 'keep me')
    await assert.rejects(restoreBackup({ file: archive, dataDir: target, uploadDir: join(target, 'uploads') }), (err: Error) => {
      assert.ok(err instanceof BackupError)
      assert.match(err.message, /is not empty/)
      assert.match(err.message, /--force/)
      return true
    })
    assert.deepEqual(readdirSync(target), ['notes.txt'])
  })

  it('with --force moves the present folder aside instead of deleting it', async () => {
    const target = join(root, 'replaced')
    mkdirSync(target)
    writeFileSync(join(target, 'notes.txt'), 'keep me')
    const result = await restoreBackup({ file: archive, dataDir: target, uploadDir: join(target, 'uploads'), force: true, now: new Date('2030-01-02T03:04:05Z') })
    assert.deepEqual(result.movedAside, [`${target}.before-restore-20300102-030405`])
    assert.equal(readFileSync(join(result.movedAside[0]!, 'notes.txt'), 'utf8'), 'keep me')
    assert.ok(existsSync(join(target, 'pgdata', 'PG_VERSION')))
    assert.ok(!existsSync(join(target, 'notes.txt')))
  })

  it('refuses a damaged or cut-short archive without touching the target', async () => {
    const size = statSync(archive).size
    const truncated = join(root, 'truncated.tar.gz')
    writeFileSync(truncated, readFileSync(archive).subarray(0, Math.floor(size * 0.6)))
    const corrupted = join(root, 'corrupted.tar.gz')
    copyFileSync(archive, corrupted)
    const fd = openSync(corrupted, 'r+')
    writeSync(fd, randomBytes(64), 0, 64, Math.floor(size / 2))
    closeSync(fd)

    for (const file of [truncated, corrupted]) {
      const target = join(root, 'kept')
      mkdirSync(target, { recursive: true })
      writeFileSync(join(target, 'notes.txt'), 'keep me')
      const before = readdirSync(root).sort()
      await assert.rejects(restoreBackup({ file, dataDir: target, uploadDir: join(target, 'uploads'), force: true }), (err: Error) => {
        assert.ok(err instanceof BackupError, String(err))
        assert.match(err.message, /not a readable backup|damaged/)
        return true
      })
      assert.deepEqual(readdirSync(target), ['notes.txt'], `${file}: the target is as it was`)
      assert.deepEqual(readdirSync(root).sort(), before, `${file}: nothing moved aside or left over`)
    }
  })

  it('refuses a file that is not a backup', async () => {
    const other = join(root, 'other.tar.gz')
    writeFileSync(other, 'just some text')
    const target = join(root, 'never')
    await assert.rejects(restoreBackup({ file: other, dataDir: target, uploadDir: join(target, 'uploads') }), BackupError)
    assert.ok(!existsSync(target))
  })

  it('does not open a database folder that another process has open without saying so', async () => {
    // the restored server holds its folder without the in-use file a real server writes: only PGlite's own lock shows
    const target = join(root, 'restored')
    await assert.rejects(createBackup({ dataDir: target, uploadDir: join(target, 'uploads'), out: join(root, 'second.tar.gz'), env: {} }), /postmaster\.pid/)
    assert.ok(!existsSync(join(root, 'second.tar.gz')))
  })

  it('backs up a folder no server holds by opening it itself', async () => {
    await stop(restored)
    restored = undefined
    const target = join(root, 'restored')
    const out = join(root, 'offline.tar.gz')
    const result = await createBackup({ dataDir: target, uploadDir: join(target, 'uploads'), out, env: {} })
    assert.match(result.source, /no server/)
    assert.equal(result.manifest.uploads.files, 1)
    assert.ok(!existsSync(join(target, 'in-use.json')), 'the folder is let go again')
    assert.ok(!existsSync(join(target, 'pgdata', 'postmaster.pid')), 'the database is closed again')
  })
})

describe(`POST ${BACKUP_PATH}`, () => {
  const call = (remoteAddress: string, authorization: string, headers: Record<string, string> = {}) =>
    original!.app.inject({ method: 'POST', url: BACKUP_PATH, remoteAddress, headers: { authorization, ...headers } })

  it('refuses a wrong token', async () => {
    const res = await call('127.0.0.1', `Bearer ${backupToken('not the secret')}`)
    assert.equal(res.statusCode, 401)
    assert.notEqual(res.headers['content-type'], 'application/gzip')
    assert.equal((await call('127.0.0.1', '')).statusCode, 401)
  })

  it('refuses any peer but this machine, even with the right token', async () => {
    const token = `Bearer ${backupToken(original!.config.secret)}`
    for (const peer of ['10.0.0.7', '192.168.1.20', '::ffff:10.0.0.7', '2001:db8::1']) {
      const res = await call(peer, token)
      assert.equal(res.statusCode, 403, peer)
      assert.deepEqual(res.json(), { error: 'backups are served to this machine only' })
    }
    // a proxy on this machine is a loopback peer too: what it forwards is not from this machine
    assert.equal((await call('127.0.0.1', token, { 'x-forwarded-for': '203.0.113.9' })).statusCode, 403)
  })

  it('answers the snapshot to this machine with the right token', async () => {
    const res = await call('::1', `Bearer ${backupToken(original!.config.secret)}`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/gzip')
    assert.ok(res.rawPayload.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b])), 'a gzip stream')
    assert.ok(res.headers['x-backup-database'])
  })
})

describe('holdDataDir (server.ts, before the database opens)', () => {
  const holderIn = (dir: string, pid: number) => {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, HOLDER_FILE), JSON.stringify({ pid, role: 'server', hostname: hostname(), since: new Date().toISOString(), port: 1 }))
  }

  it('refuses a folder another live process of this machine holds', () => {
    const dir = join(root, 'held')
    holderIn(dir, process.ppid)
    assert.throws(() => holdDataDir({ dataDir: dir, databaseUrl: null }), /in use by a server \(pid \d+\)/)
    assert.equal(JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')).pid, process.ppid, 'its file stays')
  })

  it('takes over the file of a process that has exited', () => {
    const dir = join(root, 'left')
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    holderIn(dir, gone)
    holdDataDir({ dataDir: dir, databaseUrl: null })
    assert.equal(JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')).pid, process.pid)
  })
})
