/** What the patient's payment calls do: start a payment on a channel, and see where an order stands. */
import { eq } from 'drizzle-orm'
import type { OrderStatus, PayAction, PayInput, PayOrder } from '../../../../types/api/payment'
import type { Db, Tx } from '../../db'
import { identities, orders } from '../../db/schema'
import { hospitalById } from '../hospital'
import { badInput, forbidden } from '../../errors'
import type { AuthContext } from '../auth'
import { isAppPagePath } from '../patientRules'
import type { PaidReport, PayProvider } from '../../plugins/providers/pay'
import { ORDER_EXPIRED, UNPAID, closeIfExpired, lockOrder, refundedFenOf, selfPayFen, toPayOrder, transition, type OrderRow } from './orders'
import { applyPaid, providerOf } from './settlement'
import type { PayProvidersOf } from '../../plugins/providers'


/** `returnUrl` must be a page of this app (no open redirect): /h5/ followed by an app page path. */
export function isReturnUrl(url: string): boolean {
  return url.startsWith('/h5/') && isAppPagePath(url.slice(3))
}

/** The caller's own order, or 2999 that says nothing about whether the number exists. */
async function ownOrder(db: Tx, userId: number, orderNo: string): Promise<OrderRow> {
  const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
  if (!order || order.userId !== userId) throw forbidden()
  return order
}

/** The provider's id of the caller's identity (openid, Alipay user id). */
async function subjectOf(db: Db, caller: AuthContext): Promise<string | undefined> {
  const [identity] = await db.select({ subject: identities.subject }).from(identities).where(eq(identities.id, caller.identityId))
  return identity?.subject
}

/**
 * The channel for this caller: a WeChat identity under the merchant's app id pays with WeChat Pay JSAPI, an Alipay
 * identity with Alipay, anyone else with the sandbox when it is on. A server with a real channel configured keeps
 * the sandbox off (config), so nobody can "pay" with it there.
 */
async function chooseChannel(db: Db, providers: PayProvidersOf, caller: AuthContext): Promise<{ provider: PayProvider; openId?: string; alipayBuyer?: string }> {
  const pay = providers.pay
  // the payer's id at the provider (openid, Alipay user id) belongs to one app: an identity of the merchant's own app
  // pays in-app (WeChat JSAPI; Alipay's my.tradePay in the mini-program) with a trade made for that payer
  const merchant = caller.provider === 'wechat' ? pay.wechat : pay.alipay
  if (merchant && caller.appId === merchant.appId) {
    const payer = await subjectOf(db, caller)
    return caller.provider === 'wechat' ? { provider: merchant, openId: payer } : { provider: merchant, alipayBuyer: payer }
  }
  // from another Alipay app (the web app): the wap cashier
  if (caller.provider === 'alipay' && pay.alipay) return { provider: pay.alipay }
  if (pay.sandbox) return { provider: pay.sandbox }
  throw badInput('当前环境暂不支持在线支付，请到医院窗口缴费')
}

/**
 * Asks the provider about an order still paying and applies what it says exactly as a notification would (the
 * notification that follows is then a copy that changes nothing). An unreachable provider changes nothing.
 */
async function settleByQuery(db: Db, providers: PayProvidersOf, order: OrderRow): Promise<void> {
  if (order.status !== 'paying' || !order.channel) return
  const provider = providerOf(providers, order.channel)
  let report: PaidReport | null = null
  try {
    report = provider ? await provider.query(order.orderNo) : null
  } catch {
    return // its notification will still come
  }
  if (report) await applyPaid(db, providers, order.channel, { ...report, notifyId: `query:${report.tradeNo}`, payload: { source: 'query' } })
}

const NOT_PAYABLE: Partial<Record<OrderStatus, string>> = {
  paid: '订单已支付',
  refunding: '订单已支付',
  refunded: '订单已退款',
  cancelled: '订单已取消',
  closed: ORDER_EXPIRED,
}

/**
 * How to pay one of the caller's orders (what POST /dld-pay/pay answers); other flows (/register/pay) call it too.
 * `known`: the order as the caller's flow has just made or read it in this request (payment/init, /register/pay): not
 * read again, and still refused when it is not the caller's order of that number. It is locked and its status checked
 * again before it moves.
 */
export async function startPayment(db: Db, providers: PayProvidersOf, caller: AuthContext, input: PayInput, known?: OrderRow): Promise<PayAction> {
  if (!caller.userId) throw forbidden()
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  if (known && (known.userId !== caller.userId || known.orderNo !== input.orderNo)) throw forbidden()
  let order = known ?? (await ownOrder(db, caller.userId, input.orderNo))
  const now = new Date()
  if (UNPAID.includes(order.status) && order.expiresAt.getTime() <= now.getTime()) {
    // paid at the last moment? then it is paid, not closed (closing it would send the money back)
    await settleByQuery(db, providers, order)
    if (await closeIfExpired(db, order.id, now)) throw badInput(ORDER_EXPIRED)
    order = await ownOrder(db, caller.userId, input.orderNo)
  }
  if (!UNPAID.includes(order.status)) throw badInput(NOT_PAYABLE[order.status] ?? '订单状态不允许支付')
  const { provider, openId, alipayBuyer } = await chooseChannel(db, providers, caller)
  // one order, one channel: paying it again elsewhere could take the money twice
  if (order.channel && order.channel !== provider.channel) throw badInput('该订单已在其他支付方式发起支付，请在原支付方式完成支付')

  const paying = await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, { id: order.id })
    if (!locked || !UNPAID.includes(locked.status)) throw badInput(NOT_PAYABLE[locked?.status ?? 'closed'] ?? '订单状态不允许支付')
    if (locked.status === 'created') return transition(tx, locked, 'paying', `发起支付（${provider.channel}）`, { channel: provider.channel })
    return locked
  })
  const hospital = await hospitalById(db, paying.hospitalId)
  return provider.pay({
    orderNo: paying.orderNo,
    subject: paying.subject,
    hospitalName: hospital?.name ?? '',
    amountFen: selfPayFen(paying),
    expiresAt: paying.expiresAt,
    returnUrl: input.returnUrl,
    ...(openId ? { openId } : {}),
    ...(alipayBuyer ? { alipayBuyer } : {}),
  })
}

/** The caller's order, after asking the provider when it is still paying (what GET /dld-pay/order answers). */
export async function refreshOrder(db: Db, providers: PayProvidersOf, userId: number, orderNo: string): Promise<PayOrder> {
  let order = await ownOrder(db, userId, orderNo)
  await settleByQuery(db, providers, order)
  const now = new Date()
  const [fresh] = await db.select().from(orders).where(eq(orders.id, order.id))
  order = fresh ?? order
  if (UNPAID.includes(order.status) && order.expiresAt.getTime() <= now.getTime() && (await closeIfExpired(db, order.id, now))) {
    const [closed] = await db.select().from(orders).where(eq(orders.id, order.id))
    order = closed ?? order
  }
  return toPayOrder(order, await refundedFenOf(db, order.id))
}
