/**
 * Inquiry orders (图文问诊, spec §4 "Inquiry orders can be checked, cancelled, closed by user, continue-paying, and
 * complained about"; §7 Internet hospital → Inquiry and Conversation orders): a patient's consultation with one online
 * doctor, paid through the payment core the way a registration is (register/booking.ts).
 *
 * States: unpaid → waiting (paid, or free at once) → inProgress (the doctor accepted) → finished (the patient ends it).
 * unpaid → cancelled (the patient gave it up) | closed (the payment ran out). waiting → cancelled (refunded) | closed
 * (the window ran out, refunded). inProgress → closed when the window ran out (the service was given: no refund).
 * The service window: 48 h after payment while no doctor has accepted, then 24 h after acceptance. Every function that
 * depends on the time takes `now`.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm'
import type { PayAction } from '../../../types/api/payment'
import type { Page } from '../../../types/api/hospital'
import type { Inquiry, InquiryInput, InquiryIntake, InquiryIntakeInput, InquiryKind, InquiryStatus } from '../../../types/api/inquiry'
import type { Db, Tx } from '../db'
import { open, type FieldCipher } from '../crypto'
import { consultations, departments, doctors, evaluations, hospitals, inquiries, onlineDoctorServices, onlineDoctors, orders, patients } from '../db/schema'
import { badInput, conflict, forbidden, notFound } from '../errors'
import { maskName } from '@/utils/mask'
import type { AuthContext } from './auth'
import { requireCompletePatient, requireOwnPatient } from './patient'
import { PICTURE_NOT_UPLOADED, requireOwnUploads } from './file'
import { doctorImAccount, textServiceOfDoctor } from './internetDoctors'
import { doctorAvatarUrl } from './register/catalogue'
import {
  answerSameKeyRace,
  answerWithMadeMeanwhile,
  cancelOrder,
  createOrder,
  refreshOrder,
  refundedFenByOrder,
  refundText,
  startPayment,
  startRefund,
  submitRefund,
  toPayOrder,
  type OrderHandlers,
  type OrderRow,
} from './payment'
import type { PayProvidersOf } from '../plugins/providers'
import { closeIfExpired, newBusinessNo } from './payment/orders'
import { addUserMessage } from './userMessage'
import { DESCRIPTION_MAX, PICTURES_MAX, INQUIRY_PAY_MINUTES as PAY_MINUTES, WAIT_HOURS, SERVICE_HOURS } from '@/utils/internetRules'

type InquiryRow = typeof inquiries.$inferSelect

export { DESCRIPTION_MAX, PICTURES_MAX, PAY_MINUTES, WAIT_HOURS, SERVICE_HOURS }
export const COMPLAINT_MAX = 500
export const MAX_PAGE_SIZE = 50
const SERVICE_NAME = '图文问诊'
/** What the patient reads as the service of each kind of inquiry. */
export const KIND_NAMES: Record<InquiryKind, string> = { inquiry: SERVICE_NAME, quick: '快速问诊', chronic: '复诊续方' }

export const DOCTOR_OFFLINE = '该医生暂不接诊，请选择其他医生'
export { PICTURE_NOT_UPLOADED }
export const ALREADY_ACCEPTED = '医生已接诊，无法取消问诊'
export const NOT_IN_PROGRESS = '问诊未在进行中，无法结束'
export const NOT_PAID_COMPLAINT = '未支付的问诊无法投诉'
export const ALREADY_COMPLAINED = '该问诊已投诉，请勿重复提交'
export const SAME_KEY_OTHER_INQUIRY = '重复的请求'
export const CANCEL_REASON = '患者取消问诊'
export const NOT_ACCEPTED_REFUND_REASON = '医生未接诊，问诊关闭，自动退款'

const hours = (n: number) => n * 3600_000

/** I + date (Shanghai) + 12 random digits: unguessable, so a number alone never finds someone else's consultation. */
const newInquiryNo = (now: Date) => newBusinessNo('I', now)

