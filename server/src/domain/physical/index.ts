/**
 * Physical exams (体检, issue 18): packages by sex and age, days with their places, booking and paying through the
 * payment core (business 'physical'), cancelling with a full refund before the exam day, and the reports once the
 * centre releases them. Packages, places and reports are the HIS's (its physical-exam centre); the app keeps the
 * appointment and its order.
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { randomInt } from 'node:crypto'
import type { Page } from '../../../../types/api/hospital'
import type {
  PhysicalAppointment,
  PhysicalDay,
  PhysicalPackage,
  PhysicalReport,
  PhysicalReportEntry,
  PhysicalStart,
  PhysicalStatus,
} from '../../../../types/api/physical'
import { rowsOf, uniqueViolation, type Db, type Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hospitals, orders, patients, physicalAppointments } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import type { HisProvider } from '../../plugins/providers/his'
import type { HisPhysicalExam } from '../../plugins/providers/hisPhysical'
import { hospitalToday } from '@/utils/hospitalClock'
import { maskName } from '@/utils/mask'
import { selfServicePersonOf } from '@/utils/selfService'
import { CANCEL_ON_DAY, bookableDays, canCancelPaid, packageRefusal, weekOf } from '@/utils/physicalRules'
import type { AuthContext } from '../auth'
import {
  answerSameKeyRace,
  cancelOrder,
  createOrder,
  isReturnUrl,
  refundText,
  refundedFenByOrder,
  startPayment,
  startRefund,
  submitRefund,
  toPayOrder,
  type OrderHandlers,
  type OrderRow,
} from '../payment'
import { hisOfKind, hisPatientOf, ownPatientAt, payableKind } from '../bills/his'
import { requireOwnPatient } from '../patient'
import { requireHospitalByCode, withHospitalCode } from '../hospital'

type Row = typeof physicalAppointments.$inferSelect

/** An unpaid booking holds its place this long. */
export const PHYSICAL_ORDER_MINUTES = 30
export const MAX_PAGE_SIZE = 50
export const SAME_KEY_OTHER = '重复的请求'
export const ONE_A_DAY = '该就诊人当天已有体检预约'
export const DEFAULT_CANCEL_REASON = '患者取消体检预约'

const newExamNo = (now: Date) => `T${hospitalToday(now).replace(/-/g, '')}${Array.from({ length: 12 }, () => randomInt(10)).join('')}`

/** Sex and birth date: from the identity number when there is one, else as recorded. */
const personOf = (p: { idCardEnc: string | null; sex: 1 | 2; birthday: string }, cipher: FieldCipher) =>
  selfServicePersonOf(p.idCardEnc ? cipher.decrypt(p.idCardEnc) : null, { sex: p.sex, birthday: p.birthday })

// ---- packages and days ----------------------------------------------------------------------------------------------

/** GET /physical/physicalAppointment/list: the packages that suit the patient (all of them without a patient). */
export async function packagesFor(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: { hospitalCode: string; patientId?: number },
  now: Date,
): Promise<PhysicalPackage[]> {
  const patient = input.patientId !== undefined ? await requireOwnPatient(db, userId, input.patientId) : null
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const all = await his.physicalPackages({ hospitalCode: hospital.code })
  if (!patient) return all
  const person = personOf(patient, cipher)
  return all.filter((p) => packageRefusal(p, person, hospitalToday(now)) === null)
}

/** GET /physical/getPhysical/detail: one package with its items. */
export async function packageDetail(db: Db, his: HisProvider, input: { hospitalCode: string; packageCode: string }): Promise<PhysicalPackage> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const pkg = (await his.physicalPackages({ hospitalCode: hospital.code })).find((p) => p.code === input.packageCode)
  if (!pkg) throw badInput('体检套餐不存在')
  return pkg
}

