/**
 * Booking (预约挂号): a slot held while the patient pays, free bookings, paying, and cancelling with a refund before
 * the hospital's deadline (spec §2 Registration pages, §7 "Registration").
 *
 * The schedules and their places (号源) are the HIS's (plugins/providers/his.ts): a place moves only inside the
 * booking, payment or cancel transaction, through the HIS (the sandbox takes the lowest free place of the chosen time
 * range by one atomic conditional update, SKIP LOCKED, so concurrent patients take different places instead of
 * queueing on one), and the partial unique index on registrations (one live booking per patient, department, day and
 * segment) is the last line of defence. Every function that depends on the time takes `now`.
 */
import { and, eq, inArray, lte, sql, type Placeholder, type SQL } from 'drizzle-orm'
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core'
import type { PayAction } from '../../../../types/api/payment'
import type { ActivityPrice, RegisterInput, Registration, RegistrationStatus } from '../../../../types/api/register'
import { uniqueViolation, type Db, type Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { doctors, hospitals, orders, patientCards, patients, registrations } from '../../db/schema'
import { badInput, conflict, forbidden, notFound } from '../../errors'
import type { AuthContext } from '../auth'
import { cardAtHospital, ownPatient, requireCompletePatient, requireOwnPatient } from '../patient'
import type { HisPatient, HisProvider, HisSchedule } from '../../plugins/providers/his'
import { open } from '../../crypto'
import {
  answerSameKeyRace,
  answerWithMadeMeanwhile,
  cancelOrder,
  closeExpiredOrders,
  createOrder,
  refreshOrder,
  startPayment,
  startRefund,
  submitRefund,
  type OrderHandlers,
} from '../payment'
import type { PayProvidersOf } from '../../plugins/providers'
import { GENERAL_CLINIC_NAME } from './schedule'
import { registrationHis } from './his'
import { requireOwnRegistration, toView, viewOf } from './records'
import { cachedSettings, settingsOne, type RegisterSettings } from './settings'
import type { HospitalCache } from '../hospitalCache'
import { requireHospitalByCode, withHospitalCode } from '../hospital'
import { CHS_REGISTER_HOSPITALS, activityPrice, bookingClosedReason, cancelDeadline, cancelTooLateText, newRegNo } from './rules'

type RegistrationRow = typeof registrations.$inferSelect
type HospitalRow = typeof hospitals.$inferSelect
type OrderRow = typeof orders.$inferSelect

export const ONE_PER_SEGMENT = '该就诊人在同一科室同一时段已有预约'
export const SLOTS_FULL = '该时段号源已约满，请选择其他时段'
export const SCHEDULE_STOPPED = '该号源已停诊，请选择其他号源'
export const NOT_FREE = '该号源需支付挂号费，不符合免费挂号条件，请通过预约挂号支付'
export const NO_INSURANCE = '该医院暂不支持医保结算挂号'
export const SAME_KEY_OTHER_BOOKING = '重复的请求'

// ---- schedules and prices -----------------------------------------------------------------------------------------

/**
 * The HIS's schedule with its time ranges, and the hospital it is at with its registration settings: both from what
 * this process keeps of the hospitals (a booking at the morning release reads them thousands of times).
 */
async function requireSchedule(db: Db, his: HisProvider, hospitals: HospitalCache, scheduleId: number) {
  const [schedule] = await his.schedules({ hospitalCode: null, scheduleIds: [scheduleId] })
  if (!schedule) throw notFound('号源')
  const hospital = await requireHospitalByCode(db, schedule.hospitalCode)
  const settings = await cachedSettings(db, hospitals, hospital.id)
  return { schedule, hospital, settings }
}

function priceFor(schedule: HisSchedule, birthday: string, settings: RegisterSettings): ActivityPrice {
  return activityPrice({
    feeFen: schedule.feeFen,
    registerType: schedule.registerType,
    birthday,
    visitDate: schedule.visitDate,
    freeForElderly: settings.freeForElderly,
  })
}

/** POST /activity/price: what this patient pays for this schedule after the hospital's activities. */
export async function priceForPatient(
  db: Db,
  his: HisProvider,
  hospitals: HospitalCache,
  userId: number,
  input: { scheduleId: number; patientId: number },
): Promise<ActivityPrice> {
  const patient = await requireOwnPatient(db, userId, input.patientId)
  const { schedule, settings } = await requireSchedule(db, his, hospitals, input.scheduleId)
  return priceFor(schedule, patient.birthday, settings)
}

// ---- booking ----------------------------------------------------------------------------------------------------

/** The registration the same attempt made (same idempotency key), or 409 when the key was used for another booking. */
function sameAttempt(row: RegistrationRow | null, input: RegisterInput): RegistrationRow | null {
  if (!row) return null
  if (row.scheduleId !== input.scheduleId || row.patientId !== input.patientId || row.timeRange !== input.timeRange) throw conflict(SAME_KEY_OTHER_BOOKING)
  return row
}

/** The same attempt again (same idempotency key): the registration it made, or 409 when the key was used otherwise. */
async function byIdempotencyKey(db: Db | Tx, userId: number, input: RegisterInput): Promise<RegistrationRow | null> {
  const [row] = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.userId, userId), eq(registrations.idempotencyKey, input.idempotencyKey)))
    .limit(1)
  return sameAttempt(row ?? null, input)
}

