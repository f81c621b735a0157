/**
 * Pharmacy and shop orders (types/api/pharmacy.ts): placed from a prescription or the cart, stock taken and the
 * payment core's order (business 'pharmacy') made in one transaction; paid, cancelled (refunded when paid), closed
 * by time (stock back exactly once), and the refund a patient asks for after shipping.
 */
import { randomInt } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type {
  OrderStep,
  Page,
  PharmacyDelivery,
  PharmacyOrder,
  PharmacyOrderSource,
  PharmacyOrderStatus,
  PharmacyOrderSummary,
  PickupCode,
  PlaceOrderInput,
} from '../../../../types/api/pharmacy'
import type { PayOrder } from '../../../../types/api/payment'
import { maskMobile, maskName } from '@/utils/mask'
import { uniqueViolation, type Db, type Tx } from '../../db'
import { open, type FieldCipher } from '../../crypto'
import { drugs, orders, patients, pharmacyOrderEvents, pharmacyOrderLines, pharmacyOrders, pharmacyStores, storeStock } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import {
  DUPLICATE_REQUEST,
  answerSameKeyRace,
  answerWithMadeMeanwhile,
  cancelOrder,
  createOrder,
  refreshOrder,
  refundedFenByOrder,
  startRefund,
  submitRefund,
  toPayOrder,
  type OrderHandlers,
  type OrderRow,
} from '../payment'
import { newBusinessNo } from '../payment/orders'
import { requireOwnPatient } from '../patient'
import { hasOrderablePrescriptionFor, orderablePrescriptionForOrder } from '../prescription/order'
import { OUT_OF_RANGE, deliversTo, expressFeeOf, requireOwnAddressRow, requireStore, toStoreBrief, type StoreRow } from './stores'

export type PharmacyOrderRow = typeof pharmacyOrders.$inferSelect

/** How long an unpaid pharmacy order keeps its stock before it closes. */
export const PAY_MINUTES = 30
export const MAX_ORDER_PAGE = 50
export const OUT_OF_STOCK = '库存不足'
export const NO_PICKUP = '该药房不支持到店自取'
export const NO_DELIVERY = '该药房不支持快递配送'
export const RX_NEEDS_PRESCRIPTION = '处方药需凭医生开具的有效处方购买'
export const OFF_SHELF = '药品已下架或不存在'
export const ORDER_GONE = '药品订单已失效，费用将原路退回'

export const STATUS_TEXT: Record<PharmacyOrderStatus, string> = {
  unpaid: '待支付',
  paid: '待发货',
  shipped: '已发货',
  ready: '待取药',
  completed: '已完成',
  refundRequested: '退款申请中',
  refunded: '已退款',
  cancelled: '已取消',
  closed: '已关闭',
}

/** What the patient and the console call a status: a paid pickup order waits to be prepared, not shipped. */
const statusText = (status: PharmacyOrderStatus, delivery: PharmacyDelivery) => (status === 'paid' && delivery === 'pickup' ? '待备药' : STATUS_TEXT[status])

interface Line {
  drugId: number
  drugName: string
  spec: string
  unit: string
  quantity: number
  priceFen: number
}

interface AddressSnapshot {
  name: string
  mobile: string
  regionText: string
  detail: string
}

export async function addEvent(tx: Tx, pharmacyOrderId: number, status: PharmacyOrderStatus, note: string, at = new Date()) {
  await tx.insert(pharmacyOrderEvents).values({ pharmacyOrderId, status, note, createdAt: at })
}

/** Gives back the stock of an order, once: stockReturnedAt is set by the same conditional update that moves it. */
async function returnStock(tx: Tx, order: Pick<PharmacyOrderRow, 'id' | 'storeId'>, now: Date): Promise<void> {
  const [marked] = await tx
    .update(pharmacyOrders)
    .set({ stockReturnedAt: now })
    .where(and(eq(pharmacyOrders.id, order.id), isNull(pharmacyOrders.stockReturnedAt)))
    .returning({ id: pharmacyOrders.id })
  if (!marked) return
  const lines = await tx.select().from(pharmacyOrderLines).where(eq(pharmacyOrderLines.pharmacyOrderId, order.id)).orderBy(asc(pharmacyOrderLines.drugId))
  for (const l of lines) {
    await tx
      .update(storeStock)
      .set({ quantity: sql`${storeStock.quantity} + ${l.quantity}` })
      .where(and(eq(storeStock.storeId, order.storeId), eq(storeStock.drugId, l.drugId)))
  }
}

