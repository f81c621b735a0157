import Taro from '@tarojs/taro'
import { View, Text, Input } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { useStores } from '@/stores'
import { CHAT_MSG, CHAT_TEXT_MAX } from '@/utils/chatRules'
import { toastError } from '@/ui/feedback'
import './chat.scss'

/**
 * The open chat's input bar (the consultation room, the assistant chat): a picture, the text, 发送; disabled while the
 * consultation takes no messages (spec §5 refusals as toasts).
 */
function InputBar() {
  const { chat } = useStores()
  const closed = !chat.order.canSend
  const order = chat.order.inquiry

  const say = (error: string | null) => {
    if (error) toastError(error)
  }
  const submit = () => void chat.send().then(say)
  const pickPictures = async () => {
    const picked = await Taro.chooseImage({ count: 9, sizeType: ['compressed'], sourceType: ['album', 'camera'] }).catch(() => null)
    for (const path of picked?.tempFilePaths ?? []) say(await chat.sendImage(path))
  }

  return (
    <View className={`room-bar${closed ? ' room-bar--disabled' : ''}`} aria-disabled={closed} aria-label='输入栏'>
      <Tappable className='room-bar__picture' label='发送图片' disabled={closed} onTap={() => void pickPictures()}>
        <Text className='room-bar__picture-icon' />
      </Tappable>
      <Input
        className='room-bar__input'
        placeholder={!closed ? '请输入您想咨询的问题' : order?.status === 'unpaid' ? '支付后即可向医生发送消息' : CHAT_MSG.ended}
        {...fieldName('消息')}
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
  )
}

export default observer(InputBar)