// ---- the view ------------------------------------------------------------------------------------------------------

const viewColumns = {
  inq: inquiries,
  hospitalCode: hospitals.code,
  hospitalName: hospitals.name,
  doctorName: doctors.name,
  doctorTitle: doctors.title,
  doctorAvatar: doctors.avatar,
  deptName: departments.name,
  patientNameEnc: patients.nameEnc,
  order: orders,
}

function viewQuery(db: Db | Tx) {
  return db
    .select(viewColumns)
    .from(inquiries)
    .innerJoin(hospitals, eq(hospitals.id, inquiries.hospitalId))
    .innerJoin(doctors, eq(doctors.id, inquiries.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(patients, eq(patients.id, inquiries.patientId))
    .leftJoin(orders, eq(orders.id, inquiries.orderId))
}
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

/**
 * What the patient reads; a paid inquiry given up (cancelled, or closed before a doctor accepted) reads 退款中 until its
 * money is back, then 已退款; its order still paid means the provider refused the refund.
 */
export function statusTextOf(status: InquiryStatus, order: Pick<OrderRow, 'status'> | null, accepted = false): string {
  switch (status) {
    case 'unpaid':
      return '待支付'
    case 'waiting':
      return '待接诊'
    case 'inProgress':
      return '问诊中'
    case 'finished':
      return '已结束'
    case 'cancelled':
    case 'closed':
      // the refund starts with the cancellation or the closing; a closed consultation that was served keeps its fee
      return (order?.status === 'paid' && accepted ? null : refundText(order)) ?? (status === 'cancelled' ? '已取消' : '已关闭')
  }
}

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[]): Promise<Inquiry[]> {
  const refunded = await refundedFenByOrder(db, rows.flatMap((r) => (r.order ? [r.order.id] : [])))
  // the room shows 已评价 instead of 评价医生 once the patient rated the consultation
  const inquiryIds = rows.map((r) => r.inq.id)
  const evaluated = new Set(
    inquiryIds.length
      ? (await db.select({ inquiryId: evaluations.inquiryId }).from(evaluations).where(inArray(evaluations.inquiryId, inquiryIds))).map((e) => e.inquiryId)
      : [],
  )
  return rows.map(({ inq, order, ...r }) => ({
    id: inq.id,
    inquiryNo: inq.inquiryNo,
    status: inq.status,
    statusText: statusTextOf(inq.status, order, inq.acceptedAt !== null),
    serviceType: inq.serviceType,
    serviceName: KIND_NAMES[inq.kind],
    kind: inq.kind,
    description: open(cipher, inq.descriptionEnc) ?? '',
    pictures: inq.pictures,
    priceFen: inq.priceFen,
    patientId: inq.patientId,
    // spec §9: names masked
    patientName: maskName(open(cipher, r.patientNameEnc)),
    hospitalCode: r.hospitalCode,
    hospitalName: r.hospitalName,
    doctor: {
      id: inq.doctorId,
      doctorName: r.doctorName,
      title: r.doctorTitle,
      avatar: r.doctorAvatar || doctorAvatarUrl(inq.doctorId),
      deptName: r.deptName,
      imAccount: doctorImAccount(inq.doctorId),
    },
    paidAt: inq.paidAt?.toISOString() ?? null,
    acceptedAt: inq.acceptedAt?.toISOString() ?? null,
    serviceEndsAt: inq.serviceEndsAt?.toISOString() ?? null,
    finishedAt: inq.finishedAt?.toISOString() ?? null,
    cancellable: inq.status === 'unpaid' || inq.status === 'waiting',
    complaint: inq.complainedAt ? { content: open(cipher, inq.complaintEnc) ?? '', time: inq.complainedAt.toISOString() } : null,
    intake: intakeOf(cipher, inq.intakeEnc),
    evaluated: evaluated.has(inq.id),
    order: order ? toPayOrder(order, refunded.get(order.id) ?? 0) : null,
    createdAt: inq.createdAt.toISOString(),
  }))
}

async function viewOf(db: Db | Tx, cipher: FieldCipher, id: number): Promise<Inquiry> {
  const [view] = await toViews(db, cipher, await viewQuery(db).where(eq(inquiries.id, id)))
  if (!view) throw notFound('问诊')
  return view
}

/** The caller's inquiry, or 2999 with nothing revealed (someone else's and a missing one look the same). */
export async function requireOwnInquiry(db: Db | Tx, userId: number, id: number): Promise<InquiryRow> {
  const [row] = await db
    .select()
    .from(inquiries)
    .where(and(eq(inquiries.id, id), eq(inquiries.userId, userId)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

// ---- "my consultations" (consultations, read by hospital.listConsultations) ------------------------------------------

/** Adds the paid (or free) inquiry to the caller's consultations list, or updates its row. */
async function upsertConsultation(tx: Tx, inq: InquiryRow, now: Date) {
  const [doc] = await tx
    .select({ name: doctors.name, avatar: doctors.avatar, deptName: departments.name })
    .from(doctors)
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(eq(doctors.id, inq.doctorId))
  const status = statusTextOf(inq.status, null)
  await tx
    .insert(consultations)
    .values({
      userId: inq.userId,
      hospitalId: inq.hospitalId,
      orderNo: inq.inquiryNo,
      doctorName: doc?.name ?? '',
      doctorAvatar: doc?.avatar || doctorAvatarUrl(inq.doctorId),
      deptName: doc?.deptName ?? '',
      status,
      peer: doctorImAccount(inq.doctorId),
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: consultations.orderNo, set: { status, updatedAt: now } })
}

/** The consultations row follows the inquiry's status (there is none for an inquiry never paid). */
export async function syncConsultation(tx: Tx, inquiryNo: string, statusText: string, now: Date) {
  await tx.update(consultations).set({ status: statusText, updatedAt: now }).where(eq(consultations.orderNo, inquiryNo))
}

// ---- the message centre (domain/userMessage) ---------------------------------------------------------------------

export const NOTICE_FREE = '问诊已提交，等待医生接诊'
export const NOTICE_PAID = '问诊已支付，等待医生接诊'
export const NOTICE_CANCELLED_REFUND = '问诊已取消，费用将原路退回'
export const NOTICE_NOT_ACCEPTED = '医生未接诊，问诊已关闭'
export const NOTICE_NOT_ACCEPTED_REFUND = '医生未接诊，问诊已关闭，费用将原路退回'

/** A notice to the patient about their inquiry, in the transaction that changes it. */
async function tellPatient(tx: Tx, inq: InquiryRow, title: string, now: Date) {
  const [doc] = await tx.select({ name: doctors.name }).from(doctors).where(eq(doctors.id, inq.doctorId))
  const content = `${KIND_NAMES[inq.kind]} · ${doc?.name ?? ''}医生，问诊单号${inq.inquiryNo}`
  await addUserMessage(tx, { userId: inq.userId, kind: 'inquiry', title, content, link: `/pages/order/inquiry/detail?id=${inq.id}` }, now)
}

// ---- ordering ------------------------------------------------------------------------------------------------------

/**
 * The same attempt again (same idempotency key): the inquiry it made, or 409 when the key was used otherwise. A quick
 * inquiry's doctor is the server's choice, so a retry may have chosen another: only its kind and patient must match.
 */
async function byIdempotencyKey(db: Db | Tx, userId: number, input: InquiryInput, kind: InquiryKind = 'inquiry'): Promise<InquiryRow | null> {
  const [row] = await db
    .select()
    .from(inquiries)
    .where(and(eq(inquiries.userId, userId), eq(inquiries.idempotencyKey, input.idempotencyKey)))
    .limit(1)
  if (!row) return null
  if (row.kind !== kind || row.patientId !== input.patientId || (kind !== 'quick' && row.doctorId !== input.doctorId)) throw conflict(SAME_KEY_OTHER_INQUIRY)
  return row
}

/** An online doctor accepting consultations now, with the 图文问诊 price; 400 otherwise. */
async function requireAcceptingDoctor(db: Db, doctorId: number) {
  const [row] = await db
    .select({ online: onlineDoctors, name: doctors.name, priceFen: onlineDoctorServices.priceFen })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .leftJoin(onlineDoctorServices, textServiceOfDoctor)
    .where(eq(onlineDoctors.doctorId, doctorId))
    .limit(1)
  if (!row) throw notFound('医生')
  if (!row.online.online || row.priceFen === null) throw badInput(DOCTOR_OFFLINE)
  return { hospitalId: row.online.hospitalId, doctorName: row.name, priceFen: row.priceFen }
}

/** What differs between the kinds of inquiry that share createInquiry (domain/consultationHistory: quick, chronic). */
export interface InquiryKindOptions {
  kind?: InquiryKind
  /** The text stored (encrypted) as the illness, from the checked description; the description itself by default. */
  storedDescription?: (description: string) => string
}

/**
 * POST /inquiry/addInquiryInfo (and, through `opts`, /quickInquiry and /chronicInquiry). Checks first (own complete patient, an online doctor accepting consultations, the
 * illness, pictures uploaded by the caller), then in ONE transaction inserts the inquiry and creates its payment order
 * (business 'inquiry', the doctor's 图文问诊 price now, the idempotency key from the input). A free service is
 * `waiting` at once, with no order, and shows in "my consultations". The same key answers the same inquiry.
 */
export async function createInquiry(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  input: InquiryInput,
  now: Date,
  opts: InquiryKindOptions = {},
): Promise<Inquiry> {
  const kind = opts.kind ?? 'inquiry'
  const patient = await requireOwnPatient(db, userId, input.patientId)
  const again = await byIdempotencyKey(db, userId, input, kind)
  if (again) return viewOf(db, cipher, again.id)
  // spec §5: the app shows its completion modal on the refusal's exact text
  requireCompletePatient(cipher, patient)
  const description = input.description.trim()
  if (!description) throw badInput('请描述您的病情')
  if (description.length > DESCRIPTION_MAX) throw badInput(`病情描述不能超过${DESCRIPTION_MAX}个字`)
  const pictures = input.pictures ?? []
  await requireOwnUploads(db, userId, pictures, PICTURES_MAX)
  const doctor = await requireAcceptingDoctor(db, input.doctorId)

  const madeMeanwhile = answerWithMadeMeanwhile(async () => {
    const made = await byIdempotencyKey(db, userId, input, kind)
    return made ? viewOf(db, cipher, made.id) : null
  })
  let id: number
  try {
    id = await db.transaction(async (tx) => {
      const free = doctor.priceFen === 0
      const [row] = await tx
        .insert(inquiries)
        .values({
          inquiryNo: newInquiryNo(now),
          userId,
          patientId: patient.id,
          hospitalId: doctor.hospitalId,
          doctorId: input.doctorId,
          serviceType: 'text',
          kind,
          descriptionEnc: cipher.encrypt(opts.storedDescription ? opts.storedDescription(description) : description),
          pictures,
          priceFen: doctor.priceFen,
          status: free ? 'waiting' : 'unpaid',
          paidAt: free ? now : null,
          serviceEndsAt: free ? new Date(now.getTime() + hours(WAIT_HOURS)) : null,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      if (free) {
        await upsertConsultation(tx, row!, now)
        await tellPatient(tx, row!, NOTICE_FREE, now)
        return row!.id
      }
      const order = await createOrder(tx, {
        userId,
        hospitalId: doctor.hospitalId,
        business: 'inquiry',
        businessId: row!.id,
        subject: `${KIND_NAMES[kind]} ${doctor.doctorName}`.slice(0, 64),
        amountFen: doctor.priceFen,
        // closing the order closes the inquiry (onClosed)
        expiresAt: new Date(now.getTime() + PAY_MINUTES * 60_000),
        idempotencyKey: `inquiry:${input.idempotencyKey}`,
      })
      await tx.update(inquiries).set({ orderId: order.id }).where(eq(inquiries.id, row!.id))
      return row!.id
    })
  } catch (err) {
    return answerSameKeyRace(err, 'inquiries_idempotency_key', SAME_KEY_OTHER_INQUIRY, madeMeanwhile)
  }
  return viewOf(db, cipher, id)
}

// ---- paying --------------------------------------------------------------------------------------------------------

const NOT_PAYABLE: Record<Exclude<InquiryStatus, 'unpaid'>, string> = {
  waiting: '该问诊已支付',
  inProgress: '该问诊已支付',
  finished: '该问诊已结束',
  cancelled: '该问诊已取消',
  closed: '该问诊已关闭',
}

/** POST /im/trade/service/im/init/continuePay: how to pay the caller's unpaid inquiry (by its id or its order number). */
export async function payInquiry(
  db: Db,
  providers: PayProvidersOf,
  caller: AuthContext & { userId: number },
  input: { id?: number; orderNo?: string; returnUrl: string },
): Promise<PayAction> {
  let inq: InquiryRow
  if (input.id !== undefined) inq = await requireOwnInquiry(db, caller.userId, input.id)
  else {
    const [row] = await db
      .select({ inq: inquiries })
      .from(inquiries)
      .innerJoin(orders, eq(orders.id, inquiries.orderId))
      .where(and(eq(orders.orderNo, input.orderNo ?? ''), eq(inquiries.userId, caller.userId)))
      .limit(1)
    if (!row) throw forbidden()
    inq = row.inq
  }
  if (inq.status !== 'unpaid') throw badInput(NOT_PAYABLE[inq.status])
  const [order] = await db.select({ orderNo: orders.orderNo }).from(orders).where(eq(orders.id, inq.orderId!))
  return startPayment(db, providers, caller, { orderNo: order!.orderNo, returnUrl: input.returnUrl })
}

// ---- reading -------------------------------------------------------------------------------------------------------

/** GET /inquiry/order/detail. */
export async function inquiryDetail(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<Inquiry> {
  await requireOwnInquiry(db, userId, id)
  return viewOf(db, cipher, id)
}

/** GET /inquiry/order/list: the caller's inquiries, newest first (also /im/core/historyList: `ended`, optionally of one kind). */
export async function listInquiries(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  query: { status?: InquiryStatus; kind?: InquiryKind; ended?: boolean; page: number; size: number },
): Promise<Page<Inquiry>> {
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const where: (SQL | undefined)[] = [
    eq(inquiries.userId, userId),
    query.status ? eq(inquiries.status, query.status) : undefined,
    query.kind ? eq(inquiries.kind, query.kind) : undefined,
    // past consultations: paid (or free) and over
    query.ended ? and(isNotNull(inquiries.paidAt), inArray(inquiries.status, ['finished', 'cancelled', 'closed'])) : undefined,
  ]
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(inquiries)
    .where(and(...where))
  const rows = await viewQuery(db)
    .where(and(...where))
    .orderBy(desc(inquiries.createdAt), desc(inquiries.id))
    .limit(size)
    .offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, rows), total: total?.n ?? 0, page: query.page, size }
}

// ---- changing ------------------------------------------------------------------------------------------------------

/** Locks the order before the inquiry, in the order a payment locks them (applyPaid, then onPaid): no deadlock. */
export async function lockBoth(tx: Tx, inq: InquiryRow): Promise<InquiryRow> {
  if (inq.orderId) await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, inq.orderId)).for('update')
  const [row] = await tx.select().from(inquiries).where(eq(inquiries.id, inq.id)).for('update')
  if (!row) throw forbidden()
  return row
}

/**
 * GET /im/trade/service/im/cancel. Unpaid: its order is cancelled, which cancels the inquiry (onClosed). Waiting (paid,
 * not accepted): cancelled and the refund recorded in one transaction, then submitted. Accepted or later: refused.
 * Cancelling what is already cancelled or closed answers it as it is.
 */
export async function cancelInquiry(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, id: number, now: Date): Promise<Inquiry> {
  const inq = await requireOwnInquiry(db, userId, id)
  const refund = await db.transaction(async (tx) => {
    const row = await lockBoth(tx, inq)
    if (row.status === 'unpaid') {
      await cancelOrder(tx, row.orderId!, CANCEL_REASON)
      return null
    }
    if (row.status === 'inProgress' || row.status === 'finished') throw badInput(ALREADY_ACCEPTED)
    if (row.status !== 'waiting') return null
    await tx.update(inquiries).set({ status: 'cancelled', cancelledAt: now }).where(eq(inquiries.id, row.id))
    await syncConsultation(tx, row.inquiryNo, statusTextOf('cancelled', null), now)
    if (row.orderId) await tellPatient(tx, row, NOTICE_CANCELLED_REFUND, now)
    // money is never kept for a consultation given up
    return row.orderId ? startRefund(tx, row.orderId, CANCEL_REASON) : null
  })
  if (refund) await submitRefund(db, providers, refund)
  return viewOf(db, cipher, id)
}

/**
 * Closes one inquiry whose service window has run out (answers whether it did): a waiting one is refunded in the same
 * transaction (the doctor never accepted), an inProgress one just closes. The refund is submitted after commit.
 */
async function closeIfOverdue(db: Db, providers: PayProvidersOf, inq: InquiryRow, now: Date): Promise<boolean> {
  const result = await db.transaction(async (tx) => {
    const row = await lockBoth(tx, inq)
    if ((row.status !== 'waiting' && row.status !== 'inProgress') || !row.serviceEndsAt || row.serviceEndsAt.getTime() > now.getTime()) return null
    await tx.update(inquiries).set({ status: 'closed', finishedAt: now }).where(eq(inquiries.id, row.id))
    await syncConsultation(tx, row.inquiryNo, statusTextOf('closed', null), now)
    const refund = row.status === 'waiting' && row.orderId ? await startRefund(tx, row.orderId, NOT_ACCEPTED_REFUND_REASON) : null
    if (row.status === 'waiting') await tellPatient(tx, row, row.orderId ? NOTICE_NOT_ACCEPTED_REFUND : NOTICE_NOT_ACCEPTED, now)
    return { refund }
  })
  if (result?.refund) await submitRefund(db, providers, result.refund)
  return result !== null
}

/**
 * GET /im/trade/service/im/check: the inquiry as it stands. An unpaid one asks the payment core first (paid meanwhile,
 * or closed when its payment ran out); a waiting or inProgress one past its service window is closed first.
 */
export async function checkInquiry(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, id: number, now: Date): Promise<Inquiry> {
  let inq = await requireOwnInquiry(db, userId, id)
  if (inq.status === 'unpaid' && inq.orderId) {
    const [order] = await db.select().from(orders).where(eq(orders.id, inq.orderId))
    await refreshOrder(db, providers, userId, order!.orderNo)
    // refreshOrder closes by the clock; `now` may be later
    await closeIfExpired(db, inq.orderId, now)
    inq = await requireOwnInquiry(db, userId, id)
  }
  if (inq.status === 'waiting' || inq.status === 'inProgress') await closeIfOverdue(db, providers, inq, now)
  return viewOf(db, cipher, id)
}

/** Closes every inquiry whose service window has run out (the sweep); answers how many. */
export async function closeOverdueInquiries(db: Db, providers: PayProvidersOf, now: Date, onError?: (id: number, err: unknown) => void): Promise<number> {
  const due = await db
    .select()
    .from(inquiries)
    .where(and(inArray(inquiries.status, ['waiting', 'inProgress']), lte(inquiries.serviceEndsAt, now)))
    .orderBy(inquiries.id)
    .limit(500)
  let closed = 0
  for (const inq of due) {
    try {
      if (await closeIfOverdue(db, providers, inq, now)) closed += 1
    } catch (err) {
      if (onError) onError(inq.id, err)
      else throw err
    }
  }
  return closed
}

/** GET /im/trade/service/im/user/close: the patient ends a consultation in progress (finished). Ending it again answers it. */
export async function finishInquiry(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<Inquiry> {
  const inq = await requireOwnInquiry(db, userId, id)
  if (inq.status === 'finished') return viewOf(db, cipher, id)
  if (inq.status !== 'inProgress') throw badInput(NOT_IN_PROGRESS)
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(inquiries)
      .set({ status: 'finished', finishedAt: now })
      .where(and(eq(inquiries.id, id), eq(inquiries.status, 'inProgress')))
      .returning()
    if (!row) throw badInput(NOT_IN_PROGRESS)
    await syncConsultation(tx, row.inquiryNo, statusTextOf('finished', null), now)
  })
  return viewOf(db, cipher, id)
}

/**
 * The doctor accepts a waiting inquiry (inProgress; the service window becomes 24 h from now). For the doctors'
 * workstation, which has no call here yet.
 */
export async function acceptInquiry(db: Db, doctorId: number, id: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(inquiries)
      .set({ status: 'inProgress', acceptedAt: now, serviceEndsAt: new Date(now.getTime() + hours(SERVICE_HOURS)) })
      .where(and(eq(inquiries.id, id), eq(inquiries.doctorId, doctorId), eq(inquiries.status, 'waiting')))
      .returning()
    if (row) await syncConsultation(tx, row.inquiryNo, statusTextOf('inProgress', null), now)
    return !!row
  })
}

