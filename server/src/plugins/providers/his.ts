/**
 * The hospital information system (HIS, 医院信息系统): the hospital's own record of bills, queues and prices,
 * admissions with their daily charges, schedules with their places (号源), and the patients' hospital cards. Bills
 * are the doctors' orders the patient pays for; a bill is for one place (a prescription for the pharmacy, a test
 * request for the laboratory), and paying it puts the patient in that place's queue. The app never owns a bill: it asks the HIS, pays through the payment core, and tells
 * the HIS (settle) in the transaction that records the payment.
 *
 * Two implementations: the sandbox in our own database (hisSandbox.ts, a demo server's default, with a console for
 * staff on the workbench) and `httpHis`, the adapter for a hospital's real HIS through the contract below (config HIS).
 */
import { z } from 'zod'
import type { BillCategory, BillStatus, QueueKind } from '../../../../types/api/palm'
import type { PayChannel } from '../../../../types/api/payment'
import type { HisConfig } from '../../config'
import type { Tx } from '../../db'
import { hmacHex } from '../../crypto'
import { AppError, badInput } from '../../errors'
import { httpPhysical, type HisPhysicalExams } from './hisPhysical'

/**
 * Who the HIS is asked about: the hospital's card number (就诊卡号, hisMedCardNo) when the patient has one there, the
 * identity number when the patient has one, and the name. The HIS answers only that patient's bills.
 */
export interface HisPatient {
  cardNo: string | null
  idCard: string | null
  name: string
}

export interface HisBillItem {
  code: string
  name: string
  spec: string
  unit: string
  quantity: number
  unitPriceFen: number
  amountFen: number
}

export interface HisBill {
  billNo: string
  visitNo: string
  /** YYYY-MM-DD */
  visitDate: string
  deptName: string
  doctorName: string
  title: string
  category: BillCategory
  /** Where it is dispensed or performed; '' when nowhere (a service). */
  place: string
  status: BillStatus
  amountFen: number
  /** ISO time. */
  orderedAt: string
  /** Dispensed or performed: it can no longer be refunded. */
  performed: boolean
  items: HisBillItem[]
}

/** A number in a queue, for the bills of one order at one place. */
export interface HisTicket {
  kind: QueueKind
  place: string
  window: string
  location: string
  ticketNo: string
  ahead: number
  status: 'waiting' | 'called' | 'done' | 'cancelled'
  billNos: string[]
}

export interface HisPriceItem {
  code: string
  name: string
  spec: string
  unit: string
  priceFen: number
  category: BillCategory
  /** 西药, 中成药, 中药饮片, 检验, 检查, 治疗, 材料, 诊疗服务 */
  categoryName: string
}

export interface HisSettleInput {
  hospitalCode: string
  /** The app's order (P + date + 12 digits): the HIS keeps it with the bills, and a second settle with it is a copy. */
  orderNo: string
  billNos: string[]
  amountFen: number
  paidAt: Date
  channel: PayChannel
  /** The payment provider's transaction id. */
  tradeNo: string
}

export interface HisRefundInput {
  hospitalCode: string
  orderNo: string
  billNos: string[]
  reason: string
}

/** A patient's outpatient account at the hospital (门诊预交金 / 就诊卡余额). */
export interface HisAccount {
  accountNo: string
  balanceFen: number
}

/** Money paid through the payment core for an account or a deposit: the HIS credits it once per orderNo. */
export interface HisCreditInput {
  hospitalCode: string
  /** The outpatient account's number, or the admission number of a deposit. */
  accountNo: string
  orderNo: string
  amountFen: number
  paidAt: Date
  channel: PayChannel
  tradeNo: string
}

/** One item of a day's inpatient charges. */
export interface HisChargeItem {
  code: string
  name: string
  spec: string
  unit: string
  category: BillCategory
  quantity: number
  unitPriceFen: number
  amountFen: number
}

/** A stay in hospital (住院) as the HIS keeps it: deposits, costs so far, the day totals, the settlement at discharge. */
export interface HisAdmission {
  admissionNo: string
  deptName: string
  ward: string
  bed: string
  doctorName: string
  /** ISO time. */
  admittedAt: string
  status: 'in' | 'discharged'
  dischargedAt: string | null
  /** All deposits paid (住院预交金), before anything returned. */
  depositFen: number
  /** All charges so far. */
  costFen: number
  /** Deposits - returned - costs: negative when the patient owes. */
  balanceFen: number
  /** Per day with charges, oldest first (YYYY-MM-DD). */
  days: { date: string; amountFen: number }[]
  /** At discharge: the balance returned to the patient (退还) or owed by them (补缴). */
  settlement: { returnedFen: number; owedFen: number } | null
}

/**
 * How the balance of a settled stay goes back: to the channel a deposit was paid through (原路退回, `original`), or
 * at the inpatient cashier's window (`window`: deposits paid there in cash or by card, against the deposit receipt).
 */
export interface HisSettlementReturn {
  way: 'original' | 'window'
  /** The deposit's channel (wechat, alipay, sandbox, window...). */
  channel: string
  amountFen: number
}

/** The discharge settlement (出院结算) of a stay: what it cost, by category, what was paid, and the balance. */
export interface HisDischargeSettlement {
  admissionNo: string
  /** ISO time. */
  dischargedAt: string
  costFen: number
  depositFen: number
  /** Returned to the patient: the sum of `returns`. */
  returnedFen: number
  /** Still owed by the patient (补缴), paid at the inpatient cashier. */
  owedFen: number
  returns: HisSettlementReturn[]
  /** The costs per category, largest first; they add up to costFen. */
  categories: { category: BillCategory; amountFen: number }[]
}

/**
 * Tests a patient orders without a doctor's visit (自助开单): the app has checked who may order them; the HIS makes
 * the unpaid bills (one per place, as a doctor's orders would) for the visit `requestNo` stands for.
 */
