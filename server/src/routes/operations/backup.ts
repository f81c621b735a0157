import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { FastifyInstance } from 'fastify'
import { BACKUP_PATH, encodeSnapshotInfo, isLoopback, pgliteOf, sameBackupToken, snapshotPglite } from '../../backup'

/**
 * `npm run backup` while this server runs: PGlite belongs to this process, so the snapshot is taken here and sent to
 * the command (backup.ts). Only to this machine (the connecting peer, not a forwarded address, since a proxy on this
 * machine would be loopback too) and only with the token derived from the app secret, which only someone who can read
 * DATA_DIR has. The answer is the bare dump: plain JSON refusals, no envelope, hidden from /openapi.json.
 */
export async function backupRoutes(app: FastifyInstance) {
  const pglite = pgliteOf(app.ctx.database)
  if (!pglite) return // on PostgreSQL the hospital backs up with pg_dump (README "Backups")
  const { secret } = app.ctx.config
  let taking = false

  app.post(BACKUP_PATH, { schema: { hide: true } }, async (req, reply) => {
    if (!isLoopback(req.raw.socket.remoteAddress) || req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) {
      req.log.warn({ peer: req.raw.socket.remoteAddress }, 'backup call refused: not from this machine')
      return reply.status(403).send({ error: 'backups are served to this machine only' })
    }
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ') || !sameBackupToken(header.slice(7).trim(), secret)) {
      req.log.warn('backup call refused: wrong token')
      return reply.status(401).send({ error: 'wrong backup token' })
    }
    // each snapshot holds the whole database in memory and stops every query while it is copied: one at a time
    if (taking) return reply.status(409).send({ error: 'a backup is being taken already' })
    taking = true
    let snapshot: Awaited<ReturnType<typeof snapshotPglite>>
    try {
      snapshot = await snapshotPglite(pglite)
    } finally {
      taking = false
    }
    const { dump, ...info } = snapshot
    req.log.info({ bytes: dump.size, migrations: info.migrations.length }, 'backup snapshot taken')
    return (
      reply
        .header('x-backup-database', encodeSnapshotInfo(info))
        // the command checks it: a connection cut short must not pass for a smaller database
        .header('content-length', dump.size)
        .header('cache-control', 'no-store')
        .type('application/gzip')
        .send(Readable.fromWeb(dump.stream() as WebReadableStream))
    )
  })
}