/** POST /im/trade/complaint: once per inquiry, and only about one that was paid (or free). */
export async function complainInquiry(db: Db, cipher: FieldCipher, userId: number, input: { id: number; content: string }, now: Date): Promise<Inquiry> {
  const inq = await requireOwnInquiry(db, userId, input.id)
  const content = input.content.trim()
  if (!content) throw badInput('请填写投诉内容')
  if (content.length > COMPLAINT_MAX) throw badInput(`投诉内容不能超过${COMPLAINT_MAX}个字`)
  if (!inq.paidAt) throw badInput(NOT_PAID_COMPLAINT)
  const [row] = await db
    .update(inquiries)
    .set({ complaintEnc: cipher.encrypt(content), complainedAt: now })
    .where(and(eq(inquiries.id, inq.id), isNull(inquiries.complainedAt)))
    .returning({ id: inquiries.id })
  if (!row) throw badInput(ALREADY_COMPLAINED)
  return viewOf(db, cipher, inq.id)
}

// ---- the 问诊单 (intake) ------------------------------------------------------------------------------------------

export const INTAKE_LIMITS = { offlineDiagnosis: 100, pastHistory: 200, allergyHistory: 200, currentMedication: 200 } as const
const INTAKE_LABELS: Record<keyof typeof INTAKE_LIMITS, string> = {
  offlineDiagnosis: '线下诊断',
  pastHistory: '既往史',
  allergyHistory: '过敏史',
  currentMedication: '正在使用的药物',
}
/** The states in which the patient may still fill in the 问诊单: before and during the consultation. */
const INTAKE_OPEN: InquiryStatus[] = ['unpaid', 'waiting', 'inProgress']
export const INTAKE_CLOSED = '问诊已结束，无法修改问诊单'