export interface HisSelfServiceInput {
  hospitalCode: string
  patient: HisPatient
  /** The app's number for this request (its idempotency key): the same number again answers the first bills. */
  requestNo: string
  items: { code: string; quantity: number }[]
}

/** A paid examination that takes an appointment (医技预约, issue 18): its bill, where it is done, and what to do before it. */
export interface HisExamOrder {
  bill: HisBill
  location: string
  /** 空腹 8 小时, 憋尿, 去除金属物品 ... */
  preparation: string[]
}

/** An examination appointment: one paid examination bill in one slot of one device. */
export interface HisExamAppointment {
  appointmentNo: string
  billNo: string
  place: string
  slotId: number
  deviceId: number
  deviceName: string
  location: string
  /** YYYY-MM-DD */
  date: string
  /** HH:MM */
  startTime: string
  endTime: string
  status: 'booked' | 'cancelled'
  rescheduled: number
  /** ISO time. */
  createdAt: string
}

/** One device's slots on one day, with the places left. */
export interface HisExamDeviceDay {
  deviceId: number
  deviceName: string
  location: string
  slots: { slotId: number; startTime: string; endTime: string; capacity: number; remaining: number }[]
}

export interface HisExamBookInput {
  hospitalCode: string
  patient: HisPatient
  billNo: string
  slotId: number
  /** The app's idempotency key: the same number again answers the appointment it made or moved. */
  requestNo: string
}

/** A kind of nucleic-acid test the hospital sells (单检, 混检). */
export interface HisNucleicKind {
  code: string
  name: string
  priceFen: number
  description: string
  /** The sampling point. */
  place: string
}

export type HisNucleicStatus = 'unpaid' | 'registered' | 'sampled' | 'reported' | 'cancelled'

/** A nucleic-acid test as the HIS keeps it, from the order to the released result. */
export interface HisNucleicTest {
  sampleNo: string
  orderNo: string
  kindCode: string
  kindName: string
  amountFen: number
  status: HisNucleicStatus
  result: '阴性' | '阳性' | null
  /** ISO times. */
  registeredAt: string
  sampledAt: string | null
  reportedAt: string | null
}

export interface HisPriceQuery {
  hospitalCode: string
  keyword?: string
  category?: BillCategory
  page: number
  size: number
}

/** A report's kind at the HIS: lab 检验, imaging 检查（影像）, pathology 病理. */
export type HisReportKind = 'lab' | 'imaging' | 'pathology'

/** A report as the HIS lists it, newest first. */
export interface HisReportSummary {
  reportNo: string
  kind: HisReportKind
  title: string
  deptName: string
  /** ISO time the report was released. */
  reportedAt: string
  /** Lab items out of range; 0 for imaging and pathology. */
  abnormalCount: number
}

/** One item of a lab report: the value as written, its unit and reference range, and the laboratory's flag. */
export interface HisLabItem {
  code: string
  name: string
  value: string
  unit: string
  range: string
  low: number | null
  high: number | null
  /** H above the range, L below, N within, '' when not numeric. */
  flag: 'H' | 'L' | 'N' | ''
}

/**
 * A whole report. Lab: `specimen` and `items`. Imaging: `modality` (CT, MR, DR, US), `examPart`, `device`, `findings`
 * (所见), `impression` (诊断意见) and `studyUid`, the cloud film's study ('' without one). Pathology: `specimen`,
 * `findings` (肉眼及镜下所见) and `impression` (病理诊断).
 */
export interface HisReport extends HisReportSummary {
  doctorName: string
  reporterName: string
  checkerName: string
  requestedAt: string
  specimen: string
  modality: string
  examPart: string
  device: string
  findings: string
  impression: string
  studyUid: string
  items: HisLabItem[]
}

/**
 * A schedule (排班) as the HIS keeps it: one doctor's (or a department's general clinic's, doctorId null) morning or
 * afternoon on one day, with its fee and its numbered places (号源) per time range. The HIS owns the schedules and the
 * number of places; the app holds a place while the patient pays, then confirms or gives it back. `deptId` and
 * `doctorId` are the ids of the app's clinic tree and doctors, which are the hospital's own (loaded from the HIS).
 */
export interface HisSchedule {
  /** The HIS's own id, unique across its hospitals. */
  scheduleId: number
  hospitalCode: string
  deptId: number
  deptName: string
  doctorId: number | null
  /** null for a general clinic. */
  doctorName: string | null
  /** YYYY-MM-DD */
  visitDate: string
  segment: 'am' | 'pm'
  /** 普通号, 专家号, 特需号. */
  registerType: string
  feeFen: number
  total: number
  remaining: number
  /** Called off by the hospital (停诊): shown, not bookable. */
  stopped: boolean
  /** The time ranges in order, with the places left in each. */
  timeRanges: { timeRange: string; remaining: number }[]
}

/** Which schedules: a hospital's department or doctor over days, or some schedules by id (any hospital, then null). */
export interface HisScheduleQuery {
  hospitalCode: string | null
  deptId?: number
  doctorId?: number
  scheduleIds?: number[]
  /** YYYY-MM-DD, both inclusive. */
  from?: string
  to?: string
}

/** One place taken for a booking: the HIS's id of it, its number in the schedule and its time range. */
export interface HisHeldPlace {
  placeId: number
  seq: number
  timeRange: string
}

export interface HisLockInput {
  hospitalCode: string
  scheduleId: number
  timeRange: string
  /** The app's registration id: the place is the booking's until confirmed or given back. */
  bookingId: number
  regNo: string
  patient: HisPatient
  /** Until when an unpaid booking holds the place; null for a free booking, confirmed in the same transaction. */
  holdUntil: Date | null
}

export interface HisConfirmInput {
  hospitalCode: string
  bookingId: number
  regNo: string
  placeId: number
  /** The paid order (null for a free booking) and what was paid. */
  orderNo: string | null
  amountFen: number
}

export interface HisCancelInput {
  hospitalCode: string
  bookingId: number
  placeId: number
  reason: string
}

