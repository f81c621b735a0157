import { useEffect, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Input } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import { sendBindCode } from '@/services/auth'
import { toastError, toastSuccess } from '@/services/request'
import { COUNTDOWN_SECONDS, PHONE_CODE_LENGTH, countdownText, isMobile, isPhoneCode } from '@/utils/phoneCode'
import './index.scss'

/** Bind user (spec §2 /pages/login/index?sourceType): a mobile number proven by a 6-digit SMS code. */
function Login() {
  const root = useStores()
  const { params } = useRouter()
  const sourceType = Number(params.sourceType ?? 8)
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [remaining, setRemaining] = useState(0)
  const [started, setStarted] = useState(false)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (remaining <= 0) return
    const t = setTimeout(() => setRemaining((n) => n - 1), 1000)
    return () => clearTimeout(t)
  }, [remaining])

  const sendCode = async () => {
    if (remaining > 0) return
    if (!isMobile(mobile)) return toastError('请输入正确的手机号')
    await sendBindCode(mobile)
    setStarted(true)
    setRemaining(COUNTDOWN_SECONDS)
    toastSuccess('验证码已发送')
  }

  const submit = async () => {
    if (!isMobile(mobile)) return toastError('请输入正确的手机号')
    if (!isPhoneCode(code)) return toastError('请输入6位验证码')
    setBusy(true)
    try {
      await root.user.bind(mobile, code, sourceType)
      toastSuccess('绑定成功')
      await Taro.reLaunch({ url: root.user.takeRedirect() })
    } finally {
      setBusy(false)
    }
  }

  return (
    <PageShell title='绑定手机号'>
      <View className='login'>
        <Text className='login__lead'>为保障就医安全，请先绑定本人手机号</Text>
        <View className='login__field'>
          <Input className='login__input' type='number' maxlength={11} placeholder='请输入手机号' value={mobile} onInput={(e) => setMobile(e.detail.value)} />
        </View>
        <View className='login__field'>
          <Input
            className='login__input'
            type='number'
            maxlength={PHONE_CODE_LENGTH}
            placeholder='请输入验证码'
            value={code}
            onInput={(e) => setCode(e.detail.value)}
          />
          <Text className={`login__code${remaining > 0 ? ' login__code--wait' : ''}`} onClick={() => void sendCode().catch(() => undefined)}>
            {countdownText(remaining, started)}
          </Text>
        </View>
        <Button className='login__submit' type='primary' block loading={busy} onClick={() => void submit().catch(() => undefined)}>
          绑定并登录
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(Login)
