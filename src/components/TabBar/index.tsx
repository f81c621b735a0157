import { useEffect } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Articles, Home, HomeF, Message, MessageF, User, UserF } from '@nutui/icons-react-taro'
import Tappable from '../Tappable'
import { useStores } from '@/stores'
import { pathOf } from '@/utils/routeRules'
import type { TabItem } from '@/stores/HospitalStore'
import './index.scss'

/** Each tab's icon from NutUI's icon package: outlined, and filled when it is the page on show (knowledge has one). */
const ICONS: Record<TabItem['icon'], [typeof Home, typeof Home]> = {
  home: [Home, HomeF],
  chat: [Message, MessageF],
  book: [Articles, Articles],
  user: [User, UserF],
}

/** The bottom tab bar of the hospital's role (spec §2): merged, palm-only or internet-only. */
function TabBar() {
  const { hospital, chat } = useStores()
  const router = useRouter()
  const current = pathOf(router.path)
  // while the server counts the unread messages (no chat driver yet), each tab page asks it when it shows: a switch
  // of tabs opens the page anew, a page closed above it shows it again
  const { refreshUnread } = chat.conversations
  useEffect(() => void refreshUnread(), [refreshUnread])
  useDidShow(() => void refreshUnread())
  return (
    <View className='tab-bar' role='tablist'>
      {hospital.tabBar.map((item, index) => {
        const active = item.path === current
        const Icon = ICONS[item.icon][active ? 1 : 0]
        return (
          <Tappable
            key={item.path}
            role='tab'
            selected={active}
            className={`tab-bar__item${active ? ' tab-bar__item--active' : ''}`}
            onTap={() => {
              if (active) return
              hospital.setTabBarIndex(index)
              void Taro.reLaunch({ url: item.path })
            }}
          >
            <View className='tab-bar__icon'>
              <View aria-hidden>
                <Icon className='tab-bar__glyph' />
              </View>
              {item.icon === 'chat' && chat.conversations.unreadTotal > 0 && (
                <Text className='tab-bar__badge' aria-label={`${chat.conversations.unreadTotal}条未读`}>
                  {chat.conversations.unreadTotal > 99 ? '99+' : chat.conversations.unreadTotal}
                </Text>
              )}
            </View>
            <Text className='tab-bar__text'>{item.text}</Text>
          </Tappable>
        )
      })}
    </View>
  )
}

export default observer(TabBar)