/** Who the HIS files a card for (建档): the identity number, or for a newborn without one the guardian's. */
export interface HisCardHolder {
  name: string
  idCard: string | null
  sex: 1 | 2
  /** YYYY-MM-DD */
  birthday: string
  mobile: string | null
  guardianName: string | null
  guardianIdCard: string | null
}

/**
 * What the app asks of the HIS. `settle` and `refund` are called inside the database transaction that records the
 * payment or the refund (the sandbox writes in it; a remote HIS is called from it), so both must be all-or-none and
 * idempotent on the order number. A refusal the patient may read is an AppError (400); a network failure or a
 * malformed answer is a plain Error, which changes nothing here: the payment provider notifies again, and the patient
 * may try again.
 *
 * The HTTP contract of a real HIS adapter (`httpHis`, config `HIS` = `{"url", "appId", "secret"}`):
 * every call is `POST {url}{path}` with a JSON body, headers `content-type: application/json`, `x-app-id: {appId}`
 * and `x-signature`: the hex HMAC-SHA256 of the exact body bytes with `secret`. The HIS answers HTTP 200 with
 * `{"code": 0, "data": ...}`, or `{"code": <non-zero>, "msg": "..."}` for a refusal shown to the patient (at most 100
 * characters). Amounts are integers in fen, times ISO 8601, dates YYYY-MM-DD. `Patient` is
 * `{cardNo, idCard, name}` (HisPatient), `Bill` is HisBill, `Ticket` is HisTicket, `PriceItem` is HisPriceItem.
 * - `POST /bills/unpaid` `{hospitalCode, patient: Patient}` -> `{bills: Bill[]}`: the patient's unpaid bills.
 * - `POST /bills/query` `{hospitalCode, patient: Patient, billNos: string[]}` -> `{bills: Bill[]}`: those of the
 *   numbers that are this patient's bills, in any status (someone else's are left out, never refused by name).
 * - `POST /bills/settle` `{hospitalCode, orderNo, billNos, amountFen, paidAt, channel, tradeNo}` -> `{tickets: Ticket[]}`:
 *   marks every bill paid by the order and queues the patient where each must go next, or refuses (code != 0) and
 *   changes nothing when any bill is not unpaid or the amount is not their sum. The same orderNo again answers the
 *   first answer. A refusal makes the app refund the whole order.
 * - `POST /bills/refund` `{hospitalCode, orderNo, billNos, reason}` -> `{}`: returns every bill of the order (退费) and
 *   takes its numbers out of the queues, or refuses and changes nothing when any was dispensed or performed. The same
 *   orderNo again answers `{}`. The app refunds the money after this answer.
 * - `POST /queue/tickets` `{hospitalCode, orderNo}` -> `{tickets: Ticket[]}`: where the order's bills send the patient.
 * - `POST /prices` `{hospitalCode, keyword, category, page, size}` -> `{records: PriceItem[], total}`: the price
 *   catalogue, by name or code containing the keyword, in the hospital's order.
 *
 * Accounts and deposits (issue 17). `Admission` is HisAdmission, `ChargeItem` is HisChargeItem.
 * - `POST /account/query` `{hospitalCode, patient: Patient}` -> `{accountNo, balanceFen}`: the patient's outpatient
 *   account (门诊预交金, opened with the card), its balance the sum of its movements.
 * - `POST /account/credit` `{hospitalCode, accountNo, orderNo, amountFen, paidAt, channel, tradeNo}` -> `{accountNo,
 *   balanceFen}`: a top-up paid through the app. The same orderNo again answers without crediting twice.
 * - `/bills/settle` with `channel: "account"`: the bills are paid from the patient's outpatient account, debited by
 *   amountFen in the same all-or-none settlement; refused (code != 0, changing nothing) when the balance is short.
 *   `/bills/refund` of such an order credits the account back.
 * - `POST /admissions/query` `{hospitalCode, patient: Patient}` -> `{admissions: Admission[]}`: the patient's stays,
 *   newest first (at most 10).
 * - `POST /admissions/daily` `{hospitalCode, patient: Patient, admissionNo, date}` -> `{items: ChargeItem[]}`: one
 *   day's charges of the patient's stay (someone else's stay answers code != 0).
 * - `POST /admissions/deposit` `{hospitalCode, accountNo: admissionNo, orderNo, amountFen, paidAt, channel, tradeNo}`
 *   -> `{admission: Admission}`: a deposit paid through the app, credited once per orderNo; refused after discharge
 *   (the app then refunds the order).
 *
 * Self-service tests (自助开单, issue 17).
 * - `POST /orders/self-service` `{hospitalCode, patient: Patient, requestNo, items: [{code, quantity}]}` -> `{bills: Bill[]}`:
 *   unpaid bills for catalogue items the patient ordered without a doctor (the app has checked its sex and age rules),
 *   one bill per place, their visitNo the requestNo. The same requestNo again answers the bills first made for it,
 *   whatever the items (the app compares them). An unknown code or a patient the HIS cannot identify: code != 0.
 *
 * Registration and the hospital card (issue 17). `Schedule` is HisSchedule, `CardHolder` is HisCardHolder; the lock,
 * confirm and cancel calls are made inside the app's booking, payment or cancel transaction, and each is idempotent
 * on bookingId.
 * - `POST /schedules/query` `{hospitalCode, deptId, doctorId, scheduleIds, from, to}` -> `{schedules: Schedule[]}`: the
 *   schedules of a department or a doctor from `from` to `to`, or those of `scheduleIds` (then hospitalCode may be
 *   null: schedule ids are unique across the HIS's hospitals); absent criteria are null. Each with its places left.
 * - `POST /register/lock` `{hospitalCode, scheduleId, timeRange, bookingId, regNo, patient: Patient, holdUntil}` ->
 *   `{place: {placeId, seq, timeRange} | null}`: takes the lowest free place of the time range for the booking (held
 *   until holdUntil, or for good when holdUntil is null: a free booking, confirmed at once); `place: null` when the
 *   range is full. Never two bookings on one place; the same bookingId again answers its place. A stopped schedule or
 *   an unknown time range: code != 0.
 * - `POST /register/confirm` `{hospitalCode, bookingId, regNo, placeId, orderNo, amountFen}` -> `{}`: the booking is
 *   paid (orderNo null and amountFen 0 for a free one) and keeps its place for good. Again: `{}`. A place given back
 *   meanwhile: code != 0 (the app refunds the order).
 * - `POST /register/cancel` `{hospitalCode, bookingId, placeId, reason}` -> `{}`: the place is given back (退号 of a
 *   confirmed booking, or the end of a hold). Again, or for a place the booking no longer has: `{}`. Also called,
 *   outside any transaction, when the app's booking transaction failed after the lock (reason 预约未成功).
 * - `POST /cards/file` `{hospitalCode, patient: CardHolder}` -> `{cardNo, existed}`: the patient's hospital card number
 *   (就诊卡号, hisMedCardNo): the one the HIS already has for this identity number (existed: true), or a new one.
 * - `POST /cards/find` `{hospitalCode, patient: CardHolder}` -> `{cardNo: string | null}`: the card the HIS has for
 *   this identity number, if any; nothing is filed.
 * Reports (检查检验报告, issue 18). `ReportSummary` is HisReportSummary, `Report` is HisReport.
 * - `POST /reports/list` `{hospitalCode, patient: Patient, kind, page, size}` -> `{records: ReportSummary[], total}`:
 *   the patient's released reports of one kind (lab, imaging, pathology), newest first, a page at a time (size at most 100).
 * - `POST /reports/query` `{hospitalCode, patient: Patient, reportNos: string[]}` -> `{reports: Report[]}`: those of
 *   the numbers (at most 100) that are this patient's reports, with their items (someone else's are left out).
 * Physical exams (体检, hisPhysical.ts). `Package` is HisPhysicalPackage, `Day` HisPhysicalDay, `Exam` HisPhysicalExam,
 * `Report` HisPhysicalReport; an exam is known by `examNo`, the app's unguessable number for it.
 * - `POST /physical/packages` `{hospitalCode}` -> `{packages: Package[]}`: the packages offered, with items, prices and
 *   who they suit (sex 0 anyone, 1 men, 2 women; an age range).
 * - `POST /physical/days` `{hospitalCode, from, to}` -> `{days: Day[]}`: each day's capacity and places taken (held or
 *   paid), and whether the centre works that day.
 * - `POST /physical/hold` `{hospitalCode, patient: Patient, sex, birthday, examNo, packageCode, date}` -> `{exam: Exam}`: takes one
 *   place of the day, never more than its capacity whatever arrives at once; refused (code != 0, nothing taken) when
 *   the day is full or closed. The same examNo again answers the exam first held.
 * - `POST /physical/paid` `{hospitalCode, examNo, orderNo, amountFen, paidAt, channel, tradeNo}` -> `{exam: Exam}`: the
 *   held place is paid; refused when it was released (the app refunds). The same examNo again answers the exam.
 * - `POST /physical/release` `{hospitalCode, examNo, reason}` -> `{}`: the place goes back to the day (an unpaid hold
 *   closed, or a paid exam cancelled before its day); refused once the patient checked in. Again: `{}`.
 * - `POST /physical/exams` `{hospitalCode, patient: Patient}` -> `{exams: Exam[]}`: the patient's exams, newest first.
 * - `POST /physical/report` `{hospitalCode, patient: Patient, examNo}` -> `{report: Report}`: a released report of the
 *   patient's own exam; code != 0 for anyone else's or one not out yet (the app answers 2999, saying nothing more).
 * - `POST /physical/report/pdf` (same body) -> `{pdfBase64}`: the report as the centre issues it, a PDF.
 * Examination appointments (医技预约, issue 18). `ExamOrder` is HisExamOrder, `Appointment` is HisExamAppointment,
 * `DeviceDay` is HisExamDeviceDay. Capacity is the HIS's: it never books more than a slot's places.
 * - `POST /exams/paid` `{hospitalCode, patient: Patient}` -> `{exams: ExamOrder[]}`: the patient's paid examinations
 *   that take an appointment and are not performed yet, newest first, with their preparation notes.
 * - `POST /exams/appointments` `{hospitalCode, patient: Patient}` -> `{appointments: Appointment[]}`: the patient's
 *   appointments, booked and cancelled, newest first (at most 100).
 * - `POST /exams/dates` `{hospitalCode, place, from, days}` -> `{dates: [{date, remaining}]}`: the days from `from`
 *   (YYYY-MM-DD) on which the place's devices work, with the places left that day.
 * - `POST /exams/slots` `{hospitalCode, place, date}` -> `{devices: DeviceDay[]}`: the place's devices and their slots that day.
 * - `POST /exams/book` `{hospitalCode, patient: Patient, billNo, slotId, requestNo}` -> `{appointment: Appointment}`:
 *   books the patient's paid examination into the slot, or, when it has a booked appointment, moves it there in one
 *   step (the new place taken and the old one freed together). Refused (code != 0, nothing changed) when the slot is
 *   full or past, is not of the examination's place, or the bill is not the patient's paid examination. The same
 *   requestNo again answers the appointment as it is.
 * - `POST /exams/cancel` `{hospitalCode, patient: Patient, appointmentNo}` -> `{appointment: Appointment}`: frees the
 *   place; an appointment already cancelled is answered as it is; someone else's answers code != 0.
 *
 * Nucleic-acid tests (核酸检测, issue 18). `Kind` is HisNucleicKind, `Test` is HisNucleicTest.
 * - `POST /nucleic/kinds` `{hospitalCode}` -> `{kinds: Kind[]}`: the tests sold and their prices.
 * - `POST /nucleic/order` `{hospitalCode, patient: Patient, kindCode, orderNo}` -> `{test: Test}`: an unpaid test for
 *   the app's order (the sample number is the HIS's); the same orderNo again answers the same test.
 * - `POST /nucleic/settle` `{hospitalCode, orderNo, amountFen, paidAt, channel, tradeNo}` -> `{test: Test}`: the test
 *   is paid and registered for sampling; refused when the amount is not its price or it was cancelled. Idempotent.
 * - `POST /nucleic/cancel` `{hospitalCode, orderNo}` -> `{test: Test}`: cancels a test not sampled yet (the app then
 *   refunds a paid one); refused once sampled. Idempotent.
 * - `POST /nucleic/tests` `{hospitalCode, orderNos}` -> `{tests: Test[]}`: the tests of those orders (results included).
 * The HIS calls the app back (routes/his/callback.ts), signed the same way with the same appId and secret
 * (`x-app-id`, `x-signature` = hex HMAC-SHA256 of the exact body bytes):
 * - `POST {app}/dld-his/callback/queue-call` `{hospitalCode, place, window, ticketNo, calledAt}`: a window called a
 *   number; the patients waiting in that place and window's queue are pushed their new places. Answered HTTP 200
 *   `{code: 0}`; 401 for a wrong app id or signature, 400 for a malformed body, an unknown hospital, or a calledAt
 *   more than five minutes off the app's clock.
 *
 * Discharge settlement (issue 17). `Settlement` is HisDischargeSettlement.
 * - `POST /admissions/settlement` `{hospitalCode, patient: Patient, admissionNo}` -> `{settlement: Settlement | null}`:
 *   the settlement of the patient's own discharged stay, null while the stay is not settled; someone else's stay
 *   answers code != 0.
 */
