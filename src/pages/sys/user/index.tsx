import Taro from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import { useStores } from '@/stores'
import './index.scss'

const ENTRIES = [
  { title: '就诊人管理', url: '/pages/patient/index' },
  { title: '挂号记录', url: '/pages/order/register/index' },
  { title: '缴费记录', url: '/pages/order/payment/index' },
  { title: '问诊订单', url: '/pages/order/inquiry/index' },
  { title: '收货地址', url: '/pages/address/list' },
  { title: '消息中心', url: '/pages/message/index' },
  { title: '切换医院', url: '/pages/hospital/index' },
  { title: '更多', url: '/pages/about/index' },
]

/** Mine: who is signed in, and the entries to everything that is theirs. */
function User() {
  const { user, hospital } = useStores()
  const me = user.user
  return (
    <PageShell title='我的' tab>
      <View className='mine__header'>
        {me?.wechatAvatar ? <Image className='mine__avatar' src={me.wechatAvatar} /> : <View className='mine__avatar'>{(me?.nickname || '用').slice(0, 1)}</View>}
        {user.isLoggedIn ? (
          <View className='mine__who' onClick={() => void Taro.navigateTo({ url: '/pages/editUser/index' })}>
            <Text className='mine__name'>{me?.nickname || '未设置昵称'}</Text>
            <Text className='mine__mobile'>{me?.mobile}</Text>
          </View>
        ) : (
          <View className='mine__who' onClick={() => void Taro.navigateTo({ url: '/pages/login/index?sourceType=8' })}>
            <Text className='mine__name'>{me?.nickname || '微信用户'}</Text>
            <Text className='mine__bind'>绑定手机号，使用全部服务 ›</Text>
          </View>
        )}
      </View>
      {hospital.hospital && <Text className='section-title'>{hospital.hospital.hospitalName}</Text>}
      <View className='mine__cells'>
        {ENTRIES.map((e) => (
          <Cell key={e.url} title={e.title} extra='›' onClick={() => openPage(e.url)} />
        ))}
      </View>
    </PageShell>
  )
}

export default observer(User)
