import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { Text } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import { useStores } from '@/stores'
import { ABOUT_TOPICS } from './topics'
import './index.scss'

/**
 * About / agreements: the text the hospital configures under that key. Before any hospital is chosen (main mode)
 * the platform's texts are those of its first hospital, which runs the platform.
 */
export default function AboutRich() {
  const { params } = useRouter()
  const { hospital } = useStores()
  const key = params.key ?? 'about'
  const [text, setText] = useState<string | null>(null)
  const load = async () => setText(await hospital.textConfig(key))
  return (
    <PageShell title={ABOUT_TOPICS.find((t) => t.key === key)?.title ?? '关于'} onReady={load}>
      {text ? <Text className='about__text'>{text}</Text> : text === '' && <Empty text='暂无内容' />}
    </PageShell>
  )
}
