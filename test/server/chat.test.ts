import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import type { FastifyInstance } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import { auditLog, chatMessages, chatRevocations, doctors, files, identities, inquiries, patients } from '../../server/src/db/schema'
import { USER_SIG_TTL_S, localSig } from '../../server/src/plugins/providers/im'
import type { ChatMessage, ChatServerFrame } from '../../types/api/chat'
import { pairKeyOf } from '../../server/src/domain/chat'
import { startTestApp, signInUser, envelopeOf, LogCapture, type TestApp } from './harness'

type Caller = Awaited<ReturnType<typeof signInUser>>

const log = new LogCapture()
let t: TestApp
let base = ''
let patient: Caller
let other: Caller
let doctor = ''
let doctor2 = ''

/** A chat connection as the app's driver holds it: requests answered by id, pushes collected. */
class Client {
  pushes: ChatServerFrame[] = []
  private seq = 0
  private waiting = new Map<string, (f: ChatServerFrame) => void>()
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as ChatServerFrame
      if (f.op === 'reply' && this.waiting.has(f.id)) {
        this.waiting.get(f.id)!(f)
        this.waiting.delete(f.id)
      } else this.pushes.push(f)
    })
  }

  static open(sig: string, at = base): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${at.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
      ws.once('open', () => resolve(new Client(ws)))
      ws.once('error', reject)
    })
  }

  request(f: Record<string, unknown>): Promise<ChatServerFrame & { op: 'reply' }> {
    const id = `r${++this.seq}`
    return new Promise((resolve) => {
      this.waiting.set(id, resolve as (f: ChatServerFrame) => void)
      this.ws.send(JSON.stringify({ ...f, id }))
    })
  }

  async send(to: string, payload: string, extra: Record<string, unknown> = {}) {
    return this.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), to, type: 'text', payload, ...extra } })
  }

  /** Waits for pushed messages until `n` have come (or the time runs out). */
  async messages(n: number, ms = 3000): Promise<ChatMessage[]> {
    const until = Date.now() + ms
    const got = () => this.pushes.filter((f): f is ChatServerFrame & { op: 'message' } => f.op === 'message').map((f) => f.message)
    while (got().length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    return got()
  }

  close() {
    this.ws.close()
  }
}

/** The close code the server answers a connection with. */
function closeCode(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url)
    ws.once('close', (code) => resolve(code))
    ws.once('error', () => undefined)
  })
}

/** The signature the app gets from /dld-im/im/user-sig (driver 'local' without Tencent IM). */
async function patientSig(caller: Caller) {
  const env = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-im/im/user-sig', headers: caller.headers }))
  assert.equal(env.code, 200, env.msg)
  assert.equal(env.data.driver, 'local')
  return env.data.userSig as string
}
/**
 * A doctor writes only to a patient who paid for an inquiry with them (domain/chat.ts): one paid inquiry between the
 * two, as the payment core leaves it.
 */
async function paidInquiry(caller: Caller, doctorAccount: string) {
  const db = t.database.db
  const doctorId = Number(doctorAccount.slice(2))
  const [d] = await db.select({ hospitalId: doctors.hospitalId }).from(doctors).where(eq(doctors.id, doctorId))
  const key = randomBytes(8).toString('hex')
  const [p] = await db
    .insert(patients)
    .values({ userId: caller.userId, nameEnc: t.app.ctx.cipher.encrypt('聊天测试'), personIndex: key, sex: 1, birthday: '1990-01-01', relation: '本人', source: 'idCard' })
    .returning({ id: patients.id })
  await db.insert(inquiries).values({
    inquiryNo: `I${key}`,
    userId: caller.userId,
    patientId: p!.id,
    hospitalId: d!.hospitalId,
    doctorId,
    serviceType: 'text',
    descriptionEnc: t.app.ctx.cipher.encrypt('咳嗽'),
    priceFen: 0,
    status: 'waiting',
    idempotencyKey: key,
    paidAt: new Date(),
  })
  return `I${key}`
}
const doctorSig = (account: string, expire = Math.floor(Date.now() / 1000) + 3600) => localSig(t.config.secret, account, expire)

