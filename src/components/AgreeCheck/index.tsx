import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import Tappable from '../Tappable'
import './index.scss'

interface Props {
  checked: boolean
  onChange: (on: boolean) => void
  /** The words after the box (我已阅读并同意 ...); links inside them are their own tappables. */
  children: ReactNode
  /** The accessible name when the words hold links (the box then names itself, the links stay reachable). */
  label?: string
}

/**
 * "我已阅读并同意" before a step that needs the person's agreement (registration notice, sign-in): a checkbox role
 * with its state, keyboard activation through Tappable, a round box that says its state by shape, not colour alone.
 */
export default function AgreeCheck({ checked, onChange, children, label }: Props) {
  return (
    <View className='agree-check'>
      <Tappable className='agree-check__toggle' role='checkbox' checked={checked} label={label} onTap={() => onChange(!checked)}>
        <View className={`agree-check__box${checked ? ' agree-check__box--on' : ''}`} />
        {!label && <Text>{children}</Text>}
      </Tappable>
      {label && <View className='agree-check__words'>{children}</View>}
    </View>
  )
}
