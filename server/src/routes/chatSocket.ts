import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import websocket from '@fastify/websocket'
import type { RawData, WebSocket } from 'ws'
import { z } from 'zod'
import type { ChatServerFrame } from '../../../types/api/chat'
import type { QueueChangedFrame } from '../../../types/api/queue'
import { AppError, forbidden } from '../errors'
import { holdsNul } from '../inputGuards'
import { USER_SIG_TTL_S, verifyLocalSig } from '../plugins/providers/im'
import * as chat from '../domain/chat'
import { QUEUE_CHANNEL, queueKeyOf, todayQueue, type QueueRef } from '../domain/queue'
import { PATIENT_PREFIX } from '@/utils/chatRules'

/** Frames are small: a text message is at most 2,000 characters; pictures travel as upload urls. */
const MAX_FRAME_BYTES = 16 * 1024
/** A client that answers no ping for this long is gone (a phone that lost its network). */
const HEARTBEAT_MS = 30_000
/** Each connection may send this many frames in RATE_WINDOW_MS; more is a misbehaving client. */
const RATE_LIMIT = 60
const RATE_WINDOW_MS = 10_000
export const CLOSE_BAD_SIGNATURE = 4401
export const CLOSE_TOO_FAST = 4429
/** A draining server (SIGTERM) closes with 1001 "going away": the app's driver reconnects, to another process. */
export const CLOSE_GOING_AWAY = 1001
const GOING_AWAY_REASON = 'server restarting'
/** A client that has not answered the closing handshake by then (a phone out of coverage) is cut off: the drain waits for no one. */
const CLOSE_HANDSHAKE_MS = 2000

const frame = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('send'),
    id: z.string().max(64),
    message: z.object({
      clientId: z.string().max(64),
      to: z.string().max(64),
      type: z.enum(['text', 'image']),
      payload: z.string().max(4000),
      description: z.string().max(32).optional(),
      orderNo: z.string().max(40).optional(),
    }),
  }),
  z.object({ op: z.literal('history'), id: z.string().max(64), peer: z.string().min(1).max(64), before: z.string().max(20).optional(), limit: z.number().int().optional() }),
  z.object({ op: z.literal('conversations'), id: z.string().max(64) }),
  z.object({ op: z.literal('read'), id: z.string().max(64), peer: z.string().min(1).max(64) }),
  // 排队叫号: the caller's own numbers today at a hospital, pushed again whenever one of their queues moves
  z.object({ op: z.literal('queue'), id: z.string().max(64), hospitalCode: z.string().trim().min(1).max(32), patientId: z.number().int().positive().max(2 ** 31 - 1).optional() }),
  z.object({ op: z.literal('unqueue'), id: z.string().max(64) }),
])

/** A connection's queue subscription: whose numbers, and the queues (queueKeyOf) they wait in, as last read. */
interface QueueSubscription {
  ws: WebSocket
  userId: number
  hospitalCode: string
  patientId?: number
  keys: Set<string>
}

