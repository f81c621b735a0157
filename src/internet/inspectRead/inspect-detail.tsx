import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { Loading, LoadFailed } from '@/components/Empty'
import { ApiError } from '@/services/request'
import { HealthToolsStore } from '@/stores/HealthToolsStore'
import { HEALTH_TOOL_DISCLAIMER } from '@/utils/healthTools'
import { INSPECT_READ_URL } from './urls'
import './inspect-detail.scss'

/** One part of the explanation: a heading and its words. */
function Section({ title, text }: { title: string; text: string }) {
  return (
    <View className='inspect-detail__card'>
      <View className='inspect-detail__heading' role='heading' aria-level={2}>
        {title}
      </View>
      <Text className='inspect-detail__text'>{text}</Text>
    </View>
  )
}

/**
 * 检查项目解读 (spec §2 /internet/inspectRead/inspect-detail?id=): one examination item in plain words: its reference
 * range, what it measures, what a high (or positive) and a low value may mean, and what to do.
 */
function InspectDetail() {
  const { params } = useRouter()
  const id = params.id ?? ''
  const [tools] = useState(() => new HealthToolsStore())
  const [missing, setMissing] = useState(false)
  const item = tools.checkItem.value

  const load = async () => {
    setMissing(false)
    if (!id) return setMissing(true)
    try {
      await tools.checkItem.load(id)
    } catch (e) {
      // an item the list no longer has (an old link): say so rather than offer a retry that cannot help
      if (e instanceof ApiError && (e.code === 404 || e.code === 400)) setMissing(true)
    }
  }

  const body = () => {
    if (missing) return <Empty text='没有找到这个检查项目' action={{ label: '查看全部项目', onTap: () => void Taro.redirectTo({ url: INSPECT_READ_URL }) }} />
    if (tools.checkItem.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!item) return <Loading />
    return (
      <View className='inspect-detail'>
        <View className='inspect-detail__head'>
          <View className='inspect-detail__name' role='heading' aria-level={2}>
            {item.name}
          </View>
          <Text className='inspect-detail__abbr'>
            {item.abbr} · {item.category}
          </Text>
          <Text className='inspect-detail__reference'>
            参考范围（成人）：{item.reference}
            {item.unit ? ` ${item.unit}` : ''}
          </Text>
        </View>
        <Section title='这项检查查什么' text={item.measures} />
        <Section title={item.qualitative ? '阳性可能见于' : '偏高可能见于'} text={item.high} />
        {item.low && <Section title='偏低可能见于' text={item.low} />}
        <Section title='怎么办' text={item.advice} />
        <Text className='inspect-detail__note'>{item.note}</Text>
        <Text className='inspect-detail__disclaimer'>{item.disclaimer}。检查结果需要医生结合您的症状和其他检查综合判断。</Text>
      </View>
    )
  }

  return (
    <PageShell title={item?.name ?? '检查项目解读'} onReady={load}>
      {body()}
      {!item && <Text className='inspect-detail__disclaimer'>{HEALTH_TOOL_DISCLAIMER}</Text>}
    </PageShell>
  )
}

export default observer(InspectDetail)
