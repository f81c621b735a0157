/**
 * Nucleic-acid tests (核酸检测, issue 18; spec §7 Payment `init/nucleic`, `nucleic/list`, `nucleic/codeImage/{id}`,
 * Reports `nucleic`): the kinds and prices are the HIS's; a test is bought as one order of the payment core (business
 * 'nucleic'), the HIS keeps an unpaid test for it from the start and registers it for sampling when paid (onPaid, in
 * the payment's transaction). Cancelled before sampling, a paid test is refunded whole. The sampling QR code carries
 * the HIS's sample number and is drawn here. Results are the HIS's, released at its console.
 */
import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { renderSVG } from 'uqr'
import type { NucleicKind, NucleicOrder, NucleicPurchaseStart, NucleicResult } from '../../../types/api/medtech'
import type { Page } from '../../../types/api/hospital'
import { rowsOf, type Db, type Tx } from '../db'
import type { FieldCipher } from '../crypto'
import { hospitals, nucleicOrders, orders, patients } from '../db/schema'
import { badInput, conflict, forbidden } from '../errors'
import type { PayProvidersOf } from '../plugins/providers'
import type { HisNucleicStatus, HisNucleicTest, HisProvider } from '../plugins/providers/his'
import { maskName } from '@/utils/mask'
import type { AuthContext } from './auth'
import { answerSameKeyRace, cancelOrder, createOrder, isReturnUrl, payableNow, refundedFenByOrder, startPayment, startRefund, submitRefund, toPayOrder, type OrderHandlers, type OrderRow } from './payment'
import { hisOfKind, ownPatientAt, payableKind } from './bills/his'
import { statusTextOf } from './bills/records'
import { requireOwnPatient } from './patient'
import { requireHospitalByCode, withHospitalCode } from './hospital'

type NucleicRow = typeof nucleicOrders.$inferSelect

/** An unpaid test waits this long for the money. */
export const NUCLEIC_ORDER_MINUTES = 30
export const MAX_PAGE_SIZE = 50
export const SAME_KEY_OTHER_TEST = '重复的请求'
export const CODE_AFTER_PAYMENT = '缴费成功后才会生成采样码'
export const REFUND_REASON = '患者取消核酸检测'

const TEST_STATUS_TEXT: Record<HisNucleicStatus, string> = { unpaid: '待缴费', registered: '待采样', sampled: '已采样，等待报告', reported: '已出报告', cancelled: '已取消' }

/** GET nucleic/kinds: the tests the hospital sells, priced by its HIS. */
export async function nucleicKinds(db: Db, his: HisProvider, hospitalCode: string): Promise<NucleicKind[]> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  return his.nucleicKinds({ hospitalCode: hospital.code })
}

// ---- records --------------------------------------------------------------------------------------------------------

const viewQuery = (db: Db | Tx) =>
  db
    .select({ r: nucleicOrders, order: orders, hospitalCode: hospitals.code, hospitalName: hospitals.name, patientNameEnc: patients.nameEnc })
    .from(nucleicOrders)
    .innerJoin(orders, eq(orders.id, nucleicOrders.orderId))
    .innerJoin(hospitals, eq(hospitals.id, nucleicOrders.hospitalId))
    .innerJoin(patients, eq(patients.id, nucleicOrders.patientId))
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

/** The HIS's tests of these orders, by order number (one question per hospital). */
async function testsOf(his: HisProvider, rows: ViewRow[]): Promise<Map<string, HisNucleicTest>> {
  const byHospital = new Map<string, string[]>()
  for (const r of rows) byHospital.set(r.hospitalCode, [...(byHospital.get(r.hospitalCode) ?? []), r.order.orderNo])
  const out = new Map<string, HisNucleicTest>()
  for (const [hospitalCode, orderNos] of byHospital) for (const t of await his.nucleicTests({ hospitalCode, orderNos })) out.set(t.orderNo, t)
  return out
}

async function toViews(db: Db | Tx, cipher: FieldCipher, his: HisProvider, rows: ViewRow[], now: Date): Promise<NucleicOrder[]> {
  const [refunded, tests] = await Promise.all([refundedFenByOrder(db, rows.map((r) => r.order.id)), testsOf(his, rows)])
  return rows.map(({ r, order, hospitalCode, hospitalName, patientNameEnc }) => {
    const test = tests.get(order.orderNo)
    const paid = order.status === 'paid'
    const testStatus = paid || order.status === 'refunding' || order.status === 'refunded' ? (test?.status ?? null) : null
    return {
      id: r.id,
      orderNo: order.orderNo,
      hospitalCode,
      hospitalName,
      patientId: r.patientId,
      patientName: maskName(cipher.decrypt(patientNameEnc)),
      kindCode: r.kindCode,
      kindName: r.kindName,
      amountFen: r.amountFen,
      status: order.status,
      statusText: statusTextOf(order.status),
      sampleNo: paid && test && test.status !== 'cancelled' && test.status !== 'unpaid' ? test.sampleNo : null,
      testStatus: testStatus === 'unpaid' ? null : testStatus,
      testStatusText: testStatus && testStatus !== 'unpaid' ? TEST_STATUS_TEXT[testStatus] : '',
      payable: payableNow(order, now),
      refundable: paid && test?.status === 'registered',
      order: toPayOrder(order, refunded.get(order.id) ?? 0),
      createdAt: r.createdAt.toISOString(),
      paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    }
  })
}

