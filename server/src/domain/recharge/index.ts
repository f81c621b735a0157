/**
 * Accounts and deposits at a hospital (issue 17): the outpatient account (门诊预交金 / 就诊卡余额, spec §7 Payment
 * `clinic/balance`, `recharge`) and the inpatient deposit (住院预交金, spec §7 Recharge). Both are topped up through
 * the payment core (business 'clinic_recharge' and 'recharge'); the HIS credits the account or the deposit in the
 * transaction that records the payment (onPaid), once per order number. Balances are the HIS's, never kept here.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { AccountBalance, InpatientView, RechargeAmounts, RechargeRecord, RechargeStart, DailyCharges } from '../../../../types/api/palm'
import type { Page } from '../../../../types/api/hospital'
import { rowsOf, type Db, type Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hospitalConfigs, hospitals, orders, patients, recharges } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import type { HisAdmission, HisProvider } from '../../plugins/providers/his'
import { maskName } from '@/utils/mask'
import type { AuthContext } from '../auth'
import { answerSameKeyRace, createOrder, isReturnUrl, payableNow, refundedFenByOrder, startPayment, toPayOrder, type OrderHandlers, type OrderRow } from '../payment'
import { hisOfKind, ownPatientAt, payableKind } from '../bills/his'
import { statusTextOf } from '../bills/records'
import { requireOwnPatient } from '../patient'
import { requireHospitalByCode, withHospitalCode } from '../hospital'
import { CLINIC_LIMITS, INPATIENT_LIMITS } from '@/utils/rechargeRules'

type RechargeRow = typeof recharges.$inferSelect
type Kind = RechargeRow['kind']

/** An unpaid top-up waits this long for the money. */
export const RECHARGE_ORDER_MINUTES = 30
export const MAX_PAGE_SIZE = 50
/** The top-up choices of the deposit page when the hospital sets none (hospital_configs `recharge.amounts`, yuan, comma-separated). */
export const DEFAULT_AMOUNTS_YUAN = [1000, 2000, 5000, 10000]
export const AMOUNTS_CONFIG_KEY = 'recharge.amounts'
/** The deposit is low when it would not cover the average daily cost of the last days with charges (this many). */
export const LOW_DEPOSIT_DAYS = 3
export const SAME_KEY_OTHER_RECHARGE = '重复的请求'
export const NOT_IN_HOSPITAL = '该就诊人当前没有在院记录'

const SUBJECT: Record<Kind, string> = { clinic: '门诊预交金充值', inpatient: '住院预交金缴纳' }
const BUSINESS = { clinic: 'clinic_recharge', inpatient: 'recharge' } as const

const yuan = (fen: number) => (fen / 100).toFixed(2)

function checkAmount(kind: Kind, amountFen: number): void {
  const { minFen, maxFen } = kind === 'clinic' ? CLINIC_LIMITS : INPATIENT_LIMITS
  if (!Number.isSafeInteger(amountFen) || amountFen < minFen || amountFen > maxFen) throw badInput(`充值金额应为${yuan(minFen)}元至${yuan(maxFen)}元`)
}

// ---- records --------------------------------------------------------------------------------------------------------

const viewQuery = (db: Db | Tx) =>
  db
    .select({ r: recharges, order: orders, hospitalCode: hospitals.code, hospitalName: hospitals.name, patientNameEnc: patients.nameEnc })
    .from(recharges)
    .innerJoin(orders, eq(orders.id, recharges.orderId))
    .innerJoin(hospitals, eq(hospitals.id, recharges.hospitalId))
    .innerJoin(patients, eq(patients.id, recharges.patientId))
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[], now: Date): Promise<RechargeRecord[]> {
  const refunded = await refundedFenByOrder(db, rows.map((r) => r.order.id))
  return rows.map(({ r, order, hospitalCode, hospitalName, patientNameEnc }) => ({
    id: r.id,
    kind: r.kind,
    orderNo: order.orderNo,
    hospitalCode,
    hospitalName,
    patientId: r.patientId,
    patientName: maskName(cipher.decrypt(patientNameEnc)),
    admissionNo: r.kind === 'inpatient' ? r.accountNo : null,
    amountFen: r.amountFen,
    status: order.status,
    statusText: statusTextOf(order.status),
    payable: payableNow(order, now),
    order: toPayOrder(order, refunded.get(order.id) ?? 0),
    createdAt: r.createdAt.toISOString(),
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
  }))
}

