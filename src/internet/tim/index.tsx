import { useEffect, useRef, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Input, ScrollView } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import { useStores } from '@/stores'
import { CHAT_MSG, CHAT_TEXT_MAX } from '@/stores/ChatStore'
import { MSG } from '@/services/messages'
import { confirm, toastError } from '@/services/request'
import OrderBanner from './OrderBanner'
import MessageItem, { pictureSrc } from './MessageItem'
import { timeline } from './timeline'
import './index.scss'

/** The banner's time left and the time lines follow this clock. */
const CLOCK_MS = 30_000

export const evaluateUrl = (inquiryId: number) => `/internet/tim/evaluate/index?inquiryId=${inquiryId}`
export const giftUrl = (doctorId: number, inquiryId: number) => `/internet/tim/gift/index?doctorId=${doctorId}&inquiryId=${inquiryId}`

function useNow() {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS)
    return () => clearInterval(timer)
  }, [])
  return now
}

/**
 * The anchor to scroll to: the newest message when one arrives or is sent; the message that was on top when older
 * history is put above it (the patient keeps reading where they were).
 */
function useScrollAnchor(firstId: string | undefined, lastId: string | undefined) {
  const [anchor, setAnchor] = useState<string>()
  const seen = useRef({ firstId, lastId })
  useEffect(() => {
    const before = seen.current
    if (lastId && lastId !== before.lastId) setAnchor(`room-msg-${lastId}`)
    else if (firstId !== before.firstId && before.firstId) setAnchor(`room-msg-${before.firstId}`)
    seen.current = { firstId, lastId }
  }, [firstId, lastId])
  return anchor
}

/**
 * 问诊室 (spec §2 /internet/tim/index?toUserId=&type=&inquiryId=): the chat with the doctor of one consultation, its
 * state above (spec §4: reloaded when the doctor side marks a turn), pictures, resend, older history.
 */
function Room() {
  const { chat, user } = useStores()
  const { params } = useRouter()
  const inquiryId = Number(params.inquiryId) || undefined
  const now = useNow()
  const order = chat.order
  const messages = chat.messageList
  const anchor = useScrollAnchor(messages[0]?.id, messages[messages.length - 1]?.id)

  useEffect(() => () => chat.closeChat(), [chat])

  const say = (error: string | null) => {
    if (error) toastError(error)
  }
  const submit = () => void chat.send().then(say)
  const pickPictures = async () => {
    const picked = await Taro.chooseImage({ count: 9, sizeType: ['compressed'], sourceType: ['album', 'camera'] }).catch(() => null)
    for (const path of picked?.tempFilePaths ?? []) say(await chat.sendImage(path))
  }
  const preview = (current: string) => {
    const urls = messages.filter((m) => m.type === 'image').map(pictureSrc)
    void Taro.previewImage({ current, urls }).catch(() => undefined)
  }
  const finish = async () => {
    if (await confirm('确定结束本次问诊吗？结束后将无法继续向医生发送消息。')) await chat.finishOrder()
  }

  const closed = !chat.canSend
  const doctorAvatar = order?.doctor.avatar ?? ''
  const myAvatar = user.user?.wechatAvatar ?? ''

  return (
    <PageShell title={order?.doctor.doctorName ?? '图文问诊'} onReady={() => chat.openChat(params.toUserId ?? '', inquiryId)}>
      <View className='room'>
        {order && <OrderBanner order={order} now={now} onExpired={() => void chat.checkOrder()} />}
        {!order && chat.orderFailed && (
          <View className='room-banner room-banner--failed' role='alert'>
            <Text className='room-banner__note'>问诊信息加载失败</Text>
            <Text className='room-banner__retry' onClick={() => void chat.loadOrder()}>
              重新加载
            </Text>
          </View>
        )}
        {!chat.ready && (
          <View className='room__connecting' role='status'>
            <Text>正在连接消息服务…</Text>
          </View>
        )}
        <ScrollView className='room__list' scrollY scrollIntoView={anchor} upperThreshold={40} onScrollToUpper={() => void chat.loadOlder()}>
          {chat.hasMore && (
            <View className='room__older' role='button' onClick={() => void chat.loadOlder()}>
              {chat.loadingOlder ? MSG.listLoading : chat.olderFailed ? '加载失败，点击重试' : '查看更多消息'}
            </View>
          )}
          {timeline(messages, now).map((item) => {
            if (item.kind === 'time') {
              return (
                <View key={item.key} className='room__time'>
                  <Text>{item.text}</Text>
                </View>
              )
            }
            if (item.kind === 'note') {
              return (
                <View key={item.key} className='room__note' role='note'>
                  <Text>{item.text}</Text>
                </View>
              )
            }
            const mine = item.message.from === chat.userID
            return (
              <MessageItem
                key={item.key}
                message={item.message}
                mine={mine}
                avatar={mine ? myAvatar : doctorAvatar}
                onResend={(id) => void chat.resend(id)}
                onPreview={preview}
              />
            )
          })}
        </ScrollView>
        {order?.status === 'inProgress' && (
          <View className='room__actions'>
            <Button size='small' onClick={() => void finish()}>
              结束问诊
            </Button>
          </View>
        )}
        {order?.status === 'finished' && (
          <View className='room__actions'>
            <Button size='small' type='primary' onClick={() => openPage(evaluateUrl(order.id))}>
              评价医生
            </Button>
            <Button size='small' onClick={() => openPage(giftUrl(order.doctor.id, order.id))}>
              送心意
            </Button>
          </View>
        )}
        <View className={`room-bar${closed ? ' room-bar--disabled' : ''}`} aria-disabled={closed} aria-label='输入栏'>
          <View className='room-bar__picture' role='button' aria-label='发送图片' onClick={closed ? undefined : () => void pickPictures()}>
            <Text className='room-bar__picture-icon' />
          </View>
          <Input
            className='room-bar__input'
            placeholder={!closed ? '请输入您想咨询的问题' : order?.status === 'unpaid' ? '支付后即可向医生发送消息' : CHAT_MSG.ended}
            disabled={closed}
            maxlength={CHAT_TEXT_MAX}
            confirmType='send'
            value={chat.draft}
            onInput={(e) => chat.setDraft(e.detail.value)}
            onConfirm={submit}
          />
          <View className='room-bar__send'>
            <Button type='primary' size='small' disabled={closed} onClick={submit}>
              发送
            </Button>
          </View>
        </View>
      </View>
    </PageShell>
  )
}

export default observer(Room)
