import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, RichText } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { useStores } from '@/stores'
import './introduce.scss'

/**
 * A page of the hospital's rich text (spec §2 /pages/introduce/html?key&title, open to anyone): 就医指南 and the like,
 * from textConfig keys ending in Html, which the server sanitises before any phone gets them.
 */
function IntroduceHtml() {
  const { hospital } = useStores()
  const { params } = useRouter()
  const key = params.key && /^[A-Za-z]+Html$/.test(params.key) ? params.key : 'guideHtml'
  const title = params.title ? decodeURIComponent(params.title) : '就医指南'
  const [html, setHtml] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)

  const load = async () => {
    setFailed(false)
    try {
      setHtml(await hospital.textConfig(key))
    } catch (e) {
      setFailed(true)
      throw e
    }
  }

  const body = () => {
    if (failed && html === null) return <LoadFailed onRetry={() => void load().catch(() => undefined)} />
    if (html === null) return <Loading />
    if (!html) return <Empty text='暂无内容' />
    return (
      <View className='introduce'>
        <View className='introduce__card'>
          <RichText className='introduce__rich' nodes={html} />
        </View>
      </View>
    )
  }

  return (
    <PageShell title={title} onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(IntroduceHtml)
