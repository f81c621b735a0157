/**
 * The doctor's side of an online consultation (the workbench, `/dld-doctor/api`): the signed-in doctor's paid
 * consultations, accepting one, telling the patient the doctor is busy, declining it (退诊, refunded in full), finishing
 * it, writing its medical record, and uploading a picture to send. Each change of state writes, in the same
 * transaction, the chat message whose description the app watches (spec §4 chat session: start, return, doctor busy,
 * order finished) and a notice in the patient's message centre; the chat message reaches the patient's open
 * connections when the transaction commits (domain/chat.ts insertMessage).
 *
 * A physician assistant sees and chats about the paid consultations of their hospital, but only the doctor accepts,
 * declines, finishes and writes the record (2999 otherwise).
 */
import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm'
import type { OrderDescription } from '../../../types/api/chat'
import type { Page } from '../../../types/api/hospital'
import type { DeskInquiry, DeskInquiryDetail, DeskTab, MedicalRecordInput } from '../../../types/api/workbench'
import type { Db, Tx } from '../db'
import { open, type FieldCipher } from '../crypto'
import { doctors, inquiries, orders, patients } from '../db/schema'
import { badInput, forbidden } from '../errors'
import { maskName } from '@/utils/mask'
import { insertMessage } from './chat'
import { patientImAccount } from '@/utils/chatRules'
import { storeUpload } from './file'
import { acceptInquiry, intakeOf, lockBoth, NOT_IN_PROGRESS, statusTextOf, syncConsultation } from './inquiry'
import { checkRecordFields, recordOfInquiry, requireDiseaseCodes, saveRecord } from './medicalRecord'
import { startRefund, submitRefund } from './payment'
import type { PayProvidersOf } from '../plugins/providers'
import { ageOn } from './patientRules'
import { staffUploadIdentity, type StaffContext } from './staff'
import { addUserMessage } from './userMessage'

type InquiryRow = typeof inquiries.$inferSelect

export const MAX_PAGE_SIZE = 50
export const REASON_MAX = 200
/** The record may still be corrected this long after the consultation finished. */
export const RECORD_EDIT_HOURS = 24

export const NOT_WAITING = '该问诊已不在待接诊状态'
export const WINDOW_OVER = '该问诊已超过接诊时限'
export const ALREADY_OVER = '该问诊已结束'
export const RECORD_NOT_OPEN = '接诊后才能书写病历'
export const RECORD_CLOSED = `问诊结束已超过${RECORD_EDIT_HOURS}小时，病历不可修改`
export const PICTURES_ONLY = '仅支持 JPG、PNG、GIF、WEBP 图片'

/** What the patient reads in the consultation room at each turn. */
export const START_TEXT = '医生已接诊，请详细描述您的症状，医生会尽快回复您'
export const BUSY_TEXT = '医生正在忙，请稍候，医生会尽快回复您'
export const FINISH_TEXT = '本次问诊已结束，感谢您的信任，祝您早日康复'
export const returnText = (reason: string) => `医生已退诊：${reason}。问诊费用将原路退回`
export const RETURN_REFUND_REASON = '医生退诊，全额退款'

const hours = (n: number) => n * 3600_000
const detailLink = (id: number) => `/pages/order/inquiry/detail?id=${id}`

// ---- access --------------------------------------------------------------------------------------------------------

/** Accepting, declining, finishing and the record are the doctor's own acts; an assistant gets 2999. */
export function requireDoctor(staff: StaffContext): number {
  if (staff.kind !== 'doctor' || staff.doctorId === null) throw forbidden()
  return staff.doctorId
}

/** The doctor's own consultations, or an assistant's hospital's; paid (or free) ones only. */
const scopeOf = (staff: StaffContext): SQL =>
  and(
    staff.kind === 'doctor' ? eq(inquiries.doctorId, staff.doctorId ?? -1) : eq(inquiries.hospitalId, staff.hospitalId),
    isNotNull(inquiries.paidAt),
  )!