export interface HisProvider extends HisPhysicalExams {
  readonly kind: 'sandbox' | 'http' | 'disabled'
  unpaidBills(input: { hospitalCode: string; patient: HisPatient }): Promise<HisBill[]>
  bills(input: { hospitalCode: string; patient: HisPatient; billNos: string[] }): Promise<HisBill[]>
  settle(tx: Tx, input: HisSettleInput): Promise<HisTicket[]>
  refund(tx: Tx, input: HisRefundInput): Promise<void>
  tickets(input: { hospitalCode: string; orderNo: string }): Promise<HisTicket[]>
  prices(query: HisPriceQuery): Promise<{ records: HisPriceItem[]; total: number }>
  account(input: { hospitalCode: string; patient: HisPatient }): Promise<HisAccount>
  /** Inside the transaction that records the top-up's payment, like settle. */
  creditAccount(tx: Tx, input: HisCreditInput): Promise<HisAccount>
  admissions(input: { hospitalCode: string; patient: HisPatient }): Promise<HisAdmission[]>
  /** One day's charges of the patient's own stay; null when the stay is not theirs. */
  dailyCharges(input: { hospitalCode: string; patient: HisPatient; admissionNo: string; date: string }): Promise<HisChargeItem[] | null>
  /** Inside the transaction that records the deposit's payment; `accountNo` is the admission number. */
  deposit(tx: Tx, input: HisCreditInput): Promise<HisAdmission>
  /** Self-service tests (自助开单): the unpaid bills for `requestNo`, made once. */
  selfServiceOrder(input: HisSelfServiceInput): Promise<HisBill[]>
  /** Schedules with their places left, in the order of day, segment, general clinic first. */
  schedules(query: HisScheduleQuery): Promise<HisSchedule[]>
  /** Inside the booking transaction: the lowest free place of the range for the booking, or null when it is full. */
  lockPlace(tx: Tx, input: HisLockInput): Promise<HisHeldPlace | null>
  /** Inside the transaction that records the payment (or the free booking): the place is the booking's for good. */
  confirmRegistration(tx: Tx, input: HisConfirmInput): Promise<void>
  /** Inside the cancel, refund or expiry transaction: the place is given back. */
  cancelRegistration(tx: Tx, input: HisCancelInput): Promise<void>
  /** Inside the app's filing transaction: the patient's card number at the hospital, found or made once. */
  fileCard(tx: Tx, input: { hospitalCode: string; patient: HisCardHolder }): Promise<{ cardNo: string; existed: boolean }>
  /** The card number the HIS already has for this person, or null; nothing is filed. */
  findCard(input: { hospitalCode: string; patient: HisCardHolder }): Promise<string | null>
  /** The patient's released reports of one kind, newest first. */
  reports(input: { hospitalCode: string; patient: HisPatient; kind: HisReportKind; page: number; size: number }): Promise<{ records: HisReportSummary[]; total: number }>
  /** Those of the numbers that are the patient's reports, whole; someone else's are left out. */
  reportsByNo(input: { hospitalCode: string; patient: HisPatient; reportNos: string[] }): Promise<HisReport[]>
  /** Examination appointments (医技预约): the patient's paid examinations that take one. */
  paidExams(input: { hospitalCode: string; patient: HisPatient }): Promise<HisExamOrder[]>
  examAppointments(input: { hospitalCode: string; patient: HisPatient }): Promise<HisExamAppointment[]>
  examDates(input: { hospitalCode: string; place: string; from: string; days: number }): Promise<{ date: string; remaining: number }[]>
  examSlots(input: { hospitalCode: string; place: string; date: string }): Promise<HisExamDeviceDay[]>
  /** Books, or moves a booked appointment, in one step of the HIS. */
  bookExam(input: HisExamBookInput): Promise<HisExamAppointment>
  cancelExam(input: { hospitalCode: string; patient: HisPatient; appointmentNo: string }): Promise<HisExamAppointment>
  /** Nucleic-acid tests: the kinds sold, an unpaid test per order (inside the order's transaction), settle and cancel like bills. */
  nucleicKinds(input: { hospitalCode: string }): Promise<HisNucleicKind[]>
  nucleicOrder(tx: Tx, input: { hospitalCode: string; patient: HisPatient; kindCode: string; orderNo: string }): Promise<HisNucleicTest>
  nucleicSettle(tx: Tx, input: Omit<HisSettleInput, 'billNos'>): Promise<HisNucleicTest>
  nucleicCancel(tx: Tx, input: { hospitalCode: string; orderNo: string }): Promise<HisNucleicTest>
  nucleicTests(input: { hospitalCode: string; orderNos: string[] }): Promise<HisNucleicTest[]>
  /**
   * The discharge settlement of the patient's own stay: `settled` null while the stay is not settled (still in
   * hospital); null when the stay is not theirs.
   */
  dischargeSettlement(input: { hospitalCode: string; patient: HisPatient; admissionNo: string }): Promise<{ settled: HisDischargeSettlement | null } | null>
}

