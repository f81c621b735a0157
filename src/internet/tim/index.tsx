import { useEffect } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { confirm } from '@/ui/feedback'
import OrderBanner from './OrderBanner'
import MessageList, { useNow } from './MessageList'
import InputBar from './InputBar'
import RoomTools from './RoomTools'
import './index.scss'
import { evaluateUrl, giftPageUrl } from '@/pageUrls'
import { useRoomToolsStore } from '@/stores/RoomToolsStore'

/**
 * 问诊室 (spec §2 /internet/tim/index?toUserId=&type=&inquiryId=): the chat with the doctor of one consultation, its
 * state above (spec §4: reloaded when the doctor side marks a turn), pictures, resend, older history; while it is open,
 * 发送病历 and 续方申请 above the input bar.
 */
function Room() {
  const { chat } = useStores()
  const roomTools = useRoomToolsStore()
  const { params } = useRouter()
  const inquiryId = Number(params.inquiryId) || undefined
  const now = useNow()
  const order = chat.order.inquiry

  useEffect(
    () => () => {
      chat.closeChat()
      roomTools.reset()
    },
    [chat, roomTools],
  )

  const finish = async () => {
    if (await confirm('确定结束本次问诊吗？结束后将无法继续向医生发送消息。')) await chat.order.finish()
  }

  const doctorAvatar = order?.doctor.avatar ?? ''

  return (
    <PageShell title={order?.doctor.doctorName ?? '图文问诊'} onReady={() => chat.openChat(params.toUserId ?? '', inquiryId)}>
      <View className='room'>
        {order && <OrderBanner order={order} now={now} onExpired={() => void chat.order.check()} />}
        {!order && chat.order.failed && (
          <View className='room-banner room-banner--failed' role='alert'>
            <Text className='room-banner__note'>问诊信息加载失败</Text>
            <Tappable inline className='room-banner__retry' onTap={() => void chat.order.load()}>
              重新加载
            </Tappable>
          </View>
        )}
        <MessageList peerAvatar={doctorAvatar} now={now} />
        {order?.status === 'inProgress' && (
          <View className='room__actions'>
            <Button size='small' onClick={() => void finish()}>
              结束问诊
            </Button>
          </View>
        )}
        {order?.status === 'finished' && (
          <View className='room__actions'>
            {order.evaluated ? (
              <Text className='room__evaluated'>已评价</Text>
            ) : (
              <Button size='small' type='primary' onClick={() => openPage(evaluateUrl(order.id))}>
                评价医生
              </Button>
            )}
            <Button size='small' onClick={() => openPage(giftPageUrl(order.doctor.id, order.id))}>
              送心意
            </Button>
          </View>
        )}
        {roomTools.available && <RoomTools />}
        <InputBar />
      </View>
    </PageShell>
  )
}

export default observer(Room)