/** The consultation if the signed-in doctor (or assistant) may see it, else 2999 (someone else's, unpaid or missing alike). */
export async function requireDeskInquiry(db: Db | Tx, staff: StaffContext, id: number): Promise<InquiryRow> {
  const [row] = await db
    .select()
    .from(inquiries)
    .where(and(eq(inquiries.id, id), scopeOf(staff)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

// ---- reading -------------------------------------------------------------------------------------------------------

const viewQuery = (db: Db | Tx) =>
  db
    .select({ inq: inquiries, nameEnc: patients.nameEnc, sex: patients.sex, birthday: patients.birthday, orderStatus: orders.status })
    .from(inquiries)
    .innerJoin(patients, eq(patients.id, inquiries.patientId))
    .leftJoin(orders, eq(orders.id, inquiries.orderId))

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

function toView(cipher: FieldCipher, r: ViewRow, now: Date): DeskInquiry {
  const { inq } = r
  return {
    id: inq.id,
    inquiryNo: inq.inquiryNo,
    kind: inq.kind,
    status: inq.status,
    statusText: statusTextOf(inq.status, r.orderStatus ? { status: r.orderStatus } : null, inq.acceptedAt !== null),
    // spec §9: names masked, on the doctor's side too
    patientName: maskName(open(cipher, r.nameEnc)),
    sex: r.sex,
    age: ageOn(r.birthday, now),
    patientImAccount: patientImAccount(inq.userId),
    description: open(cipher, inq.descriptionEnc) ?? '',
    pictures: inq.pictures,
    priceFen: inq.priceFen,
    paidAt: inq.paidAt?.toISOString() ?? null,
    acceptedAt: inq.acceptedAt?.toISOString() ?? null,
    serviceEndsAt: inq.serviceEndsAt?.toISOString() ?? null,
    finishedAt: inq.finishedAt?.toISOString() ?? null,
    cancelledAt: inq.cancelledAt?.toISOString() ?? null,
    createdAt: inq.createdAt.toISOString(),
  }
}

const TAB_STATUSES: Record<DeskTab, InquiryRow['status'][]> = {
  waiting: ['waiting'],
  inProgress: ['inProgress'],
  // 已结束: finished, and paid ones declined, cancelled or closed
  finished: ['finished', 'cancelled', 'closed'],
}

/** GET /inquiries?status=: waiting ones oldest first (first come, first served), the others newest first. */
export async function listDeskInquiries(
  db: Db,
  cipher: FieldCipher,
  staff: StaffContext,
  query: { status: DeskTab; page: number; size: number },
  now = new Date(),
): Promise<Page<DeskInquiry>> {
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const where = and(scopeOf(staff), inArray(inquiries.status, TAB_STATUSES[query.status]))
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(inquiries).where(where)
  const rows = await viewQuery(db)
    .where(where)
    .orderBy(...(query.status === 'waiting' ? [asc(inquiries.paidAt), asc(inquiries.id)] : [desc(inquiries.paidAt), desc(inquiries.id)]))
    .limit(size)
    .offset((query.page - 1) * size)
  return { records: rows.map((r) => toView(cipher, r, now)), total: total?.n ?? 0, page: query.page, size }
}

/** Whether the record may be written at `now`: in progress, or finished within RECORD_EDIT_HOURS. */
function recordProblem(row: InquiryRow, now: Date): string | null {
  if (row.status === 'inProgress') return null
  if (row.status === 'finished' && row.finishedAt && now.getTime() - row.finishedAt.getTime() <= hours(RECORD_EDIT_HOURS)) return null
  return row.status === 'finished' ? RECORD_CLOSED : row.status === 'waiting' ? RECORD_NOT_OPEN : ALREADY_OVER
}

/** GET /inquiries/:id: the consultation with the illness, pictures, the patient's 问诊单 and its record. */
export async function deskInquiryDetail(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now = new Date()): Promise<DeskInquiryDetail> {
  await requireDeskInquiry(db, staff, id)
  const [row] = await viewQuery(db).where(eq(inquiries.id, id))
  return {
    ...toView(cipher, row!, now),
    intake: intakeOf(cipher, row!.inq.intakeEnc),
    record: await recordOfInquiry(db, cipher, id, now),
    recordEditable: staff.kind === 'doctor' && recordProblem(row!.inq, now) === null,
  }
}

// ---- the turns of a consultation -----------------------------------------------------------------------------------

/** The message the app watches for (spec §4), from `from` to the patient, in the caller's transaction. */
async function tellInChat(tx: Tx, cipher: FieldCipher, from: string, inq: InquiryRow, description: OrderDescription, text: string, clientId: string) {
  await insertMessage(tx, cipher, from, { clientId, to: patientImAccount(inq.userId), type: 'text', payload: text, description, orderNo: inq.inquiryNo })
}

async function doctorName(tx: Tx, doctorId: number) {
  const [doc] = await tx.select({ name: doctors.name }).from(doctors).where(eq(doctors.id, doctorId))
  return doc?.name ?? ''
}

/**
 * POST /inquiries/:id/accept: waiting → inProgress (acceptInquiry: the service window becomes 24 h), with the `start`
 * message and a notice, in one transaction. Accepting what this doctor accepted already answers it as it is.
 */
export async function acceptDeskInquiry(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date): Promise<DeskInquiryDetail> {
  const doctorId = requireDoctor(staff)
  const inq = await requireDeskInquiry(db, staff, id)
  if (inq.status === 'inProgress') return deskInquiryDetail(db, cipher, staff, id, now)
  if (inq.status !== 'waiting') throw badInput(NOT_WAITING)
  // past its window it is about to be closed and refunded by the sweep
  if (inq.serviceEndsAt && inq.serviceEndsAt.getTime() <= now.getTime()) throw badInput(WINDOW_OVER)
  await db.transaction(async (tx) => {
    if (!(await acceptInquiry(tx, doctorId, id, now))) throw badInput(NOT_WAITING)
    await tellInChat(tx, cipher, staff.imAccount, inq, 'start', START_TEXT, `start-${inq.inquiryNo}`)
    const name = await doctorName(tx, doctorId)
    await addUserMessage(tx, { userId: inq.userId, kind: 'inquiry', title: '医生已接诊', content: `${name}医生已接诊您的问诊，请进入问诊室与医生交流。`, link: detailLink(id) }, now)
  })
  return deskInquiryDetail(db, cipher, staff, id, now)
}

/** POST /inquiries/:id/busy: the `doctorBusy` message, while the consultation is waiting or in progress (an assistant may send it). */
export async function busyDeskInquiry(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date): Promise<DeskInquiryDetail> {
  const inq = await requireDeskInquiry(db, staff, id)
  if (inq.status !== 'waiting' && inq.status !== 'inProgress') throw badInput(ALREADY_OVER)
  await db.transaction((tx) => tellInChat(tx, cipher, staff.imAccount, inq, 'doctorBusy', BUSY_TEXT, `busy-${randomBytes(9).toString('base64url')}`))
  return deskInquiryDetail(db, cipher, staff, id, now)
}

/**
 * POST /inquiries/:id/return: the doctor declines (退诊) a waiting or in-progress consultation. In one transaction
 * (order and inquiry locked, as every change of a paid inquiry does): cancelled, the whole payment's refund recorded,
 * the `return` message and a notice; the refund is then submitted (a crash in between leaves it for the sweep).
 */
export async function returnDeskInquiry(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  staff: StaffContext,
  id: number,
  input: { reason: string },
  now: Date,
): Promise<DeskInquiryDetail> {
  const doctorId = requireDoctor(staff)
  const inq = await requireDeskInquiry(db, staff, id)
  const reason = input.reason.trim()
  if (!reason) throw badInput('请填写退诊原因')
  if (reason.length > REASON_MAX) throw badInput(`退诊原因不能超过${REASON_MAX}个字`)
  const refund = await db.transaction(async (tx) => {
    const row = await lockBoth(tx, inq)
    if (row.status !== 'waiting' && row.status !== 'inProgress') throw badInput(ALREADY_OVER)
    await tx.update(inquiries).set({ status: 'cancelled', cancelledAt: now }).where(eq(inquiries.id, row.id))
    await syncConsultation(tx, row.inquiryNo, statusTextOf('cancelled', null), now)
    // the patient is never charged for a consultation the doctor declined, even after some replies
    const pending = row.orderId ? await startRefund(tx, row.orderId, RETURN_REFUND_REASON) : null
    await tellInChat(tx, cipher, staff.imAccount, row, 'return', returnText(reason), `return-${row.inquiryNo}`)
    const name = await doctorName(tx, doctorId)
    const money = row.orderId ? '，费用将原路退回' : ''
    await addUserMessage(tx, { userId: row.userId, kind: 'inquiry', title: '医生已退诊', content: `${name}医生已退诊${money}。退诊原因：${reason}`, link: detailLink(id) }, now)
    return pending
  })
  if (refund) await submitRefund(db, providers, refund)
  return deskInquiryDetail(db, cipher, staff, id, now)
}

/** POST /inquiries/:id/finish: inProgress → finished, with the `orderFinished` message and a notice. Finishing again answers it. */
export async function finishDeskInquiry(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date): Promise<DeskInquiryDetail> {
  const doctorId = requireDoctor(staff)
  const inq = await requireDeskInquiry(db, staff, id)
  if (inq.status === 'finished') return deskInquiryDetail(db, cipher, staff, id, now)
  if (inq.status !== 'inProgress') throw badInput(NOT_IN_PROGRESS)
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(inquiries)
      .set({ status: 'finished', finishedAt: now })
      .where(and(eq(inquiries.id, id), eq(inquiries.doctorId, doctorId), eq(inquiries.status, 'inProgress')))
      .returning()
    if (!row) throw badInput(NOT_IN_PROGRESS)
    await syncConsultation(tx, row.inquiryNo, statusTextOf('finished', null), now)
    await tellInChat(tx, cipher, staff.imAccount, row, 'orderFinished', FINISH_TEXT, `finish-${row.inquiryNo}`)
    const name = await doctorName(tx, doctorId)
    await addUserMessage(tx, { userId: row.userId, kind: 'inquiry', title: '问诊已结束', content: `您与${name}医生的问诊已结束，可在问诊详情中查看病历。`, link: detailLink(id) }, now)
  })
  return deskInquiryDetail(db, cipher, staff, id, now)
}

/**
 * PUT /inquiries/:id/record: writes (or rewrites) the record while the consultation is in progress or within
 * RECORD_EDIT_HOURS after it finished; the disease codes must be in the hospital's list. The inquiry row is locked so
 * the window is judged on what is committed.
 */
export async function writeDeskRecord(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, input: MedicalRecordInput, now: Date): Promise<DeskInquiryDetail> {
  requireDoctor(staff)
  await requireDeskInquiry(db, staff, id)
  const fields = checkRecordFields(input)
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(inquiries).where(eq(inquiries.id, id)).for('update')
    const problem = recordProblem(row!, now)
    if (problem) throw badInput(problem)
    const codes = await requireDiseaseCodes(tx, row!.hospitalId, input.diseaseCodes)
    await saveRecord(tx, cipher, row!, fields, codes, now)
  })
  return deskInquiryDetail(db, cipher, staff, id, now)
}

/** POST /files-upload: a picture to send in the chat, stored like a patient's (domain/file.ts), so chat accepts its url. */
export async function uploadDeskPicture(db: Db, uploadDir: string, staff: StaffContext, bytes: Buffer, filename: string | undefined) {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') throw badInput(PICTURES_ONLY)
  const identityId = await staffUploadIdentity(db, staff)
  return storeUpload(db, uploadDir, identityId, bytes, filename)
}
