/**
 * Paying outpatient bills (POST /payment/init), cancelling an unpaid payment, refunding a paid one, and what the
 * payment core calls when such an order changes. One order pays one or several bills of one patient (business
 * 'outpatient'); the HIS is told in the transaction that records the payment, and refuses or accepts all of the
 * order's bills: a refusal sends the whole payment back (the core's refund of an undelivered business).
 *
 * A bill is paid at most once: every bill of an order is claimed in outpatient_bills, whose partial unique index
 * admits one holding or paid claim per bill, inside the transaction that creates the order. A second tab asking for
 * the same bills is answered with the same order, or refused when its choice overlaps another unpaid order's.
 */
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { BillPayInput, BillPayStart, BillPayment } from '../../../../types/api/palm'
import type { AuthContext } from '../auth'
import { rowsOf, uniqueViolation, type Db, type Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hospitals, orders, outpatientBills, outpatientPayments, patients } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import type { HisBill, HisBillItem, HisProvider } from '../../plugins/providers/his'
import type { FeeItem } from '../../plugins/providers/insurance'
import {
  answerSameKeyRace,
  closeExpiredOrders,
  cancelOrder,
  createOrder,
  isReturnUrl,
  payInternally,
  payableNow,
  refundInternally,
  startPayment,
  startRefund,
  submitRefund,
  insurance,
  type OrderHandlers,
} from '../payment'
import { isChsHospital } from '@/utils/insuranceRules'
import { BILLS_PAYING, BILL_ORDER_MINUTES, BILL_STATUS_TEXT, SAME_KEY_OTHER_PAYMENT, hisOfKind, hisPatientOf, ownPatientAt, payableKind } from './his'
import { livePayingClaims } from './unpaid'
import { paymentView, requireOwnBillPayment } from './records'
import { withHospitalCode } from '../hospital'

type PaymentRow = typeof outpatientPayments.$inferSelect
type OrderRow = typeof orders.$inferSelect

export const DEFAULT_REFUND_REASON = '患者申请退费'

const sameSet = (a: string[], b: string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length

async function billNosOf(db: Db | Tx, paymentId: number): Promise<string[]> {
  const rows = await db.select({ billNo: outpatientBills.billNo }).from(outpatientBills).where(eq(outpatientBills.paymentId, paymentId))
  return rows.map((r) => r.billNo)
}

/** The same attempt again (same idempotency key): its payment, or 409 when the key was used for other bills. */
async function byIdempotencyKey(db: Db | Tx, userId: number, input: BillPayInput, billNos: string[]): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(outpatientPayments)
    .where(and(eq(outpatientPayments.userId, userId), eq(outpatientPayments.idempotencyKey, input.idempotencyKey)))
    .limit(1)
  if (!row) return null
  if (row.patientId !== input.patientId || !sameSet(await billNosOf(db, row.id), billNos)) throw conflict(SAME_KEY_OTHER_PAYMENT)
  return row
}

/**
 * The bills are held by another unpaid order: the caller's own order for exactly these bills answers (one order for
 * one choice, however many tabs asked); anything else is refused. Null when nothing live holds them (any more).
 */
async function heldElsewhere(db: Db, userId: number, patientId: number, hospitalId: number, billNos: string[], now: Date): Promise<PaymentRow | null> {
  let held = await livePayingClaims(db, hospitalId, billNos, now)
  if ([...held.values()].some((c) => c.expired)) {
    // an order past its time that the sweep has not closed yet lets its bills go now
    await closeExpiredOrders(db, now)
    held = await livePayingClaims(db, hospitalId, billNos, now)
  }
  if (!held.size) return null
  const paymentIds = new Set([...held.values()].map((c) => c.paymentId))
  const [paymentId] = paymentIds
  if (paymentIds.size === 1 && held.size === billNos.length) {
    const [row] = await db.select().from(outpatientPayments).where(eq(outpatientPayments.id, paymentId!))
    if (row && row.userId === userId && row.patientId === patientId && sameSet(await billNosOf(db, row.id), billNos)) return row
  }
  throw conflict(BILLS_PAYING)
}

/**
 * The record and how to pay it (nothing to pay once it is paid, closed or cancelled). With insurance nothing goes to a
 * channel yet: the fees are uploaded for the patient's authorisation first (chsPayment), then the cash part is paid.
 */
