/**
 * The remaining inquiry and conversation-order calls (spec §7 Internet hospital → Inquiry and Conversation orders):
 * 快速问诊 (the server picks the doctor) and 复诊续方 (with a doctor seen before), both made by inquiry.ts createInquiry;
 * an inquiry's status history; the doctors to suggest; a consultation's chat record; the caller's open inquiry with a
 * doctor; and the past consultations. Every call reads only the caller's own inquiries.
 */
import { and, asc, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm'
import type { ChatRecord, ChronicInquiryInput, DoctorOrderQuery, InquiryHistory, InquiryStep, QuickInquiryInput, RecommendedDoctor } from '../../../types/api/consultation'
import type { Page } from '../../../types/api/hospital'
import type { Inquiry, InquiryKind, InquiryStatus } from '../../../types/api/inquiry'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { chatMessages, departments, doctorFans, doctors, inquiries, onlineDoctorServices, onlineDoctors, orderEvents, orders } from '../db/schema'
import { badInput, conflict, forbidden } from '../errors'
import { toMessage } from './chat'
import { PATIENT_PREFIX } from '@/utils/chatRules'
import { SAME_KEY_OTHER_INQUIRY, createInquiry, inquiryDetail, listInquiries, requireOwnInquiry, statusTextOf } from './inquiry'
import { onlineDoctorRows, requireInternetHospital, textServiceOfDoctor, toOnlineDoctor } from './internetDoctors'
import { requireOwnPatient } from './patient'
import { doctorsInDept } from './register/catalogue'

export const NO_DOCTOR_AVAILABLE = '当前科室暂无可接诊的医生，请稍后再试或选择其他科室'
export const NOT_MY_DOCTOR = '复诊续方仅限您关注的医生或曾为该就诊人接诊的医生'
export const DIAGNOSIS_MAX = 100
export const MEDICINES_MAX = 10
export const MEDICINE_NAME_MAX = 50
export const RECOMMEND_MAX = 10
/** A consultation's record shows at most this many messages (a 24-hour consultation stays well under it). */
export const CHAT_RECORD_MAX = 1000
const OPEN: InquiryStatus[] = ['unpaid', 'waiting', 'inProgress']

// ---- 快速问诊 ------------------------------------------------------------------------------------------------------

/**
 * The doctor a quick inquiry goes to: accepting consultations (online, with 图文问诊), in the department or the
 * hospital, with the fewest inquiries waiting to be accepted; the better rated, then the lower id, on a tie.
 */
async function pickDoctor(db: Db, hospitalId: number, deptId?: number): Promise<number> {
  const where: SQL[] = [eq(onlineDoctors.hospitalId, hospitalId), eq(onlineDoctors.online, true)]
  if (deptId !== undefined) where.push(await doctorsInDept(db, hospitalId, deptId))
  const waiting = sql`(select count(*) from ${inquiries} where ${inquiries.doctorId} = ${onlineDoctors.doctorId} and ${inquiries.status} = 'waiting')`
  const [row] = await db
    .select({ id: onlineDoctors.doctorId })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(onlineDoctorServices, textServiceOfDoctor)
    .where(and(...where))
    .orderBy(asc(waiting), desc(onlineDoctors.goodRate), desc(onlineDoctors.level), asc(onlineDoctors.doctorId))
    .limit(1)
  if (!row) throw badInput(NO_DOCTOR_AVAILABLE)
  return row.id
}

/**
 * POST /inquiry/quickInquiry (快速问诊). The caller's patient (2999 otherwise); the same idempotency key answers the
 * inquiry it made, whichever doctor was picked then; otherwise the doctor is picked now and the inquiry is made
 * exactly as addInquiryInfo makes one, of kind 'quick'.
 */
export async function quickInquiry(db: Db, cipher: FieldCipher, userId: number, input: QuickInquiryInput, now: Date): Promise<Inquiry> {
  await requireOwnPatient(db, userId, input.patientId)
  const hospital = await requireInternetHospital(db, input.hospitalCode)
  const [again] = await db
    .select({ id: inquiries.id, kind: inquiries.kind, patientId: inquiries.patientId })
    .from(inquiries)
    .where(and(eq(inquiries.userId, userId), eq(inquiries.idempotencyKey, input.idempotencyKey)))
    .limit(1)
  if (again) {
    if (again.kind !== 'quick' || again.patientId !== input.patientId) throw conflict(SAME_KEY_OTHER_INQUIRY)
    return inquiryDetail(db, cipher, userId, again.id)
  }
  const doctorId = await pickDoctor(db, hospital.id, input.deptId)
  const { patientId, description, pictures, idempotencyKey } = input
  return createInquiry(db, cipher, userId, { doctorId, patientId, description, idempotencyKey, ...(pictures ? { pictures } : {}) }, now, { kind: 'quick' })
}

// ---- 复诊续方 ------------------------------------------------------------------------------------------------------

/** The text stored (encrypted) as a renewal's illness: the patient's words, the diagnosis and the medicines. */
export const chronicDescription = (description: string, diagnosis: string, medicines: string[]) =>
  `${description}\n诊断：${diagnosis}\n续方药品：${medicines.join('、')}`

/**
 * POST /inquiry/chronicInquiry (复诊续方): with a doctor the caller follows, or one who accepted a consultation of this
 * patient before; made as addInquiryInfo makes one, of kind 'chronic', the diagnosis and medicines kept with the
 * illness (encrypted).
 */
export async function chronicInquiry(db: Db, cipher: FieldCipher, userId: number, input: ChronicInquiryInput, now: Date): Promise<Inquiry> {
  await requireOwnPatient(db, userId, input.patientId)
  const diagnosis = input.diagnosis.trim()
  if (!diagnosis) throw badInput('请填写诊断')
  if (diagnosis.length > DIAGNOSIS_MAX) throw badInput(`诊断不能超过${DIAGNOSIS_MAX}个字`)
  const medicines = input.medicines.map((m) => m.trim()).filter(Boolean)
  if (!medicines.length) throw badInput('请填写需要续方的药品')
  if (medicines.length > MEDICINES_MAX) throw badInput(`续方药品最多${MEDICINES_MAX}种`)
  if (medicines.some((m) => m.length > MEDICINE_NAME_MAX)) throw badInput(`药品名称不能超过${MEDICINE_NAME_MAX}个字`)
  const [follows] = await db
    .select({ id: doctorFans.doctorId })
    .from(doctorFans)
    .where(and(eq(doctorFans.userId, userId), eq(doctorFans.doctorId, input.doctorId)))
    .limit(1)
  const [seen] = follows
    ? [follows]
    : await db
        .select({ id: inquiries.id })
        .from(inquiries)
        .where(and(eq(inquiries.userId, userId), eq(inquiries.patientId, input.patientId), eq(inquiries.doctorId, input.doctorId), isNotNull(inquiries.acceptedAt)))
        .limit(1)
  if (!seen) throw badInput(NOT_MY_DOCTOR)
  const { doctorId, patientId, description, pictures, idempotencyKey } = input
  return createInquiry(db, cipher, userId, { doctorId, patientId, description, idempotencyKey, ...(pictures ? { pictures } : {}) }, now, {
    kind: 'chronic',
    storedDescription: (checked) => chronicDescription(checked, diagnosis, medicines),
  })
}

// ---- an inquiry's history ------------------------------------------------------------------------------------------

/** The order of steps that share a time (a free inquiry is created and "paid" at once). */
const STEP_ORDER: InquiryStep['step'][] = ['created', 'paid', 'accepted', 'finished', 'cancelled', 'closed', 'refunding', 'refunded']

/**
 * GET /im/trade/checkListRecord/{id}: the steps of the caller's inquiry (2999 otherwise), oldest first: created, paid,
 * accepted, then how it ended (finished, cancelled, closed) and its refund, from the inquiry's times and its order's
 * events.
 */
export async function inquiryHistory(db: Db, userId: number, id: number): Promise<InquiryHistory> {
  const inq = await requireOwnInquiry(db, userId, id)
  const [order] = inq.orderId ? await db.select().from(orders).where(eq(orders.id, inq.orderId)) : []
  const events = inq.orderId
    ? await db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, inq.orderId))
        .orderBy(asc(orderEvents.at), asc(orderEvents.id))
    : []
  const eventAt = (to: string) => events.find((e) => e.toStatus === to)?.at ?? null
  const steps: { step: InquiryStep['step']; text: string; at: Date | null }[] = [
    { step: 'created', text: '提交问诊', at: inq.createdAt },
    { step: 'paid', text: inq.orderId ? '支付成功' : '免费问诊，无需支付', at: inq.paidAt },
    { step: 'accepted', text: '医生接诊', at: inq.acceptedAt },
  ]
  if (inq.status === 'finished') steps.push({ step: 'finished', text: '问诊结束', at: inq.finishedAt })
  if (inq.status === 'cancelled') steps.push({ step: 'cancelled', text: '取消问诊', at: inq.cancelledAt ?? eventAt('cancelled') })
  if (inq.status === 'closed') {
    const text = inq.acceptedAt ? '服务时间已到，问诊关闭' : inq.paidAt ? '医生未接诊，问诊关闭' : '超时未支付，问诊关闭'
    steps.push({ step: 'closed', text, at: inq.finishedAt ?? eventAt('closed') })
  }
  steps.push({ step: 'refunding', text: '发起退款', at: eventAt('refunding') })
  steps.push({ step: 'refunded', text: '退款成功', at: eventAt('refunded') })
  return {
    id: inq.id,
    inquiryNo: inq.inquiryNo,
    status: inq.status,
    statusText: statusTextOf(inq.status, order ?? null, inq.acceptedAt !== null),
    steps: steps
      .filter((s): s is typeof s & { at: Date } => s.at !== null)
      .sort((a, b) => a.at.getTime() - b.at.getTime() || STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step))
      .map((s) => ({ step: s.step, text: s.text, time: s.at.toISOString() })),
  }
}

