import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { Close } from '@nutui/icons-react-taro'
import Tappable from '../Tappable'
import './index.scss'

/**
 * A sheet over the page, from the bottom: a dialog named by its title, closed by its 关闭 button or by tapping the
 * dimmed page behind it. `aside` sits beside the title (a count, a hint).
 */
export default function Sheet({ title, aside, onClose, children }: { title: string; aside?: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <View className='sheet'>
      <Tappable className='sheet__mask' label='关闭' onTap={onClose} />
      <View className='sheet__panel' role='dialog' aria-modal='true' aria-label={title}>
        <View className='sheet__head'>
          <Text className='sheet__title'>{title}</Text>
          {aside}
          <Tappable className='sheet__close' label='关闭' onTap={onClose}>
            <Close aria-hidden='true' />
          </Tappable>
        </View>
        {children}
      </View>
    </View>
  )
}
