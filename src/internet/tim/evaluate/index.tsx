import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Toggle from '@/components/Toggle'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import CountedTextarea from '@/components/CountedTextarea'
import { ScoreStars } from '@/components/EvaluationItem'
import Tappable from '@/components/Tappable'
import { CONTENT_MAX, SCORE_MAX, SCORE_TEXT } from '@/stores/EvaluationStore'
import { assetUrl } from '@/ui/assets'
import './index.scss'
import { useEvaluationStore } from '@/stores/EvaluationStore'

/**
 * 评价医生 (spec §2 /internet/tim/evaluate/index?inquiryId=): 1–5 stars, the tags that go with them (good ones for 4–5,
 * bad ones for 1–3), optional words, 匿名评价 (on by default), 提交评价; then the rating as stored. Once per consultation.
 */
function EvaluatePage() {
  const store = useEvaluationStore()
  const { params } = useRouter()
  const inquiryId = Number(params.inquiryId)
  const load = () => (inquiryId ? store.openEvaluation(inquiryId) : undefined)
  const doctor = store.inquiry?.id === inquiryId ? store.inquiry.doctor : null
  const back = () => void Taro.navigateBack().catch(() => undefined)

  const body = () => {
    if (!inquiryId) return <Empty text='未找到该问诊' />
    if (store.added) {
      const e = store.added.evaluation
      return (
        <View className='evaluate__card evaluate__done'>
          <Text className='evaluate__heading'>您的评价</Text>
          <View className='evaluate__done-score'>
            <ScoreStars score={e.score} />
            <Text className='evaluate__score-text'>{SCORE_TEXT[e.score]}</Text>
          </View>
          {e.tags.length > 0 && (
            <View className='evaluate__tags'>
              {e.tags.map((t) => (
                <Text key={t} className='evaluate__tag evaluate__tag--on'>
                  {t}
                </Text>
              ))}
            </View>
          )}
          {e.content && <Text className='evaluate__text'>{e.content}</Text>}
          <Text className='evaluate__note'>{`显示为：${e.patientName}`}</Text>
          <Text className='evaluate__note'>感谢您的评价，您的反馈将帮助医生更好地为患者服务</Text>
          <View className='evaluate__submit'>
            <Button type='primary' block onClick={back}>
              返回诊室
            </Button>
          </View>
        </View>
      )
    }
    if (store.inquiry?.evaluated) {
      return (
        <Empty text='您已评价过本次问诊' action={{ label: '返回诊室', onTap: back }} />
      )
    }
    if (store.tags.state === 'failed') return <LoadFailed onRetry={() => void store.loadTags()} />
    if (!store.tags.value) return <Loading />
    return (
      <View>
        <View className='evaluate__card'>
          <Text className='evaluate__heading'>本次问诊满意度</Text>
          <View className='evaluate__stars' role='radiogroup' aria-label='评分'>
            {Array.from({ length: SCORE_MAX }, (_, i) => i + 1).map((n) => (
              <Tappable
                key={n}
                role='radio'
                label={`${n}星`}
                checked={store.score === n}
                className={`evaluate__star${n <= store.score ? ' evaluate__star--on' : ''}`}
                onTap={() => store.setScore(n)}
              >
                ★
              </Tappable>
            ))}
          </View>
          <Text className='evaluate__score-text'>{store.score ? SCORE_TEXT[store.score] : '请点击星星为医生评分'}</Text>
          {store.tagOptions.length > 0 && (
            <View className='evaluate__tags' role='group' aria-label='评价标签'>
              {store.tagOptions.map((t) => {
                const on = store.chosenTags.includes(t)
                return (
                  <Tappable key={t} role='checkbox' checked={on} className={`evaluate__tag${on ? ' evaluate__tag--on' : ''}`} onTap={() => store.toggleTag(t)}>
                    {t}
                  </Tappable>
                )
              })}
            </View>
          )}
        </View>

        <View className='evaluate__card'>
          <Text className='evaluate__heading'>评价内容</Text>
          <CountedTextarea
            className='evaluate__textarea'
            value={store.content}
            max={CONTENT_MAX}
            placeholder='说说您对医生的评价（选填）'
            label='评价内容'
            onInput={(v) => store.setContent(v)}
          />
          <View className='evaluate__switch'>
            <Text>匿名评价</Text>
            <Toggle checked={store.anonymous} onChange={(v) => store.setAnonymous(v)} label='匿名评价' />
          </View>
          <Text className='evaluate__note'>{store.anonymous ? '医生主页将显示为匿名用户' : '医生主页将显示您的姓名（部分隐藏）'}</Text>
        </View>

        <View className='evaluate__submit'>
          {store.refusal && (
            <View className='evaluate__refusal' role='alert'>
              {store.refusal}
            </View>
          )}
          <Button type='primary' block disabled={store.submission.busy} onClick={() => void store.submit()}>
            {store.submission.busy ? '提交中...' : '提交评价'}
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='评价医生' onReady={load}>
      <View className='evaluate'>
        {doctor && (
          <View className='evaluate__doctor'>
            <Image className='evaluate__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
            <View>
              <Text className='evaluate__name'>{doctor.doctorName}</Text>
              <Text className='evaluate__title'>{doctor.title}</Text>
              <Text className='evaluate__dept'>{doctor.deptName}</Text>
            </View>
          </View>
        )}
        {body()}
      </View>
    </PageShell>
  )
}

export default observer(EvaluatePage)