/** A booking that holds a place or is booked: the one a patient may have per department, day and segment. */
const LIVE_STATUSES: RegistrationStatus[] = ['holding', 'booked']

/** The patient's bookings (in `table`, registrations or an alias of it) in the schedule's department, day and segment. */
const sameSegmentAs = (
  table: Record<'patientId' | 'deptId' | 'visitDate' | 'segment', AnyPgColumn>,
  patientId: number | AnyPgColumn,
  s: HisSchedule | Record<'deptId' | 'visitDate' | 'segment', Placeholder>,
) =>
  and(eq(table.patientId, patientId), eq(table.deptId, s.deptId), eq(table.visitDate, s.visitDate), eq(table.segment, s.segment))!

/**
 * What every booking reads first, in one statement: the caller's own bound patient (403 otherwise), what this
 * attempt's idempotency key already made, a live booking of the patient in the schedule's department, day and
 * segment, and the patient's card at the hospital.
 *
 * The statement is prepared once per database (bookingStartStatement): a booking at the morning release runs it
 * thousands of times, and building its SQL each time (three tables' columns, two subqueries) took a fifth of the
 * server's time of a booking.
 */
async function bookingStart(db: Db, userId: number, input: RegisterInput, schedule: HisSchedule, hospitalId: number) {
  const [row] = await bookingStartStatement(db).execute({
    userId,
    patientId: input.patientId,
    idempotencyKey: input.idempotencyKey,
    hospitalId,
    deptId: schedule.deptId,
    visitDate: schedule.visitDate,
    segment: schedule.segment,
    doctorId: schedule.doctorId,
  })
  if (!row) throw forbidden()
  return { patient: row.patient, again: sameAttempt(row.made, input), live: row.live !== null, card: row.card, bookingId: row.bookingId, doctorTitle: row.doctorTitle }
}

const bookingStartStatements = new WeakMap<Db, ReturnType<typeof prepareBookingStart>>()

function bookingStartStatement(db: Db) {
  let statement = bookingStartStatements.get(db)
  if (!statement) bookingStartStatements.set(db, (statement = prepareBookingStart(db)))
  return statement
}

