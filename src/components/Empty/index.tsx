import { View, Text } from '@tarojs/components'
import type { ReactNode } from 'react'
import Tappable from '../Tappable'
import { MSG } from '@/ui/messages'
import './index.scss'

/** An honest empty or failed state: says what is missing and, where there is one, what to do. */
export default function Empty({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <View className='empty'>
      <View className='empty__art' />
      <Text className='empty__text'>{text}</Text>
      {children}
    </View>
  )
}

/** A load that failed (spec §8 加载失败), with 重新加载. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Empty text={MSG.listFailed}>
      <Tappable inline className='empty__retry' onTap={onRetry}>
        重新加载
      </Tappable>
    </Empty>
  )
}

/** A page's content on its way (spec §8 加载中...). */
export function Loading() {
  return <Text className='empty__loading'>{MSG.listLoading}</Text>
}
