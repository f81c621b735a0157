import { isOrderDescription } from '@/utils/chatRules'
import { timeAgo } from '@/utils/time'
import type { ChatMessage, OrderDescription } from '../../../types/api/chat'

/** The doctor side's marks of a turn in the order (spec §4), shown in the room as centred notes instead of bubbles. */
const ORDER_NOTE: Record<OrderDescription, string> = {
  start: '医生已接诊',
  return: '医生已退诊，费用将原路退回',
  doctorBusy: '医生正在忙，请稍候',
  orderFinished: '问诊已结束',
}

/** A time line goes above a message that comes more than this after the one before (spec §9: under 5 min is 刚刚). */
export const TIME_GAP_MS = 5 * 60 * 1000
const DAY_MS = 24 * 3600 * 1000

export type TimelineItem =
  | { kind: 'time'; key: string; text: string }
  | { kind: 'note'; key: string; text: string }
  | { kind: 'message'; key: string; message: ChatMessage }

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))

/** spec §9 time-ago within a day; older lines add the clock time, so two lines of one day can be told apart. */
export function timeLineText(ts: number, now: number): string {
  const ago = timeAgo(ts, now)
  if (now - ts < DAY_MS) return ago
  const d = new Date(ts)
  return `${ago} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`
}

/**
 * The room's list: messages with a time line before the first and after each pause of more than 5 minutes; the doctor
 * side's marks of a turn in the order (spec §4) as centred notes instead of bubbles.
 */
export function timeline(messages: ChatMessage[], now: number): TimelineItem[] {
  const items: TimelineItem[] = []
  let previous: number | null = null
  for (const m of messages) {
    if (previous === null || m.time - previous > TIME_GAP_MS) items.push({ kind: 'time', key: `t-${m.id}`, text: timeLineText(m.time, now) })
    previous = m.time
    if (isOrderDescription(m.description)) items.push({ kind: 'note', key: m.id, text: ORDER_NOTE[m.description] })
    else items.push({ kind: 'message', key: m.id, message: m })
  }
  return items
}