function prepareBookingStart(db: Db) {
  const live = alias(registrations, 'live')
  const liveId = db
    .select({ id: live.id })
    .from(live)
    .where(
      and(
        sameSegmentAs(live, patients.id, { deptId: sql.placeholder('deptId'), visitDate: sql.placeholder('visitDate'), segment: sql.placeholder('segment') }),
        inArray(live.status, LIVE_STATUSES),
      ),
    )
    .limit(1)
  return db
    .select({
      patient: patients,
      made: registrations,
      card: patientCards,
      live: sql<number | null>`(${liveId})`,
      // the new registration's number and the doctor's title (the answer shows it) ride on this round trip, not on one
      // of the booking's transaction; a number left unused (a retry answered with what it made, a full range) is a gap
      bookingId: sql<number>`nextval(pg_get_serial_sequence('registrations', 'id'))::int`,
      doctorTitle: sql<string | null>`(select ${doctors.title} from ${doctors} where ${doctors.id} = ${sql.placeholder('doctorId')})`,
    })
    .from(patients)
    .leftJoin(registrations, and(eq(registrations.userId, patients.userId), eq(registrations.idempotencyKey, sql.placeholder('idempotencyKey'))))
    .leftJoin(patientCards, and(eq(patientCards.patientId, patients.id), eq(patientCards.hospitalId, sql.placeholder('hospitalId'))))
    .where(ownPatient(sql.placeholder('userId'), sql.placeholder('patientId')))
    .limit(1)
    .prepare('booking_start')
}

async function liveBookingIn(db: Db | Tx, sameSegment: SQL) {
  const [row] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(and(sameSegment, inArray(registrations.status, LIVE_STATUSES)))
    .limit(1)
  return row ?? null
}

/** Holds past their time that the sweep has not closed yet are given back now (their orders close, slots free up). */
async function releaseExpiredHolds(db: Db, now: Date, where: SQL): Promise<boolean> {
  const [due] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(and(where, eq(registrations.status, 'holding'), lte(registrations.holdExpiresAt, now)))
    .limit(1)
  if (!due) return false
  await closeExpiredOrders(db, now)
  return true
}

/**
 * POST /register and POST /apply/free. Checks first (own complete patient, open schedule, a real time range, one
 * booking per department, day and segment, the price), files the patient at the hospital (its card number, from the
 * HIS), then in ONE transaction: the HIS holds a place of the range, the payment order is created (idempotency key
 * from the input) and the registration inserted. `holding` until paid, or `booked` at once when the fee after activities is 0.
 * The same idempotency key answers the same registration, never a second hold.
 */
export async function bookRegistration(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  hospitals: HospitalCache,
  userId: number,
  input: RegisterInput,
  now: Date,
  opts: { freeOnly: boolean },
): Promise<Registration> {
  const { schedule, hospital, settings } = await requireSchedule(db, his, hospitals, input.scheduleId)
  const start = await bookingStart(db, userId, input, schedule, hospital.id)
  const { patient, again } = start
  if (again) return viewOf(db, cipher, again.id, now)

  // spec §5: the app shows its completion modal on the refusal's exact text
  requireCompletePatient(cipher, patient)
  if (schedule.stopped) throw badInput(SCHEDULE_STOPPED)
  const closed = bookingClosedReason(schedule.visitDate, schedule.segment, now)
  if (closed) throw badInput(closed)
  if (!schedule.timeRanges.some((t) => t.timeRange === input.timeRange)) throw badInput('就诊时段不正确，请重新选择')
  if (input.insurance && !CHS_REGISTER_HOSPITALS.includes(hospital.code)) throw badInput(NO_INSURANCE)
  const price = priceFor(schedule, patient.birthday, settings)
  if (opts.freeOnly && price.payFen > 0) throw badInput(NOT_FREE)

  // a retry of this attempt that raced the first one: answered with what the first one made, whatever went wrong
  const madeMeanwhile = answerWithMadeMeanwhile(async () => {
    const made = await byIdempotencyKey(db, userId, input)
    return made ? viewOf(db, cipher, made.id, now) : null
  })
  const sameSegment = sameSegmentAs(registrations, patient.id, schedule)
  if (start.live) {
    // a hold of this patient that ran out does not count once it is given back
    const released = await releaseExpiredHolds(db, now, sameSegment)
    if (!released || (await liveBookingIn(db, sameSegment))) return madeMeanwhile(badInput(ONE_PER_SEGMENT))
  }
  const card = await cardAtHospital(db, cipher, his, patient, hospital, start.card)
  const who: HisPatient = { cardNo: card.hisMedCardNo, idCard: open(cipher, patient.idCardEnc), name: cipher.decrypt(patient.nameEnc) }

  const attempt = () => insertBooking(db, his, { userId, input, schedule, hospital, who, price, settings, now, bookingId: start.bookingId, doctorTitle: start.doctorTitle })
  let made: Booked | null
  try {
    made = await attempt()
    if (made === null) {
      // full: unless holds in this range ran out and are given back now, which frees their slots
      const inRange = and(eq(registrations.scheduleId, schedule.scheduleId), eq(registrations.timeRange, input.timeRange))!
      if (await releaseExpiredHolds(db, now, inRange)) made = await attempt()
    }
  } catch (err) {
    if (uniqueViolation(err) === 'registrations_one_per_segment') return madeMeanwhile(badInput(ONE_PER_SEGMENT))
    return answerSameKeyRace(err, 'registrations_idempotency_key', SAME_KEY_OTHER_BOOKING, madeMeanwhile)
  }
  if (made === null) return madeMeanwhile(badInput(SLOTS_FULL))
  // answered from what the transaction wrote, not read back
  const view = { ...made, hospitalCode: hospital.code, hospitalName: hospital.name, deptName: schedule.deptName, doctorName: schedule.doctorName }
  return toView({ ...view, patientName: who.name, cardNo: card.hisMedCardNo }, settings, 0, now)
}

