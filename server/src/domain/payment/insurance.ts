import { and, desc, eq, gt } from 'drizzle-orm'
import type { InsuranceChannel, InsuranceIdentity, InsuranceSplit, InsuranceTestUser } from '../../../../types/api/insurance'
import type { PayAction, PayInput } from '../../../../types/api/payment'
import type { Db, Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hospitals, insuranceAuths, insuranceSettlements, orderEvents, orders, patients } from '../../db/schema'
import { badInput, forbidden } from '../../errors'
import type { AuthContext } from '../auth'
import { requireOwnPatient } from '../patient'
import { isAppPagePath } from '../patientRules'
import { handlersOf, lockOrder, type OrderRow } from './orders'
import type { PayProvidersOf } from '../../plugins/providers'
import { startPayment } from './checkout'
import { isChsHospital } from '@/utils/insuranceRules'

/**
 * Health insurance (医保移动支付) on the payment core: the patient's authorisation, the fee upload that splits an
 * order into the insurance part (orders.insurance_fen) and cash, and the settlement's life with its order: settled
 * when the order is paid, refunded with it, void when it closes unpaid (spec §6, §7 "Insurance").
 */

export { CHS_HOSPITALS } from '@/utils/insuranceRules'

export const NOT_CHS_HOSPITAL = '该医院暂未开通医保移动支付'
export const PERSON_MISMATCH = '医保授权人与就诊人信息不一致，请使用就诊人本人的医保电子凭证授权'
export const NEEDS_ID_CARD = '该就诊人没有登记身份证件，无法使用医保支付'
export const NOT_AUTHORISED = '请先完成医保授权'
export const NOT_CLAIMABLE = '该订单不支持医保结算'
export const NOT_UPLOADED = '请先获取医保结算金额'
export const NO_TEST_USER = '仅医保测试环境提供测试人员'
/** The online payment takes cash through a channel, which needs at least 1 fen; a bill insurance pays whole is settled at the desk. */
export const FULLY_COVERED = '该订单由医保全额支付，请到医院窗口结算'
/** An authorisation that lapses within this margin is asked for again rather than used for an upload. */
const AUTH_MARGIN_MS = 60_000

const channelOf = (caller: AuthContext): InsuranceChannel => (caller.provider === 'alipay' ? 'alipay' : 'wechat')

async function requireChsHospital(db: Db | Tx, where: { code: string } | { id: number }) {
  const [h] = await db
    .select()
    .from(hospitals)
    .where('code' in where ? eq(hospitals.code, where.code) : eq(hospitals.id, where.id))
  if (!h || !isChsHospital(h.code)) throw badInput(NOT_CHS_HOSPITAL)
  return h
}

/** The patient's name and identity number, which the insured person must be. */
function identityOf(cipher: FieldCipher, patient: typeof patients.$inferSelect) {
  if (!patient.idCardEnc) throw badInput(NEEDS_ID_CARD)
  return { name: cipher.decrypt(patient.nameEnc), idCard: cipher.decrypt(patient.idCardEnc) }
}

async function liveAuth(db: Db | Tx, patientId: number, now: Date) {
  const [auth] = await db
    .select()
    .from(insuranceAuths)
    .where(and(eq(insuranceAuths.patientId, patientId), gt(insuranceAuths.expiresAt, new Date(now.getTime() + AUTH_MARGIN_MS))))
    .orderBy(desc(insuranceAuths.id))
    .limit(1)
  return auth ?? null
}

const authorised = (auth: typeof insuranceAuths.$inferSelect): InsuranceIdentity => ({
  authorized: true,
  channel: auth.channel,
  authUrl: null,
  insuTypeName: auth.insuTypeName,
  expiresAt: auth.expiresAt.toISOString(),
})

/** GET yibao/getAuthTestUserInfo: the platform's test person, where there is one. */
export function testUser(providers: PayProvidersOf): InsuranceTestUser {
  const person = providers.insurance.testUser()
  if (!person) throw badInput(NO_TEST_USER)
  return { name: person.name, idCard: person.idCard, insuTypeName: person.insuTypeName }
}

/** POST yibao/identify: the patient's live authorisation, or where to authorise (returning to `redirect`). */
export async function identify(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  caller: AuthContext & { userId: number },
  input: { patientId: number; hospitalCode: string; redirect: string },
  now: Date,
): Promise<InsuranceIdentity> {
  const patient = await requireOwnPatient(db, caller.userId, input.patientId)
  if (!isAppPagePath(input.redirect)) throw badInput('返回页面不正确')
  const hospital = await requireChsHospital(db, { code: input.hospitalCode })
  identityOf(cipher, patient)
  const auth = await liveAuth(db, patient.id, now)
  if (auth) return authorised(auth)
  const channel = channelOf(caller)
  const authUrl = await providers.insurance.authorizeUrl({ channel, hospitalCode: hospital.code, redirect: input.redirect })
  return { authorized: false, channel, authUrl, insuTypeName: null, expiresAt: null }
}

/**
 * POST yibao/{wechat|aliPay}/userquery: redeems the one-time authCode; the insured person must be the patient (same
 * name and identity number), else nothing is kept.
 */