/** What a hospital without a HIS connection (a server that is not a demo, without HIS) is told. */
export const HIS_OFF = '该医院暂未开通门诊缴费'
export const HIS_REGISTER_OFF = '该医院暂未开通预约挂号'
export const HIS_CARD_OFF = '该医院暂未开通线上建档，请到医院窗口办理就诊卡'

/** No HIS on a server that is not a demo: no sandbox bills for real patients. */
export function disabledHis(): HisProvider {
  const off = async (): Promise<never> => {
    throw badInput(HIS_OFF)
  }
  const registerOff = async (): Promise<never> => {
    throw badInput(HIS_REGISTER_OFF)
  }
  const cardOff = async (): Promise<never> => {
    throw badInput(HIS_CARD_OFF)
  }
  return {
    kind: 'disabled',
    unpaidBills: off,
    bills: off,
    settle: off,
    refund: off,
    tickets: off,
    prices: off,
    account: off,
    creditAccount: off,
    admissions: off,
    dailyCharges: off,
    deposit: off,
    selfServiceOrder: off,
    schedules: registerOff,
    lockPlace: registerOff,
    confirmRegistration: registerOff,
    cancelRegistration: registerOff,
    fileCard: cardOff,
    findCard: cardOff,
    reports: off,
    reportsByNo: off,
    physicalPackages: off,
    physicalDays: off,
    physicalHold: off,
    physicalPaid: off,
    physicalRelease: off,
    physicalExams: off,
    physicalReport: off,
    physicalReportPdf: off,
    paidExams: off,
    examAppointments: off,
    examDates: off,
    examSlots: off,
    bookExam: off,
    cancelExam: off,
    nucleicKinds: off,
    nucleicOrder: off,
    nucleicSettle: off,
    nucleicCancel: off,
    nucleicTests: off,
    dischargeSettlement: off,
  }
}

