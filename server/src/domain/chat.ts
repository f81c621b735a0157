import { and, desc, eq, gt, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import type { ChatConversation, ChatMessage, ChatMessagePage, ChatSendInput } from '../../../types/api/chat'
import type { Db, Tx } from '../db'
import type { FieldCipher } from '../crypto'
import { chatMessages, chatReads, chatRevocations, doctors, staffAccounts, files, inquiries, physicianAssistants, users } from '../db/schema'
import { badInput, forbidden } from '../errors'
import { UPLOADED_PICTURE } from './file'
import { recordAudit, type Actor } from './audit'
import { ASSISTANT_PREFIX, CHAT_MSG, CHAT_TEXT_MAX, DOCTOR_PREFIX, PATIENT_PREFIX, conversationIDOf, isOrderDescription } from '@/utils/chatRules'

/**
 * Our own chat service (the embedded default of spec §1's instant messaging): who may write to whom, storing a
 * message once, history, conversations with unread counts, read marks. The WebSocket and the fan-out between server
 * processes live in routes/chatSocket.ts; this file takes the database and answers or refuses.
 */

/** The NOTIFY channel a stored message is announced on, to every server process. */
export const CHAT_CHANNEL = 'chat_message'

/**
 * Revokes every chat signature of `account` issued until now, inside the caller's transaction, and tells every server
 * process (CHAT_CHANNEL) to close the account's open connections.
 */
export async function revokeChatSignatures(tx: Tx, account: string, now = new Date()): Promise<void> {
  await tx.insert(chatRevocations).values({ account, revokedAt: now }).onConflictDoUpdate({ target: chatRevocations.account, set: { revokedAt: now } })
  await tx.execute(sql`select pg_notify(${CHAT_CHANNEL}, ${JSON.stringify({ revoked: account })})`)
}

/** Whether a signature of `account` issued at `issuedAt` (seconds since epoch) has been revoked since. */
export async function signatureRevoked(db: Db, account: string, issuedAt: number): Promise<boolean> {
  const [row] = await db.select({ revokedAt: chatRevocations.revokedAt }).from(chatRevocations).where(eq(chatRevocations.account, account))
  return !!row && issuedAt <= Math.floor(row.revokedAt.getTime() / 1000)
}

/**
 * Records a read of the chat between `account` and `peer` in the audit log: by the patient (their own), or by a
 * doctor or assistant (through their workbench account), as the patient's data either way.
 */
export async function auditHistoryRead(db: Db, account: string, peer: string, at: { address: string; requestId: string }): Promise<void> {
  const patient = idOf(account, PATIENT_PREFIX) ?? idOf(peer, PATIENT_PREFIX)
  let actor: Actor | null = null
  const self = idOf(account, PATIENT_PREFIX)
  if (self !== null) actor = { kind: 'patient', id: self }
  else {
    const doctor = idOf(account, DOCTOR_PREFIX)
    const assistant = idOf(account, ASSISTANT_PREFIX)
    const [staff] = await db
      .select({ id: staffAccounts.id })
      .from(staffAccounts)
      .where(doctor !== null ? eq(staffAccounts.doctorId, doctor) : eq(staffAccounts.assistantId, assistant ?? -1))
      .limit(1)
    if (staff) actor = { kind: 'staff', id: staff.id }
  }
  if (!actor) return
  await recordAudit(db, { actor, action: 'read', subject: 'chat', route: 'WS /dld-im/ws history', patientIds: [], userId: patient, ...at })
}

/** A patient writes to a doctor only within a consultation that waits for or is served by the doctor. */
export const NO_CONSULTATION = '请先向医生发起问诊'
export const HISTORY_PAGE = 20
export const HISTORY_PAGE_MAX = 50

type Row = typeof chatMessages.$inferSelect

const idOf = (account: string, prefix: string) => (account.startsWith(prefix) && /^\d{1,9}$/.test(account.slice(prefix.length)) ? Number(account.slice(prefix.length)) : null)
export const pairKeyOf = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`)

/** An account this server knows: a signed-up patient, a seeded doctor or a physician assistant. */
async function accountExists(db: Db, account: string): Promise<boolean> {
  const patient = idOf(account, PATIENT_PREFIX)
  if (patient !== null) return (await db.select({ id: users.id }).from(users).where(eq(users.id, patient)).limit(1)).length > 0
  const doctor = idOf(account, DOCTOR_PREFIX)
  if (doctor !== null) return (await db.select({ id: doctors.id }).from(doctors).where(eq(doctors.id, doctor)).limit(1)).length > 0
  const assistant = idOf(account, ASSISTANT_PREFIX)
  if (assistant !== null) return (await db.select({ id: physicianAssistants.id }).from(physicianAssistants).where(eq(physicianAssistants.id, assistant)).limit(1)).length > 0
  return false
}

/**
 * Whether the doctor or assistant `staff` may write to the patient `userId`: a doctor to a patient who paid for (or was
 * given) an inquiry with them, in any state after that; an assistant to one who did so at the assistant's hospital, or
 * who wrote to the assistant first. An unpaid order gives no doctor a way to a patient. Answers the consultation the
 * message belongs to (the latest paid inquiry with that doctor), or false.
 */
async function servesPatient(db: Db, staff: string, userId: number): Promise<{ orderNo: string | null } | false> {
  const doctor = idOf(staff, DOCTOR_PREFIX)
  if (doctor !== null) {
    const [row] = await db
      .select({ inquiryNo: inquiries.inquiryNo })
      .from(inquiries)
      .where(and(eq(inquiries.userId, userId), eq(inquiries.doctorId, doctor), isNotNull(inquiries.paidAt)))
      .orderBy(desc(inquiries.id))
      .limit(1)
    return row ? { orderNo: row.inquiryNo } : false
  }
  const assistant = idOf(staff, ASSISTANT_PREFIX)
  if (assistant === null) return false
  const [paid] = await db
    .select({ id: inquiries.id })
    .from(inquiries)
    .innerJoin(physicianAssistants, eq(physicianAssistants.hospitalId, inquiries.hospitalId))
    .where(and(eq(physicianAssistants.id, assistant), eq(inquiries.userId, userId), isNotNull(inquiries.paidAt)))
    .limit(1)
  if (paid) return { orderNo: null }
  const [wrote] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.fromAccount, `${PATIENT_PREFIX}${userId}`), eq(chatMessages.toAccount, staff)))
    .limit(1)
  return wrote ? { orderNo: null } : false
}

/**
 * The consultation a patient's message to a doctor belongs to: one waiting for or served by that doctor. Without one
 * the message is refused, so a doctor is never written to outside a consultation (nor after it ended) by any client.
 */
async function openConsultation(db: Db, userId: number, doctorId: number): Promise<string> {
  const rows = await db
    .select({ inquiryNo: inquiries.inquiryNo, status: inquiries.status })
    .from(inquiries)
    .where(and(eq(inquiries.userId, userId), eq(inquiries.doctorId, doctorId), isNotNull(inquiries.paidAt)))
    .orderBy(desc(inquiries.id))
  const open = rows.find((r) => r.status === 'waiting' || r.status === 'inProgress')
  if (open) return open.inquiryNo
  throw badInput(rows.length ? CHAT_MSG.ended : NO_CONSULTATION)
}

/**
 * A patient writes to assistants, and to a doctor within an open consultation (openConsultation); a doctor or assistant
 * to the patients they serve (servesPatient); never a patient to another patient (their conversations are private
 * health matters) nor to an account that does not exist. Answers the consultation order the message belongs to.
 */
async function requirePeer(db: Db, from: string, to: string): Promise<string | null> {
  const patientFrom = idOf(from, PATIENT_PREFIX)
  const doctor = idOf(to, DOCTOR_PREFIX)
  // the hot path (a patient writing in a consultation) costs one query: a consultation implies the doctor exists
  if (patientFrom !== null && doctor !== null) {
    try {
      return await openConsultation(db, patientFrom, doctor)
    } catch (e) {
      if (!(await accountExists(db, to))) throw forbidden()
      throw e
    }
  }
  if (patientFrom !== null && to.startsWith(ASSISTANT_PREFIX) && (await accountExists(db, to))) return null
  const patient = idOf(to, PATIENT_PREFIX)
  const served = patientFrom === null && patient !== null ? await servesPatient(db, from, patient) : false
  if (served) return served.orderNo
  throw forbidden()
}

export function toMessage(cipher: FieldCipher, row: Row, viewer: string): ChatMessage {
  return {
    id: String(row.id),
    conversationID: conversationIDOf(row.fromAccount === viewer ? row.toAccount : row.fromAccount),
    from: row.fromAccount,
    to: row.toAccount,
    type: row.type,
    payload: cipher.decrypt(row.payloadEnc),
    description: row.description,
    time: row.createdAt.getTime(),
    status: 'sendSuccess',
  }
}

/**
 * Stores a message once per (sender, clientId) and announces it on CHAT_CHANNEL in the same transaction, so every
 * process hears of it exactly when it is committed. Sending the same clientId again answers the stored message.
 * `origin` names the connection it came from, which has its answer already and is not sent a copy.
 */
export async function sendMessage(db: Db, cipher: FieldCipher, from: string, input: ChatSendInput, origin?: string): Promise<ChatMessage> {
  const to = (input.to ?? '').trim()
  if (!to) throw badInput(CHAT_MSG.noReceiver)
  const payload = (input.payload ?? '').trim()
  if (!payload) throw badInput(CHAT_MSG.emptyContent)
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(input.clientId ?? '')) throw badInput('消息编号不正确')
  if (input.type !== 'text' && input.type !== 'image') throw badInput('消息类型不正确')
  if (input.type === 'text' && payload.length > CHAT_TEXT_MAX) throw badInput(`消息不能超过${CHAT_TEXT_MAX}个字`)
  const description = input.description ?? ''
  if (description && (!isOrderDescription(description) || !from.startsWith(DOCTOR_PREFIX))) throw badInput('消息标记不正确')
  if (input.orderNo !== undefined && !/^[A-Za-z0-9]{1,40}$/.test(input.orderNo)) throw badInput('订单号不正确')
  if (to === from) throw badInput('不能给自己发消息')
  // the server knows which consultation a message belongs to; a client's own order number is not trusted
  const orderNo = (await requirePeer(db, from, to)) ?? undefined
  if (input.type === 'image') {
    const name = UPLOADED_PICTURE.exec(payload)?.[1]
    const [file] = name ? await db.select({ id: files.id }).from(files).where(eq(files.storedName, name)).limit(1) : []
    if (!file) throw badInput('图片请先上传')
  }

  // one statement, so no transaction around it: the row and its announcement commit together (insertMessage)
  const stored = await insertMessage(db, cipher, from, { ...input, to, payload, description, orderNo }, origin)
  if (stored) return stored
  // the same message again: what was stored the first time
  const [first] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.fromAccount, from), eq(chatMessages.clientId, input.clientId)))
  if (!first || first.toAccount !== to) throw badInput('消息编号已被使用')
  return toMessage(cipher, first, from)
}

/**
 * Stores one message and announces it on CHAT_CHANNEL in one statement, which PostgreSQL delivers when that statement's
 * transaction commits (never for one rolled back): the caller's, or the statement's own. The caller has checked the
 * input (sendMessage does; the doctor's workbench writes its own marks of the order with the change they tell of).
 * Answers null when the sender used this clientId already (the conflict inserts nothing, and nothing is announced).
 */
export async function insertMessage(db: Db | Tx, cipher: FieldCipher, from: string, input: ChatSendInput, origin?: string): Promise<ChatMessage | null> {
  const inserted = db.$with('inserted').as(
    db
      .insert(chatMessages)
      .values({
        fromAccount: from,
        toAccount: input.to,
        pairKey: pairKeyOf(from, input.to),
        orderNo: input.orderNo ?? null,
        type: input.type,
        payloadEnc: cipher.encrypt(input.payload),
        description: input.description ?? '',
        clientId: input.clientId,
      })
      .onConflictDoNothing({ target: [chatMessages.fromAccount, chatMessages.clientId] })
      .returning(),
  )
  // the announcement is a column of the one row inserted (none on a conflict): its payload is what
  // routes/chatSocket.ts reads, the stored id, sender, receiver and the connection the message came from (left out
  // when there is none)
  const announcement = sql`json_strip_nulls(json_build_object('id', ${inserted.id}, 'from', ${from}::text, 'to', ${input.to}::text, 'origin', ${origin ?? null}::text))::text`
  const [row] = await db
    .with(inserted)
    .select({ ...inserted._.selectedFields, announced: sql`pg_notify(${CHAT_CHANNEL}, ${announcement})` })
    .from(inserted)
  return row ? toMessage(cipher, row, from) : null
}

/** A stored message by the id a notification names; toMessage shows it to one of its two parties. */
export async function storedMessage(db: Db, id: number): Promise<Row | null> {
  const [row] = await db.select().from(chatMessages).where(eq(chatMessages.id, id))
  return row ?? null
}

/** The conversation with `peer`, newest page first asked, messages oldest first; `before` pages back. */
export async function history(db: Db, cipher: FieldCipher, account: string, input: { peer: string; before?: string; limit?: number }): Promise<ChatMessagePage> {
  const limit = Math.min(Math.max(Math.trunc(Number(input.limit ?? HISTORY_PAGE)) || HISTORY_PAGE, 1), HISTORY_PAGE_MAX)
  const before = input.before === undefined ? null : Number(input.before)
  if (before !== null && !Number.isSafeInteger(before)) throw badInput('分页参数不正确')
  if (typeof input.peer !== 'string' || !input.peer) throw badInput(CHAT_MSG.noReceiver)
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.pairKey, pairKeyOf(account, input.peer)), before !== null ? lt(chatMessages.id, before) : undefined))
    .orderBy(desc(chatMessages.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit).reverse()
  return { messages: page.map((r) => toMessage(cipher, r, account)), nextCursor: rows.length > limit ? String(page[0]!.id) : null }
}

/** The account's conversations, newest first, each with its last message and what is unread. */
export async function conversations(db: Db, cipher: FieldCipher, account: string): Promise<ChatConversation[]> {
  const latest = await db
    .selectDistinctOn([chatMessages.pairKey])
    .from(chatMessages)
    .where(or(eq(chatMessages.fromAccount, account), eq(chatMessages.toAccount, account)))
    .orderBy(chatMessages.pairKey, desc(chatMessages.id))
  if (!latest.length) return []
  const peers = latest.map((r) => (r.fromAccount === account ? r.toAccount : r.fromAccount))
  const unread = await db
    .select({ peer: chatMessages.fromAccount, n: sql<number>`count(*)::int` })
    .from(chatMessages)
    .leftJoin(chatReads, and(eq(chatReads.account, account), eq(chatReads.peer, chatMessages.fromAccount)))
    .where(and(eq(chatMessages.toAccount, account), inArray(chatMessages.fromAccount, peers), gt(chatMessages.id, sql`coalesce(${chatReads.lastReadId}, 0)`)))
    .groupBy(chatMessages.fromAccount)
  const unreadOf = new Map(unread.map((u) => [u.peer, u.n]))
  return latest
    .sort((a, b) => b.id - a.id)
    .map((r) => {
      const peer = r.fromAccount === account ? r.toAccount : r.fromAccount
      return { conversationID: conversationIDOf(peer), peer, unreadCount: unreadOf.get(peer) ?? 0, lastMessage: toMessage(cipher, r, account) }
    })
}

/** Everything from `peer` up to now is read (the read mark only moves forward). */
export async function markRead(db: Db, account: string, peer: string): Promise<void> {
  const [last] = await db
    .select({ id: sql<number>`coalesce(max(${chatMessages.id}), 0)::int` })
    .from(chatMessages)
    .where(and(eq(chatMessages.toAccount, account), eq(chatMessages.fromAccount, peer)))
  await db
    .insert(chatReads)
    .values({ account, peer, lastReadId: last?.id ?? 0 })
    .onConflictDoUpdate({ target: [chatReads.account, chatReads.peer], set: { lastReadId: sql`greatest(${chatReads.lastReadId}, excluded.last_read_id)` } })
}

/** All unread messages of an account (the badge on the consultation tab). */
export async function unreadTotal(db: Db, account: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chatMessages)
    .leftJoin(chatReads, and(eq(chatReads.account, account), eq(chatReads.peer, chatMessages.fromAccount)))
    .where(and(eq(chatMessages.toAccount, account), gt(chatMessages.id, sql`coalesce(${chatReads.lastReadId}, 0)`)))
  return row?.n ?? 0
}
