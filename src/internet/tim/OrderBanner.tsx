import { useEffect } from 'react'
import { View, Text } from '@tarojs/components'
import type { Inquiry, InquiryStatus } from '../../../types/api/inquiry'

/** What the banner says under the status, by state; 问诊中 shows the time left instead. */
export const BANNER_NOTE: Record<Exclude<InquiryStatus, 'inProgress'>, string> = {
  unpaid: '问诊订单待支付，支付后医生即可接诊',
  waiting: '等待医生接诊，医生接诊后会在这里回复您',
  finished: '本次问诊已结束',
  closed: '本次问诊已关闭',
  cancelled: '本次问诊已取消',
}

/** The time left until `endsAt` in hours and minutes (rounded down); '' once it has passed. */
export function timeLeftText(endsAt: string | null, now: number): string {
  const left = endsAt ? Date.parse(endsAt) - now : NaN
  if (!Number.isFinite(left) || left <= 0) return ''
  const hours = Math.floor(left / 3600_000)
  const minutes = Math.floor((left % 3600_000) / 60_000)
  if (hours > 0) return `剩余${hours}小时${minutes}分钟`
  return minutes > 0 ? `剩余${minutes}分钟` : '剩余不足1分钟'
}

interface Props {
  order: Inquiry
  now: number
  /** The service window has run out on this clock: the server is asked to look (it closes the inquiry). */
  onExpired: () => void
}

/** The consultation's state above the messages. */
export default function OrderBanner({ order, now, onExpired }: Props) {
  const open = order.status === 'waiting' || order.status === 'inProgress'
  const expired = open && !!order.serviceEndsAt && Date.parse(order.serviceEndsAt) <= now
  useEffect(() => {
    if (expired) onExpired()
    // once per order state that ran out, not on every tick
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [expired, order.id, order.status])

  const note = order.status === 'inProgress' ? timeLeftText(order.serviceEndsAt, now) || '问诊时间已到' : BANNER_NOTE[order.status]
  return (
    <View className={`room-banner room-banner--${order.status}`} role='status' aria-label='问诊状态'>
      <Text className='room-banner__status'>{order.statusText}</Text>
      <Text className='room-banner__note'>{note}</Text>
    </View>
  )
}