/** GET /physical/appointment/date: the bookable days (tomorrow on) with the places left. */
export async function physicalDays(db: Db, his: HisProvider, input: { hospitalCode: string }, now: Date): Promise<PhysicalDay[]> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const dates = bookableDays(hospitalToday(now))
  const days = await his.physicalDays({ hospitalCode: hospital.code, from: dates[0]!, to: dates[dates.length - 1]! })
  const byDate = new Map(days.map((d) => [d.date, d]))
  return dates.map((date) => {
    const d = byDate.get(date)
    const capacity = d?.open ? d.capacity : 0
    return { date, week: weekOf(date), capacity, remaining: Math.max(0, capacity - (d?.booked ?? 0)), open: !!d?.open }
  })
}

// ---- appointments as the patient sees them --------------------------------------------------------------------------

const STATUS_TEXT: Record<PhysicalStatus, string> = {
  holding: '待支付',
  booked: '已预约',
  checkedIn: '体检中',
  finished: '已完成',
  cancelled: '已取消',
  expired: '已过期',
}

const viewQuery = (db: Db | Tx) =>
  db
    .select({ a: physicalAppointments, order: orders, hospitalCode: hospitals.code, hospitalName: hospitals.name, patientNameEnc: patients.nameEnc })
    .from(physicalAppointments)
    .innerJoin(orders, eq(orders.id, physicalAppointments.orderId))
    .innerJoin(hospitals, eq(hospitals.id, physicalAppointments.hospitalId))
    .innerJoin(patients, eq(patients.id, physicalAppointments.patientId))
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

/** The centre's word on booked exams (checked in, finished); an unreachable HIS leaves them as booked. */
async function centreStatus(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[]): Promise<Map<string, HisPhysicalExam>> {
  const out = new Map<string, HisPhysicalExam>()
  const asked = new Set<string>()
  for (const { a, hospitalCode } of rows) {
    if (a.status !== 'booked') continue
    const key = `${a.patientId}:${a.hospitalId}`
    if (asked.has(key)) continue
    asked.add(key)
    try {
      const patient = await patientRow(db, a.patientId)
      const who = await hisPatientOf(db, cipher, patient, a.hospitalId)
      for (const e of await hisOfKind(a.hisKind).physicalExams({ hospitalCode, patient: who })) out.set(e.examNo, e)
    } catch {
      // the list still shows what the app knows
    }
  }
  return out
}

/** The patient row of an appointment already known to be the caller's. */
async function patientRow(db: Db | Tx, patientId: number) {
  const [p] = await db.select().from(patients).where(eq(patients.id, patientId))
  return p!
}

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[], now: Date): Promise<PhysicalAppointment[]> {
  const refunded = await refundedFenByOrder(db, rows.map((r) => r.order.id))
  const centre = await centreStatus(db, cipher, rows)
  const today = hospitalToday(now)
  return rows.map(({ a, order, hospitalCode, hospitalName, patientNameEnc }) => {
    const exam = centre.get(a.examNo)
    const status: PhysicalStatus =
      a.status === 'booked' && exam?.status === 'finished' ? 'finished' : a.status === 'booked' && exam?.status === 'checkedIn' ? 'checkedIn' : a.status
    const payable = a.status === 'holding' && order.expiresAt.getTime() > now.getTime()
    const cancellable = a.status === 'holding' || (status === 'booked' && canCancelPaid(a.examDate, today))
    return {
      id: a.id,
      examNo: a.examNo,
      hospitalCode,
      hospitalName,
      patientId: a.patientId,
      patientName: maskName(cipher.decrypt(patientNameEnc)),
      packageCode: a.packageCode,
      packageName: a.packageName,
      examDate: a.examDate,
      amountFen: a.amountFen,
      status,
      statusText: STATUS_TEXT[status],
      payable,
      cancellable,
      cancelNote: status === 'booked' && !cancellable ? CANCEL_ON_DAY : null,
      refundText: a.status === 'cancelled' ? refundText(order) : null,
      reportReady: status === 'finished' && !!exam?.reportedAt,
      order: toPayOrder(order, refunded.get(order.id) ?? 0),
      createdAt: a.createdAt.toISOString(),
    }
  })
}

async function viewOf(db: Db | Tx, cipher: FieldCipher, id: number, now: Date): Promise<PhysicalAppointment> {
  const [view] = await toViews(db, cipher, await viewQuery(db).where(eq(physicalAppointments.id, id)), now)
  return view!
}

