import { randomInt } from 'node:crypto'
import { and, asc, count, eq, ilike, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { BillCategory, QueueKind } from '../../../../types/api/palm'
import type { FieldCipher } from '../../crypto'
import { uniqueViolation, type Db, type Tx } from '../../db'
import {
  hisAccountEntries,
  hisAccounts,
  hisAdmissions,
  hisBillItems,
  hisBills,
  hisDailyCharges,
  hisDepositEntries,
  hisPriceItems,
  hisQueueTickets,
  hisQueues,
} from '../../db/schema'
import { badInput, notFound } from '../../errors'
import { hospitalToday } from '@/utils/hospitalClock'
import { maskName } from '@/utils/mask'
import type { HisAccount, HisAdmission, HisBill, HisChargeItem, HisPatient, HisPriceItem, HisProvider, HisSelfServiceInput, HisTicket } from './his'
import { sandboxRegistration } from './hisSandboxRegister'
import { sandboxReports, type HisReleaseInput } from './hisReports'
import type { HisReport } from './his'
import { sandboxPhysical, type PhysicalConsole } from './hisPhysicalSandbox'
import { sandboxMedTech, type SandboxMedTechConsole } from './hisSandboxMedTech'
import type { HisSettlementReturn } from './his'

/** A place that dispenses or performs what a bill is for, with the number prefix of its queues. */
export interface HisPlace {
  kind: QueueKind
  /** The bill's title for this place. */
  title: string
  location: string
  prefix: string
  windows: number
  /** What the patient does there: 取药, 采血, 检查, 治疗. */
  action: string
}

/** The places of a sandbox hospital; '' (诊查费 and other services) sends the patient nowhere. */
export const HIS_PLACES: Readonly<Record<string, HisPlace>> = {
  门诊西药房: { kind: 'pharmacy', title: '西药处方', location: '门诊楼1楼东侧', prefix: 'Y', windows: 3, action: '取药' },
  中药房: { kind: 'pharmacy', title: '中药处方', location: '门诊楼1楼西侧', prefix: 'H', windows: 2, action: '取药' },
  检验科采血处: { kind: 'lab', title: '检验申请', location: '门诊楼2楼', prefix: 'J', windows: 4, action: '采血或留取标本' },
  放射科CT室: { kind: 'exam', title: 'CT检查', location: '医技楼1楼', prefix: 'C', windows: 2, action: '检查' },
  放射科磁共振室: { kind: 'exam', title: '磁共振检查', location: '医技楼1楼', prefix: 'M', windows: 1, action: '检查' },
  放射科DR室: { kind: 'exam', title: 'X线检查', location: '医技楼1楼', prefix: 'X', windows: 2, action: '检查' },
  超声科: { kind: 'exam', title: '超声检查', location: '医技楼2楼', prefix: 'B', windows: 3, action: '检查' },
  心电图室: { kind: 'exam', title: '心电图检查', location: '门诊楼3楼', prefix: 'E', windows: 2, action: '检查' },
  内镜中心: { kind: 'exam', title: '内镜检查', location: '医技楼3楼', prefix: 'N', windows: 1, action: '检查' },
  门诊治疗室: { kind: 'treatment', title: '治疗单', location: '门诊楼1楼南侧', prefix: 'T', windows: 2, action: '治疗' },
  针灸推拿治疗室: { kind: 'treatment', title: '针灸推拿治疗', location: '门诊楼4楼', prefix: 'A', windows: 2, action: '治疗' },
}
export const SERVICE_BILL_TITLE = '诊疗服务费'
/** The department and doctor a self-service bill names: nobody ordered it but the patient. */
export const SELF_SERVICE_DEPT = '自助开单'

/** The catalogue's categories, with the sub-kinds the price list names (西药 and 中成药 are both `drug`). */
export const CATEGORY_NAMES: Readonly<Record<string, { category: BillCategory; name: string }>> = {
  XY: { category: 'drug', name: '西药' },
  ZC: { category: 'drug', name: '中成药' },
  ZY: { category: 'herbal', name: '中药饮片' },
  JY: { category: 'lab', name: '检验' },
  JC: { category: 'exam', name: '检查' },
  ZL: { category: 'treatment', name: '治疗' },
  CL: { category: 'material', name: '材料' },
  FW: { category: 'service', name: '诊疗服务' },
}
const categoryNameOf = (code: string) => CATEGORY_NAMES[code.slice(0, 2)]?.name ?? ''

/** What the HIS calls a number: the queue's prefix and three digits (Y012). */
export const ticketNoOf = (prefix: string, seq: number) => `${prefix}${String(seq).padStart(3, '0')}`

export const BILL_NOT_UNPAID = '缴费单已缴费或已作废，费用将原路退回'
export const ALREADY_PERFORMED = '部分项目已发药或已执行，不能线上退费，请到医院收费窗口咨询'
export const NO_PATIENT_KEY = '该就诊人没有证件号码或就诊卡号，医院系统无法识别'
export const ACCOUNT_MISSING = '就诊卡账户不存在'
export const ALREADY_DISCHARGED = '该住院已出院结算，不能再缴纳住院预交金，费用将原路退回'
export const ALREADY_IN = '该患者已在院，请先办理出院'
/** Paying bills from an account short of their sum. */
export const accountShort = (balanceFen: number, amountFen: number) =>
  `就诊卡余额不足：当前余额${(balanceFen / 100).toFixed(2)}元，本次需支付${(amountFen / 100).toFixed(2)}元，请先充值或选择其他支付方式`

/** Admitting a patient at the console. */
export interface HisAdmitInput {
  hospitalCode: string
  patient: HisPatient
  deptName: string
  ward: string
  bed: string
  doctorName: string
}

/** A stay as the console lists it. */
export interface HisConsoleAdmission extends HisAdmission {
  patientName: string
}

/** A queue as the console shows it. */
export interface HisQueueView {
  id: number
  kind: QueueKind
  place: string
  window: string
  location: string
  waiting: number
  /** The number called last ('' before the first). */
  current: string
}

export interface HisOrderInput {
  hospitalCode: string
  patient: HisPatient
  visitNo: string
  visitDate: string
  deptName: string
  doctorName: string
  items: { code: string; quantity: number }[]
}

/** The sandbox HIS: the provider, and what its console at the workbench does. */
export interface SandboxHis extends HisProvider, PhysicalConsole, SandboxMedTechConsole {
  readonly kind: 'sandbox'
  /** A doctor's orders (items of the catalogue) for a patient's visit: one unpaid bill per place. */
  issueOrders(input: HisOrderInput, now?: Date): Promise<HisBill[]>
  selfServiceOrder(input: HisSelfServiceInput, now?: Date): Promise<HisBill[]>
  queues(hospitalCode: string): Promise<HisQueueView[]>
  /** The next number of a queue is called: its bills count as dispensed or performed. Null when nobody waits. */
  callNext(hospitalCode: string, queueId: number, now?: Date): Promise<{ queue: HisQueueView; called: { ticketNo: string; patientName: string } | null }>
  /** A patient is admitted (one stay in hospital at a time). */
  admit(input: HisAdmitInput, now?: Date): Promise<HisAdmission>
  /** A day's charges (catalogue items) of a stay still in hospital. */
  postCharges(input: { hospitalCode: string; admissionNo: string; date: string; items: { code: string; quantity: number }[] }, now?: Date): Promise<HisAdmission>
  /** Discharge settlement: the balance is returned (an entry of its own) or left owed. Again: answered as it is. */
  discharge(hospitalCode: string, admissionNo: string, now?: Date): Promise<HisAdmission>
  /** The hospital's stays, those in hospital first, then the latest discharged. */
  consoleAdmissions(hospitalCode: string): Promise<HisConsoleAdmission[]>
  /** One stay of the hospital; null when the hospital has none of that number. */
  consoleAdmission(hospitalCode: string, admissionNo: string): Promise<HisConsoleAdmission | null>
  /** The laboratory, radiology or pathology releases a report (hisReports.ts REPORT_TEMPLATES) for the patient. */
  releaseReport(input: HisReleaseInput, now?: Date): Promise<HisReport>
}

/** Channels whose payments the hospital can send back where they came from (原路退回). */
const RETURNABLE_CHANNELS = new Set(['wechat', 'alipay', 'sandbox'])

/**
 * Where the balance of a settled stay goes: back to the deposits paid online, the latest first, each at most what it
 * paid (原路退回); what is left (deposits paid at the window) is collected at the inpatient cashier's window.
 */
export function settlementReturns(returnedFen: number, depositsNewestFirst: { channel: string; amountFen: number }[]): HisSettlementReturn[] {
  const out: HisSettlementReturn[] = []
  let left = returnedFen
  for (const d of depositsNewestFirst) {
    if (left <= 0) break
    if (!RETURNABLE_CHANNELS.has(d.channel) || d.amountFen <= 0) continue
    const amountFen = Math.min(left, d.amountFen)
    const same = out.find((r) => r.way === 'original' && r.channel === d.channel)
    if (same) same.amountFen += amountFen
    else out.push({ way: 'original', channel: d.channel, amountFen })
    left -= amountFen
  }
  if (left > 0) out.push({ way: 'window', channel: 'window', amountFen: left })
  return out
}

/** `B` + date + 10 random digits: a bill number nobody can guess. */
const newBillNo = (now: Date) => `B${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1e10)).padStart(10, '0')}`

type BillRow = typeof hisBills.$inferSelect

/** PostgreSQL's LIKE with the pattern's own wildcards taken literally. */
const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The hospital information system of a demo server, in our own tables (his_*): the price catalogue, bills made from
 * doctors' orders at the workbench console, and queues per place and window. Patients are known by a blind index of
 * their identity number (or card number); names are kept encrypted.
 */
export function sandboxHis(db: Db, cipher: FieldCipher): SandboxHis {
  /** The HIS's own key of a patient (null when there is nothing to know them by). */
  const patientKey = (hospitalCode: string, p: HisPatient): string | null => {
    if (p.idCard) return cipher.blindIndex(`his:id:${p.idCard}`)
    if (p.cardNo) return cipher.blindIndex(`his:card:${hospitalCode}:${p.cardNo}`)
    return null
  }

  async function toBills(q: Db | Tx, rows: BillRow[]): Promise<HisBill[]> {
    if (!rows.length) return []
    const items = await q
      .select()
      .from(hisBillItems)
      .where(inArray(hisBillItems.billId, rows.map((r) => r.id)))
      .orderBy(asc(hisBillItems.id))
    return rows.map((r) => ({
      billNo: r.billNo,
      visitNo: r.visitNo,
      visitDate: r.visitDate,
      deptName: r.deptName,
      doctorName: r.doctorName,
      title: r.title,
      category: r.category as BillCategory,
      place: r.place,
      status: r.status,
      amountFen: r.amountFen,
      orderedAt: r.orderedAt.toISOString(),
      performed: r.performedAt !== null,
      items: items
        .filter((i) => i.billId === r.id)
        .map((i) => ({ code: i.code, name: i.name, spec: i.spec, unit: i.unit, quantity: i.quantity, unitPriceFen: i.unitPriceFen, amountFen: i.amountFen })),
    }))
  }

  async function ticketsOf(q: Db | Tx, hospitalCode: string, orderNo: string): Promise<HisTicket[]> {
    const rows = await q
      .select({ ticket: hisQueueTickets, queue: hisQueues })
      .from(hisQueueTickets)
      .innerJoin(hisQueues, eq(hisQueues.id, hisQueueTickets.queueId))
      .where(and(eq(hisQueueTickets.orderNo, orderNo), eq(hisQueues.hospitalCode, hospitalCode)))
      .orderBy(asc(hisQueueTickets.id))
    if (!rows.length) return []
    const bills = await q
      .select({ billNo: hisBills.billNo, place: hisBills.place })
      .from(hisBills)
      .where(and(eq(hisBills.hospitalCode, hospitalCode), eq(hisBills.orderNo, orderNo)))
      .orderBy(asc(hisBills.id))
    const out: HisTicket[] = []
    for (const { ticket, queue } of rows) {
      const [ahead] =
        ticket.status === 'waiting'
          ? await q
              .select({ n: count() })
              .from(hisQueueTickets)
              .where(and(eq(hisQueueTickets.queueId, queue.id), eq(hisQueueTickets.status, 'waiting'), lt(hisQueueTickets.seq, ticket.seq)))
          : [{ n: 0 }]
      out.push({
        kind: queue.kind,
        place: queue.place,
        window: queue.window,
        location: queue.location,
        ticketNo: ticketNoOf(queue.prefix, ticket.seq),
        ahead: ahead?.n ?? 0,
        status: ticket.status,
        billNos: bills.filter((b) => b.place === queue.place).map((b) => b.billNo),
      })
    }
    return out
  }

  async function queueView(q: Db | Tx, queue: typeof hisQueues.$inferSelect): Promise<HisQueueView> {
    const [waiting] = await q
      .select({ n: count() })
      .from(hisQueueTickets)
      .where(and(eq(hisQueueTickets.queueId, queue.id), eq(hisQueueTickets.status, 'waiting')))
    return {
      id: queue.id,
      kind: queue.kind,
      place: queue.place,
      window: queue.window,
      location: queue.location,
      waiting: waiting?.n ?? 0,
      current: queue.lastCalled ? ticketNoOf(queue.prefix, queue.lastCalled) : '',
    }
  }

  const sumOf = (rows: { n: string | number | null }[]) => Number(rows[0]?.n ?? 0)

  async function accountBalance(q: Db | Tx, accountId: number): Promise<number> {
    return sumOf(await q.select({ n: sql<string>`coalesce(sum(${hisAccountEntries.amountFen}), 0)` }).from(hisAccountEntries).where(eq(hisAccountEntries.accountId, accountId)))
  }

  type AdmissionRow = typeof hisAdmissions.$inferSelect
  async function admissionView(q: Db | Tx, row: AdmissionRow): Promise<HisAdmission> {
    const entries = await q
      .select({ kind: hisDepositEntries.kind, n: sql<string>`coalesce(sum(${hisDepositEntries.amountFen}), 0)` })
      .from(hisDepositEntries)
      .where(eq(hisDepositEntries.admissionId, row.id))
      .groupBy(hisDepositEntries.kind)
    const days = await q
      .select({ date: hisDailyCharges.chargeDate, n: sql<string>`coalesce(sum(${hisDailyCharges.amountFen}), 0)` })
      .from(hisDailyCharges)
      .where(eq(hisDailyCharges.admissionId, row.id))
      .groupBy(hisDailyCharges.chargeDate)
      .orderBy(asc(hisDailyCharges.chargeDate))
    const depositFen = Number(entries.find((e) => e.kind === 'deposit')?.n ?? 0)
    const returnedFen = -Number(entries.find((e) => e.kind === 'return')?.n ?? 0)
    const costFen = days.reduce((sum, d) => sum + Number(d.n), 0)
    const balanceFen = depositFen - returnedFen - costFen
    return {
      admissionNo: row.admissionNo,
      deptName: row.deptName,
      ward: row.ward,
      bed: row.bed,
      doctorName: row.doctorName,
      admittedAt: row.admittedAt.toISOString(),
      status: row.status,
      dischargedAt: row.dischargedAt ? row.dischargedAt.toISOString() : null,
      depositFen,
      costFen,
      balanceFen,
      days: days.map((d) => ({ date: d.date, amountFen: Number(d.n) })),
      settlement: row.status === 'discharged' ? { returnedFen, owedFen: Math.max(0, -balanceFen) } : null,
    }
  }

  async function ownAdmission(q: Db | Tx, hospitalCode: string, patient: HisPatient, admissionNo: string): Promise<AdmissionRow | null> {
    const key = patientKey(hospitalCode, patient)
    if (!key) return null
    const [row] = await q
      .select()
      .from(hisAdmissions)
      .where(and(eq(hisAdmissions.hospitalCode, hospitalCode), eq(hisAdmissions.admissionNo, admissionNo), eq(hisAdmissions.patientKey, key)))
    return row ?? null
  }

  /** The catalogue's lines for these items, priced now; refuses unknown codes and absurd quantities. */
  async function pricedLines(hospitalCode: string, items: { code: string; quantity: number }[]): Promise<HisChargeItem[]> {
    const wanted = new Map<string, number>()
    for (const i of items) wanted.set(i.code, (wanted.get(i.code) ?? 0) + i.quantity)
    if (!wanted.size) throw badInput('请选择收费项目')
    const tooMany = [...wanted.entries()].find(([, q]) => q < 1 || q > 999)
    if (tooMany) throw badInput(`收费项目${tooMany[0]}的数量应为1至999`)
    const catalogue = await db
      .select()
      .from(hisPriceItems)
      .where(and(eq(hisPriceItems.hospitalCode, hospitalCode), inArray(hisPriceItems.code, [...wanted.keys()])))
      .orderBy(asc(hisPriceItems.sort))
    const missing = [...wanted.keys()].filter((code) => !catalogue.some((c) => c.code === code))
    if (missing.length) throw badInput(`收费项目不存在：${missing.join('、')}`)
    return catalogue.map((c) => {
      const quantity = wanted.get(c.code)!
      return { code: c.code, name: c.name, spec: c.spec, unit: c.unit, category: c.category as BillCategory, quantity, unitPriceFen: c.priceFen, amountFen: c.priceFen * quantity }
    })
  }

  const provider: SandboxHis = {
    kind: 'sandbox',
    // schedules, places and hospital cards (issue 17)
    ...sandboxRegistration(db, cipher),
    ...sandboxReports(db, cipher, patientKey),
    ...sandboxPhysical(db, cipher, patientKey),
    ...sandboxMedTech(db, cipher, patientKey, toBills),

    async unpaidBills({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return []
      const rows = await db
        .select()
        .from(hisBills)
        .where(and(eq(hisBills.hospitalCode, hospitalCode), eq(hisBills.patientKey, key), eq(hisBills.status, 'unpaid')))
        .orderBy(asc(hisBills.orderedAt), asc(hisBills.id))
      return toBills(db, rows)
    },

    async bills({ hospitalCode, patient, billNos }) {
      const key = patientKey(hospitalCode, patient)
      if (!key || !billNos.length) return []
      const rows = await db
        .select()
        .from(hisBills)
        .where(and(eq(hisBills.hospitalCode, hospitalCode), eq(hisBills.patientKey, key), inArray(hisBills.billNo, billNos)))
        .orderBy(asc(hisBills.id))
      return toBills(db, rows)
    },

    async settle(tx, input) {
      // bills in a fixed order, then queues in a fixed order: two settlements never wait on each other in a circle
      const rows = await tx
        .select()
        .from(hisBills)
        .where(and(eq(hisBills.hospitalCode, input.hospitalCode), inArray(hisBills.billNo, input.billNos)))
        .orderBy(asc(hisBills.id))
        .for('update')
      if (rows.length !== new Set(input.billNos).size) throw badInput(BILL_NOT_UNPAID)
      // a copy of a settlement already made answers as the first one did
      if (rows.every((r) => r.status === 'paid' && r.orderNo === input.orderNo)) return ticketsOf(tx, input.hospitalCode, input.orderNo)
      if (rows.some((r) => r.status !== 'unpaid')) throw badInput(BILL_NOT_UNPAID)
      if (new Set(rows.map((r) => r.patientKey)).size !== 1) throw badInput('缴费单不属于同一就诊人')
      if (rows.reduce((sum, r) => sum + r.amountFen, 0) !== input.amountFen) throw badInput('缴费金额与缴费单不符，费用将原路退回')
      if (input.channel === 'account') {
        // paid from the outpatient account: the account row is the lock, its entries the balance (bills first, then it)
        const [account] = await tx
          .select()
          .from(hisAccounts)
          .where(and(eq(hisAccounts.hospitalCode, input.hospitalCode), eq(hisAccounts.patientKey, rows[0]!.patientKey)))
          .for('update')
        const balance = account ? await accountBalance(tx, account.id) : 0
        if (!account || balance < input.amountFen) throw badInput(accountShort(balance, input.amountFen))
        await tx.insert(hisAccountEntries).values({ accountId: account.id, kind: 'payment', amountFen: -input.amountFen, orderNo: input.orderNo, memo: '门诊缴费' })
      }
      await tx
        .update(hisBills)
        .set({ status: 'paid', orderNo: input.orderNo, paidAt: input.paidAt })
        .where(inArray(hisBills.id, rows.map((r) => r.id)))
      const places = [...new Set(rows.map((r) => r.place).filter((p) => HIS_PLACES[p]))].sort()
      for (const place of places) {
        // the window of the place with the fewest waiting takes the patient
        const [queue] = await tx
          .select()
          .from(hisQueues)
          .where(and(eq(hisQueues.hospitalCode, input.hospitalCode), eq(hisQueues.place, place), eq(hisQueues.open, true)))
          .orderBy(sql`${hisQueues.lastIssued} - ${hisQueues.lastCalled}`, asc(hisQueues.id))
          .limit(1)
        if (!queue) continue
        const [issued] = await tx
          .update(hisQueues)
          .set({ lastIssued: sql`${hisQueues.lastIssued} + 1` })
          .where(eq(hisQueues.id, queue.id))
          .returning({ seq: hisQueues.lastIssued })
        await tx.insert(hisQueueTickets).values({ queueId: queue.id, seq: issued!.seq, orderNo: input.orderNo, patientKey: rows[0]!.patientKey, status: 'waiting' })
      }
      return ticketsOf(tx, input.hospitalCode, input.orderNo)
    },

    async refund(tx, input) {
      const rows = await tx
        .select()
        .from(hisBills)
        .where(and(eq(hisBills.hospitalCode, input.hospitalCode), inArray(hisBills.billNo, input.billNos)))
        .orderBy(asc(hisBills.id))
        .for('update')
      if (rows.length !== new Set(input.billNos).size || rows.some((r) => r.orderNo !== input.orderNo)) throw badInput('缴费单与订单不符')
      if (rows.every((r) => r.status === 'refunded')) return
      if (rows.some((r) => r.performedAt !== null)) throw badInput(ALREADY_PERFORMED)
      if (rows.some((r) => r.status !== 'paid')) throw badInput('缴费单状态不允许退费')
      await tx
        .update(hisBills)
        .set({ status: 'refunded', refundedAt: new Date() })
        .where(inArray(hisBills.id, rows.map((r) => r.id)))
      await tx
        .update(hisQueueTickets)
        .set({ status: 'cancelled' })
        .where(and(eq(hisQueueTickets.orderNo, input.orderNo), eq(hisQueueTickets.status, 'waiting')))
      // paid from the account: the money goes back to it
      const [paid] = await tx.select().from(hisAccountEntries).where(and(eq(hisAccountEntries.orderNo, input.orderNo), eq(hisAccountEntries.kind, 'payment')))
      if (paid) {
        await tx
          .insert(hisAccountEntries)
          .values({ accountId: paid.accountId, kind: 'refund', amountFen: -paid.amountFen, orderNo: input.orderNo, memo: '门诊退费' })
          .onConflictDoNothing()
      }
    },

    async account({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) throw badInput(NO_PATIENT_KEY)
      // every card has its account: the first question opens it
      await db
        .insert(hisAccounts)
        .values({ hospitalCode, accountNo: `A${String(randomInt(1e12)).padStart(12, '0')}`, patientKey: key, patientNameEnc: cipher.encrypt(patient.name) })
        .onConflictDoNothing()
      const [account] = await db.select().from(hisAccounts).where(and(eq(hisAccounts.hospitalCode, hospitalCode), eq(hisAccounts.patientKey, key)))
      return { accountNo: account!.accountNo, balanceFen: await accountBalance(db, account!.id) }
    },

    async creditAccount(tx, input): Promise<HisAccount> {
      const [account] = await tx
        .select()
        .from(hisAccounts)
        .where(and(eq(hisAccounts.hospitalCode, input.hospitalCode), eq(hisAccounts.accountNo, input.accountNo)))
        .for('update')
      if (!account) throw badInput(ACCOUNT_MISSING)
      const [copy] = await tx
        .select()
        .from(hisAccountEntries)
        .where(and(eq(hisAccountEntries.accountId, account.id), eq(hisAccountEntries.orderNo, input.orderNo), eq(hisAccountEntries.kind, 'recharge')))
      if (copy && copy.amountFen !== input.amountFen) throw badInput('充值金额与订单不符')
      if (!copy) await tx.insert(hisAccountEntries).values({ accountId: account.id, kind: 'recharge', amountFen: input.amountFen, orderNo: input.orderNo, memo: '门诊预交金充值' })
      return { accountNo: account.accountNo, balanceFen: await accountBalance(tx, account.id) }
    },

    async admissions({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return []
      const rows = await db
        .select()
        .from(hisAdmissions)
        .where(and(eq(hisAdmissions.hospitalCode, hospitalCode), eq(hisAdmissions.patientKey, key)))
        .orderBy(sql`${hisAdmissions.admittedAt} desc`, sql`${hisAdmissions.id} desc`)
        .limit(10)
      return Promise.all(rows.map((r) => admissionView(db, r)))
    },

    async dailyCharges({ hospitalCode, patient, admissionNo, date }) {
      const admission = await ownAdmission(db, hospitalCode, patient, admissionNo)
      if (!admission) return null
      const rows = await db
        .select()
        .from(hisDailyCharges)
        .where(and(eq(hisDailyCharges.admissionId, admission.id), eq(hisDailyCharges.chargeDate, date)))
        .orderBy(asc(hisDailyCharges.id))
      return rows.map((r) => ({ code: r.code, name: r.name, spec: r.spec, unit: r.unit, category: r.category as BillCategory, quantity: r.quantity, unitPriceFen: r.unitPriceFen, amountFen: r.amountFen }))
    },

    async dischargeSettlement({ hospitalCode, patient, admissionNo }) {
      const admission = await ownAdmission(db, hospitalCode, patient, admissionNo)
      if (!admission) return null
      if (admission.status !== 'discharged' || !admission.dischargedAt) return { settled: null }
      const view = await admissionView(db, admission)
      const deposits = await db
        .select({ channel: hisDepositEntries.channel, amountFen: hisDepositEntries.amountFen })
        .from(hisDepositEntries)
        .where(and(eq(hisDepositEntries.admissionId, admission.id), eq(hisDepositEntries.kind, 'deposit')))
        .orderBy(sql`${hisDepositEntries.at} desc`, sql`${hisDepositEntries.id} desc`)
      const categories = await db
        .select({ category: hisDailyCharges.category, n: sql<string>`coalesce(sum(${hisDailyCharges.amountFen}), 0)` })
        .from(hisDailyCharges)
        .where(eq(hisDailyCharges.admissionId, admission.id))
        .groupBy(hisDailyCharges.category)
      const returnedFen = view.settlement?.returnedFen ?? 0
      return {
        settled: {
          admissionNo: admission.admissionNo,
          dischargedAt: admission.dischargedAt.toISOString(),
          costFen: view.costFen,
          depositFen: view.depositFen,
          returnedFen,
          owedFen: view.settlement?.owedFen ?? 0,
          returns: settlementReturns(returnedFen, deposits),
          categories: categories
            .map((c) => ({ category: c.category as BillCategory, amountFen: Number(c.n) }))
            .filter((c) => c.amountFen > 0)
            .sort((a, b) => b.amountFen - a.amountFen || a.category.localeCompare(b.category)),
        },
      }
    },

    async deposit(tx, input) {
      const [admission] = await tx
        .select()
        .from(hisAdmissions)
        .where(and(eq(hisAdmissions.hospitalCode, input.hospitalCode), eq(hisAdmissions.admissionNo, input.accountNo)))
        .for('update')
      if (!admission) throw badInput('住院记录不存在，费用将原路退回')
      const [copy] = await tx
        .select()
        .from(hisDepositEntries)
        .where(and(eq(hisDepositEntries.admissionId, admission.id), eq(hisDepositEntries.orderNo, input.orderNo), eq(hisDepositEntries.kind, 'deposit')))
      if (copy) {
        if (copy.amountFen !== input.amountFen) throw badInput('预交金额与订单不符')
        return admissionView(tx, admission)
      }
      if (admission.status !== 'in') throw badInput(ALREADY_DISCHARGED)
      await tx.insert(hisDepositEntries).values({ admissionId: admission.id, kind: 'deposit', amountFen: input.amountFen, orderNo: input.orderNo, channel: input.channel, at: input.paidAt })
      return admissionView(tx, admission)
    },

    async admit(input, now = new Date()) {
      const key = patientKey(input.hospitalCode, input.patient)
      if (!key) throw badInput(NO_PATIENT_KEY)
      try {
        const [row] = await db
          .insert(hisAdmissions)
          .values({
            hospitalCode: input.hospitalCode,
            admissionNo: `ZY${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1e8)).padStart(8, '0')}`,
            patientKey: key,
            patientNameEnc: cipher.encrypt(input.patient.name),
            deptName: input.deptName,
            ward: input.ward,
            bed: input.bed,
            doctorName: input.doctorName,
            admittedAt: now,
            status: 'in',
          })
          .returning()
        return admissionView(db, row!)
      } catch (err) {
        if (uniqueViolation(err) === 'his_admissions_in_key') throw badInput(ALREADY_IN)
        throw err
      }
    },

    async postCharges(input, now = new Date()) {
      const lines = await pricedLines(input.hospitalCode, input.items)
      return db.transaction(async (tx) => {
        const [admission] = await tx
          .select()
          .from(hisAdmissions)
          .where(and(eq(hisAdmissions.hospitalCode, input.hospitalCode), eq(hisAdmissions.admissionNo, input.admissionNo)))
          .for('update')
        if (!admission) throw notFound('住院记录')
        if (admission.status !== 'in') throw badInput('该患者已出院，不能再记账')
        if (input.date < hospitalToday(admission.admittedAt) || input.date > hospitalToday(now)) throw badInput('记账日期应在入院日期与今天之间')
        await tx.insert(hisDailyCharges).values(lines.map((l) => ({ ...l, admissionId: admission.id, chargeDate: input.date, postedAt: now })))
        return admissionView(tx, admission)
      })
    },

    async discharge(hospitalCode, admissionNo, now = new Date()) {
      return db.transaction(async (tx) => {
        const [admission] = await tx
          .select()
          .from(hisAdmissions)
          .where(and(eq(hisAdmissions.hospitalCode, hospitalCode), eq(hisAdmissions.admissionNo, admissionNo)))
          .for('update')
        if (!admission) throw notFound('住院记录')
        if (admission.status === 'discharged') return admissionView(tx, admission)
        const before = await admissionView(tx, admission)
        // what is left of the deposits goes back to the patient; what the deposits did not cover stays owed
        if (before.balanceFen > 0) {
          await tx.insert(hisDepositEntries).values({ admissionId: admission.id, kind: 'return', amountFen: -before.balanceFen, orderNo: `OUT${admission.admissionNo}`, channel: 'return', at: now })
        }
        const [done] = await tx.update(hisAdmissions).set({ status: 'discharged', dischargedAt: now }).where(eq(hisAdmissions.id, admission.id)).returning()
        return admissionView(tx, done!)
      })
    },

    async consoleAdmissions(hospitalCode) {
      const rows = await db
        .select()
        .from(hisAdmissions)
        .where(eq(hisAdmissions.hospitalCode, hospitalCode))
        .orderBy(sql`${hisAdmissions.status} = 'in' desc`, sql`${hisAdmissions.admittedAt} desc`)
        .limit(100)
      return Promise.all(rows.map(async (r) => ({ ...(await admissionView(db, r)), patientName: maskName(cipher.decrypt(r.patientNameEnc)) })))
    },

    async consoleAdmission(hospitalCode, admissionNo) {
      const [row] = await db
        .select()
        .from(hisAdmissions)
        .where(and(eq(hisAdmissions.hospitalCode, hospitalCode), eq(hisAdmissions.admissionNo, admissionNo)))
      return row ? { ...(await admissionView(db, row)), patientName: maskName(cipher.decrypt(row.patientNameEnc)) } : null
    },

    tickets: ({ hospitalCode, orderNo }) => ticketsOf(db, hospitalCode, orderNo),

    async prices({ hospitalCode, keyword, category, page, size }) {
      const where = and(
        eq(hisPriceItems.hospitalCode, hospitalCode),
        category ? eq(hisPriceItems.category, category) : undefined,
        keyword ? or(ilike(hisPriceItems.name, likeText(keyword)), ilike(hisPriceItems.code, likeText(keyword))) : undefined,
      )
      const [total] = await db.select({ n: count() }).from(hisPriceItems).where(where)
      const rows = await db
        .select()
        .from(hisPriceItems)
        .where(where)
        .orderBy(asc(hisPriceItems.sort))
        .limit(size)
        .offset((page - 1) * size)
      const records: HisPriceItem[] = rows.map((r) => ({
        code: r.code,
        name: r.name,
        spec: r.spec,
        unit: r.unit,
        priceFen: r.priceFen,
        category: r.category as BillCategory,
        categoryName: categoryNameOf(r.code),
      }))
      return { records, total: total?.n ?? 0 }
    },

    async issueOrders(input, now = new Date()) {
      const key = patientKey(input.hospitalCode, input.patient)
      if (!key) throw badInput(NO_PATIENT_KEY)
      const wanted = new Map<string, number>()
      for (const i of input.items) wanted.set(i.code, (wanted.get(i.code) ?? 0) + i.quantity)
      if (!wanted.size) throw badInput('请选择收费项目')
      const catalogue = await db
        .select()
        .from(hisPriceItems)
        .where(and(eq(hisPriceItems.hospitalCode, input.hospitalCode), inArray(hisPriceItems.code, [...wanted.keys()])))
      const missing = [...wanted.keys()].filter((code) => !catalogue.some((c) => c.code === code))
      if (missing.length) throw badInput(`收费项目不存在：${missing.join('、')}`)
      const tooMany = [...wanted.entries()].find(([, q]) => q > 999)
      if (tooMany) throw badInput(`收费项目${tooMany[0]}的数量不能超过999`)
      const byPlace = new Map<string, (typeof catalogue)[number][]>()
      for (const item of [...catalogue].sort((a, b) => a.sort - b.sort)) byPlace.set(item.place, [...(byPlace.get(item.place) ?? []), item])
      const attempt = () =>
        db.transaction(async (tx) => {
          const made: BillRow[] = []
          for (const [place, items] of byPlace) {
            const lines = items.map((c) => {
              const quantity = wanted.get(c.code)!
              return { code: c.code, name: c.name, spec: c.spec, unit: c.unit, quantity, unitPriceFen: c.priceFen, amountFen: c.priceFen * quantity }
            })
            const [bill] = await tx
              .insert(hisBills)
              .values({
                hospitalCode: input.hospitalCode,
                billNo: newBillNo(now),
                patientKey: key,
                patientNameEnc: cipher.encrypt(input.patient.name),
                visitNo: input.visitNo,
                visitDate: input.visitDate,
                deptName: input.deptName,
                doctorName: input.doctorName,
                title: HIS_PLACES[place]?.title ?? SERVICE_BILL_TITLE,
                category: items[0]!.category,
                place,
                amountFen: lines.reduce((sum, l) => sum + l.amountFen, 0),
                status: 'unpaid',
                orderedAt: now,
              })
              .returning()
            await tx.insert(hisBillItems).values(lines.map((l) => ({ ...l, billId: bill!.id })))
            made.push(bill!)
          }
          return made
        })
      let made: BillRow[]
      try {
        made = await attempt()
      } catch (err) {
        // ten random digits a day: a second draw is all a collision ever needs
        if (uniqueViolation(err) !== 'his_bills_bill_no_key') throw err
        made = await attempt()
      }
      return toBills(db, made)
    },

    async selfServiceOrder(input, now = new Date()) {
      const key = patientKey(input.hospitalCode, input.patient)
      if (!key) throw badInput(NO_PATIENT_KEY)
      // the request's visit: its bills, whatever became of them, answer the same request again
      const madeFor = async () => {
        const rows = await db
          .select()
          .from(hisBills)
          .where(and(eq(hisBills.hospitalCode, input.hospitalCode), eq(hisBills.visitNo, input.requestNo), eq(hisBills.patientKey, key)))
          .orderBy(asc(hisBills.id))
        return rows.length ? toBills(db, rows) : null
      }
      const before = await madeFor()
      if (before) return before
      const lines = await pricedLines(input.hospitalCode, input.items)
      const places = await db
        .select({ code: hisPriceItems.code, place: hisPriceItems.place })
        .from(hisPriceItems)
        .where(and(eq(hisPriceItems.hospitalCode, input.hospitalCode), inArray(hisPriceItems.code, lines.map((l) => l.code))))
      const byPlace = new Map<string, HisChargeItem[]>()
      for (const line of lines) {
        const place = places.find((p) => p.code === line.code)?.place ?? ''
        byPlace.set(place, [...(byPlace.get(place) ?? []), line])
      }
      // each place's bill number follows from the request: two racing copies of one request collide on the unique
      // bill number, and the second answers the first's bills
      const billNoFor = (place: string) => {
        const digest = Buffer.from(cipher.blindIndex(`his:self:${input.hospitalCode}:${input.requestNo}:${place}`), 'base64url')
        return `B${hospitalToday(now).replace(/-/g, '')}${String(digest.readBigUInt64BE(0) % 10_000_000_000n).padStart(10, '0')}`
      }
      try {
        await db.transaction(async (tx) => {
          for (const [place, items] of byPlace) {
            const [bill] = await tx
              .insert(hisBills)
              .values({
                hospitalCode: input.hospitalCode,
                billNo: billNoFor(place),
                patientKey: key,
                patientNameEnc: cipher.encrypt(input.patient.name),
                visitNo: input.requestNo,
                visitDate: hospitalToday(now),
                deptName: SELF_SERVICE_DEPT,
                doctorName: SELF_SERVICE_DEPT,
                title: HIS_PLACES[place]?.title ?? SERVICE_BILL_TITLE,
                category: items[0]!.category,
                place,
                amountFen: items.reduce((sum, l) => sum + l.amountFen, 0),
                status: 'unpaid',
                orderedAt: now,
              })
              .returning()
            await tx.insert(hisBillItems).values(
              items.map((l) => ({ billId: bill!.id, code: l.code, name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPriceFen: l.unitPriceFen, amountFen: l.amountFen })),
            )
          }
        })
      } catch (err) {
        if (uniqueViolation(err) !== 'his_bills_bill_no_key') throw err
        const raced = await madeFor()
        if (raced) return raced
        throw err
      }
      return (await madeFor())!
    },

    async queues(hospitalCode) {
      const rows = await db.select().from(hisQueues).where(eq(hisQueues.hospitalCode, hospitalCode)).orderBy(asc(hisQueues.id))
      return Promise.all(rows.map((q) => queueView(db, q)))
    },

    async callNext(hospitalCode, queueId, now = new Date()) {
      return db.transaction(async (tx) => {
        const [queue] = await tx
          .select()
          .from(hisQueues)
          .where(and(eq(hisQueues.id, queueId), eq(hisQueues.hospitalCode, hospitalCode)))
          .for('update')
        if (!queue) throw notFound('队列')
        await tx
          .update(hisQueueTickets)
          .set({ status: 'done' })
          .where(and(eq(hisQueueTickets.queueId, queue.id), eq(hisQueueTickets.status, 'called')))
        const [next] = await tx
          .select()
          .from(hisQueueTickets)
          .where(and(eq(hisQueueTickets.queueId, queue.id), eq(hisQueueTickets.status, 'waiting')))
          .orderBy(asc(hisQueueTickets.seq))
          .limit(1)
        if (!next) return { queue: await queueView(tx, queue), called: null }
        await tx.update(hisQueueTickets).set({ status: 'called', calledAt: now }).where(eq(hisQueueTickets.id, next.id))
        const [updated] = await tx.update(hisQueues).set({ lastCalled: next.seq }).where(eq(hisQueues.id, queue.id)).returning()
        // called to the window: the drugs are handed over, the sample taken, the examination done
        const bills = await tx
          .update(hisBills)
          .set({ performedAt: now })
          .where(and(eq(hisBills.orderNo, next.orderNo), eq(hisBills.place, queue.place), eq(hisBills.hospitalCode, hospitalCode), isNull(hisBills.performedAt)))
          .returning({ nameEnc: hisBills.patientNameEnc })
        const [any] = bills.length
          ? bills
          : await tx
              .select({ nameEnc: hisBills.patientNameEnc })
              .from(hisBills)
              .where(and(eq(hisBills.orderNo, next.orderNo), eq(hisBills.hospitalCode, hospitalCode)))
              .limit(1)
        return {
          queue: await queueView(tx, updated!),
          called: { ticketNo: ticketNoOf(queue.prefix, next.seq), patientName: any ? maskName(cipher.decrypt(any.nameEnc)) : '' },
        }
      })
    },
  }
  return provider
}

