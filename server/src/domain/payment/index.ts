/**
 * The payment core every paid flow uses (registration now; outpatient bills, recharges, consultations, gifts and
 * pharmacy later): one order model (orders.ts), payment and refund settlement (settlement.ts), a double-entry
 * ledger (ledger.ts), and what the patient's calls do (checkout.ts).
 */
export {
  DUPLICATE_PAYMENT_REFUND_REASON,
  DUPLICATE_REQUEST,
  LATE_PAYMENT_REFUND_REASON,
  ORDER_EXPIRED,
  ORDER_TRANSITIONS,
  UNDELIVERED_REFUND_REASON,
  answerSameKeyRace,
  answerWithMadeMeanwhile,
  cancelOrder,
  closeExpiredOrders,
  createOrder,
  newOrderNo,
  newRefundNo,
  payableNow,
  refundedFenByOrder,
  refundedFenOf,
  refundText,
  registerBusiness,
  selfPayFen,
  toPayOrder,
  type NewOrder,
  type OrderHandlers,
  type OrderRow,
} from './orders'
export {
  NotificationRefused,
  OWED_REFUND_ATTEMPTS,
  applyNotification,
  applyPaid,
  applyRefundReport,
  payInternally,
  refundInternally,
  refundOrder,
  retryPendingRefunds,
  startRefund,
  submitRefund,
  type PaidOutcome,
  type RefundOutcome,
} from './settlement'
export { DUPLICATE_ACCOUNT, ledgerBalance, ledgerImbalance } from './ledger'
export * as insurance from './insurance'

export { isReturnUrl, refreshOrder, startPayment } from './checkout'
