import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Button as NativeButton } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import platform from '@/platform'
import { useStores } from '@/stores'
import SmsCodeField from '@/components/SmsCodeField'
import { toastError, toastSuccess } from '@/ui/feedback'
import { isMobile, isPhoneCode } from '@/utils/phoneCode'
import './index.scss'

/**
 * Bind user (spec §2 /pages/login/index?sourceType): a mobile number proven by a 6-digit SMS code; in the WeChat
 * mini-program first WeChat's own phone-number button (the number WeChat verified, one tap), the SMS code below it.
 */
function Login() {
  const root = useStores()
  const { params } = useRouter()
  const sourceType = Number(params.sourceType ?? 8)
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)

  /** Binds one way or the other; once bound, back where the patient was going (a declined WeChat sheet stays here). */
  const bindWith = async (bind: () => Promise<unknown>) => {
    setBusy(true)
    try {
      if (!(await bind())) return
      toastSuccess('绑定成功')
      await Taro.reLaunch({ url: root.user.takeRedirect() })
    } finally {
      setBusy(false)
    }
  }

  const submit = async () => {
    if (!isMobile(mobile)) return toastError('请输入正确的手机号')
    if (!isPhoneCode(code)) return toastError('请输入6位验证码')
    await bindWith(() => root.user.bind(mobile, code, sourceType))
  }

  const bindWithPhone = (eventCode: string | undefined) => bindWith(() => root.user.bindWithPhoneButton(eventCode, sourceType))

  return (
    <PageShell title='绑定手机号'>
      <View className='login'>
        <Text className='login__lead'>为保障就医安全，请先绑定本人手机号</Text>
        {platform.phoneButton && (
          <>
            {/* the mini-program's native button: only it can open WeChat's phone-number sheet */}
            <NativeButton
              className='login__phone'
              openType='getPhoneNumber'
              disabled={busy}
              onGetPhoneNumber={(e) => void bindWithPhone((e.detail as { code?: string }).code).catch(() => undefined)}
            >
              微信手机号一键绑定
            </NativeButton>
            <Text className='login__or'>或使用短信验证码绑定</Text>
          </>
        )}
        <SmsCodeField mobile={mobile} code={code} onMobileChange={setMobile} onCodeChange={setCode} />
        <Button className='login__submit' type='primary' block loading={busy} onClick={() => void submit().catch(() => undefined)}>
          绑定并登录
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(Login)
