import { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { moreText } from '@/stores/RecordStore'
import { timeAgo } from '@/utils/time'
import type { UserMessage } from '../../../types/api/message'
import './index.scss'
import { useRecordStore } from '@/stores/RecordStore'

/**
 * 消息中心 (spec §2 /pages/message/index): the notices about the patient's consultations and orders, newest first, an
 * unread dot on each one not read; tapping one marks it read and opens what it tells of; 全部已读; a page at a time.
 */
function MessageCentre() {
  const records = useRecordStore()
  const list = records.messages
  useReachBottom(() => void list.loadMore())

  const open = async (m: UserMessage) => {
    await records.readMessage(m)
    if (m.link) openPage(m.link)
  }

  const now = Date.now()
  return (
    <PageShell title='消息中心' onReady={() => list.reload()}>
      <View className='messages__bar'>
        <Text className='messages__unread'>{records.unread > 0 ? `${records.unread}条未读` : '暂无未读消息'}</Text>
        <Button size='small' disabled={records.unread === 0 || records.markingAll} onClick={() => void records.readAll()}>
          全部已读
        </Button>
      </View>
      {list.empty ? (
        <Empty text='暂无消息' />
      ) : list.failedEmpty ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View className='messages'>
          {list.items.map((m) => (
            <Tappable key={m.id} className={`message-item${m.read ? '' : ' message-item--unread'}`} onTap={() => void open(m)}>
              <View className='message-item__head'>
                {!m.read && <View className='message-item__dot' role='status' aria-label='未读' />}
                <Text className='message-item__title'>{m.title}</Text>
                <Text className='message-item__time'>{timeAgo(Date.parse(m.createdAt), now)}</Text>
              </View>
              <Text className='message-item__content'>{m.content}</Text>
              {m.link && <Text className='message-item__link'>查看详情 ›</Text>}
            </Tappable>
          ))}
          <Tappable className='messages__more' onTap={() => void list.loadMore(true)}>
            {moreText(list.state)}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(MessageCentre)
