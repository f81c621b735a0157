import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text, Input, Image } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { useStores } from '@/stores'
import { toastError, toastSuccess } from '@/ui/feedback'
import { textLength } from '@/utils/text'
import IdentitySection from './IdentitySection'
import './index.scss'

/** A nickname is at most 20 by the spec's text length (Chinese characters count 2). */
export const NICKNAME_MAX_LENGTH = 20

/** Set personal info: nickname and avatar (uploaded through the file call), and the holder's 实名认证. */
function EditUser() {
  const { user } = useStores()
  const [nickname, setNickname] = useState('')
  const [avatar, setAvatar] = useState('')

  const chooseAvatar = async () => {
    const picked = await Taro.chooseImage({ count: 1, sizeType: ['compressed'] })
    const path = picked.tempFilePaths[0]
    if (!path) return
    setAvatar(await user.uploadAvatar(path))
  }

  const save = async () => {
    const name = nickname.trim()
    if (!name) return toastError('请输入昵称')
    if (textLength(name) > NICKNAME_MAX_LENGTH) return toastError('昵称最多10个汉字或20个字母')
    await user.saveProfile({ nickname: name, avatar })
    toastSuccess('保存成功')
    setTimeout(() => void Taro.navigateBack(), 800)
  }

  return (
    <PageShell
      title='个人信息'
      onReady={() => {
        setNickname(user.user?.nickname ?? '')
        setAvatar(user.user?.wechatAvatar ?? '')
      }}
    >
      <View className='edit-user'>
        <Tappable className='edit-user__avatar-row' onTap={() => void chooseAvatar().catch(() => undefined)}>
          <Text>头像</Text>
          {avatar ? <Image className='edit-user__avatar' src={avatar} aria-hidden='true' /> : <View className='edit-user__avatar'>{(nickname || '用').slice(0, 1)}</View>}
        </Tappable>
        <View className='edit-user__row'>
          <Text>昵称</Text>
          <Input className='edit-user__input' value={nickname} placeholder='请输入昵称' {...fieldName('昵称')} maxlength={20} onInput={(e) => setNickname(e.detail.value)} />
        </View>
        <Cell title='手机号' extra={user.user?.mobile ?? ''} />
      </View>
      {/* the padding is the wrapper's: a block button with side margins is wider than the screen */}
      <View className='edit-user__actions'>
        <Button className='edit-user__save' type='primary' block onClick={() => void save().catch(() => undefined)}>
          保存
        </Button>
      </View>
      <IdentitySection />
    </PageShell>
  )
}

export default observer(EditUser)