/** Takes the stock of every line, all or nothing: one conditional update each, the first short one refuses the order. */
async function takeStock(tx: Tx, storeId: number, lines: Line[]): Promise<void> {
  // a fixed order of rows, so two orders of the same drugs never wait on each other
  for (const l of [...lines].sort((a, b) => a.drugId - b.drugId)) {
    const [taken] = await tx
      .update(storeStock)
      .set({ quantity: sql`${storeStock.quantity} - ${l.quantity}` })
      .where(and(eq(storeStock.storeId, storeId), eq(storeStock.drugId, l.drugId), sql`${storeStock.quantity} >= ${l.quantity}`))
      .returning({ id: storeStock.id })
    if (!taken) throw badInput(`${l.drugName}${OUT_OF_STOCK}`)
  }
}

// ---- reading ----------------------------------------------------------------------------------------------------------

/** The caller's order; someone else's answers like a missing one (2999). */
async function requireOwnOrder(db: Db | Tx, userId: number, id: number): Promise<PharmacyOrderRow> {
  const [row] = await db
    .select()
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.id, id), eq(pharmacyOrders.userId, userId)))
  if (!row) throw forbidden()
  return row
}

async function drugNamesOf(db: Db | Tx, ids: number[]): Promise<Map<number, string[]>> {
  const names = new Map<number, string[]>()
  if (!ids.length) return names
  const rows = await db
    .select({ orderId: pharmacyOrderLines.pharmacyOrderId, name: pharmacyOrderLines.drugName })
    .from(pharmacyOrderLines)
    .where(inArray(pharmacyOrderLines.pharmacyOrderId, ids))
    .orderBy(asc(pharmacyOrderLines.id))
  for (const r of rows) names.set(r.orderId, [...(names.get(r.orderId) ?? []), r.name])
  return names
}

function toSummary(o: PharmacyOrderRow, storeName: string, drugNames: string[]): PharmacyOrderSummary {
  return {
    id: o.id,
    orderCode: o.orderCode,
    source: o.source,
    status: o.status,
    statusText: statusText(o.status, o.delivery),
    storeName,
    drugNames,
    totalFen: o.totalFen,
    createdAt: o.createdAt.toISOString(),
  }
}

/**
 * The whole order as the patient's order page shows it, the receiver masked; the pharmacy console (`forPharmacy`) sees
 * the receiver whole, since it ships to them.
 */
