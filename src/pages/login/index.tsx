import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Button as NativeButton } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import platform from '@/platform'
import { useStores } from '@/stores'
import SmsCodeField from '@/components/SmsCodeField'
import { toastError, toastSuccess } from '@/ui/feedback'
import { isMobile, isPhoneCode } from '@/utils/phoneCode'
import AgreeCheck from '@/components/AgreeCheck'
import Tappable from '@/components/Tappable'
import { ABOUT_TOPICS } from '../about/topics'
import { aboutTopicUrl } from '@/pageUrls'
import type { Protocols } from '../../../types/api/hospital'
import './index.scss'

const MUST_AGREE = '请先阅读并同意用户协议和隐私政策'

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
  const [agreed, setAgreed] = useState(false)
  // the versions the person is agreeing to; without them (not loaded) the consent page asks after binding
  const [protocols, setProtocols] = useState<Protocols | null>(null)

  /** Binds one way or the other; once bound, back where the patient was going (a declined WeChat sheet stays here). */
  const bindWith = async (bind: () => Promise<unknown>) => {
    if (!agreed) return toastError(MUST_AGREE)
    setBusy(true)
    try {
      if (!(await bind())) return
      // consent is recorded for the account just bound; should this fail, the consent page asks on the next page
      if (protocols) await root.user.agreeToProtocols(protocols).catch(() => undefined)
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
    <PageShell title='绑定手机号' onReady={() => void root.user.loadProtocols().then(setProtocols, () => undefined)}>
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
        <View className='login__agree'>
          <AgreeCheck checked={agreed} onChange={setAgreed} label='我已阅读并同意用户协议和隐私政策'>
            <Text>我已阅读并同意</Text>
            {ABOUT_TOPICS.filter((t) => t.key !== 'about').map((t) => (
              <Tappable key={t.key} inline role='link' className='login__link' onTap={() => void Taro.navigateTo({ url: aboutTopicUrl(t.key) })}>
                《{t.title}》
              </Tappable>
            ))}
          </AgreeCheck>
        </View>
        <Button className='login__submit' type='primary' block loading={busy} onClick={() => void submit().catch(() => undefined)}>
          绑定并登录
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(Login)
