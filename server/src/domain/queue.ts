/**
 * 排队叫号 (spec §2 /palm/callRegister/index): the caller's numbers in today's queues at a hospital, and the
 * announcement that a queue moved. Numbers come from the bills paid today (outpatient_payments), asked of the HIS that
 * settled them; a staff call is announced on QUEUE_CHANNEL (NOTIFY), so the chat socket of every server process can
 * push it to the patients it holds who wait in that queue.
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm'
import type { TodayQueue, TodayTicket } from '../../../types/api/queue'
import type { Db, Tx } from '../db'
import type { FieldCipher } from '../crypto'
import { orders, outpatientPayments, patients } from '../db/schema'
import { maskName } from '@/utils/mask'
import { hospitalInstant, hospitalToday } from '@/utils/hospitalClock'
import { requireOwnPatient } from './patient'
import { requireHospitalByCode } from './hospital'
import { hisOfKind } from './bills/his'
import { toQueueTicket } from './bills/records'

export const QUEUE_CHANNEL = 'his_queue'

/** A queue as an announcement names it: a hospital's place and window are unique (his_queues_key). */
export interface QueueRef {
  hospitalCode: string
  place: string
  window: string
}

export const queueKeyOf = (q: QueueRef) => JSON.stringify([q.hospitalCode, q.place, q.window])

/** Tells every server process that a queue moved; delivered when the caller's transaction (if any) commits. */
export async function announceQueueChange(db: Db | Tx, q: QueueRef): Promise<void> {
  await db.execute(sql`select pg_notify(${QUEUE_CHANNEL}, ${JSON.stringify({ hospitalCode: q.hospitalCode, place: q.place, window: q.window })})`)
}

const ORDER_OF_STATUS: Record<TodayTicket['status'], number> = { called: 0, waiting: 1, done: 2, cancelled: 3 }

/**
 * GET /queue/today: the numbers of the caller's patient (someone else's is 2999, checked first), or of all the
 * caller's patients, from bills paid today at the hospital; called first, then waiting by how many are ahead.
 */
export async function todayQueue(db: Db, cipher: FieldCipher, userId: number, input: { hospitalCode: string; patientId?: number }, now: Date): Promise<TodayQueue> {
  if (input.patientId !== undefined) await requireOwnPatient(db, userId, input.patientId)
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const rows = await db
    .select({ orderNo: orders.orderNo, hisKind: outpatientPayments.hisKind, patientId: outpatientPayments.patientId, nameEnc: patients.nameEnc })
    .from(outpatientPayments)
    .innerJoin(orders, eq(orders.id, outpatientPayments.orderId))
    .innerJoin(patients, eq(patients.id, outpatientPayments.patientId))
    .where(
      and(
        eq(outpatientPayments.userId, userId),
        eq(outpatientPayments.hospitalId, hospital.id),
        input.patientId !== undefined ? eq(outpatientPayments.patientId, input.patientId) : undefined,
        eq(orders.status, 'paid'),
        gte(orders.paidAt, hospitalInstant(hospitalToday(now), '00:00')),
      ),
    )
    .orderBy(asc(outpatientPayments.id))
    .limit(50)
  const tickets: TodayTicket[] = []
  for (const r of rows) {
    const his = await hisOfKind(r.hisKind).tickets({ hospitalCode: hospital.code, orderNo: r.orderNo })
    for (const t of his) {
      if (t.status === 'cancelled') continue
      tickets.push({ ...toQueueTicket(t), patientId: r.patientId, patientName: maskName(cipher.decrypt(r.nameEnc)), orderNo: r.orderNo })
    }
  }
  tickets.sort((a, b) => ORDER_OF_STATUS[a.status] - ORDER_OF_STATUS[b.status] || a.ahead - b.ahead)
  return { hospitalCode: hospital.code, tickets }
}