async function requireOwn(db: Db | Tx, userId: number, id: number): Promise<Row> {
  const [row] = await db.select().from(physicalAppointments).where(and(eq(physicalAppointments.id, id), eq(physicalAppointments.userId, userId)))
  if (!row) throw forbidden()
  return row
}

/**
 * GET /physical/getPhysicalPaymentBill (every appointment) and /paid/physical/list (the paid ones: booked, done, or
 * cancelled with a refund): the caller's physical exams, newest first.
 */
export async function listAppointments(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  query: { hospitalCode?: string; patientId?: number; paidOnly?: boolean; page: number; size: number },
  now: Date,
): Promise<Page<PhysicalAppointment>> {
  if (query.patientId !== undefined) await requireOwnPatient(db, userId, query.patientId)
  const hospital = query.hospitalCode ? await requireHospitalByCode(db, query.hospitalCode) : null
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const where = and(
    eq(physicalAppointments.userId, userId),
    query.patientId !== undefined ? eq(physicalAppointments.patientId, query.patientId) : undefined,
    hospital ? eq(physicalAppointments.hospitalId, hospital.id) : undefined,
    query.paidOnly ? inArray(orders.status, ['paid', 'refunding', 'refunded']) : undefined,
  )
  const [total] = await db
    .select({ n: count() })
    .from(physicalAppointments)
    .innerJoin(orders, eq(orders.id, physicalAppointments.orderId))
    .where(where)
  const rows = await viewQuery(db).where(where).orderBy(desc(physicalAppointments.createdAt), desc(physicalAppointments.id)).limit(size).offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, rows, now), total: total?.n ?? 0, page: query.page, size }
}

