/**
 * The hospital information system (HIS, 医院信息系统): the hospital's own record of bills, queues and prices (and,
 * later, admissions with their daily charges, and registration). Bills are the doctors' orders the patient pays for;
 * a bill is for one place (a prescription for the pharmacy, a test request for the laboratory), and paying it puts the
 * patient in that place's queue. The app never owns a bill: it asks the HIS, pays through the payment core, and tells
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

export interface HisPriceQuery {
  hospitalCode: string
  keyword?: string
  category?: BillCategory
  page: number
  size: number
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
export interface HisProvider {
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
  /**
   * The discharge settlement of the patient's own stay: `settled` null while the stay is not settled (still in
   * hospital); null when the stay is not theirs.
   */
  dischargeSettlement(input: { hospitalCode: string; patient: HisPatient; admissionNo: string }): Promise<{ settled: HisDischargeSettlement | null } | null>
}

/** What a hospital without a HIS connection (a server that is not a demo, without HIS) is told. */
export const HIS_OFF = '该医院暂未开通门诊缴费'

/** No HIS on a server that is not a demo: no sandbox bills for real patients. */
export function disabledHis(): HisProvider {
  const off = async (): Promise<never> => {
    throw badInput(HIS_OFF)
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
  settlement: z.object({ settlement: settlementSchema.nullable() }),
  account: z.object({ accountNo: z.string().min(1).max(64), balanceFen: signedFen }),
  admissions: z.object({ admissions: z.array(admissionSchema).max(10) }),
  admission: z.object({ admission: admissionSchema }),
  charges: z.object({ items: z.array(chargeItemSchema).max(1000) }),
  bills: z.object({ bills: z.array(billSchema).max(500) }),
  tickets: z.object({ tickets: z.array(ticketSchema).max(50) }),
  prices: z.object({ records: z.array(priceSchema).max(200), total: z.number().int().min(0) }),
  none: z.object({}).passthrough(),
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