export async function userQuery(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf,
  userId: number,
  channel: InsuranceChannel,
  input: { authCode: string; patientId: number },
): Promise<InsuranceIdentity> {
  const patient = await requireOwnPatient(db, userId, input.patientId)
  const self = identityOf(cipher, patient)
  const { payAuthNo, person, expiresAt } = await providers.insurance.userQuery({ channel, authCode: input.authCode })
  if (person.idCard.toUpperCase() !== self.idCard.toUpperCase() || person.name.trim() !== self.name.trim()) throw badInput(PERSON_MISMATCH)
  const [auth] = await db
    .insert(insuranceAuths)
    .values({ userId, patientId: patient.id, channel, payAuthNoEnc: cipher.encrypt(payAuthNo), insuType: person.insuType, insuTypeName: person.insuTypeName, expiresAt })
    .returning()
  return authorised(auth!)
}

type SettlementRow = typeof insuranceSettlements.$inferSelect

const splitOf = (order: OrderRow, s: SettlementRow, insuTypeName: string): InsuranceSplit => ({
  orderNo: order.orderNo,
  totalFen: s.totalFen,
  fundFen: s.fundFen,
  accountFen: s.accountFen,
  cashFen: s.cashFen,
  insuTypeName,
  status: s.status,
})

async function ownOrder(db: Db | Tx, userId: number, orderNo: string): Promise<OrderRow> {
  const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
  if (!order || order.userId !== userId) throw forbidden()
  return order
}

async function settlementOf(db: Db | Tx, orderId: number) {
  const [row] = await db
    .select({ s: insuranceSettlements, insuTypeName: insuranceAuths.insuTypeName })
    .from(insuranceSettlements)
    .innerJoin(insuranceAuths, eq(insuranceAuths.id, insuranceSettlements.authId))
    .where(eq(insuranceSettlements.orderId, orderId))
  return row ?? null
}

/** GET-like read of an order's split (the chsPayment page after paying), or null without insurance. */
export async function orderSplit(db: Db, userId: number, orderNo: string): Promise<InsuranceSplit | null> {
  const order = await ownOrder(db, userId, orderNo)
  const found = await settlementOf(db, order.id)
  return found ? splitOf(order, found.s, found.insuTypeName) : null
}

/**
 * POST yibao/outpfeeupload: uploads an unpaid order's fee items for its patient and keeps the split: the insurance
 * part becomes the order's insuranceFen, so the channel is asked only for the cash. Once uploaded the split stays
 * (asking again answers it); the order must not have gone to a channel yet.
 */
export async function uploadFees(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, input: { orderNo: string }, now: Date): Promise<InsuranceSplit> {
  const order = await ownOrder(db, userId, input.orderNo)
  const existing = await settlementOf(db, order.id)
  if (existing && existing.s.status !== 'void') return splitOf(order, existing.s, existing.insuTypeName)
  if (order.status !== 'created') throw badInput(order.status === 'paying' ? '该订单已发起支付，无法改用医保结算' : '订单状态不允许医保结算')
  const hospital = await requireChsHospital(db, { id: order.hospitalId })
  const claim = await handlersOf(order.business).insuranceClaim?.(db, order, cipher)
  if (!claim) throw badInput(NOT_CLAIMABLE)
  const [patient] = await db.select().from(patients).where(and(eq(patients.id, claim.patientId), eq(patients.userId, userId)))
  if (!patient) throw forbidden()
  const auth = await liveAuth(db, patient.id, now)
  if (!auth) throw badInput(NOT_AUTHORISED)

  const split = await providers.insurance.uploadFees({
    payAuthNo: cipher.decrypt(auth.payAuthNoEnc),
    person: identityOf(cipher, patient),
    hospitalCode: hospital.code,
    orderNo: order.orderNo,
    items: claim.items,
  })
  const parts = [split.fundFen, split.accountFen, split.cashFen]
  if (!parts.every((p) => Number.isSafeInteger(p) && p >= 0) || parts[0]! + parts[1]! + parts[2]! !== order.amountFen) {
    throw new Error(`insurance split for ${order.orderNo} does not add up to ${order.amountFen}`)
  }
  if (split.cashFen === 0) throw badInput(FULLY_COVERED)

  const saved = await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, { id: order.id })
    if (!locked || locked.status !== 'created') throw badInput('订单状态已变化，请刷新后重试')
    const again = await settlementOf(tx, order.id)
    if (again && again.s.status !== 'void') return { order: locked, s: again.s }
    const insuranceFen = split.fundFen + split.accountFen
    const [updated] = await tx.update(orders).set({ insuranceFen }).where(eq(orders.id, order.id)).returning()
    await tx.insert(orderEvents).values({ orderId: order.id, fromStatus: 'created', toStatus: 'created', reason: `医保结算金额 ${insuranceFen} 分（${auth.insuTypeName}）` })
    const values = { authId: auth.id, payOrdId: split.payOrdId, totalFen: order.amountFen, fundFen: split.fundFen, accountFen: split.accountFen, cashFen: split.cashFen, status: 'uploaded' as const, updatedAt: new Date() }
    const [s] = again
      ? await tx.update(insuranceSettlements).set(values).where(eq(insuranceSettlements.id, again.s.id)).returning()
      : await tx.insert(insuranceSettlements).values({ orderId: order.id, ...values }).returning()
    return { order: updated!, s: s! }
  })
  return splitOf(saved.order, saved.s, auth.insuTypeName)
}

/** POST payment/yibao/init: pays the cash part of an order whose fees were uploaded (the insurance part settles with it). */
export async function payWithInsurance(db: Db, providers: PayProvidersOf, caller: AuthContext & { userId: number }, input: PayInput): Promise<PayAction> {
  const order = await ownOrder(db, caller.userId, input.orderNo)
  const found = await settlementOf(db, order.id)
  if (!found || found.s.status !== 'uploaded') throw badInput(NOT_UPLOADED)
  return startPayment(db, providers, caller, input)
}
