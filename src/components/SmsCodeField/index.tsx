import { useEffect, useState } from 'react'
import { View, Input } from '@tarojs/components'
import { useStores } from '@/stores'
import type { SmsPurpose } from '@/services/auth'
import { toastError, toastSuccess } from '@/ui/feedback'
import { COUNTDOWN_SECONDS, PHONE_CODE_LENGTH, countdownText, isMobile } from '@/utils/phoneCode'
import { FormField, FormValue, fieldName } from '../FormField'
import Tappable from '../Tappable'
import './index.scss'

interface Props {
  mobile: string
  code: string
  /** Without it the mobile is shown, not typed: a code to the account's own (masked) number, sent by `send`. */
  onMobileChange?: (mobile: string) => void
  onCodeChange: (code: string) => void
  /** What the code proves: the account's own mobile, or a patient's. */
  purpose?: SmsPurpose
  /** Sends the code another way than a bind code to `mobile` (账号与隐私's codes to the account's own number). */
  send?: () => Promise<unknown>
  /** 'boxed': two white rounded rows (bind page); 'form': labelled rows inside a FormGroup. */
  variant?: 'boxed' | 'form'
  /** The mobile is the account's own, verified already: no code is asked, and the code row says so. */
  verified?: boolean
}

/** What the code row says for the account's own mobile. */
export const VERIFIED_NOTE = '账号手机号已验证，无需验证码'

/**
 * A mobile number and its 6-digit SMS code (spec §5, §9): the code button counts down 60 s and reads
 * 获取验证码 / N秒后重新获取 / 重新获取.
 */
export default function SmsCodeField({ mobile, code, onMobileChange, onCodeChange, purpose = 'bind', variant = 'boxed', send, verified }: Props) {
  const { user } = useStores()
  const [remaining, setRemaining] = useState(0)
  const [started, setStarted] = useState(false)
  const [sending, setSending] = useState(false)

  useEffect(() => {
    if (remaining <= 0) return
    const t = setTimeout(() => setRemaining((n) => n - 1), 1000)
    return () => clearTimeout(t)
  }, [remaining])

  const sendCode = async () => {
    if (remaining > 0 || sending) return
    if (!send && !isMobile(mobile)) return toastError('请输入正确的手机号')
    setSending(true)
    try {
      await (send ? send() : user.sendBindCode(mobile, purpose))
    } finally {
      setSending(false)
    }
    setStarted(true)
    setRemaining(COUNTDOWN_SECONDS)
    toastSuccess('验证码已发送')
  }

  const mobileInput = !onMobileChange ? (
    <FormValue value={mobile} />
  ) : (
    <Input
      className='sms-field__input'
      type='number'
      maxlength={11}
      placeholder='请输入手机号'
      {...fieldName('手机号')}
      value={mobile}
      onInput={(e) => onMobileChange(e.detail.value.trim())}
    />
  )
  const codeInput = (
    <Input
      className='sms-field__input'
      type='number'
      maxlength={PHONE_CODE_LENGTH}
      placeholder='请输入验证码'
      {...fieldName('验证码')}
      value={code}
      onInput={(e) => onCodeChange(e.detail.value.trim())}
    />
  )
  const button = (
    <Tappable inline className={`sms-field__code${remaining > 0 ? ' sms-field__code--wait' : ''}`} onTap={() => void sendCode().catch(() => undefined)}>
      {countdownText(remaining, started)}
    </Tappable>
  )

  if (variant === 'form') {
    return (
      <>
        <FormField label='手机号'>{mobileInput}</FormField>
        {verified ? (
          <FormField label='验证码'>
            <FormValue value={VERIFIED_NOTE} />
          </FormField>
        ) : (
          <FormField label='验证码' extra={button}>
            {codeInput}
          </FormField>
        )}
      </>
    )
  }
  return (
    <View className='sms-field'>
      <View className='sms-field__row'>{mobileInput}</View>
      <View className='sms-field__row'>
        {codeInput}
        {button}
      </View>
    </View>
  )
}