/** The stored 问诊单 (one encrypted JSON), or null when there is none. */
export function intakeOf(cipher: FieldCipher, enc: string | null): InquiryIntake | null {
  const text = open(cipher, enc)
  if (!text) return null
  const stored = JSON.parse(text) as Partial<InquiryIntake>
  const str = (v: unknown) => (typeof v === 'string' ? v : '')
  return {
    visitedOffline: stored.visitedOffline === true,
    offlineDiagnosis: str(stored.offlineDiagnosis),
    pastHistory: str(stored.pastHistory),
    allergyHistory: str(stored.allergyHistory),
    currentMedication: str(stored.currentMedication),
    updatedAt: str(stored.updatedAt),
  }
}

/**
 * POST /im/trade/medicalRecord (spec §7 Conversation orders): the patient's 问诊单 for one of their inquiries, while it is
 * unpaid, waiting or in progress; saving again replaces it. The 线下诊断 is kept only when the patient says they were
 * seen offline. Health information: stored encrypted, never logged.
 */
export async function saveInquiryIntake(db: Db, cipher: FieldCipher, userId: number, input: InquiryIntakeInput, now: Date): Promise<Inquiry> {
  const inq = await requireOwnInquiry(db, userId, input.inquiryId)
  const text = {} as Record<keyof typeof INTAKE_LIMITS, string>
  for (const key of Object.keys(INTAKE_LIMITS) as (keyof typeof INTAKE_LIMITS)[]) {
    const value = (input[key] ?? '').trim()
    if (value.length > INTAKE_LIMITS[key]) throw badInput(`${INTAKE_LABELS[key]}不能超过${INTAKE_LIMITS[key]}个字`)
    text[key] = value
  }
  if (!input.visitedOffline) text.offlineDiagnosis = ''
  const intake: InquiryIntake = { visitedOffline: input.visitedOffline, ...text, updatedAt: now.toISOString() }
  // judged on the committed status: an inquiry that ends meanwhile is not written
  const [row] = await db
    .update(inquiries)
    .set({ intakeEnc: cipher.encrypt(JSON.stringify(intake)) })
    .where(and(eq(inquiries.id, inq.id), inArray(inquiries.status, INTAKE_OPEN)))
    .returning({ id: inquiries.id })
  if (!row) throw badInput(INTAKE_CLOSED)
  return viewOf(db, cipher, inq.id)
}