async function recordView(db: Db | Tx, cipher: FieldCipher, his: HisProvider, id: number, now: Date): Promise<NucleicOrder> {
  const [view] = await toViews(db, cipher, his, await viewQuery(db).where(eq(nucleicOrders.id, id)), now)
  return view!
}

/** The caller's test, or 2999 that says nothing about whether it exists. */
async function requireOwnTest(db: Db | Tx, userId: number, id: number): Promise<NucleicRow> {
  const [row] = await db.select().from(nucleicOrders).where(and(eq(nucleicOrders.id, id), eq(nucleicOrders.userId, userId)))
  if (!row) throw forbidden()
  return row
}

/** GET payment/nucleic/list: the caller's tests, newest first; optionally of one patient and hospital. */
export async function listNucleicOrders(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  query: { hospitalCode?: string; patientId?: number; page: number; size: number },
  now: Date,
): Promise<Page<NucleicOrder>> {
  if (query.patientId !== undefined) await requireOwnPatient(db, userId, query.patientId)
  const hospital = query.hospitalCode ? await requireHospitalByCode(db, query.hospitalCode) : null
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const where = and(
    eq(nucleicOrders.userId, userId),
    query.patientId !== undefined ? eq(nucleicOrders.patientId, query.patientId) : undefined,
    hospital ? eq(nucleicOrders.hospitalId, hospital.id) : undefined,
  )
  const [total] = await db.select({ n: count() }).from(nucleicOrders).where(where)
  const rows = await viewQuery(db).where(where).orderBy(desc(nucleicOrders.createdAt), desc(nucleicOrders.id)).limit(size).offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, his, rows, now), total: total?.n ?? 0, page: query.page, size }
}

/** GET payment/nucleic/detail: one of the caller's tests. */
export async function nucleicOrderDetail(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, id: number, now: Date): Promise<NucleicOrder> {
  const row = await requireOwnTest(db, userId, id)
  return recordView(db, cipher, his, row.id, now)
}

/** GET payment/nucleic/codeImage/{id}: the sampling QR code (the HIS's sample number) as an SVG image, once paid. */
export async function nucleicCodeImage(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, id: number, now: Date) {
  const row = await requireOwnTest(db, userId, id)
  const view = await recordView(db, cipher, his, row.id, now)
  if (!view.sampleNo) throw badInput(CODE_AFTER_PAYMENT)
  const svg = renderSVG(view.sampleNo, { ecc: 'M', border: 2 })
  return { id: view.id, patientId: view.patientId, sampleNo: view.sampleNo, image: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` }
}

// ---- buying -----------------------------------------------------------------------------------------------------------

interface PurchaseInput {
  hospitalCode: string
  patientId: number
  kindCode: string
  returnUrl: string
  idempotencyKey: string
}

async function byKey(db: Db, userId: number, input: PurchaseInput): Promise<NucleicRow | null> {
  const [row] = await db
    .select()
    .from(nucleicOrders)
    .where(and(eq(nucleicOrders.userId, userId), eq(nucleicOrders.idempotencyKey, input.idempotencyKey)))
  if (!row) return null
  if (row.patientId !== input.patientId || row.kindCode !== input.kindCode) throw conflict(SAME_KEY_OTHER_TEST)
  return row
}

async function answer(db: Db, cipher: FieldCipher, providers: PayProvidersOf & { his: HisProvider }, caller: AuthContext, row: NucleicRow, returnUrl: string, now: Date): Promise<NucleicPurchaseStart> {
  let record = await recordView(db, cipher, providers.his, row.id, now)
  if (!record.payable) return { record, action: null }
  const action = await startPayment(db, providers, caller, { orderNo: record.orderNo, returnUrl })
  record = await recordView(db, cipher, providers.his, row.id, now)
  return { record, action }
}

/**
 * POST payment/init/nucleic: buys a test for the patient: the order, the HIS's unpaid test and our row in one
 * transaction, then how to pay it. The same idempotency key (even at the same moment) answers the same test.
 */
export async function purchaseNucleic(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: PurchaseInput,
  now: Date,
): Promise<NucleicPurchaseStart> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, caller.userId, input)
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  const again = await byKey(db, caller.userId, input)
  if (again) return answer(db, cipher, providers, caller, again, input.returnUrl, now)
  const kind = (await providers.his.nucleicKinds({ hospitalCode: hospital.code })).find((k) => k.code === input.kindCode)
  if (!kind) throw badInput('请选择核酸检测项目')
  let row: NucleicRow
  try {
    row = await db.transaction(async (tx) => {
      const [{ id } = { id: 0 }] = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('nucleic_orders', 'id'))::int as id`))
      const order = await createOrder(tx, {
        userId: caller.userId,
        hospitalId: hospital.id,
        business: 'nucleic',
        businessId: id,
        subject: kind.name.slice(0, 64),
        amountFen: kind.priceFen,
        expiresAt: new Date(now.getTime() + NUCLEIC_ORDER_MINUTES * 60_000),
        idempotencyKey: `nucleic:${input.idempotencyKey}`,
      })
      const test = await providers.his.nucleicOrder(tx, { hospitalCode: hospital.code, patient: who, kindCode: kind.code, orderNo: order.orderNo })
      const [made] = await tx
        .insert(nucleicOrders)
        .values({
          id,
          userId: caller.userId,
          patientId: patient.id,
          hospitalId: hospital.id,
          orderId: order.id,
          hisKind: payableKind(providers.his),
          kindCode: kind.code,
          kindName: kind.name,
          amountFen: kind.priceFen,
          sampleNo: test.sampleNo,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      return made!
    })
  } catch (err) {
    row = await answerSameKeyRace(err, 'nucleic_orders_idempotency_key', SAME_KEY_OTHER_TEST, async (refusal) => {
      const made = await byKey(db, caller.userId, input)
      if (!made) throw refusal
      return made
    })
  }
  return answer(db, cipher, providers, caller, row, input.returnUrl, now)
}

