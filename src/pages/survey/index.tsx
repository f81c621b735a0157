import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import ActionBar from '@/components/ActionBar'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { SurveyForm } from '@/stores/SurveyForm'
import { surveyResultUrl } from '@/pageUrls'
import QuestionView from './QuestionView'
import './index.scss'

/**
 * 满意度调查 (spec §2 /pages/survey/index?id=): the survey's questions (single choice as radios, multiple as checkboxes,
 * 1–5 named stars, words with their count); 提交 in the action bar names the required questions still open. Once sent,
 * the answer as given (/pages/survey/result). A survey answered already says 已参与 and offers the answer.
 */
function SurveyPage() {
  const { params } = useRouter()
  const id = Number(params.id)
  const [form] = useState(() => new SurveyForm())
  const survey = form.survey.value
  const submit = async () => {
    const result = await form.submit()
    if (result) void Taro.redirectTo({ url: surveyResultUrl(result.survey.id) })
  }

  const body = () => {
    if (!id) return <Empty text='未找到该调查' />
    if (form.survey.state === 'failed' && !survey) return <LoadFailed onRetry={() => void form.open(id)} />
    if (!survey) return <Loading />
    if (survey.answered && !form.submitted) {
      return <Empty text='您已参与过该调查（已参与），感谢您的反馈' action={{ label: '查看我的回答', onTap: () => void Taro.redirectTo({ url: surveyResultUrl(id) }) }} />
    }
    return (
      <>
        <View className='survey__card'>
          <Text className='survey__title'>{survey.title}</Text>
          <Text className='survey__intro'>{survey.intro}</Text>
          <Text className='survey__hospital'>{survey.hospitalName}</Text>
        </View>
        {form.questions.map((q) => (
          <QuestionView key={q.id} form={form} q={q} />
        ))}
        <ActionBar note={form.refusal}>
          <Button type='primary' block disabled={form.submission.busy} onClick={() => void submit()}>
            {form.submission.busy ? '提交中...' : '提交'}
          </Button>
        </ActionBar>
      </>
    )
  }

  return (
    <PageShell title='满意度调查' onReady={() => (id ? form.open(id) : undefined)}>
      <View className='survey'>{body()}</View>
    </PageShell>
  )
}

export default observer(SurveyPage)
