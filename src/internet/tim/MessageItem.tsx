import { View, Text, Image } from '@tarojs/components'
import Tappable from '@/components/Tappable'
import { assetUrl } from '@/ui/assets'
import { prescriptionCardOf } from '@/utils/chatRules'
import PrescriptionCardMessage from './PrescriptionCardMessage'
import type { ChatMessage } from '../../../types/api/chat'

/** Where a picture message shows from: the service's url, or the local file while it is still being sent. */
export const pictureSrc = (m: ChatMessage) => assetUrl(m.payload)

interface Props {
  message: ChatMessage
  mine: boolean
  avatar: string
  onResend: (id: string) => void
  onPreview: (src: string) => void
}

/**
 * One message: the patient's on the right, the doctor's on the left; a picture as a thumbnail, a prescription as its
 * card; its sending state.
 */
export default function MessageItem({ message, mine, avatar, onResend, onPreview }: Props) {
  const picture = message.type === 'image'
  const card = prescriptionCardOf(message)
  return (
    <View id={`room-msg-${message.id}`} className={`room-msg room-msg--${mine ? 'mine' : 'theirs'}`}>
      {avatar ? <Image className='room-msg__avatar' src={assetUrl(avatar)} aria-hidden='true' /> : <View className='room-msg__avatar' />}
      <View className='room-msg__body'>
        {picture ? (
          <Tappable className='room-msg__picture' label='查看图片' onTap={() => onPreview(pictureSrc(message))}>
            <Image className='room-msg__thumb' src={pictureSrc(message)} mode='aspectFill' aria-hidden='true' />
          </Tappable>
        ) : card ? (
          <PrescriptionCardMessage card={card} />
        ) : (
          <View className='room-msg__bubble'>
            <Text userSelect>{message.payload}</Text>
          </View>
        )}
      </View>
      {mine && message.status === 'created' && <View className='room-msg__sending' role='status' aria-label='发送中' />}
      {mine && message.status === 'sendFail' && (
        <Tappable className='room-msg__resend' onTap={() => onResend(message.id)}>
          重发
        </Tappable>
      )}
    </View>
  )
}
