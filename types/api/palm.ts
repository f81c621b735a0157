/**
 * Outpatient payment (门诊缴费), `/dld-palm/api` (spec §2 Palm pages Payment, Order pages payment, §7 Palm service
 * Payment): the chosen patient's unpaid bills from the hospital information system (HIS), grouped by visit and
 * department; paying one or several of them as one order of the payment core; the paid records, where to go next
 * (pharmacy window, laboratory, examination room) with the queue number; refunds; and the price catalogue of the
 * price-disclosure page (价格公示). Amounts are integers in fen. Patient names are masked (spec §9).
 *
 * Bills belong to the HIS (server/src/plugins/providers/his.ts): a doctor's orders for one place become one bill
 * (a prescription for the pharmacy, a test request for the laboratory ...).
 */
import type { OrderStatus, PayAction, PayOrder } from './payment'
import type { Page } from './hospital'

/** drug 西药/中成药, herbal 中药饮片, lab 检验, exam 检查, treatment 治疗, material 材料, service 诊疗服务. */
export type BillCategory = 'drug' | 'herbal' | 'lab' | 'exam' | 'treatment' | 'material' | 'service'

/** Where a paid bill sends the patient: a pharmacy window, the laboratory, an examination room, the treatment room. */
export type QueueKind = 'pharmacy' | 'lab' | 'exam' | 'treatment'

/** A bill at the HIS: unpaid, paid, refunded (退费), or cancelled by the doctor (作废). */
export type BillStatus = 'unpaid' | 'paid' | 'refunded' | 'cancelled'

/** One line of a bill (`POST /payment/unpaid/detail`, `GET /payment/detail`). */
export interface BillItem {
  name: string
  /** 规格, e.g. 0.25g×24粒. */
  spec: string
  unit: string
  quantity: number
  unitPriceFen: number
  amountFen: number
}

/** `POST /payment/unpaid/list` and `/payment/unpaid/detail`: the patient whose bills, at which hospital. */
export interface UnpaidBillsInput {
  hospitalCode: string
  patientId: number
}

/** An unpaid bill in the list. */
export interface UnpaidBill {
  billNo: string
  /** 西药处方, 检验申请, CT检查 ... */
  title: string
  category: BillCategory
  /** Where it is dispensed or performed ('' for a service). */
  place: string
  amountFen: number
  /** ISO time the doctor ordered it. */
  orderedAt: string
  /** In an unpaid order already (another tab, or one the patient left): pay that one or cancel it first. */
  paying: boolean
  /** That order's payment record, when it is the caller's own. */
  payingId: number | null
}

/** `POST /payment/unpaid/list`: the unpaid bills of one visit in one department (the merge pages pay several at once). */
export interface UnpaidVisit {
  visitNo: string
  /** YYYY-MM-DD */
  visitDate: string
  deptName: string
  doctorName: string
  /** Sum of the visit's bills. */
  amountFen: number
  bills: UnpaidBill[]
}

/** `POST /payment/unpaid/detail` input. */
export interface UnpaidBillDetailInput extends UnpaidBillsInput {
  billNo: string
}

/** `POST /payment/unpaid/detail`: one of the patient's bills with its items. */
export interface BillDetail {
  billNo: string
  visitNo: string
  visitDate: string
  deptName: string
  doctorName: string
  title: string
  category: BillCategory
  place: string
  status: BillStatus
  amountFen: number
  orderedAt: string
  items: BillItem[]
}

/**
 * `POST /payment/init`: pay one or several unpaid bills of one patient as one order. The same idempotencyKey answers
 * the same payment; the same bills still waiting in an unpaid order of the caller answer that order.
 */
export interface BillPayInput {
  hospitalCode: string
  patientId: number
  billNos: string[]
  /** Where the cashier sends the browser back to (a page of this app under /h5/). */
  returnUrl: string
  idempotencyKey: string
  /** Spec §4: 0 from the palm pages (default), 2 from /palm/payment/waitPay?source=scanCode. */
  sourceType?: 0 | 2
  /**
   * `cashier` (default): WeChat Pay, Alipay or the sandbox cashier; `account`: from the patient's outpatient account
   * (就诊卡余额) at once, no cashier (refused with the balance when it is short); `insurance` (医保支付, spec §6 chsList
   * hospitals only): the order is made and nothing goes to a channel (action null): the chsPayment page uploads the
   * bills for the patient's insurance authorisation and the cash part is paid through `payment/yibao/init`.
   */
  channel?: 'cashier' | 'account' | 'insurance'
}

/** A bill of a payment record. */
export interface PaidBill {
  billNo: string
  title: string
  category: BillCategory
  deptName: string
  doctorName: string
  visitNo: string
  visitDate: string
  place: string
  amountFen: number
}

/**
 * A payment record (`GET /payment/list`, `/payment/paid/list`): its status is its order's. statusText: 待支付, 已支付,
 * 退款中, 已退款, 已取消, 已关闭.
 */
export interface BillPayment {
  id: number
  orderNo: string
  hospitalCode: string
  hospitalName: string
  patientId: number
  patientName: string
  status: OrderStatus
  statusText: string
  amountFen: number
  /** The departments of its bills, joined with 、. */
  deptNames: string
  bills: PaidBill[]
  sourceType: number
  /** Unpaid and not run out: may be paid (again, `POST /payment/init` with its bills) or cancelled. */
  payable: boolean
  order: PayOrder
  createdAt: string
  paidAt: string | null
}

