import { View, Text } from '@tarojs/components'
import type { ReactNode } from 'react'
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
