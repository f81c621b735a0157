/**
 * Outpatient bills (门诊缴费, issue 17): the chosen patient's unpaid bills from the HIS, paying them through the payment
 * core, the records, where to go next, refunds, the price catalogue, and the sandbox HIS's staff console.
 */
export { BILL_ORDER_MINUTES, BILLS_PAYING, MAX_BILLS_PER_ORDER, MAX_PAGE_SIZE, useHisForBills } from './his'
export { unpaidBillDetail, unpaidVisits } from './unpaid'
export { billPaymentDetail, listBillPayments, waitQueue } from './records'
export { DEFAULT_REFUND_REASON, cancelBillPayment, outpatientOrderHandlers, payBills, refundBillPayment } from './payment'
export { listPrices } from './prices'
export { consoleCallNext, consoleQueues, consoleVisits, issueConsoleOrders } from './console'
export { payReportBill, reportBillDetail } from './report'