export async function orderView(db: Db | Tx, cipher: FieldCipher, id: number, forPharmacy = false): Promise<PharmacyOrder> {
  const [row] = await db
    .select({ o: pharmacyOrders, store: pharmacyStores, pay: orders, patientNameEnc: patients.nameEnc })
    .from(pharmacyOrders)
    .innerJoin(pharmacyStores, eq(pharmacyStores.id, pharmacyOrders.storeId))
    .leftJoin(orders, eq(orders.id, pharmacyOrders.orderId))
    .leftJoin(patients, eq(patients.id, pharmacyOrders.patientId))
    .where(eq(pharmacyOrders.id, id))
  if (!row) throw forbidden()
  const { o, store, pay } = row
  const [lines, events, refunded] = await Promise.all([
    db.select().from(pharmacyOrderLines).where(eq(pharmacyOrderLines.pharmacyOrderId, id)).orderBy(asc(pharmacyOrderLines.id)),
    db.select().from(pharmacyOrderEvents).where(eq(pharmacyOrderEvents.pharmacyOrderId, id)).orderBy(asc(pharmacyOrderEvents.id)),
    refundedFenByOrder(db, pay ? [pay.id] : []),
  ])
  const address = o.addressEnc ? (JSON.parse(cipher.decrypt(o.addressEnc)) as AddressSnapshot) : null
  const patientName = open(cipher, row.patientNameEnc ?? null)
  const steps: OrderStep[] = events.map((e) => ({ status: e.status, statusText: statusText(e.status, o.delivery), note: e.note, at: e.createdAt.toISOString() }))
  const payOpen = !!pay && (pay.status === 'created' || pay.status === 'paying') && pay.expiresAt.getTime() > Date.now()
  return {
    ...toSummary(o, store.name, lines.map((l) => l.drugName)),
    prescriptionId: o.prescriptionId,
    patientName: patientName ? maskName(patientName) : null,
    store: toStoreBrief(store),
    delivery: o.delivery,
    address: address && !forPharmacy ? { ...address, name: maskName(address.name), mobile: maskMobile(address.mobile) } : address,
    lines: lines.map((l) => ({
      drugId: l.drugId,
      drugName: l.drugName,
      drugSpec: l.spec,
      unit: l.unit,
      quantity: l.quantity,
      priceFen: l.priceFen,
      amountFen: l.priceFen * l.quantity,
    })),
    drugFeeFen: o.drugFeeFen,
    diagnosisFeeFen: o.diagnosisFeeFen,
    expressFeeFen: o.expressFeeFen,
    carrier: o.carrier,
    trackingNo: o.trackingNo,
    refundReason: o.refundReason,
    payOrder: pay ? toPayOrder(pay, refunded.get(pay.id) ?? 0) : null,
    steps,
    canPay: o.status === 'unpaid' && payOpen,
    canCancel: o.status === 'unpaid' || o.status === 'paid',
    canRefund: o.status === 'shipped' || o.status === 'ready',
    canCancelRefund: o.status === 'refundRequested',
  }
}

/** GET order/detail/{id}. */
export async function orderDetail(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<PharmacyOrder> {
  await requireOwnOrder(db, userId, id)
  return orderView(db, cipher, id)
}

/** Summaries of orders, newest first, under `where`. */
async function summaries(db: Db, where: ReturnType<typeof and>, page: number, size: number): Promise<Page<PharmacyOrderSummary>> {
  const [rows, [total]] = await Promise.all([
    db
      .select({ o: pharmacyOrders, storeName: pharmacyStores.name })
      .from(pharmacyOrders)
      .innerJoin(pharmacyStores, eq(pharmacyStores.id, pharmacyOrders.storeId))
      .where(where)
      .orderBy(desc(pharmacyOrders.createdAt), desc(pharmacyOrders.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(pharmacyOrders).where(where),
  ])
  const names = await drugNamesOf(
    db,
    rows.map((r) => r.o.id),
  )
  return { records: rows.map((r) => toSummary(r.o, r.storeName, names.get(r.o.id) ?? [])), total: total?.n ?? 0, page, size }
}

/** GET order/orderList. */
export async function orderList(
  db: Db,
  userId: number,
  q: { source?: PharmacyOrderSource; status?: PharmacyOrderStatus; page: number; size: number },
): Promise<Page<PharmacyOrderSummary>> {
  const where = and(
    eq(pharmacyOrders.userId, userId),
    q.source ? eq(pharmacyOrders.source, q.source) : undefined,
    q.status ? eq(pharmacyOrders.status, q.status) : undefined,
  )
  return summaries(db, where, q.page, Math.min(q.size, MAX_ORDER_PAGE))
}

// ---- placing ----------------------------------------------------------------------------------------------------------

/** The same attempt again (same key): its order, or 409 when the key was used for another one. */
async function byKey(db: Db, userId: number, input: PlaceOrderInput): Promise<PharmacyOrderRow | null> {
  const [row] = await db
    .select()
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.userId, userId), eq(pharmacyOrders.idempotencyKey, input.idempotencyKey)))
  if (!row) return null
  const same = row.source === input.source && row.storeId === input.storeId && row.delivery === input.delivery && (input.prescriptionId === undefined || row.prescriptionId === input.prescriptionId)
  if (!same) throw conflict(DUPLICATE_REQUEST)
  return row
}

