import { View, Text } from '@tarojs/components'
import Tappable from '@/components/Tappable'
import { yuan } from '@/utils/register'
import './StayParts.scss'

/** The parts the pages of a stay share (住院服务, 住院预交金, 出院结算): label rows, amounts, and the ways on. */

export function StayRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='stay__row'>
      <Text className='stay__label'>{label}</Text>
      <Text className={`stay__value${strong ? ' stay__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

/** Amounts side by side, each with its label under it. */
export function StayMoney({ items }: { items: { label: string; fen: number; warn?: boolean }[] }) {
  return (
    <View className='stay__money'>
      {items.map((m) => (
        <View key={m.label} className='stay__money-item'>
          <Text className={`stay__money-value${m.warn ? ' stay__money-value--warn' : ''}`}>{yuan(m.fen)}</Text>
          <Text className='stay__money-label'>{m.label}</Text>
        </View>
      ))}
    </View>
  )
}

export function StayEntries({ entries }: { entries: { title: string; note: string; onTap: () => void }[] }) {
  return (
    <View className='stay__entries'>
      {entries.map((e) => (
        <Tappable key={e.title} className='stay__entry' role='link' onTap={e.onTap}>
          <Text className='stay__entry-title'>{e.title}</Text>
          <Text className='stay__entry-note'>{e.note}</Text>
        </Tappable>
      ))}
    </View>
  )
}
