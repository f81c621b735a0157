import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import { Button } from '@/components/Button'
import platform from '@/platform'
import { MSG } from '@/ui/messages'
import { webviewUrl } from '@/pageUrls'
import './pacsRedirect.scss'
import { useReportStore } from '@/stores/ReportStore'

/**
 * 云影像 (spec §2 /pages/common/pacsRedirect?id=): asks for the imaging report's viewer link (it works for 30 minutes)
 * and opens it: the browser goes there on H5, a mini-program shows it in its web-view.
 */
function PacsRedirect() {
  const reports = useReportStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const [state, setState] = useState<'loading' | 'failed' | 'ready'>('loading')
  const [url, setUrl] = useState('')

  const open = (link: string) => {
    if (platform.name === 'h5') platform.leaveTo(link)
    else void Taro.redirectTo({ url: webviewUrl(link) })
  }
  const load = async () => {
    setState('loading')
    try {
      const link = await reports.filmUrl(id)
      setUrl(link)
      setState('ready')
      open(link)
    } catch {
      setState('failed')
    }
  }

  return (
    <PageShell title='云影像' onReady={() => (id > 0 ? load() : setState('failed'))}>
      {!(id > 0) ? (
        <Empty text='未找到该检查' />
      ) : state === 'failed' ? (
        <LoadFailed onRetry={() => void load()} text='云影像打开失败' />
      ) : (
        <View className='pacs-redirect'>
          <View className='pacs-redirect__text' role='status'>
            {state === 'loading' ? MSG.pageLoading : '正在打开云影像…'}
          </View>
          {state === 'ready' && (
            <Button block type='primary' onClick={() => open(url)}>
              打开云影像
            </Button>
          )}
        </View>
      )}
    </PageShell>
  )
}

export default observer(PacsRedirect)