async function recordView(db: Db | Tx, cipher: FieldCipher, id: number, now: Date): Promise<RechargeRecord> {
  const [view] = await toViews(db, cipher, await viewQuery(db).where(eq(recharges.id, id)), now)
  return view!
}

/** GET /payment/recharge/list and /recharge/list: the caller's top-ups of one kind, newest first. */
export async function listRecharges(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  kind: Kind,
  query: { hospitalCode?: string; patientId?: number; page: number; size: number },
  now: Date,
): Promise<Page<RechargeRecord>> {
  if (query.patientId !== undefined) await requireOwnPatient(db, userId, query.patientId)
  const hospital = query.hospitalCode ? await requireHospitalByCode(db, query.hospitalCode) : null
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const where = and(
    eq(recharges.userId, userId),
    eq(recharges.kind, kind),
    query.patientId !== undefined ? eq(recharges.patientId, query.patientId) : undefined,
    hospital ? eq(recharges.hospitalId, hospital.id) : undefined,
  )
  const [total] = await db.select({ n: count() }).from(recharges).where(where)
  const rows = await viewQuery(db).where(where).orderBy(desc(recharges.createdAt), desc(recharges.id)).limit(size).offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, rows, now), total: total?.n ?? 0, page: query.page, size }
}

/** GET /payment/recharge/detail and /recharge/detail: one of the caller's top-ups (2999 for anyone else's). */
export async function rechargeDetail(db: Db, cipher: FieldCipher, userId: number, kind: Kind, id: number, now: Date): Promise<RechargeRecord> {
  const [row] = await db.select().from(recharges).where(and(eq(recharges.id, id), eq(recharges.userId, userId), eq(recharges.kind, kind)))
  if (!row) throw forbidden()
  return recordView(db, cipher, row.id, now)
}

// ---- topping up -----------------------------------------------------------------------------------------------------

interface TopUpInput {
  hospitalCode: string
  patientId: number
  amountFen: number
  returnUrl: string
  idempotencyKey: string
}

async function byKey(db: Db, userId: number, kind: Kind, input: TopUpInput): Promise<RechargeRow | null> {
  const [row] = await db
    .select()
    .from(recharges)
    .where(and(eq(recharges.userId, userId), eq(recharges.idempotencyKey, input.idempotencyKey)))
  if (!row) return null
  if (row.kind !== kind || row.patientId !== input.patientId || row.amountFen !== input.amountFen) throw conflict(SAME_KEY_OTHER_RECHARGE)
  return row
}

async function answer(db: Db, cipher: FieldCipher, providers: PayProvidersOf, caller: AuthContext & { userId: number }, row: RechargeRow, returnUrl: string, now: Date): Promise<RechargeStart> {
  let record = await recordView(db, cipher, row.id, now)
  if (!record.payable) return { record, action: null }
  const action = await startPayment(db, providers, caller, { orderNo: record.orderNo, returnUrl })
  record = await recordView(db, cipher, row.id, now)
  return { record, action }
}

