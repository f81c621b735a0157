import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import './index.scss'

interface Props {
  /** What the patient will pay, on the left: 「合计 ¥25.00」. Left out, the button takes the whole width. */
  amount?: { label: string; value: string }
  /** Why the button cannot be used yet, or what happens next, above the button where the patient is looking. */
  note?: string | null
  /**
   * Whether a screen reader says the note when it changes (a blocker, yes). A countdown that changes every second is
   * not: it would talk over everything else.
   */
  live?: boolean
  /** The action: one Button (or two side by side). */
  children: ReactNode
}

/**
 * The one action of a form or an order (确认挂号, 确认添加, 提交并支付, 去支付) in a bar at the foot of the screen, as
 * hospital apps draw it: it stays in view while the form scrolls (sticky, so it never covers the end of the form and
 * needs no spacer), with the amount beside it and a button 48 CSS pixels tall (more in elder mode). Place it as the
 * last child of the page's content.
 */
export default function ActionBar({ amount, note, live = true, children }: Props) {
  return (
    <View className='action-bar'>
      {note && (
        <View className='action-bar__note' role={live ? 'status' : undefined}>
          {note}
        </View>
      )}
      <View className='action-bar__row'>
        {amount && (
          <Text className='action-bar__amount'>
            {amount.label} <Text className='action-bar__money'>{amount.value}</Text>
          </Text>
        )}
        <View className={`action-bar__action${amount ? '' : ' action-bar__action--wide'}`}>{children}</View>
      </View>
    </View>
  )
}
