import { useState } from 'react'
import Taro, { useReachBottom, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Segmented from '@/components/Segmented'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { patientImAccount } from '@/utils/chatRules'
import { inquiryStatusClass } from '@/stores/InquiryStore'
import { moreText } from '@/stores/RecordStore'
import { assetUrl } from '@/ui/assets'
import { localTime } from '@/utils/register'
import ChatTimeline from '../tim/ChatTimeline'
import type { ChatRecord, InquiryHistory } from '../../../types/api/consultation'
// the room's message styles (.room-msg, .room__time, .room__note), shared with the assistant chat
import '../tim/chat.scss'
import './index.scss'
import { chatRecordUrl } from '@/pageUrls'
import { useRecordStore } from '@/stores/RecordStore'
import { useInquiryStore } from '@/stores/InquiryStore'

type HistoryKind = 'all' | 'chronic'
const KINDS: { value: HistoryKind; label: string }[] = [
  { value: 'all', label: '全部问诊' },
  { value: 'chronic', label: '复诊续方' },
]

/**
 * 问诊记录 (spec §2 /internet/timHistory/index): the patient's past consultations, newest first, all of them or the
 * renewals (复诊续方, `?kind=chronic` opens on them); with `?inquiryId=` one consultation read back: its steps as a
 * small timeline, then its messages as the room shows them, with no input.
 */
function TimHistory() {
  const records = useRecordStore()
  const inquiry = useInquiryStore()
  const { params } = useRouter()
  const inquiryId = Number(params.inquiryId) || 0
  const [kind, setKind] = useState<HistoryKind>(params.kind === 'chronic' ? 'chronic' : 'all')
  const list = kind === 'chronic' ? inquiry.renewals : records.history
  useReachBottom(() => {
    if (!inquiryId) void list.loadMore()
  })
  const load = () => (inquiryId ? records.loadChatRecord(inquiryId) : list.reload())
  const chooseKind = (next: HistoryKind) => {
    if (next === kind) return
    setKind(next)
    void (next === 'chronic' ? inquiry.renewals : records.history).reload()
  }

  const pastList = () => (
    <View className='tim-history'>
      <View className='tim-history__kinds'>
        <Segmented label='问诊类型' options={KINDS} value={kind} onChange={chooseKind} />
      </View>
      {pastItems()}
    </View>
  )

  const pastItems = () => {
    if (list.empty) return <Empty text={kind === 'chronic' ? '暂无复诊续方记录' : '暂无问诊记录'} />
    if (list.failedEmpty) return <LoadFailed onRetry={() => void list.loadMore(true)} />
    return (
      <>
        {list.items.map((i) => (
          <Tappable key={i.id} className='tim-history__item' onTap={() => void Taro.navigateTo({ url: chatRecordUrl(i.id) })}>
            <View className='tim-history__head'>
              <Text className='tim-history__doctor'>
                {i.doctor.doctorName} <Text className='tim-history__title'>{i.doctor.title}</Text>
              </Text>
              <Text className={`tim-history__status tim-history__status--${inquiryStatusClass(i)}`}>{i.statusText}</Text>
            </View>
            <Text className='tim-history__line'>
              {i.serviceName} · {i.doctor.deptName}
            </Text>
            <Text className='tim-history__line'>就诊人：{i.patientName}</Text>
            <Text className='tim-history__desc'>{i.description}</Text>
            <Text className='tim-history__time'>{localTime(i.finishedAt ?? i.createdAt)}</Text>
          </Tappable>
        ))}
        <Tappable className='tim-history__more' onTap={() => void list.loadMore(true)}>
          {moreText(list.state)}
        </Tappable>
      </>
    )
  }

  const oneRecord = () => {
    const loaded = records.chatRecord.value?.record.inquiryId === inquiryId ? records.chatRecord.value : null
    const record = loaded?.record ?? null
    if (!record && records.chatRecord.state === 'failed') return <LoadFailed onRetry={() => void records.loadChatRecord(inquiryId)} />
    if (!record) return <Loading />
    return <ChatRecordView record={record} steps={loaded!.steps.id === inquiryId ? loaded!.steps : null} />
  }

  return (
    <PageShell title='问诊记录' onReady={load}>
      {inquiryId ? oneRecord() : pastList()}
    </PageShell>
  )
}

/** One consultation read back: the doctor, the steps, the messages (no input bar: nothing is sent from here). */
const ChatRecordView = observer(function ChatRecordView({ record, steps }: { record: ChatRecord; steps: InquiryHistory | null }) {
  const { user } = useStores()
  const me = user.user ? patientImAccount(user.user.id) : ''
  const myAvatar = user.user?.wechatAvatar ?? ''
  return (
    <View className='chat-record'>
      <View className='chat-record__doctor'>
        <Image className='chat-record__avatar' src={assetUrl(record.doctor.avatar)} aria-hidden='true' />
        <View>
          <Text className='chat-record__name'>{record.doctor.doctorName}</Text>
          <Text className='chat-record__title'>{record.doctor.title}</Text>
          <Text className='chat-record__no'>
            {record.doctor.deptName} · 问诊单号 {record.inquiryNo}
          </Text>
        </View>
      </View>
      {steps && (
        <View className='chat-record__steps' role='list' aria-label='问诊进度'>
          {steps.steps.map((s, index) => (
            <View key={`${s.step}-${index}`} className={`chat-step${index === steps.steps.length - 1 ? ' chat-step--last' : ''}`} role='listitem'>
              <View className='chat-step__dot' />
              <Text className='chat-step__text'>{s.text}</Text>
              <Text className='chat-step__time'>{localTime(s.time)}</Text>
            </View>
          ))}
        </View>
      )}
      <View className='chat-record__messages' role='log' aria-label='聊天记录'>
        {record.messages.length === 0 && <Text className='chat-record__none'>暂无聊天记录</Text>}
        <ChatTimeline messages={record.messages} now={Date.now()} me={me} myAvatar={myAvatar} peerAvatar={record.doctor.avatar} />
      </View>
      <Text className='chat-record__end'>以上为问诊记录，仅供查看</Text>
    </View>
  )
})

export default observer(TimHistory)
