import { useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import CountedTextarea from '@/components/CountedTextarea'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PicturePicker from '@/components/PicturePicker'
import Segmented from '@/components/Segmented'
import { useStores } from '@/stores'
import { SuggestionForm } from '@/stores/SuggestionForm'
import { assetUrl } from '@/ui/assets'
import { localTime } from '@/utils/register'
import { SUGGESTION_KINDS, SUGGESTION_MAX, SUGGESTION_PICTURES_MAX, kindLabel } from '@/utils/suggestionRules'
import type { Suggestion } from '../../../types/api/suggestion'
import './index.scss'

/**
 * 投诉建议 (spec §2 /pages/comment/index, §7 POST /userSuggestion): the patient tells the current hospital of a
 * complaint, a suggestion or praise, with up to 4 pictures; below, what they sent before and the hospital's answers
 * (an answer also arrives in the message centre, which opens this page).
 */
function Comment() {
  const { hospital } = useStores()
  const [form] = useState(() => new SuggestionForm())
  const code = hospital.hospital?.hospitalCode
  const load = () => {
    const now = hospital.hospital?.hospitalCode
    return now ? form.mine.load(now).catch(() => undefined) : undefined
  }

  return (
    <PageShell title='投诉建议' onReady={load}>
      {code ? (
        <View className='comment'>
          <View className='comment__card'>
            <Segmented label='反馈类型' options={SUGGESTION_KINDS} value={form.kind} onChange={(k) => form.setKind(k)} />
            <Text className='comment__heading'>反馈内容</Text>
            <CountedTextarea
              className='comment__textarea'
              value={form.content}
              max={SUGGESTION_MAX}
              label='反馈内容'
              placeholder='请描述您遇到的问题或建议，如科室、时间和经过（至少5个字）'
              onInput={(t) => form.setContent(t)}
            />
            <Text className='comment__heading'>图片（选填）</Text>
            <Text className='comment__note'>{`最多${SUGGESTION_PICTURES_MAX}张，仅医院工作人员可见`}</Text>
            <PicturePicker photos={form.photos} />
          </View>
          <Text className='comment__note comment__note--page'>医院回复后将通过消息中心通知您</Text>
          <ActionBar>
            <Button type='primary' block loading={form.attempt.inFlight} onClick={() => void form.submit(code)}>
              提交
            </Button>
          </ActionBar>
          <Text className='comment__section'>我的反馈</Text>
          <MyFeedback form={form} onRetry={() => void load()} />
        </View>
      ) : (
        <NoHospital />
      )}
    </PageShell>
  )
}

const MyFeedback = observer(function MyFeedback({ form, onRetry }: { form: SuggestionForm; onRetry: () => void }) {
  const { mine } = form
  if (mine.state === 'failed' && !mine.value) return <LoadFailed onRetry={onRetry} />
  if (!mine.value) return <Loading />
  if (mine.value.length === 0) return <Empty text='暂无反馈记录' />
  return (
    <View role='list'>
      {mine.value.map((s) => (
        <FeedbackItem key={s.id} item={s} />
      ))}
    </View>
  )
})

function FeedbackItem({ item }: { item: Suggestion }) {
  const answered = item.status === 'answered'
  return (
    <View className='comment__card comment-item' role='listitem'>
      <View className='comment-item__head'>
        <Text className='comment-item__kind'>{kindLabel(item.kind)}</Text>
        <Text className={`comment-item__status${answered ? ' comment-item__status--done' : ''}`}>{answered ? '已回复' : '待回复'}</Text>
      </View>
      <Text className='comment-item__time'>{localTime(item.createdAt)}</Text>
      <Text className='comment-item__content'>{item.content}</Text>
      {item.pictures.length > 0 && (
        <View className='comment-item__pictures'>
          {item.pictures.map((url, i) => (
            <Image key={url} className='comment-item__picture' src={assetUrl(url)} mode='aspectFill' imgProps={{ alt: `第${i + 1}张图片` }} />
          ))}
        </View>
      )}
      {answered && (
        <View className='comment-item__answer'>
          <Text className='comment-item__answer-label'>医院回复</Text>
          <Text className='comment-item__answer-text'>{item.answer}</Text>
          {item.answeredAt && <Text className='comment-item__time'>{localTime(item.answeredAt)}</Text>}
        </View>
      )}
    </View>
  )
}

export default observer(Comment)