// ---- the HTTP adapter ------------------------------------------------------------------------------------------------

const category = z.enum(['drug', 'herbal', 'lab', 'exam', 'treatment', 'material', 'service'])
const fen = z.number().int().min(0).max(100_000_000)
const text = (max: number) => z.string().max(max)
const billSchema = z.object({
  billNo: z.string().min(1).max(64),
  visitNo: text(64),
  visitDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  deptName: text(64),
  doctorName: text(64),
  title: text(64),
  category,
  place: text(64),
  status: z.enum(['unpaid', 'paid', 'refunded', 'cancelled']),
  amountFen: fen,
  orderedAt: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
  performed: z.boolean(),
  items: z
    .array(
      z.object({
        code: text(64),
        name: text(128),
        spec: text(128),
        unit: text(16),
        quantity: z.number().int().min(0).max(100_000),
        unitPriceFen: fen,
        amountFen: fen,
      }),
    )
    .max(500),
})
const ticketSchema = z.object({
  kind: z.enum(['pharmacy', 'lab', 'exam', 'treatment']),
  place: text(64),
  window: text(64),
  location: text(128),
  ticketNo: z.string().min(1).max(16),
  ahead: z.number().int().min(0),
  status: z.enum(['waiting', 'called', 'done', 'cancelled']),
  billNos: z.array(z.string().max(64)).max(100),
})
const priceSchema = z.object({ code: text(64), name: text(128), spec: text(128), unit: text(16), priceFen: fen, category, categoryName: text(16) })
const chargeItemSchema = z.object({
  code: text(64),
  name: text(128),
  spec: text(128),
  unit: text(16),
  category,
  quantity: z.number().int().min(0).max(100_000),
  unitPriceFen: fen,
  amountFen: fen,
})
const signedFen = z.number().int().min(-100_000_000).max(100_000_000)
const isoTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)))
const admissionSchema = z.object({
  admissionNo: z.string().min(1).max(64),
  deptName: text(64),
  ward: text(64),
  bed: text(32),
  doctorName: text(64),
  admittedAt: isoTime,
  status: z.enum(['in', 'discharged']),
  dischargedAt: isoTime.nullable(),
  depositFen: fen,
  costFen: fen,
  balanceFen: signedFen,
  days: z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), amountFen: fen })).max(400),
  settlement: z.object({ returnedFen: fen, owedFen: fen }).nullable(),
})
const id = z.number().int().min(1).max(2_147_483_647)
const cardNo = z.string().regex(/^[0-9A-Za-z]{4,32}$/)
const scheduleSchema = z.object({
  scheduleId: id,
  hospitalCode: z.string().min(1).max(32),
  deptId: id,
  deptName: text(64),
  doctorId: id.nullable(),
  doctorName: text(64).nullable(),
  visitDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  segment: z.enum(['am', 'pm']),
  registerType: text(16),
  feeFen: fen,
  total: z.number().int().min(0).max(10_000),
  remaining: z.number().int().min(0).max(10_000),
  stopped: z.boolean(),
  timeRanges: z.array(z.object({ timeRange: z.string().min(1).max(32), remaining: z.number().int().min(0).max(10_000) })).max(100),
})
const reportKind = z.enum(['lab', 'imaging', 'pathology'])
const reportSummarySchema = z.object({
  reportNo: z.string().min(1).max(64),
  kind: reportKind,
  title: text(64),
  deptName: text(64),
  reportedAt: isoTime,
  abnormalCount: z.number().int().min(0).max(1000),
})
const reportSchema = reportSummarySchema.extend({
  doctorName: text(64),
  reporterName: text(64),
  checkerName: text(64),
  requestedAt: isoTime,
  specimen: text(64),
  modality: text(16),
  examPart: text(64),
  device: text(128),
  findings: text(4000),
  impression: text(2000),
  studyUid: text(128),
  items: z
    .array(
      z.object({
        code: text(64),
        name: text(64),
        value: text(32),
        unit: text(32),
        range: text(64),
        low: z.number().nullable(),
        high: z.number().nullable(),
        flag: z.enum(['H', 'L', 'N', '']),
      }),
    )
    .max(200),
})
const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const hhmm = z.string().regex(/^\d{2}:\d{2}$/)
const examAppointmentSchema = z.object({
  appointmentNo: z.string().min(1).max(64),
  billNo: z.string().min(1).max(64),
  place: text(64),
  slotId: z.number().int(),
  deviceId: z.number().int(),
  deviceName: text(64),
  location: text(128),
  date: ymd,
  startTime: hhmm,
  endTime: hhmm,
  status: z.enum(['booked', 'cancelled']),
  rescheduled: z.number().int().min(0),
  createdAt: isoTime,
})
const deviceDaySchema = z.object({
  deviceId: z.number().int(),
  deviceName: text(64),
  location: text(128),
  slots: z.array(z.object({ slotId: z.number().int(), startTime: hhmm, endTime: hhmm, capacity: z.number().int().min(0), remaining: z.number().int().min(0) })).max(200),
})
const nucleicTestSchema = z.object({
  sampleNo: z.string().min(1).max(64),
  orderNo: z.string().min(1).max(64),
  kindCode: text(64),
  kindName: text(64),
  amountFen: fen,
  status: z.enum(['unpaid', 'registered', 'sampled', 'reported', 'cancelled']),
  result: z.enum(['阴性', '阳性']).nullable(),
  registeredAt: isoTime,
  sampledAt: isoTime.nullable(),
  reportedAt: isoTime.nullable(),
})
const medTechAnswers = {
  exams: z.object({ exams: z.array(z.object({ bill: billSchema, location: text(128), preparation: z.array(text(200)).max(20) })).max(100) }),
  appointments: z.object({ appointments: z.array(examAppointmentSchema).max(100) }),
  appointment: z.object({ appointment: examAppointmentSchema }),
  dates: z.object({ dates: z.array(z.object({ date: ymd, remaining: z.number().int().min(0) })).max(60) }),
  devices: z.object({ devices: z.array(deviceDaySchema).max(50) }),
  kinds: z.object({ kinds: z.array(z.object({ code: text(64), name: text(64), priceFen: fen, description: text(200), place: text(128) })).max(20) }),
  test: z.object({ test: nucleicTestSchema }),
  tests: z.object({ tests: z.array(nucleicTestSchema).max(200) }),
}
const settlementSchema = z.object({
  admissionNo: z.string().min(1).max(64),
  dischargedAt: isoTime,
  costFen: fen,
  depositFen: fen,
  returnedFen: fen,
  owedFen: fen,
  returns: z.array(z.object({ way: z.enum(['original', 'window']), channel: text(32), amountFen: fen })).max(100),
  categories: z.array(z.object({ category, amountFen: fen })).max(20),
})
const answers = {
  reports: z.object({ records: z.array(reportSummarySchema).max(100), total: z.number().int().min(0) }),
  reportsByNo: z.object({ reports: z.array(reportSchema).max(100) }),
  settlement: z.object({ settlement: settlementSchema.nullable() }),
  account: z.object({ accountNo: z.string().min(1).max(64), balanceFen: signedFen }),
  admissions: z.object({ admissions: z.array(admissionSchema).max(10) }),
  admission: z.object({ admission: admissionSchema }),
  charges: z.object({ items: z.array(chargeItemSchema).max(1000) }),
  bills: z.object({ bills: z.array(billSchema).max(500) }),
  tickets: z.object({ tickets: z.array(ticketSchema).max(50) }),
  prices: z.object({ records: z.array(priceSchema).max(200), total: z.number().int().min(0) }),
  none: z.object({}).passthrough(),
  schedules: z.object({ schedules: z.array(scheduleSchema).max(2000) }),
  place: z.object({
    place: z.object({ placeId: id, seq: z.number().int().min(0).max(10_000), timeRange: z.string().min(1).max(32) }).nullable(),
  }),
  card: z.object({ cardNo: cardNo, existed: z.boolean() }),
  found: z.object({ cardNo: cardNo.nullable() }),
}