/** GET /physical/getPhysicalAppointment: one of the caller's appointments (2999 for anyone else's). */
export async function appointmentDetail(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<PhysicalAppointment> {
  const row = await requireOwn(db, userId, id)
  return viewOf(db, cipher, row.id, now)
}

// ---- booking ----------------------------------------------------------------------------------------------------

export interface BookInput {
  hospitalCode: string
  patientId: number
  packageCode: string
  date: string
  returnUrl: string
  idempotencyKey: string
}

async function byKey(db: Db, userId: number, input: BookInput): Promise<Row | null> {
  const [row] = await db
    .select()
    .from(physicalAppointments)
    .where(and(eq(physicalAppointments.userId, userId), eq(physicalAppointments.idempotencyKey, input.idempotencyKey)))
  if (!row) return null
  if (row.patientId !== input.patientId || row.packageCode !== input.packageCode || row.examDate !== input.date) throw conflict(SAME_KEY_OTHER)
  return row
}

async function answer(db: Db, cipher: FieldCipher, providers: PayProvidersOf, caller: AuthContext & { userId: number }, id: number, returnUrl: string, now: Date): Promise<PhysicalStart> {
  let appointment = await viewOf(db, cipher, id, now)
  if (!appointment.payable) return { appointment, action: null }
  const action = await startPayment(db, providers, caller, { orderNo: appointment.order.orderNo, returnUrl })
  appointment = await viewOf(db, cipher, id, now)
  return { appointment, action }
}

/**
 * POST /physical/physicalAppointment: holds a place of the day at the centre and makes the order, in one transaction
 * (a full day refuses and nothing is made); answered with the appointment and how to pay. The same key answers the
 * same appointment.
 */
export async function bookPhysical(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: BookInput,
  now: Date,
): Promise<PhysicalStart> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  const again = await byKey(db, caller.userId, input)
  if (again) return answer(db, cipher, providers, caller, again.id, input.returnUrl, now)
  const pkg = (await providers.his.physicalPackages({ hospitalCode: hospital.code })).find((p) => p.code === input.packageCode)
  if (!pkg) throw badInput('体检套餐不存在')
  const person = personOf(patient, cipher)
  const refusal = packageRefusal(pkg, person, hospitalToday(now))
  if (refusal) throw badInput(refusal)
  if (!bookableDays(hospitalToday(now)).includes(input.date)) throw badInput('请选择明天起两周内的日期')
  const [sameDay] = await db
    .select({ id: physicalAppointments.id })
    .from(physicalAppointments)
    .where(
      and(
        eq(physicalAppointments.patientId, patient.id),
        eq(physicalAppointments.hospitalId, hospital.id),
        eq(physicalAppointments.examDate, input.date),
        inArray(physicalAppointments.status, ['holding', 'booked']),
      ),
    )
  if (sameDay) throw badInput(ONE_A_DAY)

  let id: number
  try {
    id = await db.transaction(async (tx) => {
      const [{ id: newId } = { id: 0 }] = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('physical_appointments', 'id'))::int as id`))
      const order = await createOrder(tx, {
        userId: caller.userId,
        hospitalId: hospital.id,
        business: 'physical',
        businessId: newId,
        subject: `体检预约（${pkg.name}）`,
        amountFen: pkg.priceFen,
        expiresAt: new Date(now.getTime() + PHYSICAL_ORDER_MINUTES * 60_000),
        idempotencyKey: `physical:${input.idempotencyKey}`,
      })
      const examNo = newExamNo(now)
      await providers.his.physicalHold(tx, { hospitalCode: hospital.code, patient: who, sex: person.sex, birthday: person.birthday, examNo, packageCode: pkg.code, date: input.date })
      await tx.insert(physicalAppointments).values({
        id: newId,
        userId: caller.userId,
        patientId: patient.id,
        hospitalId: hospital.id,
        orderId: order.id,
        hisKind: payableKind(providers.his),
        examNo,
        packageCode: pkg.code,
        packageName: pkg.name,
        examDate: input.date,
        amountFen: pkg.priceFen,
        status: 'holding',
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      return newId
    })
  } catch (err) {
    // the same patient booked the same day at the same moment from elsewhere
    if (uniqueViolation(err) === 'physical_appointments_patient_day_key') throw badInput(ONE_A_DAY)
    const made = await answerSameKeyRace(err, 'physical_appointments_idempotency_key', SAME_KEY_OTHER, async (refusal) => {
      const row = await byKey(db, caller.userId, input)
      if (!row) throw refusal
      return row
    })
    id = made.id
  }
  return answer(db, cipher, providers, caller, id, input.returnUrl, now)
}

/**
 * GET /physical/cancelAppointment: an unpaid hold is given up (its order cancelled, the place back); a paid exam only
 * before its day: the place goes back and the appointment is cancelled in one transaction with its refund, which is
 * asked of the provider after commit. Never on the exam day or after. Cancelling again answers it as it is.
 */
export async function cancelPhysical(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  userId: number,
  input: { id: number; reason?: string },
  now: Date,
): Promise<PhysicalAppointment> {
  const own = await requireOwn(db, userId, input.id)
  const reason = input.reason?.trim() || DEFAULT_CANCEL_REASON
  const refund = await db.transaction(async (tx) => {
    // the order before the appointment, the order a payment locks them in (applyPaid, then onPaid): no deadlock
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, own.orderId)).for('update')
    const [row] = await tx.select(withHospitalCode(physicalAppointments)).from(physicalAppointments).where(eq(physicalAppointments.id, own.id)).for('update')
    if (!row) throw forbidden()
    if (row.status === 'holding') {
      await cancelOrder(tx, row.orderId, reason)
      return null
    }
    if (row.status !== 'booked') return null
    if (!canCancelPaid(row.examDate, hospitalToday(now))) throw badInput(CANCEL_ON_DAY)
    // refused once the patient checked in: then nothing changes
    await hisOfKind(row.hisKind).physicalRelease(tx, { hospitalCode: row.hospitalCode, examNo: row.examNo, reason })
    await tx.update(physicalAppointments).set({ status: 'cancelled', cancelledAt: now }).where(eq(physicalAppointments.id, row.id))
    return startRefund(tx, row.orderId, reason)
  })
  if (refund) await submitRefund(db, providers, refund)
  return viewOf(db, cipher, own.id, now)
}

// ---- reports ------------------------------------------------------------------------------------------------------

/** GET /report/physical/list: the patient's released physical-exam reports at the hospital, newest first. */
export async function reportList(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: { hospitalCode: string; patientId: number }): Promise<PhysicalReportEntry[]> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const exams = await his.physicalExams({ hospitalCode: hospital.code, patient: who })
  return exams
    .filter((e) => e.status === 'finished' && e.reportedAt)
    .map((e) => ({
      examNo: e.examNo,
      hospitalCode: hospital.code,
      patientId: patient.id,
      patientName: maskName(who.name),
      packageName: e.packageName,
      examDate: e.examDate,
      reportedAt: e.reportedAt!,
    }))
}

const examNoShape = /^[A-Za-z0-9_-]{1,64}$/

/** GET /physical/info/{examNo}: one report of the patient's own (2999 for anyone else's, or one not out). */
export async function reportInfo(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: { hospitalCode: string; patientId: number; examNo: string },
): Promise<PhysicalReport> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  if (!examNoShape.test(input.examNo)) throw forbidden()
  const r = await his.physicalReport({ hospitalCode: hospital.code, patient: who, examNo: input.examNo })
  if (!r) throw forbidden()
  return {
    examNo: r.examNo,
    hospitalCode: hospital.code,
    patientId: patient.id,
    patientName: maskName(r.patientName),
    packageName: r.packageName,
    examDate: r.examDate,
    reportedAt: r.reportedAt,
    sexText: r.sex === 1 ? '男' : '女',
    age: r.age,
    summary: r.summary,
    findings: r.findings,
    conclusion: r.conclusion,
    advice: r.advice,
    chiefDoctor: r.chiefDoctor,
  }
}

/** GET /report/physical: the report's PDF, for the patient's own exam only (2999 otherwise). */
export async function reportPdf(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: { hospitalCode: string; patientId: number; examNo: string },
): Promise<{ patientId: number; pdf: Uint8Array }> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  if (!examNoShape.test(input.examNo)) throw forbidden()
  const pdf = await his.physicalReportPdf({ hospitalCode: hospital.code, patient: who, examNo: input.examNo })
  if (!pdf) throw forbidden()
  return { patientId: patient.id, pdf }
}

// ---- the payment core's callbacks ---------------------------------------------------------------------------------

/** What the payment core calls for a physical exam's order (business 'physical'). */
export const physicalOrderHandlers: OrderHandlers = {
  async onPaid(tx, order: OrderRow) {
    const [row] = await tx
      .select(withHospitalCode(physicalAppointments))
      .from(physicalAppointments)
      .where(and(eq(physicalAppointments.id, order.businessId), eq(physicalAppointments.orderId, order.id)))
      .for('update')
    // the hold is gone: the payment core refunds on a business error
    if (!row || row.status !== 'holding') throw badInput('体检预约已失效，费用将原路退回')
    await hisOfKind(row.hisKind).physicalPaid(tx, {
      hospitalCode: row.hospitalCode,
      examNo: row.examNo,
      orderNo: order.orderNo,
      amountFen: order.amountFen,
      paidAt: order.paidAt ?? new Date(),
      channel: order.channel!,
      tradeNo: order.tradeNo ?? '',
    })
    await tx.update(physicalAppointments).set({ status: 'booked' }).where(eq(physicalAppointments.id, row.id))
  },
  async onClosed(tx, order: OrderRow) {
    // closed by time: the hold ran out; cancelled: the patient gave it up. Either way the place goes back.
    const status = order.status === 'closed' ? 'expired' : 'cancelled'
    const [row] = await tx
      .update(physicalAppointments)
      .set({ status, cancelledAt: status === 'cancelled' ? new Date() : null })
      .where(and(eq(physicalAppointments.id, order.businessId), eq(physicalAppointments.orderId, order.id), eq(physicalAppointments.status, 'holding')))
      .returning(withHospitalCode(physicalAppointments))
    if (row) await hisOfKind(row.hisKind).physicalRelease(tx, { hospitalCode: row.hospitalCode, examNo: row.examNo, reason: order.status === 'closed' ? '超时未支付' : '患者取消' })
  },
}
