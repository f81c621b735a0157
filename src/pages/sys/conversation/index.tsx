import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { consultationUrl } from '@/stores/InquiryStore'
import { MSG } from '@/ui/messages'
import { timeAgo } from '@/utils/time'
import { doctorListUrl } from '@/pageUrls'
import './index.scss'

/** My consultations: the signed-in user's consultations from the server, with unread counts; one opens its room. */
function Conversation() {
  const { chat, hospital } = useStores()
  const load = () => chat.conversations.load(hospital.hospital?.hospitalCode)
  return (
    <PageShell title='我的问诊' tab onReady={load}>
      {chat.conversations.loadFailed ? (
        <LoadFailed text={MSG.conversationFailed} onRetry={() => void load()} />
      ) : chat.conversations.list.length === 0 ? (
        <Empty text='暂无问诊记录' action={{ label: '找医生问诊', onTap: () => openPage(doctorListUrl(hospital.hospital?.hospitalCode)) }} />
      ) : (
        <View className='conversation'>
          {chat.conversations.list.map((c) => (
            <Tappable key={c.orderNo} className='conversation__item' onTap={() => void Taro.navigateTo({ url: consultationUrl(c) })}>
              <View className='conversation__avatar'>{c.doctorName.slice(0, 1)}</View>
              <View className='conversation__body'>
                <View className='conversation__row'>
                  <Text className='conversation__doctor'>
                    {c.doctorName} <Text className='conversation__dept'>{c.deptName}</Text>
                  </Text>
                  <Text className='conversation__time'>{timeAgo(new Date(c.updatedAt))}</Text>
                </View>
                <View className='conversation__row'>
                  <Text className='conversation__last'>{c.lastMessage || c.status}</Text>
                  {c.unreadCount > 0 && <Text className='conversation__badge'>{c.unreadCount}</Text>}
                </View>
              </View>
            </Tappable>
          ))}
        </View>
      )}
    </PageShell>
  )
}

export default observer(Conversation)