// ---- doctors to suggest --------------------------------------------------------------------------------------------

/**
 * GET /im/patient/recommend/doctor: up to 10 of the hospital's online doctors, those the caller consulted (paid or
 * free, the latest first) before the best rated ones accepting consultations now.
 */
export async function recommendDoctors(db: Db, userId: number, hospitalCode: string): Promise<RecommendedDoctor[]> {
  const hospital = await requireInternetHospital(db, hospitalCode)
  const consulted = await db
    .select({ doctorId: inquiries.doctorId, last: sql<Date>`max(${inquiries.paidAt})` })
    .from(inquiries)
    .where(and(eq(inquiries.userId, userId), eq(inquiries.hospitalId, hospital.id), isNotNull(inquiries.paidAt)))
    .groupBy(inquiries.doctorId)
    .orderBy(desc(sql`max(${inquiries.paidAt})`), desc(inquiries.doctorId))
    .limit(RECOMMEND_MAX)
  const ids = consulted.map((c) => c.doctorId)
  const mine = ids.length ? await onlineDoctorRows(db).where(and(eq(onlineDoctors.hospitalId, hospital.id), inArray(onlineDoctors.doctorId, ids))) : []
  const byId = new Map(mine.map((r) => [r.doctor.id, r]))
  const first = ids.flatMap((id) => (byId.has(id) ? [{ ...toOnlineDoctor(byId.get(id)!), consulted: true }] : []))
  if (first.length >= RECOMMEND_MAX) return first
  const rest = await onlineDoctorRows(db)
    .where(
      and(
        eq(onlineDoctors.hospitalId, hospital.id),
        eq(onlineDoctors.online, true),
        isNotNull(onlineDoctorServices.priceFen),
        first.length ? sql`${onlineDoctors.doctorId} not in (${sql.join(first.map((d) => sql`${d.id}`), sql`, `)})` : undefined,
      ),
    )
    .orderBy(desc(onlineDoctors.goodRate), desc(onlineDoctors.level), desc(onlineDoctors.servedCount), asc(onlineDoctors.doctorId))
    .limit(RECOMMEND_MAX - first.length)
  return [...first, ...rest.map((r) => ({ ...toOnlineDoctor(r), consulted: false }))]
}