// ---- the payment core's callbacks ----------------------------------------------------------------------------------

/** What the payment core calls when an inquiry's order changes (inside the transaction that changes it). */
export const inquiryOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const paidAt = order.paidAt ?? new Date()
    const [row] = await tx
      .update(inquiries)
      .set({ status: 'waiting', paidAt, serviceEndsAt: new Date(paidAt.getTime() + hours(WAIT_HOURS)) })
      .where(and(eq(inquiries.id, order.businessId), eq(inquiries.orderId, order.id), eq(inquiries.status, 'unpaid')))
      .returning()
    // the inquiry is gone: the payment core refunds on a business error
    if (!row) throw badInput('问诊已失效，费用将原路退回')
    await upsertConsultation(tx, row, paidAt)
    await tellPatient(tx, row, NOTICE_PAID, paidAt)
  },
  async onClosed(tx, order) {
    // closed by time: the payment ran out; cancelled: the patient gave it up
    const status = order.status === 'closed' ? 'closed' : 'cancelled'
    await tx
      .update(inquiries)
      .set({ status, cancelledAt: status === 'cancelled' ? new Date() : null })
      .where(and(eq(inquiries.id, order.businessId), eq(inquiries.orderId, order.id), eq(inquiries.status, 'unpaid')))
  },
  async onRefunded(tx, order) {
    // the status stays cancelled or closed; the consultations row says the money is back
    const [row] = await tx
      .select({ inquiryNo: inquiries.inquiryNo, status: inquiries.status })
      .from(inquiries)
      .where(and(eq(inquiries.id, order.businessId), eq(inquiries.orderId, order.id)))
    if (row && (row.status === 'cancelled' || row.status === 'closed')) await syncConsultation(tx, row.inquiryNo, statusTextOf(row.status, order), new Date())
  },
}
