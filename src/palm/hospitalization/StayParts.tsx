import { useEffect, useRef, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Tappable from '@/components/Tappable'
import type { RechargeStore } from '@/stores/RechargeStore'
import { yuan } from '@/utils/register'
import './StayParts.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * Reads the chosen patient's stay when the page is ready (with `also`, what else the page needs), again when the page
 * shows (back from a top-up) and when another patient is chosen. Answers the page's `load`.
 */
export function useStayLoader(store: RechargeStore, also?: () => Promise<unknown>) {
  const patients = usePatientStore()
  const [ready, setReady] = useState(false)
  const current = patients.current
  /** Whose stay was asked for last: choosing another patient asks again. */
  const shownFor = useRef<number | null>(null)
  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    await Promise.all([store.loadPatient(), also?.()])
    setReady(true)
  }
  useDidShow(() => {
    if (ready) void store.loadPatient()
  })
  useEffect(() => {
    if (!ready || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadPatient()
  }, [current?.id, store, ready])
  return { load }
}

/** 预交金余额不足: said at once to a screen reader (alert), in words, above the stay. */
export function LowDepositWarning({ warning }: { warning: string | null | undefined }) {
  return (
    <View className='stay-warning' role='alert'>
      <Text className='stay-warning__title'>预交金余额不足</Text>
      <Text className='stay-warning__text'>{warning ?? '住院预交金余额不足，请及时缴纳'}</Text>
    </View>
  )
}

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