async function listen(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  base = await listen(t.app)
  patient = await signInUser(t.app)
  other = await signInUser(t.app)
  const [d1, d2] = await t.database.db.select({ id: doctors.id }).from(doctors).orderBy(doctors.id).limit(2)
  doctor = `d_${d1!.id}`
  doctor2 = `d_${d2!.id}`
  // a patient writes to a doctor within a consultation (see 'writes to a doctor only within a consultation')
  await paidInquiry(patient, doctor)
  await paidInquiry(patient, doctor2)
})
after(() => t.close())

const sent = new Set<string>()
const text = (label: string) => {
  const s = `${label} ${randomBytes(4).toString('hex')}`
  sent.add(s)
  return s
}

describe('GET /dld-im/ws (our own chat service)', () => {
  it('refuses a connection without a valid, unexpired signature', async () => {
    const url = `${base.replace('http', 'ws')}/dld-im/ws`
    assert.equal(await closeCode(url), 4401)
    assert.equal(await closeCode(`${url}?sig=not-a-signature`), 4401)
    assert.equal(await closeCode(`${url}?sig=${encodeURIComponent(doctorSig(doctor, Math.floor(Date.now() / 1000) - 1))}`), 4401)
    const forged = localSig('some other secret', `0_${patient.userId}`, Math.floor(Date.now() / 1000) + 3600)
    assert.equal(await closeCode(`${url}?sig=${encodeURIComponent(forged)}`), 4401)
  })

  it('records each history read in the audit log, by the patient and by the doctor, as the patient’s data', async () => {
    const reader = await signInUser(t.app)
    const phone = await Client.open(await patientSig(reader))
    const desk = await Client.open(doctorSig(doctor))
    assert.equal((await phone.request({ op: 'history', peer: doctor })).ok, true)
    assert.equal((await desk.request({ op: 'history', peer: `0_${reader.userId}` })).ok, true)
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, reader.userId)).orderBy(auditLog.id)
    assert.deepEqual(
      rows.map((r) => [r.actorKind, r.action, r.subject, r.route]),
      [
        ['patient', 'read', 'chat', 'WS /dld-im/ws history'],
        ['staff', 'read', 'chat', 'WS /dld-im/ws history'],
      ],
    )
    assert.equal(rows[0]!.actorId, reader.userId)
    phone.close()
    desk.close()
  })

  it('unbinding the mobile revokes the user’s chat signatures: the open connection is kicked and the old signature opens none; a later one does', async () => {
    const leaving = await signInUser(t.app)
    const sig = await patientSig(leaving)
    const phone = await Client.open(sig)
    const closed = new Promise<number>((resolve) => phone.ws.once('close', (code) => resolve(code)))
    assert.equal(envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-hospital/cancelBind', headers: leaving.headers })).code, 200)
    assert.equal(await closed, 4401)
    assert.deepEqual(
      phone.pushes.filter((f) => f.op === 'kicked'),
      [{ op: 'kicked', reason: 'signature revoked' }],
    )
    assert.equal(await closeCode(`${base.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`), 4401)
    // the same user bound again later (a signature issued after the revocation, in a later second)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const later = await Client.open(localSig(t.config.secret, `0_${leaving.userId}`, Math.floor(Date.now() / 1000) + USER_SIG_TTL_S))
    assert.equal((await later.request({ op: 'conversations' })).ok, true)
    later.close()
  })

  it('delivers a patient’s message to the doctor at once, and to the patient’s other phone, not back to the sender', async () => {
    const phone = await Client.open(await patientSig(patient))
    const secondPhone = await Client.open(await patientSig(patient))
    const desk = await Client.open(doctorSig(doctor))
    const words = text('医生您好，我咳嗽三天了')
    const reply = await phone.send(doctor, words)
    assert.equal(reply.ok, true)
    const stored = (reply as { data: ChatMessage }).data
    assert.deepEqual([stored.from, stored.to, stored.payload, stored.status, stored.conversationID], [`0_${patient.userId}`, doctor, words, 'sendSuccess', `C2C${doctor}`])
    const [atDesk] = await desk.messages(1)
    assert.deepEqual({ ...atDesk! }, { ...stored, conversationID: `C2C0_${patient.userId}` })
    assert.ok(desk.pushes.some((f) => f.op === 'conversationsUpdated'))
    assert.equal((await secondPhone.messages(1))[0]!.id, stored.id)
    assert.equal((await phone.messages(1, 300)).length, 0)
    for (const c of [phone, secondPhone, desk]) c.close()
  })

  it('stores a message sent again with the same clientId once, and the doctor hears of it once', async () => {
    const phone = await Client.open(await patientSig(patient))
    const desk = await Client.open(doctorSig(doctor2))
    const clientId = randomBytes(8).toString('hex')
    const message = { clientId, to: doctor2, type: 'text', payload: text('重发的消息') }
    const [first, again] = await Promise.all([phone.request({ op: 'send', message }), phone.request({ op: 'send', message })])
    assert.ok(first.ok && again.ok)
    assert.equal((first as { data: ChatMessage }).data.id, (again as { data: ChatMessage }).data.id)
    const rows = await t.database.db.select().from(chatMessages).where(eq(chatMessages.clientId, clientId))
    assert.equal(rows.length, 1)
    assert.equal((await desk.messages(2, 500)).length, 1)
    phone.close()
    desk.close()
  })

  it('refuses what cannot be sent with the reason (spec §5), storing nothing', async () => {
    const phone = await Client.open(await patientSig(patient))
    const before = (await t.database.db.execute(sql`select count(*)::int as n from chat_messages`)) as unknown as { rows: { n: number }[] }
    const error = async (message: Record<string, unknown>) => {
      const r = await phone.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), type: 'text', to: doctor, payload: 'x', ...message } })
      assert.equal(r.ok, false)
      return (r as { error: string }).error
    }
    assert.equal(await error({ to: '' }), '接收人不能为空')
    assert.equal(await error({ payload: '   ' }), '发送内容不能为空')
    assert.equal(await error({ payload: '字'.repeat(2001) }), '消息不能超过2000个字')
    assert.equal(await error({ to: `0_${other.userId}` }), '暂无权限') // patients do not write to each other
    assert.equal(await error({ to: 'd_999999' }), '暂无权限')
    assert.equal(await error({ description: 'orderFinished' }), '消息标记不正确') // only the doctor side marks the order
    assert.equal(await error({ type: 'image', payload: '/dld-file/files/AAAAAAAAAAAAAAAAAAAAAA.png' }), '图片请先上传')
    const bad = await phone.request({ op: 'send' })
    assert.deepEqual([bad.ok, (bad as { error: string }).error], [false, '消息格式不正确'])
    const after = (await t.database.db.execute(sql`select count(*)::int as n from chat_messages`)) as unknown as { rows: { n: number }[] }
    assert.equal(after.rows[0]!.n, before.rows[0]!.n)
    phone.close()
  })

  it('writes to a doctor only within a consultation, and files each message under it', async () => {
    const account = await signInUser(t.app)
    const phone = await Client.open(await patientSig(account))
    const desk = await Client.open(doctorSig(doctor))
    const send = (c: Client, to: string, words: string) => c.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), to, type: 'text', payload: words } })
    const refused = await send(phone, doctor, '没有问诊也能发吗')
    assert.deepEqual([refused.ok, (refused as { error: string }).error], [false, '请先向医生发起问诊'])
    // nor may the doctor write first to someone who never consulted them
    const uninvited = await send(desk, `0_${account.userId}`, '您好')
    assert.deepEqual([uninvited.ok, (uninvited as { error: string }).error], [false, '暂无权限'])

    const inquiryNo = await paidInquiry(account, doctor)
    // the client's own order number is not trusted: the message belongs to the open consultation
    const r = await phone.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), to: doctor, type: 'text', payload: text('有问诊了'), orderNo: 'I000000000000000' } })
    assert.equal(r.ok, true, JSON.stringify(r))
    assert.ok((await send(desk, `0_${account.userId}`, text('请讲'))).ok)
    const filed = await t.database.db.select({ orderNo: chatMessages.orderNo }).from(chatMessages).where(eq(chatMessages.pairKey, pairKeyOf(`0_${account.userId}`, doctor)))
    assert.deepEqual(filed.map((m) => m.orderNo), [inquiryNo, inquiryNo])

    await t.database.db.update(inquiries).set({ status: 'finished' }).where(eq(inquiries.inquiryNo, inquiryNo))
    const ended = await send(phone, doctor, '结束了还能发吗')
    assert.deepEqual([ended.ok, (ended as { error: string }).error], [false, '本次问诊已结束，无法发送消息'])
    // the doctor may still write after the end (a follow-up note about the record)
    assert.ok((await send(desk, `0_${account.userId}`, text('记得复查'))).ok)
    phone.close()
    desk.close()
  })

  it('sends a picture that was uploaded', async () => {
    const [identity] = await t.database.db.select({ id: identities.id }).from(identities).where(eq(identities.userId, patient.userId)).limit(1)
    const name = `${randomBytes(16).toString('base64url')}.png`
    await t.database.db.insert(files).values({ identityId: identity!.id, storedName: name, originalName: 'a.png', mime: 'image/png', size: 10 })
    const phone = await Client.open(await patientSig(patient))
    const r = await phone.request({ op: 'send', message: { clientId: randomBytes(8).toString('hex'), to: doctor, type: 'image', payload: `/dld-file/files/${name}` } })
    assert.equal(r.ok, true, JSON.stringify(r))
    assert.equal((r as { data: ChatMessage }).data.type, 'image')
    phone.close()
  })

  it('pages the history back, oldest first, and shows each pair only its own conversation', async () => {
    const account = await signInUser(t.app)
    const phone = await Client.open(await patientSig(account))
    await paidInquiry(account, doctor)
    for (let i = 1; i <= 25; i++) assert.ok((await phone.send(doctor, `第${i}条`)).ok)
    const first = (await phone.request({ op: 'history', peer: doctor, limit: 20 })) as { ok: true; data: { messages: ChatMessage[]; nextCursor: string | null } }
    assert.deepEqual(first.data.messages.map((m) => m.payload), Array.from({ length: 20 }, (_, i) => `第${i + 6}条`))
    const second = (await phone.request({ op: 'history', peer: doctor, before: first.data.nextCursor })) as typeof first
    assert.deepEqual(second.data.messages.map((m) => m.payload), ['第1条', '第2条', '第3条', '第4条', '第5条'])
    assert.equal(second.data.nextCursor, null)
    // another patient asking for the same doctor sees only their own conversation
    const stranger = await Client.open(await patientSig(other))
    const theirs = (await stranger.request({ op: 'history', peer: doctor })) as typeof first
    assert.ok(theirs.data.messages.every((m) => m.from === `0_${other.userId}` || m.to === `0_${other.userId}`))
    assert.ok(!theirs.data.messages.some((m) => m.payload.startsWith('第')))
    phone.close()
    stranger.close()
  })

  it('counts what is unread per conversation until it is read', async () => {
    const account = await signInUser(t.app)
    const me = `0_${account.userId}`
    const phone = await Client.open(await patientSig(account))
    const desk = await Client.open(doctorSig(doctor2))
    await paidInquiry(account, doctor2)
    await phone.send(doctor2, text('第一条'))
    await phone.send(doctor2, text('第二条'))
    await desk.send(me, text('请描述一下症状'))
    const list = async (c: Client) => ((await c.request({ op: 'conversations' })) as { data: { peer: string; unreadCount: number; lastMessage: ChatMessage }[] }).data
    const atDesk = (await list(desk)).find((c) => c.peer === me)!
    assert.equal(atDesk.unreadCount, 2)
    assert.equal(atDesk.lastMessage.from, doctor2)
    assert.equal((await list(phone)).find((c) => c.peer === doctor2)!.unreadCount, 1)
    assert.ok((await desk.request({ op: 'read', peer: me })).ok)
    assert.equal((await list(desk)).find((c) => c.peer === me)!.unreadCount, 0)
    assert.equal((await list(phone)).find((c) => c.peer === doctor2)!.unreadCount, 1)
    phone.close()
    desk.close()
  })

  it('keeps the content encrypted at rest', async () => {
    const rows = await t.database.db.select({ p: chatMessages.payloadEnc }).from(chatMessages)
    assert.ok(rows.length > 10)
    for (const words of sent) assert.ok(!rows.some((r) => r.p.includes(words.split(' ')[0]!)), 'a message readable in the table')
  })

  it('delivers across two server processes sharing the database (NOTIFY)', async () => {
    const twin = await t.twin()
    const twinBase = await listen(twin.app)
    const phone = await Client.open(await patientSig(patient), base)
    const desk = await Client.open(doctorSig(doctor), twinBase)
    await paidInquiry(patient, doctor)
    const words = text('另一台服务器上的医生')
    assert.ok((await phone.send(doctor, words)).ok)
    assert.deepEqual((await desk.messages(1)).map((m) => m.payload), [words])
    const back = text('收到，请稍等')
    assert.ok((await desk.send(`0_${patient.userId}`, back)).ok)
    assert.deepEqual((await phone.messages(1)).map((m) => m.payload), [back])
    phone.close()
    desk.close()
    await twin.close()
  })

  it('pushes a message sent while the receiving connection’s signature is still being checked', async () => {
    const twin = await t.twin()
    const twinBase = await listen(twin.app)
    const phone = await Client.open(await patientSig(patient), base)
    // on the twin, the check of a new connection's signature (its read of chat_revocations) waits for `release`
    const real = twin.app.ctx.db
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let checking = () => {}
    const checkStarted = new Promise<void>((resolve) => (checking = resolve))
    let reading = () => {}
    const messageRead = new Promise<void>((resolve) => (reading = resolve))
    const held = (query: object): object =>
      new Proxy(query, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown
          if (prop === 'then') return (ok: never, ko: never) => gate.then(() => (target as PromiseLike<unknown>).then(ok, ko))
          return typeof value === 'function' ? (...args: unknown[]) => held((value as (...a: unknown[]) => object).apply(target, args)) : value
        },
      })
    twin.app.ctx.db = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'select') return Reflect.get(target, prop, receiver) as unknown
        return (...args: Parameters<typeof real.select>) =>
          new Proxy(real.select(...args), {
            get(builder, key, r) {
              if (key !== 'from') return Reflect.get(builder, key, r) as unknown
              return (table: never) => {
                const query = builder.from(table)
                if (table === chatRevocations) {
                  checking()
                  return held(query)
                }
                if (table === chatMessages) reading() // the twin reads a message to push it to a connection it holds
                return query
              }
            },
          })
      },
    })
    const desk = await Client.open(doctorSig(doctor), twinBase)
    await checkStarted
    const words = text('签名核对时发来的消息')
    assert.ok((await phone.send(doctor, words)).ok)
    await Promise.race([messageRead, new Promise((resolve) => setTimeout(resolve, 3000))])
    release()
    assert.deepEqual((await desk.messages(1)).map((m) => m.payload), [words])
    twin.app.ctx.db = real
    phone.close()
    desk.close()
    await twin.close()
  })

  it('leaves no message text and no signature in the logs', async () => {
    assert.ok(log.text.includes('/dld-im/'))
    for (const words of sent) assert.ok(!log.text.includes(words), 'message text in the log')
    assert.ok(!/sig=[^"&\s]{20,}/.test(log.text), 'signature in the log')
  })
})