/** The adapter of a hospital's real HIS: the contract on HisProvider, over HTTP, each body signed (HMAC-SHA256). */
export function httpHis(cfg: HisConfig, fetchImpl: typeof fetch = fetch): HisProvider {
  const base = cfg.url.replace(/\/$/, '')
  async function call<T>(path: string, body: Record<string, unknown>, shape: z.ZodType<T>): Promise<T> {
    const raw = JSON.stringify(body)
    const res = await fetchImpl(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': cfg.appId, 'x-signature': hmacHex(cfg.secret, raw) },
      body: raw,
      signal: AbortSignal.timeout(15_000),
    })
    if (!res.ok) throw new Error(`HIS answered HTTP ${res.status} to ${path}`)
    const answer = (await res.json()) as { code?: unknown; msg?: unknown; data?: unknown }
    if (answer.code !== 0) {
      // the HIS's own refusal (a bill paid at the window, a drug already handed over) is the patient's to read
      const msg = typeof answer.msg === 'string' && answer.msg.trim() ? answer.msg.trim().slice(0, 100) : '医院系统暂时无法办理，请稍后重试'
      throw badInput(msg)
    }
    const parsed = shape.safeParse(answer.data)
    if (!parsed.success) throw new Error(`HIS answered ${path} without its fields`)
    return parsed.data
  }
  return {
    kind: 'http',
    async unpaidBills({ hospitalCode, patient }) {
      return (await call('/bills/unpaid', { hospitalCode, patient }, answers.bills)).bills
    },
    async bills({ hospitalCode, patient, billNos }) {
      return (await call('/bills/query', { hospitalCode, patient, billNos }, answers.bills)).bills
    },
    async settle(_tx, input) {
      const data = await call('/bills/settle', { ...input, paidAt: input.paidAt.toISOString() }, answers.tickets)
      return data.tickets
    },
    async refund(_tx, input) {
      await call('/bills/refund', { ...input }, answers.none)
    },
    async tickets({ hospitalCode, orderNo }) {
      return (await call('/queue/tickets', { hospitalCode, orderNo }, answers.tickets)).tickets
    },
    async prices({ hospitalCode, keyword, category: cat, page, size }) {
      return call('/prices', { hospitalCode, keyword: keyword ?? '', category: cat ?? null, page, size }, answers.prices)
    },
    account: ({ hospitalCode, patient }) => call('/account/query', { hospitalCode, patient }, answers.account),
    creditAccount: (_tx, input) => call('/account/credit', { ...input, paidAt: input.paidAt.toISOString() }, answers.account),
    async admissions({ hospitalCode, patient }) {
      return (await call('/admissions/query', { hospitalCode, patient }, answers.admissions)).admissions
    },
    async dailyCharges({ hospitalCode, patient, admissionNo, date }) {
      try {
        return (await call('/admissions/daily', { hospitalCode, patient, admissionNo, date }, answers.charges)).items
      } catch (err) {
        // the HIS refuses a stay that is not the patient's: the caller answers 2999, saying nothing more
        if (err instanceof AppError) return null
        throw err
      }
    },
    async deposit(_tx, input) {
      return (await call('/admissions/deposit', { ...input, paidAt: input.paidAt.toISOString() }, answers.admission)).admission
    },
    async selfServiceOrder({ hospitalCode, patient, requestNo, items }) {
      return (await call('/orders/self-service', { hospitalCode, patient, requestNo, items }, answers.bills)).bills
    },
    async schedules({ hospitalCode, deptId, doctorId, scheduleIds, from, to }) {
      const body = { hospitalCode, deptId: deptId ?? null, doctorId: doctorId ?? null, scheduleIds: scheduleIds ?? null, from: from ?? null, to: to ?? null }
      return (await call('/schedules/query', body, answers.schedules)).schedules
    },
    async lockPlace(_tx, input) {
      return (await call('/register/lock', { ...input, holdUntil: input.holdUntil?.toISOString() ?? null }, answers.place)).place
    },
    async confirmRegistration(_tx, input) {
      await call('/register/confirm', { ...input }, answers.none)
    },
    async cancelRegistration(_tx, input) {
      await call('/register/cancel', { ...input }, answers.none)
    },
    fileCard: (_tx, { hospitalCode, patient }) => call('/cards/file', { hospitalCode, patient }, answers.card),
    async findCard({ hospitalCode, patient }) {
      return (await call('/cards/find', { hospitalCode, patient }, answers.found)).cardNo
    },
    reports: ({ hospitalCode, patient, kind, page, size }) => call('/reports/list', { hospitalCode, patient, kind, page, size }, answers.reports),
    async reportsByNo({ hospitalCode, patient, reportNos }) {
      if (!reportNos.length) return []
      return (await call('/reports/query', { hospitalCode, patient, reportNos }, answers.reportsByNo)).reports
    },
    ...httpPhysical(call, async (path, body, shape) => {
      try {
        return await call(path, body, shape)
      } catch (err) {
        if (err instanceof AppError) return null
        throw err
      }
    }),
    async paidExams({ hospitalCode, patient }) {
      return (await call('/exams/paid', { hospitalCode, patient }, medTechAnswers.exams)).exams
    },
    async examAppointments({ hospitalCode, patient }) {
      return (await call('/exams/appointments', { hospitalCode, patient }, medTechAnswers.appointments)).appointments
    },
    async examDates(input) {
      return (await call('/exams/dates', { ...input }, medTechAnswers.dates)).dates
    },
    async examSlots(input) {
      return (await call('/exams/slots', { ...input }, medTechAnswers.devices)).devices
    },
    async bookExam(input) {
      return (await call('/exams/book', { ...input }, medTechAnswers.appointment)).appointment
    },
    async cancelExam(input) {
      return (await call('/exams/cancel', { ...input }, medTechAnswers.appointment)).appointment
    },
    async nucleicKinds({ hospitalCode }) {
      return (await call('/nucleic/kinds', { hospitalCode }, medTechAnswers.kinds)).kinds
    },
    async nucleicOrder(_tx, input) {
      return (await call('/nucleic/order', { ...input }, medTechAnswers.test)).test
    },
    async nucleicSettle(_tx, input) {
      return (await call('/nucleic/settle', { ...input, paidAt: input.paidAt.toISOString() }, medTechAnswers.test)).test
    },
    async nucleicCancel(_tx, input) {
      return (await call('/nucleic/cancel', { ...input }, medTechAnswers.test)).test
    },
    async nucleicTests({ hospitalCode, orderNos }) {
      return (await call('/nucleic/tests', { hospitalCode, orderNos }, medTechAnswers.tests)).tests
    },
    async dischargeSettlement({ hospitalCode, patient, admissionNo }) {
      try {
        return { settled: (await call('/admissions/settlement', { hospitalCode, patient, admissionNo }, answers.settlement)).settlement }
      } catch (err) {
        // the HIS refuses a stay that is not the patient's: the caller answers 2999, saying nothing more
        if (err instanceof AppError) return null
        throw err
      }
    },
  }
}
