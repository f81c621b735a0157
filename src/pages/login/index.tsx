import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import SmsCodeField from '@/components/SmsCodeField'
import { toastError, toastSuccess } from '@/ui/feedback'
import { isMobile, isPhoneCode } from '@/utils/phoneCode'
import './index.scss'

/** Bind user (spec §2 /pages/login/index?sourceType): a mobile number proven by a 6-digit SMS code. */
function Login() {
  const root = useStores()
  const { params } = useRouter()
  const sourceType = Number(params.sourceType ?? 8)
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)

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
        <SmsCodeField mobile={mobile} code={code} onMobileChange={setMobile} onCodeChange={setCode} />
        <Button className='login__submit' type='primary' block loading={busy} onClick={() => void submit().catch(() => undefined)}>
          绑定并登录
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(Login)
