import { useEffect, useRef, useState } from 'react'
import { View, Text, ScrollView } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
// the pages that chat (the room, the assistant chat) bring the Tencent IM driver and its SDK, so that they ship
// with them in the internet subpackage instead of the main package
import '@/platform/imDriver'
import ChatTimeline from './ChatTimeline'
import './chat.scss'

/** The banner's time left and the time lines follow this clock. */
const CLOCK_MS = 30_000

export function useNow() {
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
 * The open chat's messages (the consultation room, the assistant chat): whether the chat service is connected, older
 * history on pull-up or 查看更多消息, time lines, the doctor side's turns as notes, the patient's own on the right
 * with their sending state, pictures to preview.
 */
function MessageList({ peerAvatar, now }: { peerAvatar: string; now: number }) {
  const { chat, user } = useStores()
  const messages = chat.messageList
  const anchor = useScrollAnchor(messages[0]?.id, messages[messages.length - 1]?.id)
  const myAvatar = user.user?.wechatAvatar ?? ''

  return (
    <>
      {!chat.online && (
        <View className='room__connecting' role='status'>
          <Text>正在连接消息服务…</Text>
        </View>
      )}
      <ScrollView className='room__list' scrollY scrollIntoView={anchor} upperThreshold={40} onScrollToUpper={() => void chat.loadOlder()}>
        {chat.hasMore && (
          <Tappable className='room__older' onTap={() => void chat.loadOlder()}>
            {chat.loadingOlder ? MSG.listLoading : chat.olderFailed ? '加载失败，点击重试' : '查看更多消息'}
          </Tappable>
        )}
        <ChatTimeline messages={messages} now={now} me={chat.userID} myAvatar={myAvatar} peerAvatar={peerAvatar} onResend={(id) => void chat.resend(id)} />
      </ScrollView>
    </>
  )
}

export default observer(MessageList)
