/**
 * The payment core every paid flow uses (registration now; outpatient bills, recharges, consultations, gifts and
 * pharmacy orders later). Amounts are integers in fen; the app shows them as yuan with two decimals.
 *
 * Paying: the business call creates an order (with an idempotency key) and `POST /dld-pay/pay` answers how to pay it:
 * a page to open (the sandbox cashier, Alipay's cashier) or the parameters of WeChat's JSAPI payment. The provider
 * tells the server the outcome with a signed notification (`POST /dld-pay/notify/{channel}`); the app, back from the
 * cashier, asks `GET /dld-pay/order/{orderNo}`, which also asks the provider when no notification has come yet.
 */

export type OrderStatus = 'created' | 'paying' | 'paid' | 'cancelled' | 'refunding' | 'refunded' | 'closed'
export type OrderBusiness = 'register' | 'outpatient' | 'recharge' | 'clinic_recharge' | 'inquiry' | 'gift' | 'pharmacy' | 'physical' | 'nucleic'
export type PayChannel = 'sandbox' | 'wechat' | 'alipay' | 'account'
/** The channels with a cashier of their own; `account` (the patient's hospital account) is paid without one. */
export type CashierChannel = Exclude<PayChannel, 'account'>

/** An order as its payer sees it. */
export interface PayOrder {
  orderNo: string
  business: OrderBusiness
  subject: string
  amountFen: number
  /** The part health insurance settles (0 without insurance). */
  insuranceFen: number
  /** What the patient pays through the channel: amountFen - insuranceFen. */
  selfPayFen: number
  status: OrderStatus
  channel: PayChannel | null
  /** ISO time after which an unpaid order closes. */
  expiresAt: string
  paidAt: string | null
  /** Refunded so far, in fen. */
  refundedFen: number
  createdAt: string
}

export interface PayInput {
  orderNo: string
  /** Where the cashier sends the browser back to (a path of this app under /h5/). */
  returnUrl: string
}

/**
 * How to pay: open `url`; call WeChat's `chooseWXPay` / `requestPayment` with `params`; or, inside the Alipay
 * mini-program, `my.tradePay` with the trade Alipay created for the signed-in buyer (`tradeNo`).
 */
export type PayAction =
  | { kind: 'redirect'; channel: CashierChannel; url: string }
  | { kind: 'tradePay'; channel: 'alipay'; tradeNo: string }
  | { kind: 'jsapi'; channel: 'wechat'; params: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string } }