/** A booking just made: its row, its new order (nothing refunded) and the doctor's title for the view. */
interface Booked {
  reg: RegistrationRow
  order: OrderRow | null
  doctorTitle: string | null
}

interface BookingPlan {
  userId: number
  input: RegisterInput
  schedule: HisSchedule
  hospital: HospitalRow
  who: HisPatient
  price: ActivityPrice
  settings: RegisterSettings
  now: Date
  /** The registration's id, taken from its sequence beforehand (bookingStart). */
  bookingId: number
  doctorTitle: string | null
}

/**
 * The booking transaction; answers the registration id, or null when the time range has no free place. When it fails
 * after the HIS took a place, the place is given back: a remote HIS's lock is not undone by our rollback (the
 * sandbox's is, and its give-back then finds nothing to do).
 */
async function insertBooking(db: Db, his: HisProvider, p: BookingPlan): Promise<Booked | null> {
  let taken: { bookingId: number; placeId: number } | null = null
  try {
    return await db.transaction((tx) => bookInTx(tx, his, p, (bookingId, placeId) => (taken = { bookingId, placeId })))
  } catch (err) {
    const held = taken as { bookingId: number; placeId: number } | null
    if (held) {
      await his
        .cancelRegistration(db, { hospitalCode: p.hospital.code, ...held, reason: '预约未成功' })
        // the booking's own error is the answer; a place the HIS keeps is released by its hold time
        .catch(() => undefined)
    }
    throw err
  }
}

