import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import ActionBar from '@/components/ActionBar'
import { countdownText, msUntil, yuan } from '@/utils/register'
import type { Registration } from '../../../types/api/register'
import './index.scss'

/** Milliseconds left until `iso`, ticking every second; calls `onEnd` once when it reaches zero. */
export function useCountdown(iso: string | null | undefined, onEnd?: () => void): number {
  const [left, setLeft] = useState(() => msUntil(iso))
  const endRef = useRef(onEnd)
  endRef.current = onEnd
  useEffect(() => {
    let ended = false
    const tick = () => {
      const ms = msUntil(iso)
      setLeft(ms)
      if (ms <= 0 && !ended) {
        ended = true
        endRef.current?.()
      }
      return ms
    }
    if (tick() <= 0) return
    const timer = setInterval(() => {
      if (tick() <= 0) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [iso])
  return left
}

/** Why a hold can no longer be paid, once its time has run out. */
export const HOLD_EXPIRED = '支付已超时，号源已释放，请重新预约'

interface Props {
  registration: Registration
  paying: boolean
  onPay: () => void
  /** The hold ran out while the page was open (the page asks the server how the registration now stands). */
  onExpire?: () => void
}

/**
 * A held slot waiting for payment: the time left as mm:ss, and the amount with 去支付 in the action bar. Once the time is up the button is
 * disabled and says why, whatever the server has yet to close.
 */
export default function HoldPay({ registration, paying, onPay, onExpire }: Props) {
  const left = useCountdown(registration.holdExpiresAt, onExpire)
  const expired = left <= 0
  const amount = registration.order?.selfPayFen ?? registration.feeFen
  return (
    <>
      <View className='hold-pay'>
        {expired ? (
          <View className='hold-pay__expired' role='alert'>
            {HOLD_EXPIRED}
          </View>
        ) : (
          <Text className='hold-pay__tip'>
            号源已为您保留，请在 <Text className='hold-pay__time'>{countdownText(left)}</Text> 内完成支付，超时将自动取消
          </Text>
        )}
      </View>
      {/* the time left stays in view beside 去支付 while the page scrolls */}
      <ActionBar amount={{ label: '应付', value: yuan(amount) }} note={expired ? null : `剩余支付时间 ${countdownText(left)}`} live={false}>
        <Button type='primary' block disabled={expired || paying} onClick={onPay}>
          {paying ? '支付中...' : '去支付'}
        </Button>
      </ActionBar>
    </>
  )
}