/** The cart's lines: one per drug, on the shelf of the store's hospital; rx drugs only against the patient's prescription. */
async function cartLines(tx: Tx, userId: number, store: StoreRow, input: PlaceOrderInput, now: Date): Promise<{ lines: Line[]; patientId: number | null }> {
  const wanted = new Map<number, number>()
  for (const l of input.lines ?? []) wanted.set(l.drugId, (wanted.get(l.drugId) ?? 0) + l.quantity)
  if (!wanted.size) throw badInput('请选择要购买的药品')
  const rows = await tx
    .select()
    .from(drugs)
    .where(and(inArray(drugs.id, [...wanted.keys()]), eq(drugs.hospitalId, store.hospitalId), eq(drugs.onShelf, true)))
  if (rows.length !== wanted.size) throw badInput(OFF_SHELF)
  const rx = rows.filter((d) => d.rx)
  let patientId: number | null = null
  if (input.patientId !== undefined) patientId = (await requireOwnPatient(tx, userId, input.patientId)).id
  if (rx.length) {
    if (patientId === null) throw badInput(RX_NEEDS_PRESCRIPTION)
    for (const d of rx) {
      if (!(await hasOrderablePrescriptionFor(tx, { userId, patientId, drugId: d.id, quantity: wanted.get(d.id)! }, now))) throw badInput(`${d.name}：${RX_NEEDS_PRESCRIPTION}`)
    }
  }
  return {
    lines: rows.map((d) => ({ drugId: d.id, drugName: d.name, spec: d.spec, unit: d.unit, quantity: wanted.get(d.id)!, priceFen: d.priceFen })),
    patientId,
  }
}

/**
 * POST order/place (and planOrder, `repeat`). Delivery is checked first (an address of the caller in a city the store
 * delivers to; pickup where the store offers it); then in ONE transaction: the prescription locked (or the cart
 * checked), the stock taken, the order with its lines and first step, and the payment core's order. The same key
 * answers the same order.
 */