// ---- a consultation's chat record ----------------------------------------------------------------------------------

/**
 * GET /manage/order/chatRecord/{id}: the messages of the caller's consultation (2999 otherwise), oldest first,
 * decrypted: those tagged with its number that the caller sent or was sent.
 */
export async function chatRecord(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<ChatRecord> {
  const view = await inquiryDetail(db, cipher, userId, id)
  const account = `${PATIENT_PREFIX}${userId}`
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.orderNo, view.inquiryNo), or(eq(chatMessages.fromAccount, account), eq(chatMessages.toAccount, account))))
    .orderBy(asc(chatMessages.id))
    .limit(CHAT_RECORD_MAX)
  return { inquiryId: view.id, inquiryNo: view.inquiryNo, doctor: view.doctor, messages: rows.map((r) => toMessage(cipher, r, account)) }
}

// ---- the open inquiry with a doctor, past consultations -----------------------------------------------------------

/**
 * POST /im/core/orderByDoctorAndUserId (spec §3 doctor-order lookup: doctorId, orderType, userId): the caller's latest
 * open inquiry (unpaid, waiting, in progress) with the doctor, optionally of one kind, or null. The user is always the
 * caller: another user's id answers 2999.
 */
export async function openInquiryWithDoctor(db: Db, cipher: FieldCipher, userId: number, input: DoctorOrderQuery): Promise<Inquiry | null> {
  if (input.userId !== undefined && input.userId !== userId) throw forbidden()
  const [row] = await db
    .select({ id: inquiries.id })
    .from(inquiries)
    .where(
      and(
        eq(inquiries.userId, userId),
        eq(inquiries.doctorId, input.doctorId),
        inArray(inquiries.status, OPEN),
        input.orderType ? eq(inquiries.kind, input.orderType) : undefined,
      ),
    )
    .orderBy(desc(inquiries.createdAt), desc(inquiries.id))
    .limit(1)
  return row ? inquiryDetail(db, cipher, userId, row.id) : null
}

/**
 * GET /im/core/historyList and /im/core/chronic/historyList: the caller's past consultations (paid or free, and over:
 * finished, cancelled or closed), newest first; all kinds, or the renewals (复诊续方) only.
 */
export async function pastInquiries(db: Db, cipher: FieldCipher, userId: number, query: { page: number; size: number; kind?: InquiryKind }): Promise<Page<Inquiry>> {
  return listInquiries(db, cipher, userId, { ...query, ended: true })
}
