import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useStores } from '@/stores'
import { pathOf } from '@/utils/routeRules'
import './index.scss'

/** The bottom tab bar of the hospital's role (spec §2): merged, palm-only or internet-only. */
function TabBar() {
  const { hospital, chat } = useStores()
  const router = useRouter()
  const current = pathOf(router.path)
  return (
    <View className='tab-bar' role='tablist'>
      {hospital.tabBar.map((item, index) => {
        const active = item.path === current
        return (
          <View
            key={item.path}
            role='tab'
            aria-selected={active}
            className={`tab-bar__item${active ? ' tab-bar__item--active' : ''}`}
            onClick={() => {
              if (active) return
              hospital.setTabBarIndex(index)
              void Taro.reLaunch({ url: item.path })
            }}
          >
            <View className={`tab-bar__icon tab-bar__icon--${item.icon}`}>
              {item.icon === 'chat' && chat.conversations.unreadTotal > 0 && <Text className='tab-bar__badge'>{chat.conversations.unreadTotal > 99 ? '99+' : chat.conversations.unreadTotal}</Text>}
            </View>
            <Text className='tab-bar__text'>{item.text}</Text>
          </View>
        )
      })}
    </View>
  )
}

export default observer(TabBar)
