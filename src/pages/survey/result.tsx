import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { Star } from '@nutui/icons-react-taro'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { newSurveyResult, questionLabel } from '@/stores/SurveyForm'
import { SURVEY_LIST_URL } from '@/pageUrls'
import { SURVEY_RATING_MAX, SURVEY_RATING_TEXT } from '@/utils/surveyRules'
import type { SurveyAnswerItem, SurveyQuestion } from '../../../types/api/survey'
import './index.scss'

function answerText(q: SurveyQuestion, a: SurveyAnswerItem | undefined): string {
  if (!a) return '未作答'
  if (q.kind === 'rating') return `${a.rating}星 ${SURVEY_RATING_TEXT[a.rating ?? 0] ?? ''}`
  if (q.kind === 'text') return a.text ?? ''
  return q.options.filter((o) => a.options?.includes(o.id)).map((o) => o.text).join('、')
}

/** 调查结果 (spec §2 /pages/survey/result?id=): thanks, and the caller's own answer as given. */
function SurveyResultPage() {
  const { params } = useRouter()
  const id = Number(params.id)
  const [result] = useState(newSurveyResult)
  const load = () => (id ? result.load(id).catch(() => undefined) : undefined)
  const r = result.value

  const body = () => {
    if (!id) return <Empty text='未找到该调查' />
    if (result.state === 'failed' && !r) return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    const questions = r.survey.questions
    return (
      <>
        <View className='survey__card survey__thanks' role='status'>
          <Text className='survey__title'>感谢您的参与！</Text>
          <Text className='survey__intro'>{`您已完成「${r.survey.title}」，您的反馈将帮助我们改进服务。`}</Text>
          <Text className='survey__hospital'>{`提交时间：${new Date(r.answeredAt).toLocaleString('zh-CN', { hour12: false })}`}</Text>
        </View>
        {questions.map((q) => {
          const a = r.answers.find((x) => x.questionId === q.id)
          return (
            <View key={q.id} className='survey__card survey-question'>
              <Text className='survey-question__title'>{`${questionLabel(questions, q)} ${q.title}`}</Text>
              {q.kind === 'rating' && a?.rating ? (
                <View className='survey-question__stars survey-question__stars--read' aria-label={answerText(q, a)} role='img'>
                  {Array.from({ length: SURVEY_RATING_MAX }, (_, i) => (
                    <View key={i} className={`survey-star${i < (a.rating ?? 0) ? ' survey-star--on' : ''}`} aria-hidden='true'>
                      <Star size={20} />
                    </View>
                  ))}
                  <Text className='survey-question__score' aria-hidden='true'>
                    {SURVEY_RATING_TEXT[a.rating]}
                  </Text>
                </View>
              ) : (
                <Text className={`survey-question__answer${a ? '' : ' survey-question__answer--none'}`}>{answerText(q, a)}</Text>
              )}
            </View>
          )
        })}
        <View className='survey__back'>
          <Button block onClick={() => void Taro.redirectTo({ url: SURVEY_LIST_URL })}>
            返回调查列表
          </Button>
        </View>
      </>
    )
  }

  return (
    <PageShell title='调查结果' onReady={load}>
      <View className='survey'>{body()}</View>
    </PageShell>
  )
}

export default observer(SurveyResultPage)
