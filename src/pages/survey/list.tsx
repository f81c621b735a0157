import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { ANSWERED_TEXT, newSurveyList } from '@/stores/SurveyForm'
import { surveyResultUrl, surveyUrl } from '@/pageUrls'
import './index.scss'

/**
 * 满意度调查 (spec §2 /pages/survey/list): the current hospital's surveys; one already answered is marked 已参与 and opens
 * the answer as given, any other opens its questions.
 */
function SurveyList() {
  const { hospital } = useStores()
  const code = hospital.hospital?.hospitalCode
  const [list] = useState(newSurveyList)
  // read when the page is ready: the hospital is known only once the startup has run
  const load = () => {
    const now = hospital.hospital?.hospitalCode
    return now ? list.load(now).catch(() => undefined) : undefined
  }

  const body = () => {
    if (!code) return <NoHospital />
    if (list.state === 'failed' && !list.value) return <LoadFailed onRetry={() => void load()} />
    if (!list.value) return <Loading />
    if (list.value.length === 0) return <Empty text='暂无满意度调查' />
    return list.value.map((s) => (
      <Tappable key={s.id} className='survey__card survey-item' onTap={() => void Taro.navigateTo({ url: s.answered ? surveyResultUrl(s.id) : surveyUrl(s.id) })}>
        <View className='survey-item__head'>
          <Text className='survey-item__title'>{s.title}</Text>
          <Text className={`survey-item__mark${s.answered ? ' survey-item__mark--done' : ''}`}>{s.answered ? ANSWERED_TEXT : '去参与 ›'}</Text>
        </View>
        {s.intro && <Text className='survey-item__intro'>{s.intro}</Text>}
        <Text className='survey-item__count'>{`共${s.questionCount}题`}</Text>
      </Tappable>
    ))
  }

  return (
    <PageShell title='满意度调查' onReady={load}>
      <View className='survey'>{body()}</View>
    </PageShell>
  )
}

export default observer(SurveyList)
