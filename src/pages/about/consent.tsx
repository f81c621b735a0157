import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { LoadFailed } from '@/components/Empty'
import { useStores } from '@/stores'
import { confirm, toastSuccess } from '@/ui/feedback'
import { HOME_URL } from '@/pageUrls'
import type { Protocols } from '../../../types/api/hospital'
import './index.scss'

/** Each text's title is a heading under the page's (Taro's Text has no `role` in its types; H5 passes it on). */
const SECTION_HEADING: Record<string, unknown> = { role: 'heading', 'aria-level': '2' }

/**
 * 用户协议与隐私政策 (PIPL art. 14, 17): a bound account whose consent is missing or older than the texts in force
 * reads them here and agrees before going on (RootStore.enterPage sends it here, then back where it was going).
 * Declining is possible: nothing is recorded, and the person may sign out of the account on this phone.
 */
function Consent() {
  const { user } = useStores()
  const [protocols, setProtocols] = useState<Protocols | null>(null)
  const [failed, setFailed] = useState(false)
  const [busy, setBusy] = useState(false)

  const load = async () => {
    setFailed(false)
    try {
      setProtocols(await user.loadProtocols())
    } catch (e) {
      setFailed(true)
      throw e
    }
  }

  const agree = async () => {
    if (!protocols) return
    setBusy(true)
    try {
      await user.agreeToProtocols(protocols)
      toastSuccess('已同意')
      await Taro.reLaunch({ url: user.takeRedirect() })
    } catch {
      // the texts changed while they were being read: show the new ones
      await load().catch(() => undefined)
    } finally {
      setBusy(false)
    }
  }

  const decline = async () => {
    if (!(await confirm('不同意将无法使用在线就医服务。是否退出登录？您的就诊人和记录会保留，再次绑定手机号即可恢复。'))) return
    await user.signOut()
    await Taro.reLaunch({ url: HOME_URL })
  }

  return (
    <PageShell title='用户协议与隐私政策' back={false} onReady={load}>
      {failed && <LoadFailed onRetry={() => void load().catch(() => undefined)} />}
      {protocols && (
        <View className='consent'>
          <Text className='consent__lead'>为保障您的权益，请仔细阅读以下协议。点击“同意并继续”即表示您已阅读并同意全部内容。</Text>
          {[protocols.userAgreement, protocols.privacyPolicy].map((p) => (
            <View key={p.title} className='consent__section'>
              <Text className='consent__title' {...SECTION_HEADING}>
                《{p.title}》
              </Text>
              <Text className='consent__text'>{p.content || '暂无内容'}</Text>
            </View>
          ))}
          <ActionBar>
            <View className='consent__actions'>
              <Button className='consent__decline' block disabled={busy} onClick={() => void decline().catch(() => undefined)}>
                不同意
              </Button>
              <Button className='consent__agree' type='primary' block loading={busy} onClick={() => void agree()}>
                同意并继续
              </Button>
            </View>
          </ActionBar>
        </View>
      )}
    </PageShell>
  )
}

export default observer(Consent)
