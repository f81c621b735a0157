import { get, post } from './request'
import type {
  BillDetail,
  BillPayInput,
  BillPayment,
  BillPaymentDetail,
  BillPaymentListQuery,
  BillPaymentPage,
  BillPayStart,
  BillCategory,
  PriceItemPage,
  UnpaidBillDetailInput,
  UnpaidBillsInput,
  UnpaidVisit,
  WaitQueue,
} from '../../types/api/palm'
import type { ReportBillDetail, ReportBillInput, ReportPayInput } from '../../types/api/reportBill'

/** Outpatient payment (门诊缴费), `/dld-palm/api` (spec §7 Palm service Payment) and the price catalogue (价格公示). */
const API = '/dld-palm/api'

/** A GET query without its unset fields: Taro's H5 request would send them as the text 'undefined'. */
const query = <T extends object>(q: T) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>

/** The patient's unpaid bills at the hospital, one group per visit and department. */
export const listUnpaidBills = (input: UnpaidBillsInput) => post<UnpaidVisit[]>(`${API}/payment/unpaid/list`, input, { noLoading: true })

/** One unpaid bill with its items. */
export const getUnpaidBill = (input: UnpaidBillDetailInput) => post<BillDetail>(`${API}/payment/unpaid/detail`, input, { noLoading: true })

/** Pays one or several bills as one order: the record and how to pay it (form encoding: the bill numbers joined with commas). */
export const payBills = (input: BillPayInput) => post<BillPayStart>(`${API}/payment/init`, { ...input, billNos: input.billNos.join(',') })

/** The bill of a test or an examination whose report waits for its payment (报告缴费). */
export const getReportBill = (input: ReportBillInput) => post<ReportBillDetail>(`${API}/payment/unpaid/report/detail`, input, { noLoading: true })

/** Pays one report's bill: the record and how to pay it, as payBills. */
export const payReportBill = (input: ReportPayInput) => post<BillPayStart>(`${API}/payment/report/init`, input)

/** Gives up an unpaid payment: its bills may be paid again. */
export const cancelBillPayment = (id: number) => post<BillPayment>(`${API}/payment/cancel`, { id })

/** Refunds a paid payment, all of it. */
export const refundBillPayment = (id: number, reason?: string) => post<BillPayment>(`${API}/payment/fund/${id}`, reason ? { reason } : undefined)

/** All the caller's payments (unpaid ones too), newest first. */
export const listBillPayments = (q: BillPaymentListQuery) => get<BillPaymentPage>(`${API}/payment/list`, query(q), { noLoading: true })

/** The paid records (paid, refunding, refunded), newest first. */
export const listPaidBillPayments = (q: BillPaymentListQuery) => get<BillPaymentPage>(`${API}/payment/paid/list`, query(q), { noLoading: true })

/** One payment with each bill's items and whether it may be refunded. */
export const getBillPayment = (id: number) => get<BillPaymentDetail>(`${API}/payment/detail`, { id }, { noLoading: true })

/** Where to go next after paying, with the queue number. */
export const getWaitQueue = (id: number) => get<WaitQueue>(`${API}/payment/wait/queue`, { id }, { noLoading: true })

/** The hospital's price catalogue, by keyword (name or code) and category. */
export const listPrices = (q: { hospitalCode: string; keyword?: string; category?: BillCategory; page: number; size: number }) =>
  get<PriceItemPage>(`${API}/price/list`, query(q), { noLoading: true, silent: true })