async function answerWith(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  caller: AuthContext & { userId: number },
  payment: PaymentRow,
  input: Pick<BillPayInput, 'returnUrl' | 'channel'>,
  now: Date,
  made?: OrderRow,
): Promise<BillPayStart> {
  // the order alone says whether it is to be paid now (the one this request made is not read again); the record is
  // read once, after the payment has started
  const [order] = made ? [made] : await db.select().from(orders).where(eq(orders.id, payment.orderId))
  const action =
    order && payableNow(order, now) && input.channel !== 'insurance'
      ? await startPayment(db, providers, caller, { orderNo: order.orderNo, returnUrl: input.returnUrl }, made)
      : null
  return { record: await paymentView(db, cipher, payment.id, now), action }
}

function checkPayable(bills: HisBill[], billNos: string[]): void {
  // someone else's bill, or one that does not exist: the same answer, which says nothing about which
  if (bills.length !== billNos.length || !billNos.every((no) => bills.some((b) => b.billNo === no))) throw forbidden()
  for (const b of bills) {
    if (b.status !== 'unpaid') throw badInput(`缴费单${b.billNo}（${b.title}）${BILL_STATUS_TEXT[b.status]}，请刷新后重新选择`)
  }
}

/**
 * POST /payment/init. `channel: 'insurance'` (spec §6 chsList hospitals only) makes the order and holds the bills but
 * sends nothing to a channel: the chsPayment page uploads the bills' lines for the patient's insurance authorisation
 * (yibao/outpfeeupload, insuranceClaim below), and the patient pays the cash part (payment/yibao/init).
 * `channel: 'account'` pays from the patient's outpatient account (门诊预交金) with no cashier: the
 * order is paid in the transaction that creates it, the HIS debiting the account as it settles the bills, and a short
 * balance refuses it all (nothing is made). Checks first (own patient, the bills are this patient's and unpaid at the HIS, none held by
 * another unpaid order), then in ONE transaction: lets go of claims whose order is over, creates the order
 * (idempotency key from the input) and the payment, and claims every bill. Then answers how to pay it.
 */