/**
 * POST payment/nucleic/cancel: an unpaid test is given up; a paid one not sampled yet is cancelled at the HIS and
 * refunded whole, in the transaction that starts the refund (the money goes back after commit). Once sampled: refused.
 */
export async function cancelNucleic(db: Db, cipher: FieldCipher, providers: PayProvidersOf & { his: HisProvider }, userId: number, id: number, now: Date): Promise<NucleicOrder> {
  const row = await requireOwnTest(db, userId, id)
  const refund = await db.transaction(async (tx) => {
    const [order] = await tx.select(withHospitalCode(orders)).from(orders).where(eq(orders.id, row.orderId)).for('update')
    if (!order) throw forbidden()
    if (order.status === 'created' || order.status === 'paying') {
      await cancelOrder(tx, order.id, REFUND_REASON)
      return null
    }
    if (order.status !== 'paid') return null
    await hisOfKind(row.hisKind).nucleicCancel(tx, { hospitalCode: order.hospitalCode, orderNo: order.orderNo })
    return startRefund(tx, order.id, REFUND_REASON)
  })
  if (refund) await submitRefund(db, providers, refund)
  return recordView(db, cipher, providers.his, row.id, now)
}

// ---- results ----------------------------------------------------------------------------------------------------------

/** POST report/nucleic: the patient's tests bought at the hospital and paid, with their results once released. */
export async function nucleicResults(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: { hospitalCode: string; patientId: number }): Promise<NucleicResult[]> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const rows = await db
    .select({ orderNo: orders.orderNo })
    .from(nucleicOrders)
    .innerJoin(orders, eq(orders.id, nucleicOrders.orderId))
    .where(and(eq(nucleicOrders.patientId, patient.id), eq(nucleicOrders.hospitalId, hospital.id), isNotNull(orders.paidAt), inArray(orders.status, ['paid', 'refunding', 'refunded'])))
    .orderBy(desc(nucleicOrders.createdAt))
    .limit(100)
  const tests = await his.nucleicTests({ hospitalCode: hospital.code, orderNos: rows.map((r) => r.orderNo) })
  return tests
    .filter((t) => t.status !== 'unpaid')
    .sort((a, b) => b.registeredAt.localeCompare(a.registeredAt))
    .map((t) => ({
      sampleNo: t.sampleNo,
      patientId: patient.id,
      patientName: maskName(who.name),
      kindName: t.kindName,
      status: t.status as NucleicResult['status'],
      statusText: TEST_STATUS_TEXT[t.status],
      result: t.result,
      sampledAt: t.sampledAt,
      reportedAt: t.reportedAt,
      registeredAt: t.registeredAt,
    }))
}

// ---- the payment core's callbacks -------------------------------------------------------------------------------------

async function hisOf(tx: Tx, order: OrderRow) {
  const [row] = await tx
    .select({ r: nucleicOrders, hospitalCode: hospitals.code })
    .from(nucleicOrders)
    .innerJoin(hospitals, eq(hospitals.id, nucleicOrders.hospitalId))
    .where(and(eq(nucleicOrders.id, order.businessId), eq(nucleicOrders.orderId, order.id)))
  if (!row) throw badInput('核酸检测记录不存在，费用将原路退回')
  return { his: hisOfKind(row.r.hisKind), hospitalCode: row.hospitalCode }
}

/** What the payment core calls for a test (business 'nucleic'): registered for sampling when paid, let go when closed. */
export const nucleicOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const { his, hospitalCode } = await hisOf(tx, order)
    // a refusal (cancelled meanwhile, a price that changed) sends the money back: the core refunds an undelivered business
    await his.nucleicSettle(tx, { hospitalCode, orderNo: order.orderNo, amountFen: order.amountFen, paidAt: order.paidAt ?? new Date(), channel: order.channel!, tradeNo: order.tradeNo ?? '' })
  },
  async onClosed(tx, order) {
    const { his, hospitalCode } = await hisOf(tx, order)
    await his.nucleicCancel(tx, { hospitalCode, orderNo: order.orderNo })
  },
}