async function bookInTx(tx: Tx, his: HisProvider, p: BookingPlan, onTaken: (bookingId: number, placeId: number) => void): Promise<Booked | null> {
  const { schedule: s, input, now, bookingId: id } = p
  const regNo = newRegNo(now)
  const free = p.price.payFen === 0
  const holdExpiresAt = free ? null : new Date(now.getTime() + p.settings.holdMinutes * 60_000)
  const hospitalCode = p.hospital.code
  const place = await his.lockPlace(tx, { hospitalCode, scheduleId: s.scheduleId, timeRange: input.timeRange, bookingId: id, regNo, patient: p.who, holdUntil: holdExpiresAt })
  if (!place) return null
  onTaken(id, place.placeId)
  const reg: RegistrationRow = {
    id,
    regNo,
    userId: p.userId,
    patientId: input.patientId,
    hospitalId: p.hospital.id,
    deptId: s.deptId,
    doctorId: s.doctorId,
    scheduleId: s.scheduleId,
    slotId: place.placeId,
    visitDate: s.visitDate,
    segment: s.segment,
    seq: place.seq,
    timeRange: place.timeRange,
    registerType: s.registerType,
    // what the patient is charged, after activities
    feeFen: p.price.payFen,
    status: free ? 'booked' : 'holding',
    insurance: !free && !!input.insurance,
    orderId: null,
    holdExpiresAt,
    cancelledAt: null,
    idempotencyKey: input.idempotencyKey,
    createdAt: now,
  }
  if (free) {
    // a free booking is the patient's at once: the HIS confirms it in this transaction
    await his.confirmRegistration(tx, { hospitalCode, bookingId: id, regNo, placeId: place.placeId, orderNo: null, amountFen: 0 })
    await tx.insert(registrations).values(reg)
    return { reg, order: null, doctorTitle: p.doctorTitle }
  }
  // the registration is inserted in the order's statement; an order of this key made before means a registration of
  // the same key, whose unique index refuses this one (registrations_idempotency_key)
  const order = await createOrder(
    tx,
    {
      userId: p.userId,
      hospitalId: p.hospital.id,
      business: 'register',
      businessId: id,
      subject: `挂号费 ${s.deptName} ${s.doctorName ?? GENERAL_CLINIC_NAME}`.slice(0, 64),
      // with insurance the split is known once the fees are uploaded for the patient's authorisation (chsPayment)
      amountFen: p.price.payFen,
      // the order closes when the hold ends, and closing it gives the slot back (onClosed)
      expiresAt: holdExpiresAt!,
      idempotencyKey: `register:${input.idempotencyKey}`,
    },
    (orderId) => tx.insert(registrations).values({ ...reg, orderId }).returning({ id: registrations.id }),
  )
  return { reg: { ...reg, orderId: order.id }, order, doctorTitle: p.doctorTitle }
}

// ---- paying, confirming, cancelling -------------------------------------------------------------------------------

const NOT_PAYABLE: Record<Exclude<RegistrationStatus, 'holding'>, string> = {
  booked: '该预约已支付',
  cancelled: '该预约已取消',
  expired: '支付已超时，请重新预约',
}

/** POST /register/pay: how to pay the caller's held booking (the payment core's cashier or JSAPI). */
export async function payRegistration(db: Db, providers: PayProvidersOf, caller: AuthContext & { userId: number }, input: { id: number; returnUrl: string }): Promise<PayAction> {
  const reg = await requireOwnRegistration(db, caller.userId, input.id)
  if (reg.status !== 'holding') throw badInput(NOT_PAYABLE[reg.status])
  if (!reg.orderId) throw badInput('该预约无需支付')
  const [order] = await db.select().from(orders).where(eq(orders.id, reg.orderId))
  if (!order) throw forbidden()
  return startPayment(db, providers, caller, { orderNo: order.orderNo, returnUrl: input.returnUrl }, order)
}

/** POST /confirm/:id: back from the cashier; the order is asked about first, then the registration answered as it stands. */
export async function confirmRegistration(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, id: number, now: Date): Promise<Registration> {
  const reg = await requireOwnRegistration(db, userId, id)
  if (reg.orderId) {
    const [order] = await db.select({ orderNo: orders.orderNo }).from(orders).where(eq(orders.id, reg.orderId))
    await refreshOrder(db, providers, userId, order!.orderNo)
  }
  return viewOf(db, cipher, id, now)
}

/** The registration's place goes back to the HIS (inside the transaction that ends the booking). */
async function givePlaceBack(tx: Tx, reg: RegistrationRow & { hospitalCode: string }, reason: string) {
  await registrationHis().cancelRegistration(tx, { hospitalCode: reg.hospitalCode, bookingId: reg.id, placeId: reg.slotId, reason })
}

/** A registration's columns and its hospital's code (the HIS is asked by code), in one statement. */
const rowWithHospitalCode = withHospitalCode(registrations)