export async function payBills(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: BillPayInput,
  now: Date,
): Promise<BillPayStart> {
  const userId = caller.userId
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  // refused before anything is made: the order would otherwise wait for a payment that cannot start
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  if (input.channel === 'insurance') {
    // spec §6 chsList; the insured person must be the patient, known by their identity number
    if (!isChsHospital(hospital.code)) throw badInput(insurance.NOT_CHS_HOSPITAL)
    if (!patient.idCardEnc) throw badInput(insurance.NEEDS_ID_CARD)
  }
  const billNos = [...new Set(input.billNos)]
  const again = await byIdempotencyKey(db, userId, input, billNos)
  if (again) return answerWith(db, cipher, providers, caller, again, input, now)

  const fromAccount = input.channel === 'account'
  const bills = await providers.his.bills({ hospitalCode: hospital.code, patient: who, billNos })
  checkPayable(bills, billNos)
  const held = await heldElsewhere(db, userId, patient.id, hospital.id, billNos, now)
  // paying from the account cannot take over an order waiting at a cashier: that one is cancelled first
  if (held && fromAccount) throw conflict(BILLS_PAYING)
  if (held) return answerWith(db, cipher, providers, caller, held, input, now)

  const amountFen = bills.reduce((sum, b) => sum + b.amountFen, 0)
  const depts = [...new Set(bills.map((b) => b.deptName))].join('、')
  let payment: PaymentRow
  // the order made here, when this request made it (not when a racing request's is answered)
  let made: OrderRow | undefined
  try {
    ;({ payment, order: made } = await db.transaction(async (tx) => {
      // claims of orders that are over (closed, cancelled, or refused by the HIS and refunded) no longer hold a bill;
      // let go in the statement that takes the new payment's id
      const release = tx
        .update(outpatientBills)
        .set({ status: 'released' })
        .where(
          and(
            eq(outpatientBills.hospitalId, hospital.id),
            inArray(outpatientBills.billNo, billNos),
            eq(outpatientBills.status, 'holding'),
            inArray(
              outpatientBills.paymentId,
              tx
                .select({ id: outpatientPayments.id })
                .from(outpatientPayments)
                .innerJoin(orders, eq(orders.id, outpatientPayments.orderId))
                .where(notInArray(orders.status, ['created', 'paying'])),
            ),
          ),
        )
      const [{ id } = { id: 0 }] = rowsOf<{ id: number }>(
        await tx.execute(sql`with released as (${release.getSQL()}) select nextval(pg_get_serial_sequence('outpatient_payments', 'id'))::int as id`),
      )
      const order = await createOrder(tx, {
        userId,
        hospitalId: hospital.id,
        business: 'outpatient',
        businessId: id,
        subject: `门诊缴费 ${depts}`.slice(0, 64),
        amountFen,
        expiresAt: new Date(now.getTime() + BILL_ORDER_MINUTES * 60_000),
        idempotencyKey: `outpatient:${input.idempotencyKey}`,
      })
      const [row] = await tx
        .insert(outpatientPayments)
        .values({
          id,
          userId,
          patientId: patient.id,
          hospitalId: hospital.id,
          orderId: order.id,
          hisKind: payableKind(providers.his),
          sourceType: input.sourceType ?? 0,
          amountFen,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      await tx.insert(outpatientBills).values(
        bills.map((b) => ({
          paymentId: id,
          hospitalId: hospital.id,
          billNo: b.billNo,
          visitNo: b.visitNo,
          visitDate: b.visitDate,
          deptName: b.deptName,
          doctorName: b.doctorName,
          title: b.title,
          category: b.category,
          place: b.place,
          amountFen: b.amountFen,
          itemsEnc: cipher.encrypt(JSON.stringify(b.items.map(({ name, spec, unit, quantity, unitPriceFen, amountFen: fen }) => ({ name, spec, unit, quantity, unitPriceFen, amountFen: fen })))),
          orderedAt: new Date(b.orderedAt),
          status: 'holding' as const,
        })),
      )
      // from the account: paid here and now, the HIS debiting the account in this very transaction (or refusing it all)
      if (fromAccount) await payInternally(tx, order.id, now)
      // paid from the account, the order is no longer as made: it is read again (answerWith)
      return { payment: row!, order: fromAccount ? undefined : order }
    }))
  } catch (err) {
    // another tab claimed these bills at the same moment: its order answers when it is this very choice of the caller's
    const madeMeanwhile = async (refusal: unknown) => {
      const made = (await byIdempotencyKey(db, userId, input, billNos)) ?? (await heldElsewhere(db, userId, patient.id, hospital.id, billNos, now))
      if (!made) throw refusal
      return made
    }
    if (uniqueViolation(err) === 'outpatient_bills_live_key') payment = await madeMeanwhile(conflict(BILLS_PAYING))
    else payment = await answerSameKeyRace(err, 'outpatient_payments_idempotency_key', SAME_KEY_OTHER_PAYMENT, madeMeanwhile)
  }
  return answerWith(db, cipher, providers, caller, payment, input, now, made)
}

/** POST /payment/cancel: an unpaid payment is given up and its bills let go; one already over is answered as it is. */
export async function cancelBillPayment(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<BillPayment> {
  const payment = await requireOwnBillPayment(db, userId, id)
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId))
    if (order && (order.status === 'created' || order.status === 'paying')) await cancelOrder(tx, order.id, '患者取消缴费')
    else if (order && order.status !== 'cancelled' && order.status !== 'closed') throw badInput('该缴费已支付，如需退费请申请退费')
  })
  return paymentView(db, cipher, payment.id, now)
}

/**
 * POST /payment/fund/{id}: a paid payment is refunded, all of it (the payment core refunds whole orders), while the HIS
 * says none of its bills was dispensed or performed. The HIS returns the bills first, in the same transaction that
 * starts the refund; the money goes back after commit. Asking again while it is on its way answers it as it is.
 */
export async function refundBillPayment(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, input: { id: number; reason?: string }, now: Date): Promise<BillPayment> {
  const payment = await requireOwnBillPayment(db, userId, input.id)
  const reason = input.reason?.trim() || DEFAULT_REFUND_REASON
  const refund = await db.transaction(async (tx) => {
    // the order before the payment and its bills, in the order a payment locks them (applyPaid, then onPaid)
    const [order] = await tx.select(withHospitalCode(orders)).from(orders).where(eq(orders.id, payment.orderId)).for('update')
    if (!order) throw forbidden()
    if (order.status === 'refunding' || order.status === 'refunded') return null
    if (order.status !== 'paid') throw badInput('该缴费尚未支付，无需退费')
    const claims = await tx.select().from(outpatientBills).where(eq(outpatientBills.paymentId, payment.id)).for('update')
    if (!claims.length || claims.some((c) => c.status !== 'paid')) throw badInput('该缴费不能退费，请到医院收费窗口咨询')
    await hisOfKind(payment.hisKind).refund(tx, { hospitalCode: order.hospitalCode, orderNo: order.orderNo, billNos: claims.map((c) => c.billNo), reason })
    // paid from the account: the HIS has just credited it back; the order is refunded with it
    if (order.channel === 'account') {
      await refundInternally(tx, order.id, reason)
      return null
    }
    return startRefund(tx, order.id, reason)
  })
  if (refund) await submitRefund(db, providers, refund)
  return paymentView(db, cipher, payment.id, now)
}