/** The user behind a patient's chat account (`0_` + user id); null for doctors and assistants. */
const patientUserOf = (account: string): number | null => {
  if (!account.startsWith(PATIENT_PREFIX)) return null
  const n = Number(account.slice(PATIENT_PREFIX.length))
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

/** An account whose signatures were revoked (domain/chat.ts revokeChatSignatures). */
interface Revocation {
  revoked: string
}

/** A stored message as NOTIFY announces it; `origin` is the connection that sent it (it has its reply already). */
interface Announcement {
  id: number
  from: string
  to: string
  origin?: string
}

const expiryOf = (sig: string) => Number(sig.split('.')[1]) * 1000
/** When a signature was issued (seconds): it lives USER_SIG_TTL_S. */
const issuedAtOf = (sig: string) => Number(sig.split('.')[1]) - USER_SIG_TTL_S

/**
 * Our own chat service over WebSocket, `GET /dld-im/ws?sig=<userSig>` (the `local` driver of /dld-im/im/user-sig):
 * the signature is the account's credential; requests are answered on the same connection, and messages are pushed
 * to every connection of both parties on every server process, through NOTIFY on the database they share.
 */
export async function chatSocketRoutes(app: FastifyInstance) {
  const { cipher, config, database, metrics } = app.ctx
  const db = () => app.ctx.db
  /**
   * This process's connections by account; a patient may have the app open on two phones. A connection is held here
   * from its first moment, while its signature is still checked: a message announced meanwhile waits for `admitted`
   * and is pushed once the check passes (dropped if it fails), so nothing sent in that moment is missed.
   */
  const online = new Map<string, Map<string, { ws: WebSocket; admitted: Promise<boolean> }>>()
  /** This process's queue subscriptions, by connection (one each: a new one replaces it). */
  const queueSubs = new Map<string, QueueSubscription>()
  const push = (ws: WebSocket, f: ChatServerFrame | QueueChangedFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(f))
  }

  /** Pushes a stored message to this process's connections of both parties (not the one that sent it). */
  const deliver = async (a: Announcement) => {
    const targets = [a.to, a.from].flatMap((account) =>
      [...(online.get(account)?.entries() ?? [])].filter(([connection]) => connection !== a.origin).map(([, held]) => ({ account, ...held })),
    )
    if (!targets.length) return // most processes hold neither party: no query at all
    const row = await chat.storedMessage(db(), a.id)
    if (!row) return
    for (const { account, ws, admitted } of targets) {
      void admitted.then((ok) => {
        if (!ok) return
        push(ws, { op: 'message', message: chat.toMessage(cipher, row, account) })
        if (account === a.to) push(ws, { op: 'conversationsUpdated' })
      })
    }
  }
  const stopListening = await database.listen(chat.CHAT_CHANNEL, (payload) => {
    let a: Announcement | Revocation
    try {
      a = JSON.parse(payload) as Announcement | Revocation
    } catch {
      return
    }
    if ('revoked' in a) {
      for (const { ws } of online.get(a.revoked)?.values() ?? []) {
        push(ws, { op: 'kicked', reason: 'signature revoked' })
        ws.close(CLOSE_BAD_SIGNATURE, 'signature revoked')
      }
      return
    }
    deliver(a).catch((err) => app.log.error({ err }, 'chat delivery failed'))
  })
  /** Reads the subscriber's numbers again and remembers which queues they now wait in. */
  const readQueue = async (sub: QueueSubscription) => {
    const today = await todayQueue(db(), cipher, sub.userId, { hospitalCode: sub.hospitalCode, patientId: sub.patientId }, new Date())
    sub.keys = new Set(today.tickets.map((t) => queueKeyOf({ hospitalCode: today.hospitalCode, place: t.place, window: t.window })))
    return today
  }
  // a number was called (on any process): the subscribers held here who wait in that queue get their numbers again
  const stopQueueListening = await database.listen(QUEUE_CHANNEL, (payload) => {
    let key: string
    try {
      key = queueKeyOf(JSON.parse(payload) as QueueRef)
    } catch {
      return
    }
    for (const [connection, sub] of queueSubs) {
      if (!sub.keys.has(key)) continue
      readQueue(sub)
        .then((today) => push(sub.ws, { op: 'queueChanged', hospitalCode: today.hospitalCode, tickets: today.tickets }))
        .catch((err: unknown) => {
          // the patient was unbound meanwhile (2999): nothing more for this subscription
          if (err instanceof AppError) queueSubs.delete(connection)
          else app.log.error({ err }, 'queue push failed')
        })
    }
  })
  app.addHook('onClose', async () => {
    await stopListening()
    await stopQueueListening()
  })
  // before the websocket plugin's own preClose, which closes every socket without a code (1005: not a reconnect)
  app.addHook('preClose', async () => {
    const clients = [...app.websocketServer.clients]
    for (const ws of clients) ws.close(CLOSE_GOING_AWAY, GOING_AWAY_REASON)
    setTimeout(() => {
      for (const ws of clients) ws.terminate()
    }, CLOSE_HANDSHAKE_MS).unref()
  })

  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } })

  app.get('/dld-im/ws', { websocket: true, schema: { hide: true } }, (ws, req) => {
    const sig = String((req.query as Record<string, unknown>).sig ?? '')
    const account = verifyLocalSig(config.secret, sig)
    if (!account) {
      ws.close(CLOSE_BAD_SIGNATURE, 'invalid or expired signature')
      return
    }
    const connection = randomUUID()
    // a revoked signature (the account unbound its mobile) is refused; frames and messages that arrive meanwhile wait
    let counted = false
    const admitted = chat
      .signatureRevoked(db(), account, issuedAtOf(sig))
      .then((revoked) => {
        if (revoked) {
          ws.close(CLOSE_BAD_SIGNATURE, 'signature revoked')
          return false
        }
        if (ws.readyState !== ws.OPEN) return false // gone while it was checked: its close handler has run already
        metrics.chatConnections.inc()
        counted = true
        return true
      })
      .catch((err: unknown) => {
        app.log.error({ err }, 'chat signature check failed')
        ws.close(1011, 'try again')
        return false
      })
    const accountsOwn = online.get(account) ?? new Map<string, { ws: WebSocket; admitted: Promise<boolean> }>()
    online.set(account, accountsOwn)
    accountsOwn.set(connection, { ws, admitted })

    // the signature expires: the client is told, and logs in again with a fresh one (spec §4 kicked out)
    const expiry = setTimeout(() => {
      push(ws, { op: 'kicked', reason: 'signature expired' })
      ws.close(CLOSE_BAD_SIGNATURE, 'signature expired')
    }, Math.max(0, Math.min(expiryOf(sig) - Date.now(), 2 ** 31 - 1)))
    let alive = true
    ws.on('pong', () => (alive = true))
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate()
      alive = false
      ws.ping()
    }, HEARTBEAT_MS)
    let windowStart = Date.now()
    let frames = 0

    ws.on('message', (raw) => void admitted.then((ok) => ok && handle(raw)))
    const handle = (raw: RawData) => {
      const now = Date.now()
      if (now - windowStart > RATE_WINDOW_MS) {
        windowStart = now
        frames = 0
      }
      if (++frames > RATE_LIMIT) return ws.close(CLOSE_TOO_FAST, 'too many frames')
      let json: unknown
      try {
        json = JSON.parse(String(raw))
      } catch {
        json = null
      }
      const checked = frame.safeParse(json)
      if (!checked.success || holdsNul(checked.data)) {
        // answered under the request's own id when it has one, so the client's request does not wait for ever
        const id = (json as { id?: unknown } | null)?.id
        return push(ws, { op: 'reply', id: typeof id === 'string' ? id.slice(0, 64) : '', ok: false, error: '消息格式不正确' })
      }
      const parsed = checked.data
      const answer = async (): Promise<unknown> => {
        switch (parsed.op) {
          case 'send':
            return chat.sendMessage(db(), cipher, account, parsed.message, connection)
          case 'history': {
            const page = await chat.history(db(), cipher, account, parsed)
            await chat.auditHistoryRead(db(), account, parsed.peer, { address: req.ip, requestId: `${connection}:${parsed.id}` })
            return page
          }
          case 'conversations':
            return chat.conversations(db(), cipher, account)
          case 'read':
            await chat.markRead(db(), account, parsed.peer)
            return null
          case 'queue': {
            const userId = patientUserOf(account)
            if (userId === null) throw forbidden()
            const sub: QueueSubscription = { ws, userId, hospitalCode: parsed.hospitalCode, patientId: parsed.patientId, keys: new Set() }
            const today = await readQueue(sub)
            if (ws.readyState === ws.OPEN) queueSubs.set(connection, sub) // gone meanwhile: its close handler has run
            return today
          }
          case 'unqueue':
            queueSubs.delete(connection)
            return null
        }
      }
      answer()
        .then((data) => push(ws, { op: 'reply', id: parsed.id, ok: true, data }))
        .catch((err: unknown) => {
          if (err instanceof AppError) return push(ws, { op: 'reply', id: parsed.id, ok: false, error: err.message })
          app.log.error({ err, op: parsed.op }, 'chat request failed')
          push(ws, { op: 'reply', id: parsed.id, ok: false, error: '服务暂时不可用，请稍后重试' })
        })
    }
    ws.on('close', () => {
      queueSubs.delete(connection)
      clearTimeout(expiry)
      clearInterval(heartbeat)
      const mine = online.get(account)
      mine?.delete(connection)
      if (mine && !mine.size) online.delete(account)
      if (counted) metrics.chatConnections.dec()
    })
  })
}
