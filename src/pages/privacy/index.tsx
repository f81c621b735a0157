import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import SmsCodeField from '@/components/SmsCodeField'
import { FormGroup } from '@/components/FormField'
import platform from '@/platform'
import { useStores } from '@/stores'
import { confirm, toastError, toastSuccess } from '@/ui/feedback'
import type { AccountCodePurpose } from '@/services/user'
import { isMobile, isPhoneCode } from '@/utils/phoneCode'
import './index.scss'
import { HOME_URL } from '@/pageUrls'

const STEP_TEXT: Record<AccountCodePurpose, { title: string; submit: string }> = {
  export: { title: '下载我的数据', submit: '验证并下载' },
  close: { title: '注销账号', submit: '验证并注销' },
}

/** The file the copy is saved as, named by the hospital's day (e.g. 我的数据-2026-11-25.json). */
const exportFileName = (exportedAt: string) => `我的数据-${exportedAt.slice(0, 10)}.json`

/**
 * 账号与隐私 (under mine; not in the spec: the account holder's rights under PIPL, server/src/domain/account.ts):
 * move the account to a new mobile (spec §7 changeBind), sign out of it on this WeChat / Alipay (cancelBind: the
 * account stays), download everything the
 * hospital holds about the account, and close the account. Each is proven by a code sent to
 * the account's own mobile; closing is refused, with the reason, while a booking, consultation, payment or refund
 * is still under way, and asks once more before it is done.
 */
function Privacy() {
  const { user } = useStores()
  const [step, setStep] = useState<AccountCodePurpose | null>(null)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)

  const open = (purpose: AccountCodePurpose) => {
    setCode('')
    setStep(purpose)
  }

  const submit = async () => {
    if (!step) return
    if (!isPhoneCode(code)) return toastError('请输入6位验证码')
    if (step === 'close' && !(await confirm('注销后无法恢复，您将无法再通过本账号查看就诊人、挂号、问诊和缴费记录。确定注销吗？'))) return
    setBusy(true)
    try {
      if (step === 'export') {
        const copy = await user.exportAccount(code)
        const how = await platform.saveTextFile(exportFileName(copy.exportedAt), JSON.stringify(copy, null, 2), 'application/json')
        toastSuccess(how === 'downloaded' ? '已开始下载' : '已复制到剪贴板')
        setStep(null)
      } else {
        await user.closeAccount(code)
        toastSuccess('账号已注销')
        await Taro.reLaunch({ url: HOME_URL })
      }
    } finally {
      setBusy(false)
    }
  }

  const [changing, setChanging] = useState(false)
  const [newMobile, setNewMobile] = useState('')
  const [newCode, setNewCode] = useState('')
  const changeMobile = async () => {
    if (!isMobile(newMobile)) return toastError('请输入正确的手机号')
    if (!isPhoneCode(newCode)) return toastError('请输入6位验证码')
    setBusy(true)
    try {
      await user.changeMobile(newMobile, newCode)
      toastSuccess('手机号已更换')
      setChanging(false)
      setNewMobile('')
      setNewCode('')
    } finally {
      setBusy(false)
    }
  }

  const signOut = async () => {
    if (!(await confirm('退出后需重新绑定手机号才能挂号、缴费和查看记录。确定退出登录吗？'))) return
    setBusy(true)
    try {
      await user.signOut()
      toastSuccess('已退出登录')
      await Taro.reLaunch({ url: HOME_URL })
    } finally {
      setBusy(false)
    }
  }

  const status = user.closure
  const blocked = !!status?.blockers.length
  return (
    <PageShell title='账号与隐私' onReady={() => user.loadClosure()}>
      <View className='privacy'>
        <FormGroup title='下载我的数据'>
          <Text className='privacy__text'>
            获取医院保存的与您账号有关的全部信息：账号、就诊人、陪护人、地址、挂号、订单与退款、问诊、病历和聊天记录等。文件含完整的身份证号，请妥善保管，不要发给他人。
          </Text>
          <Button className='privacy__button' block onClick={() => open('export')}>
            下载我的数据
          </Button>
        </FormGroup>
        <FormGroup title='更换手机号'>
          <Text className='privacy__text'>当前绑定的手机号{status ? ` ${status.mobile}` : ''}。更换后验证码发送到新手机号，就诊人和各项记录不变。</Text>
          {changing ? (
            <>
              <SmsCodeField variant='form' mobile={newMobile} code={newCode} onMobileChange={setNewMobile} onCodeChange={setNewCode} />
              <Button className='privacy__button' block type='primary' loading={busy} onClick={() => void changeMobile().catch(() => undefined)}>
                确认更换
              </Button>
            </>
          ) : (
            <Button className='privacy__button' block onClick={() => setChanging(true)}>
              更换手机号
            </Button>
          )}
        </FormGroup>
        <FormGroup title='退出登录'>
          <Text className='privacy__text'>
            解除本{platform.authProvider() === 'alipay' ? '支付宝' : '微信'}与账号的绑定。就诊人和各项记录都保留，再次绑定同一手机号即可恢复。
          </Text>
          <Button className='privacy__button' block loading={busy} onClick={() => void signOut().catch(() => undefined)}>
            退出登录
          </Button>
        </FormGroup>
        <FormGroup title='注销账号'>
          <Text className='privacy__text'>
            注销后，全部就诊人将解除绑定，手机号、昵称、头像、地址和陪护人信息将被清除，此手机号可重新注册。病历、处方、问诊和缴费记录依法由医院继续保存（不少于3年），但无法再通过本账号查看。注销后无法恢复。
          </Text>
          {blocked && (
            <View className='privacy__blocked' role='alert'>
              您还有{status!.blockers.join('、')}，请完成或取消后再注销账号
            </View>
          )}
          <Button className='privacy__button privacy__button--quiet-danger' block disabled={!status || blocked} onClick={() => open('close')}>
            注销账号
          </Button>
        </FormGroup>
        {step && status && (
          <FormGroup title={STEP_TEXT[step].title}>
            <Text className='privacy__text'>验证码将发送至您绑定的手机号</Text>
            <SmsCodeField key={step} variant='form' mobile={status.mobile} code={code} onCodeChange={setCode} send={() => user.sendAccountCode(step)} />
            <Button className='privacy__button' block type={step === 'close' ? 'danger' : 'primary'} loading={busy} onClick={() => void submit().catch(() => undefined)}>
              {STEP_TEXT[step].submit}
            </Button>
          </FormGroup>
        )}
      </View>
    </PageShell>
  )
}

export default observer(Privacy)