/** A bill's line as the insurance platform takes it: price and count where they make the amount, else the amount once. */
function feeItemOf(i: HisBillItem): FeeItem {
  const exact = Number.isInteger(i.quantity) && i.unitPriceFen * i.quantity === i.amountFen
  return exact ? { code: i.code, name: i.name, fen: i.unitPriceFen, count: i.quantity } : { code: i.code, name: i.name, fen: i.amountFen, count: 1 }
}

// ---- the payment core's callbacks ---------------------------------------------------------------------------------

/** What the payment core calls when an order of bills changes (inside the transaction that changes it). */
export const outpatientOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const [payment] = await tx
      .select(withHospitalCode(outpatientPayments))
      .from(outpatientPayments)
      .where(and(eq(outpatientPayments.id, order.businessId), eq(outpatientPayments.orderId, order.id)))
      .for('update')
    if (!payment) throw badInput('缴费记录不存在，费用将原路退回')
    const claims = await tx.select().from(outpatientBills).where(eq(outpatientBills.paymentId, payment.id)).for('update')
    // a claim let go means the bill may have gone to another order: this one delivers nothing and is refunded
    if (!claims.length || claims.some((c) => c.status !== 'holding')) throw badInput('缴费单已失效，费用将原路退回')
    // all of the order's bills or none: a refusal (a bill paid at the window meanwhile) refunds the whole order
    await hisOfKind(payment.hisKind).settle(tx, {
      hospitalCode: payment.hospitalCode,
      orderNo: order.orderNo,
      billNos: claims.map((c) => c.billNo),
      amountFen: order.amountFen,
      paidAt: order.paidAt ?? new Date(),
      channel: order.channel!,
      tradeNo: order.tradeNo ?? '',
    })
    await tx.update(outpatientBills).set({ status: 'paid' }).where(eq(outpatientBills.paymentId, payment.id))
  },
  /**
   * Any unpaid order of bills at a chsList hospital may settle with insurance before it goes to a channel: the lines
   * uploaded are the bills' own, as the HIS has them now (with the codes the platform's catalogue knows), and must
   * still add up to what the order charges.
   */
  async insuranceClaim(db, order, cipher) {
    const [row] = await db
      .select({ payment: outpatientPayments, patient: patients, hospitalCode: hospitals.code })
      .from(outpatientPayments)
      .innerJoin(patients, eq(patients.id, outpatientPayments.patientId))
      .innerJoin(hospitals, eq(hospitals.id, outpatientPayments.hospitalId))
      .where(and(eq(outpatientPayments.id, order.businessId), eq(outpatientPayments.orderId, order.id)))
    if (!row || !isChsHospital(row.hospitalCode)) return null
    const claims = await db.select().from(outpatientBills).where(eq(outpatientBills.paymentId, row.payment.id))
    if (!claims.length || claims.some((c) => c.status !== 'holding')) return null
    const billNos = claims.map((c) => c.billNo)
    const who = await hisPatientOf(db, cipher, row.patient, row.payment.hospitalId)
    const bills = await hisOfKind(row.payment.hisKind).bills({ hospitalCode: row.hospitalCode, patient: who, billNos })
    checkPayable(bills, billNos)
    const items = bills.flatMap((b) => b.items.map(feeItemOf))
    if (items.reduce((sum, i) => sum + i.fen * i.count, 0) !== order.amountFen) throw badInput('缴费单已变化，请取消后重新选择')
    return { patientId: row.payment.patientId, items }
  },
  async onClosed(tx, order) {
    await tx
      .update(outpatientBills)
      .set({ status: 'released' })
      .where(and(eq(outpatientBills.paymentId, order.businessId), eq(outpatientBills.status, 'holding')))
  },
  async onRefunded(tx, order) {
    await tx
      .update(outpatientBills)
      .set({ status: 'refunded' })
      .where(and(eq(outpatientBills.paymentId, order.businessId), eq(outpatientBills.status, 'paid')))
  },
}