/** `GET /payment/detail?id=`: a record with each bill's items and whether it was dispensed or performed. */
export interface BillPaymentDetail extends Omit<BillPayment, 'bills'> {
  /** Paid and nothing of it dispensed or performed yet: may be refunded, all of it (`POST /payment/fund/{id}`). */
  refundable: boolean
  bills: (PaidBill & { items: BillItem[]; performed: boolean })[]
}

/** `POST /payment/init`: the record, and how to pay it (null when it is no longer payable: paid, closed). */
export interface BillPayStart {
  record: BillPayment
  action: PayAction | null
}

/** `GET /payment/list?hospitalCode=&patientId=&status=&page=&size=` and `GET /payment/paid/list?...` (paid ones only). */
export interface BillPaymentListQuery {
  hospitalCode?: string
  patientId?: number
  status?: 'unpaid' | 'paid' | 'refunded' | 'closed'
  page?: number
  size?: number
}

export type BillPaymentPage = Page<BillPayment>

/** Where to go next after paying, with the number (`GET /payment/wait/queue?id=`). */
export interface QueueTicket {
  kind: QueueKind
  place: string
  window: string
  /** e.g. 门诊楼1楼东侧 */
  location: string
  /** e.g. Y012 */
  ticketNo: string
  /** Numbers still waiting before this one (0 once called). */
  ahead: number
  status: 'waiting' | 'called' | 'done' | 'cancelled'
  /** 候诊中, 请到窗口, 已完成, 已取消 */
  statusText: string
  /** e.g. 请到门诊楼1楼东侧门诊西药房3号窗口取药 */
  guide: string
  billNos: string[]
}

export interface WaitQueue {
  id: number
  orderNo: string
  status: OrderStatus
  statusText: string
  /** Empty until the payment is settled, and for bills that need no visit anywhere. */
  tickets: QueueTicket[]
}

/**
 * `GET /price/list?hospitalCode=&keyword=&category=&page=&size=` (the price-disclosure page, /palm/priceDisclosure/index;
 * the spec names no call for it): the hospital's price catalogue.
 */
export interface PriceItem {
  code: string
  name: string
  spec: string
  unit: string
  priceFen: number
  category: BillCategory
  /** 西药, 中成药, 中药饮片, 检验, 检查, 治疗, 材料, 诊疗服务 */
  categoryName: string
}

export type PriceItemPage = Page<PriceItem>


// ---- accounts and deposits (issue 17): 门诊预交金 and 住院预交金 -------------------------------------------------------

/** `GET /payment/clinic/balance?hospitalCode&patientId`: the patient's outpatient account (就诊卡余额), in fen. */
export interface AccountBalance {
  hospitalCode: string
  patientId: number
  /** Masked. */
  patientName: string
  balanceFen: number
}

/** `POST /payment/recharge` (outpatient account) input; `POST /recharge` (deposit) adds `admissionNo`. */
export interface RechargeInput {
  hospitalCode: string
  patientId: number
  amountFen: number
  /** Where the cashier sends the browser back to (a page of this app under /h5/). */
  returnUrl: string
  idempotencyKey: string
}

export interface InpatientRechargeInput extends RechargeInput {
  admissionNo: string
}

/** A top-up of the outpatient account (`kind` clinic) or of an admission's deposit (`kind` inpatient). */
export interface RechargeRecord {
  id: number
  kind: 'clinic' | 'inpatient'
  orderNo: string
  hospitalCode: string
  hospitalName: string
  patientId: number
  patientName: string
  /** The stay a deposit was paid into; null for the outpatient account. */
  admissionNo: string | null
  amountFen: number
  status: OrderStatus
  statusText: string
  /** Still waiting for the money: it may be paid (again) through `/dld-pay/pay`. */
  payable: boolean
  order: PayOrder
  createdAt: string
  paidAt: string | null
}

/** What `POST /payment/recharge` and `POST /recharge` answer: the record and how to pay it (null once paid or closed). */
export interface RechargeStart {
  record: RechargeRecord
  action: PayAction | null
}

/** An inpatient stay (`POST /recharge/inpatient`, `/recharge/balance`); null when the patient has none at the hospital. */
export interface InpatientView {
  hospitalCode: string
  patientId: number
  patientName: string
  admissionNo: string
  deptName: string
  ward: string
  bed: string
  doctorName: string
  admittedAt: string
  status: 'in' | 'discharged'
  dischargedAt: string | null
  /** Deposits paid (住院预交金). */
  depositFen: number
  /** Costs so far. */
  costFen: number
  /** Deposits - returned - costs; negative when owed. */
  balanceFen: number
  /** The total of each day with charges, oldest first. */
  days: { date: string; amountFen: number }[]
  /** Average of the last 3 days with charges. */
  averageDailyFen: number
  /** In hospital and the balance would not cover an average day. */
  lowDeposit: boolean
  /** The text to show when lowDeposit. */
  warning: string | null
  /** Discharge settlement (出院结算): the balance returned, or what is owed. Null while in hospital. */
  settlement: { returnedFen: number; owedFen: number } | null
}

/** `POST /recharge/daily` {hospitalCode, patientId, admissionNo, date}: one day's charges (每日清单). */
export interface DailyCharges {
  admissionNo: string
  date: string
  totalFen: number
  items: { code: string; name: string; spec: string; unit: string; category: BillCategory; quantity: number; unitPriceFen: number; amountFen: number }[]
}

/** `GET /recharge/amount?hospitalCode`: the deposit page's choices and the limits of one top-up, in fen. */
export interface RechargeAmounts {
  hospitalCode: string
  amountsFen: number[]
  minFen: number
  maxFen: number
}
