import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { ChatMessage } from '../../../types/api/chat'
import MessageItem, { pictureSrc } from './MessageItem'
import { timeline } from './timeline'

interface Props {
  messages: ChatMessage[]
  now: number
  /** the patient's own account: their messages go on the right */
  me: string
  myAvatar: string
  peerAvatar: string
  /** left out where nothing is sent (a record read back) */
  onResend?: (id: string) => void
}

const noResend = () => undefined

/**
 * A chat's messages as the room shows them (the room, the assistant chat, a record read back): time lines, the doctor
 * side's turns as notes, each message with its avatar; a picture opens the preview of all the chat's pictures. An
 * observer: it walks the store's list itself, so a message that arrives or changes in the middle shows.
 */
function ChatTimeline({ messages, now, me, myAvatar, peerAvatar, onResend = noResend }: Props) {
  const preview = (current: string) => {
    const urls = messages.filter((m) => m.type === 'image').map(pictureSrc)
    void Taro.previewImage({ current, urls }).catch(() => undefined)
  }
  return (
    <>
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
        const mine = item.message.from === me
        return (
          <MessageItem
            key={item.key}
            message={item.message}
            mine={mine}
            avatar={mine ? myAvatar : peerAvatar}
            onResend={onResend}
            onPreview={preview}
          />
        )
      })}
    </>
  )
}

export default observer(ChatTimeline)
