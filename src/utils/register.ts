import { fenToYuan } from './number'

/** Registration display rules that need no store: money, the hold countdown, the doctor remark, schedule grouping. */

/** An amount in fen as the patients read it: '¥12.30' (spec §9: integer fen in, two decimals out, no float maths). */
export const yuan = (fen: number): string => `¥${fenToYuan(fen)}`

/** Milliseconds from `now` until an ISO instant; 0 once it has passed, or when there is none or it cannot be read. */
export function msUntil(iso: string | null | undefined, now: number = Date.now()): number {
  if (!iso) return 0
  const at = Date.parse(iso)
  if (!Number.isFinite(at)) return 0
  return Math.max(0, at - now)
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))

/**
 * The hold countdown, mm:ss. Seconds round up, so '00:00' shows only once the hold has really run out
 * (0.2 s left still reads '00:01'); minutes are not capped at 59 (a 90-minute hold reads '90:00').
 */
export function countdownText(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 0
  return `${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`
}

/**
 * A search result doctor's remark, "title|hospitalName" (spec §3). Without a bar it is all title; anything after
 * a second bar stays with the hospital name, so a name containing one is not cut.
 */
export function splitRemark(remark: string | null | undefined): { title: string; hospitalName: string } {
  const text = (remark ?? '').trim()
  const bar = text.indexOf('|')
  if (bar < 0) return { title: text, hospitalName: '' }
  return { title: text.slice(0, bar).trim(), hospitalName: text.slice(bar + 1).trim() }
}

/** '2026-11-23' → '11-23' for the date strip; anything else as it came. */
export function shortDate(visitDate: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(visitDate)
  return m ? `${m[1]}-${m[2]}` : visitDate
}

/**
 * A fresh idempotency key for one booking attempt. Random enough that two attempts never share one; uses the
 * platform's UUID where there is one (browsers) and Math.random where there is not (mini-programs).
 */
export function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto
  if (c?.randomUUID) return c.randomUUID()
  let key = ''
  while (key.length < 32) key += Math.random().toString(16).slice(2)
  return key.slice(0, 32)
}

/** The fields of a schedule item the grouping needs. */
interface Scheduled {
  doctorId: number | null
  doctorName: string
  title: string
  avatar: string
  remaining: number
  stopped: boolean
}

export interface DoctorGroup<T extends Scheduled> {
  /** null: the department's general clinic (普通号). */
  doctorId: number | null
  doctorName: string
  title: string
  avatar: string
  items: T[]
  /** Any schedule in the window that can still be booked. */
  available: boolean
}

/**
 * The 按医生 tab: schedule items of many days gathered per doctor, in the order doctors first appear, with the
 * general clinic (doctorId null) as one group of its own.
 */
export function groupByDoctor<T extends Scheduled>(items: T[]): DoctorGroup<T>[] {
  const groups = new Map<number | null, DoctorGroup<T>>()
  for (const item of items) {
    let group = groups.get(item.doctorId)
    if (!group) {
      group = { doctorId: item.doctorId, doctorName: item.doctorName, title: item.title, avatar: item.avatar, items: [], available: false }
      groups.set(item.doctorId, group)
    }
    group.items.push(item)
    if (isBookable(item)) group.available = true
  }
  return [...groups.values()]
}

/** A schedule can be booked when it is not stopped (停诊) and has a number left. */
export const isBookable = (item: { remaining: number; stopped: boolean }) => !item.stopped && item.remaining > 0

/** A CSS modifier for the three states the schedule shows (有号 / 约满 / 停诊). */
export const stateClass = (state: '有号' | '约满' | '停诊') => (state === '有号' ? 'open' : state === '约满' ? 'full' : 'stopped')

/** The fields of a registration the cancel texts read. */
interface Cancellable {
  status: 'holding' | 'booked' | 'cancelled' | 'expired'
  order: { status: string; selfPayFen: number; insuranceFen: number; refundedFen: number } | null
}

/**
 * The question 取消预约 asks, saying what happens to the money: a hold only gives the number back; a paid booking
 * is refunded the way it was paid (the insurance part to the insurance account); a free one just ends.
 */
export function cancelConfirmText(r: Cancellable): string {
  if (r.status === 'holding') return '确定取消本次预约吗？取消后号源将释放给其他患者。'
  const paid = r.order && r.order.status === 'paid'
  if (!paid) return '确定取消预约吗？'
  const parts = [`已支付的${yuan(r.order!.selfPayFen)}将原路退回，预计1-7个工作日到账`]
  if (r.order!.insuranceFen > 0) parts.push(`医保支付的${yuan(r.order!.insuranceFen)}将退回医保账户`)
  return `确定取消预约吗？取消后${parts.join('，')}。`
}

/** What a cancelled registration says about its money, or null when there was none to give back. */
export function refundText(r: Cancellable): string | null {
  const order = r.order
  if (r.status !== 'cancelled' || !order) return null
  if (order.status === 'refunding') return `退款处理中：${yuan(order.selfPayFen)}将原路退回，预计1-7个工作日到账`
  if (order.status === 'refunded') return `已退款${yuan(order.refundedFen || order.selfPayFen)}，已原路退回`
  if (order.status === 'paid') return `退款未成功，${yuan(order.selfPayFen)}尚未退回，请联系医院窗口处理`
  return null
}

/** A record's status colour: what the patient must still do stands out, what is over fades. */
export const statusClass = (r: { status: 'holding' | 'booked' | 'cancelled' | 'expired' }) =>
  r.status === 'holding' ? 'holding' : r.status === 'booked' ? 'booked' : 'over'

/** Order states as the payer reads them (types/api/payment.ts OrderStatus). */
export const ORDER_STATUS_TEXT: Record<string, string> = {
  created: '待支付',
  paying: '支付中',
  paid: '已支付',
  cancelled: '已取消',
  refunding: '退款中',
  refunded: '已退款',
  closed: '已关闭',
}
export const CHANNEL_TEXT: Record<string, string> = { sandbox: '模拟支付', wechat: '微信支付', alipay: '支付宝' }

/** An ISO instant in the phone's own clock, as patients read it: '2026-11-23 09:05'; '' when there is none. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`
}