export async function placeOrder(db: Db, cipher: FieldCipher, userId: number, input: PlaceOrderInput, now: Date, repeat = false): Promise<PharmacyOrder> {
  const again = await byKey(db, userId, input)
  if (again) return orderView(db, cipher, again.id)
  if (input.source === 'prescription' && input.prescriptionId === undefined) throw badInput('请选择处方')
  const store = await requireStore(db, input.storeId)
  let address: AddressSnapshot | null = null
  let cityCode: number | null = null
  if (input.delivery === 'express') {
    if (!store.delivery) throw badInput(NO_DELIVERY)
    if (input.addressId === undefined) throw badInput('请选择收货地址')
    const row = await requireOwnAddressRow(db, userId, input.addressId)
    if (!(await deliversTo(db, store.id, row.cityCode))) throw badInput(OUT_OF_RANGE)
    address = { name: cipher.decrypt(row.nameEnc), mobile: cipher.decrypt(row.mobileEnc), regionText: row.regionText, detail: cipher.decrypt(row.detailEnc) }
    cityCode = row.cityCode
  } else if (!store.pickup) throw badInput(NO_PICKUP)

  const madeMeanwhile = answerWithMadeMeanwhile(async () => {
    const made = await byKey(db, userId, input)
    return made ? orderView(db, cipher, made.id) : null
  })
  let id: number
  try {
    id = await db.transaction(async (tx) => {
      let lines: Line[]
      let patientId: number | null
      let diagnosisFeeFen = 0
      let prescriptionId: number | null = null
      if (input.source === 'prescription') {
        const pres = await orderablePrescriptionForOrder(tx, { userId, prescriptionId: input.prescriptionId!, repeat }, now)
        if (pres.hospitalId !== store.hospitalId) throw badInput('该药房不能配这张处方')
        lines = pres.lines
        patientId = pres.patientId
        prescriptionId = pres.id
        // a repeat order pays for the medicines only: the consultation was paid with the first
        diagnosisFeeFen = repeat ? 0 : pres.diagnosisFeeFen
      } else {
        ;({ lines, patientId } = await cartLines(tx, userId, store, input, now))
      }
      const drugFeeFen = lines.reduce((sum, l) => sum + l.priceFen * l.quantity, 0)
      const expressFeeFen = input.delivery === 'express' ? expressFeeOf(store, drugFeeFen) : 0
      const totalFen = drugFeeFen + diagnosisFeeFen + expressFeeFen
      const [row] = await tx
        .insert(pharmacyOrders)
        .values({
          orderCode: newBusinessNo('D', now),
          userId,
          hospitalId: store.hospitalId,
          patientId,
          prescriptionId,
          source: input.source,
          storeId: store.id,
          delivery: input.delivery,
          addressEnc: address ? cipher.encrypt(JSON.stringify(address)) : null,
          cityCode,
          drugFeeFen,
          diagnosisFeeFen,
          expressFeeFen,
          totalFen,
          status: 'unpaid',
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      await tx.insert(pharmacyOrderLines).values(lines.map((l) => ({ pharmacyOrderId: row!.id, ...l })))
      await addEvent(tx, row!.id, 'unpaid', repeat ? '续方订单已提交' : '订单已提交', now)
      const order = await createOrder(tx, {
        userId,
        hospitalId: store.hospitalId,
        business: 'pharmacy',
        businessId: row!.id,
        subject: `购药·${lines[0]!.drugName}${lines.length > 1 ? `等${lines.length}种` : ''}`.slice(0, 64),
        amountFen: totalFen,
        // closing the order closes the pharmacy order and gives the stock back (onClosed)
        expiresAt: new Date(now.getTime() + PAY_MINUTES * 60_000),
        idempotencyKey: `pharmacy:${input.idempotencyKey}`,
      })
      await tx.update(pharmacyOrders).set({ orderId: order.id }).where(eq(pharmacyOrders.id, row!.id))
      // last: a medicine's stock row is locked by one order at a time, so it is held only until the commit
      await takeStock(tx, store.id, lines)
      return row!.id
    })
  } catch (err) {
    if (uniqueViolation(err) === 'pharmacy_orders_live_prescription_key') throw badInput('该处方已下单')
    return answerSameKeyRace(err, 'pharmacy_orders_idempotency_key', DUPLICATE_REQUEST, madeMeanwhile)
  }
  return orderView(db, cipher, id)
}

// ---- paying, cancelling, refunds --------------------------------------------------------------------------------------

async function payOrderRow(db: Db | Tx, o: PharmacyOrderRow): Promise<OrderRow> {
  const [pay] = o.orderId ? await db.select().from(orders).where(eq(orders.id, o.orderId)) : []
  if (!pay) throw badInput('订单不存在')
  return pay
}

/** POST order/unifiedOrder/{id}: the payment core's order, which the page pays through /dld-pay/pay. */
export async function unifiedOrder(db: Db, userId: number, id: number): Promise<PayOrder> {
  const o = await requireOwnOrder(db, userId, id)
  if (o.status !== 'unpaid') throw badInput('订单当前状态不能支付')
  const pay = await payOrderRow(db, o)
  return toPayOrder(pay, 0)
}

/** GET order/checkOrderAgain/{id}: the payment state asked again of the provider, then the order. */
export async function checkOrderAgain(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, id: number): Promise<PharmacyOrder> {
  const o = await requireOwnOrder(db, userId, id)
  const pay = await payOrderRow(db, o)
  await refreshOrder(db, providers, userId, pay.orderNo)
  return orderView(db, cipher, id)
}

/**
 * POST order/cancel/{id}. Unpaid: its payment order is cancelled, which cancels it and gives the stock back
 * (onClosed). Paid and not shipped: cancelled, the stock back and the whole amount refunded. The payment order is
 * always locked first, as the payment core does, so a cancel racing the expiry or a payment waits instead of deadlocking.
 */
export async function cancelPharmacyOrder(db: Db, cipher: FieldCipher, providers: PayProvidersOf, userId: number, id: number, now: Date): Promise<PharmacyOrder> {
  const o = await requireOwnOrder(db, userId, id)
  if (o.status !== 'unpaid' && o.status !== 'paid') throw badInput('订单当前状态不能取消')
  const refund = await db.transaction(async (tx) => {
    const pay = await payOrderRow(tx, o)
    if (pay.status === 'created' || pay.status === 'paying') {
      await cancelOrder(tx, pay.id, '患者取消购药订单')
      return null
    }
    if (pay.status === 'cancelled' || pay.status === 'closed') return null
    const pending = await startRefund(tx, pay.id, '患者取消购药订单')
    const [cancelled] = await tx
      .update(pharmacyOrders)
      .set({ status: 'cancelled', cancelledAt: now })
      .where(and(eq(pharmacyOrders.id, o.id), eq(pharmacyOrders.status, 'paid')))
      .returning()
    if (!cancelled) throw conflict('订单已发货，请申请退款')
    await addEvent(tx, o.id, 'cancelled', '患者取消订单，费用原路退回', now)
    await returnStock(tx, cancelled, now)
    return pending
  })
  if (refund) await submitRefund(db, providers, refund)
  return orderView(db, cipher, id)
}

/** POST order/refund/{id}: a shipped or ready order's refund request, for the pharmacy to accept. */
export async function requestRefund(db: Db, cipher: FieldCipher, userId: number, id: number, reason: string, now: Date): Promise<PharmacyOrder> {
  await requireOwnOrder(db, userId, id)
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ status: 'refundRequested', refundReason: reason })
      .where(and(eq(pharmacyOrders.id, id), inArray(pharmacyOrders.status, ['shipped', 'ready'])))
      .returning()
    if (!row) throw badInput('订单当前状态不能申请退款')
    await addEvent(tx, id, 'refundRequested', reason, now)
  })
  return orderView(db, cipher, id)
}