export const DEFAULT_CANCEL_REASON = '患者取消预约'

/**
 * POST /cancel. A hold: its order is cancelled, which gives the slot back (onClosed). A paid booking: only before the
 * deadline (the day before the visit at the hospital's time): the slot is freed and the booking cancelled in one
 * transaction, then the fee refunded. A free booking: cancelled. Cancelling what is already cancelled or expired
 * answers it as it is.
 */
export async function cancelRegistration(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  userId: number,
  input: { id: number; reason?: string },
  now: Date,
): Promise<Registration> {
  const reg = await requireOwnRegistration(db, userId, input.id)
  const reason = input.reason?.trim() || DEFAULT_CANCEL_REASON
  const settings = await settingsOne(db, reg.hospitalId)
  const refund = await db.transaction(async (tx) => {
    // the order before the registration, in the order a payment locks them (applyPaid, then onPaid): no deadlock
    if (reg.orderId) await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, reg.orderId)).for('update')
    const [row] = await tx.select(rowWithHospitalCode).from(registrations).where(eq(registrations.id, reg.id)).for('update')
    if (!row) throw forbidden()
    if (row.status === 'holding') {
      await cancelOrder(tx, row.orderId!, reason)
      return null
    }
    if (row.status !== 'booked') return null
    if (now.getTime() >= cancelDeadline(row.visitDate, settings.cancelTime).getTime()) throw badInput(cancelTooLateText(settings.cancelTime))
    await givePlaceBack(tx, row, reason)
    await tx.update(registrations).set({ status: 'cancelled', cancelledAt: now }).where(eq(registrations.id, row.id))
    // the refund is recorded with the cancellation: money is never kept for a booking given up
    return row.orderId ? startRefund(tx, row.orderId, reason) : null
  })
  if (refund) await submitRefund(db, providers, refund)
  return viewOf(db, cipher, reg.id, now)
}

// ---- the payment core's callbacks ---------------------------------------------------------------------------------

/** What the payment core calls when a registration's order changes (inside the transaction that changes it). */
export const registrationOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const [row] = await tx
      .update(registrations)
      .set({ status: 'booked' })
      .where(and(eq(registrations.id, order.businessId), eq(registrations.orderId, order.id), eq(registrations.status, 'holding')))
      .returning({ id: registrations.id, regNo: registrations.regNo, slotId: registrations.slotId, hospitalCode: rowWithHospitalCode.hospitalCode })
    // the hold is gone: the payment core refunds on a business error
    if (!row) throw badInput('预约已失效，挂号费将原路退回')
    // the HIS keeps the place for good; its refusal (a place it gave back) refunds the order the same way
    await registrationHis().confirmRegistration(tx, {
      hospitalCode: row.hospitalCode,
      bookingId: row.id,
      regNo: row.regNo,
      placeId: row.slotId,
      orderNo: order.orderNo,
      amountFen: order.amountFen,
    })
  },
  async insuranceClaim(db, order) {
    const [reg] = await db
      .select()
      .from(registrations)
      .where(and(eq(registrations.id, order.businessId), eq(registrations.orderId, order.id)))
    if (!reg?.insurance || reg.status !== 'holding') return null
    return { patientId: reg.patientId, items: [{ code: 'GHF', name: `挂号费（${reg.registerType}）`, fen: order.amountFen, count: 1 }] }
  },
  async onClosed(tx, order) {
    // closed by time: the hold ran out; cancelled: the patient gave it up
    const status = order.status === 'closed' ? 'expired' : 'cancelled'
    const [row] = await tx
      .update(registrations)
      .set({ status, cancelledAt: status === 'cancelled' ? new Date() : null })
      .where(and(eq(registrations.id, order.businessId), eq(registrations.orderId, order.id), eq(registrations.status, 'holding')))
      .returning(rowWithHospitalCode)
    if (row) await givePlaceBack(tx, row, status === 'expired' ? '支付超时' : DEFAULT_CANCEL_REASON)
  },
}