/** The order and its top-up row, in one transaction; the same key (even at the same moment) answers the same top-up. */
async function topUp(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  kind: Kind,
  target: { patientId: number; hospitalId: number; accountNo: string },
  input: TopUpInput,
  now: Date,
): Promise<RechargeStart> {
  const userId = caller.userId
  let row: RechargeRow
  try {
    row = await db.transaction(async (tx) => {
      const [{ id } = { id: 0 }] = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('recharges', 'id'))::int as id`))
      const order = await createOrder(tx, {
        userId,
        hospitalId: target.hospitalId,
        business: BUSINESS[kind],
        businessId: id,
        subject: SUBJECT[kind],
        amountFen: input.amountFen,
        expiresAt: new Date(now.getTime() + RECHARGE_ORDER_MINUTES * 60_000),
        idempotencyKey: `${BUSINESS[kind]}:${input.idempotencyKey}`,
      })
      const [made] = await tx
        .insert(recharges)
        .values({
          id,
          userId,
          patientId: target.patientId,
          hospitalId: target.hospitalId,
          orderId: order.id,
          kind,
          hisKind: payableKind(providers.his),
          accountNo: target.accountNo,
          amountFen: input.amountFen,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      return made!
    })
  } catch (err) {
    row = await answerSameKeyRace(err, 'recharges_idempotency_key', SAME_KEY_OTHER_RECHARGE, async (refusal) => {
      const made = await byKey(db, userId, kind, input)
      if (!made) throw refusal
      return made
    })
  }
  return answer(db, cipher, providers, caller, row, input.returnUrl, now)
}

/** GET /payment/clinic/balance: the patient's outpatient account balance at the hospital (the HIS's, the sum of its movements). */
export async function clinicBalance(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: { hospitalCode: string; patientId: number }): Promise<AccountBalance> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const account = await his.account({ hospitalCode: hospital.code, patient: who })
  return { hospitalCode: hospital.code, patientId: patient.id, patientName: maskName(who.name), balanceFen: account.balanceFen }
}

/** POST /payment/recharge: top up the patient's outpatient account through the payment core. */
export async function rechargeClinic(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: TopUpInput,
  now: Date,
): Promise<RechargeStart> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  checkAmount('clinic', input.amountFen)
  const again = await byKey(db, caller.userId, 'clinic', input)
  if (again) return answer(db, cipher, providers, caller, again, input.returnUrl, now)
  const account = await providers.his.account({ hospitalCode: hospital.code, patient: who })
  return topUp(db, cipher, providers, caller, 'clinic', { patientId: patient.id, hospitalId: hospital.id, accountNo: account.accountNo }, input, now)
}

// ---- the inpatient deposit ------------------------------------------------------------------------------------------

/** Low when the balance would not cover the average day of the last LOW_DEPOSIT_DAYS days with charges. */
function lowDeposit(a: HisAdmission): { low: boolean; averageDailyFen: number } {
  const recent = a.days.slice(-LOW_DEPOSIT_DAYS)
  const averageDailyFen = recent.length ? Math.round(recent.reduce((sum, d) => sum + d.amountFen, 0) / recent.length) : 0
  return { low: a.status === 'in' && (a.balanceFen <= 0 || a.balanceFen < averageDailyFen), averageDailyFen }
}

function toInpatientView(hospitalCode: string, patientId: number, patientName: string, a: HisAdmission): InpatientView {
  const { low, averageDailyFen } = lowDeposit(a)
  return {
    hospitalCode,
    patientId,
    patientName,
    ...a,
    averageDailyFen,
    lowDeposit: low,
    warning: low ? `住院预交金余额不足（余额${yuan(a.balanceFen)}元，近${LOW_DEPOSIT_DAYS}日日均费用${yuan(averageDailyFen)}元），请及时缴纳` : null,
  }
}

/** The patient's current stay: the one in hospital, else the latest (discharged, with its settlement); null when none. */
async function currentAdmission(his: HisProvider, hospitalCode: string, who: Parameters<HisProvider['admissions']>[0]['patient']): Promise<HisAdmission | null> {
  const all = await his.admissions({ hospitalCode, patient: who })
  return all.find((a) => a.status === 'in') ?? all[0] ?? null
}

/** POST /recharge/inpatient and /recharge/balance: the patient's current stay at the hospital, with the low-deposit warning. */
export async function inpatient(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: { hospitalCode: string; patientId: number }): Promise<InpatientView | null> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const a = await currentAdmission(his, hospital.code, who)
  return a ? toInpatientView(hospital.code, patient.id, maskName(who.name), a) : null
}

/** POST /recharge/daily: one day's charges of one of the patient's stays (someone else's stay is 2999). */
export async function dailyCharges(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  input: { hospitalCode: string; patientId: number; admissionNo: string; date: string },
): Promise<DailyCharges> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const items = await his.dailyCharges({ hospitalCode: hospital.code, patient: who, admissionNo: input.admissionNo, date: input.date })
  if (!items) throw forbidden()
  return { admissionNo: input.admissionNo, date: input.date, totalFen: items.reduce((sum, i) => sum + i.amountFen, 0), items }
}

/** GET /recharge/amount: the hospital's top-up choices (hospital_configs `recharge.amounts`, yuan) and limits. */
export async function rechargeAmounts(db: Db, hospitalCode: string): Promise<RechargeAmounts> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const [cfg] = await db
    .select({ value: hospitalConfigs.value })
    .from(hospitalConfigs)
    .where(and(eq(hospitalConfigs.hospitalId, hospital.id), eq(hospitalConfigs.key, AMOUNTS_CONFIG_KEY)))
  const configured = (cfg?.value ?? '')
    .split(',')
    .map((v) => Number(v.trim()))
    .filter((v) => Number.isInteger(v) && v * 100 >= INPATIENT_LIMITS.minFen && v * 100 <= INPATIENT_LIMITS.maxFen)
  const amountsYuan = configured.length ? configured : DEFAULT_AMOUNTS_YUAN
  return { hospitalCode: hospital.code, amountsFen: amountsYuan.map((y) => y * 100), minFen: INPATIENT_LIMITS.minFen, maxFen: INPATIENT_LIMITS.maxFen }
}

/** POST /recharge: pay into the patient's stay now in hospital through the payment core. */
export async function rechargeInpatient(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: TopUpInput & { admissionNo: string },
  now: Date,
): Promise<RechargeStart> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  checkAmount('inpatient', input.amountFen)
  const again = await byKey(db, caller.userId, 'inpatient', input)
  if (again) {
    if (again.accountNo !== input.admissionNo) throw conflict(SAME_KEY_OTHER_RECHARGE)
    return answer(db, cipher, providers, caller, again, input.returnUrl, now)
  }
  const stays = await providers.his.admissions({ hospitalCode: hospital.code, patient: who })
  const stay = stays.find((a) => a.admissionNo === input.admissionNo)
  // a stay that is not this patient's says nothing about whether it exists
  if (!stay) throw forbidden()
  if (stay.status !== 'in') throw badInput('该住院已出院结算，无需缴纳住院预交金')
  return topUp(db, cipher, providers, caller, 'inpatient', { patientId: patient.id, hospitalId: hospital.id, accountNo: stay.admissionNo }, input, now)
}

// ---- the payment core's callbacks ---------------------------------------------------------------------------------

async function creditHis(tx: Tx, order: OrderRow): Promise<void> {
  const [row] = await tx
    .select(withHospitalCode(recharges))
    .from(recharges)
    .where(and(eq(recharges.id, order.businessId), eq(recharges.orderId, order.id)))
    .for('update')
  if (!row) throw badInput('充值记录不存在，费用将原路退回')
  const credit = {
    hospitalCode: row.hospitalCode,
    accountNo: row.accountNo,
    orderNo: order.orderNo,
    amountFen: order.amountFen,
    paidAt: order.paidAt ?? new Date(),
    channel: order.channel!,
    tradeNo: order.tradeNo ?? '',
  }
  const his = hisOfKind(row.hisKind)
  // a refusal (the patient was discharged meanwhile) sends the money back: the core refunds an undelivered business
  if (row.kind === 'clinic') await his.creditAccount(tx, credit)
  else await his.deposit(tx, credit)
}

/** What the payment core calls for top-ups (business 'clinic_recharge' and 'recharge'): the HIS credits on payment. */
export const rechargeOrderHandlers: OrderHandlers = {
  onPaid: creditHis,
  // an unpaid top-up holds nothing
  async onClosed() {},
}