/** POST order/cancelRefund/{id}: the request withdrawn, back to shipped (delivery) or ready (pickup). */
export async function cancelRefund(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<PharmacyOrder> {
  const o = await requireOwnOrder(db, userId, id)
  const back = o.delivery === 'express' ? 'shipped' : 'ready'
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ status: back, refundReason: null })
      .where(and(eq(pharmacyOrders.id, id), eq(pharmacyOrders.status, 'refundRequested')))
      .returning()
    if (!row) throw badInput('订单当前没有退款申请')
    await addEvent(tx, id, back, '患者撤销退款申请', now)
  })
  return orderView(db, cipher, id)
}

/** POST storeQrCode/getInfo: a paid pickup order's code, shown as a QR code at the store. */
export async function pickupCode(db: Db, userId: number, orderId: number): Promise<PickupCode> {
  const o = await requireOwnOrder(db, userId, orderId)
  if (o.delivery !== 'pickup' || !o.pickupCode || (o.status !== 'paid' && o.status !== 'ready')) throw badInput('该订单暂无取药码')
  const store = await requireStore(db, o.storeId)
  return { orderId: o.id, pickupCode: o.pickupCode, qrText: `pickup:${o.orderCode}:${o.pickupCode}`, storeName: store.name }
}

const newPickupCode = () => String(randomInt(0, 100_000_000)).padStart(8, '0')

/** What the payment core calls when a pharmacy order's payment order changes (inside its transaction). */
export const pharmacyOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const paidAt = order.paidAt ?? new Date()
    const [current] = await tx.select({ delivery: pharmacyOrders.delivery }).from(pharmacyOrders).where(eq(pharmacyOrders.id, order.businessId))
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ status: 'paid', paidAt, pickupCode: current?.delivery === 'pickup' ? newPickupCode() : null })
      .where(and(eq(pharmacyOrders.id, order.businessId), eq(pharmacyOrders.orderId, order.id), eq(pharmacyOrders.status, 'unpaid')))
      .returning()
    // the order is gone: the payment core refunds on a business error
    if (!row) throw badInput(ORDER_GONE)
    await addEvent(tx, row.id, 'paid', row.delivery === 'pickup' ? '支付成功，药房备药中' : '支付成功，等待药房发货', paidAt)
  },
  async onClosed(tx, order) {
    const now = new Date()
    const to = order.status === 'cancelled' ? 'cancelled' : 'closed'
    const [row] = await tx
      .update(pharmacyOrders)
      .set({ status: to, cancelledAt: now })
      .where(and(eq(pharmacyOrders.id, order.businessId), eq(pharmacyOrders.orderId, order.id), eq(pharmacyOrders.status, 'unpaid')))
      .returning()
    if (!row) return
    await addEvent(tx, row.id, to, to === 'cancelled' ? '患者取消订单' : '超时未支付，订单关闭', now)
    await returnStock(tx, row, now)
  },
}
