import { useEffect } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { assetUrl } from '@/ui/assets'
import MessageList, { useNow } from '../tim/MessageList'
import InputBar from '../tim/InputBar'
import './index.scss'
import { useAssistantStore } from '@/stores/AssistantStore'

/**
 * 医生助理 (spec §2 /internet/guidance/index, §3 assistant chat): the hospital's physician assistants to choose from,
 * then the chat with the chosen one (the room's message list and input bar, without an order), each with its unread
 * count.
 */
function Guidance() {
  const assistant = useAssistantStore()
  const now = useNow()
  const current = assistant.currentAssistant

  // the chat is left with the page
  useEffect(() => () => assistant.leave(), [assistant])

  const list = () => {
    if (!assistant.hospital) return <NoHospital />
    if (assistant.assistantsState === 'failed') return <LoadFailed onRetry={() => void assistant.open()} />
    if (assistant.assistantsState !== 'done') return <Loading />
    if (!assistant.assistants.length) return <Empty text='暂无医生助理' />
    return (
      <View className='guidance'>
        <Text className='guidance__intro'>医生助理可为您解答预约挂号、线上问诊流程、报告查询等问题；病情诊断和用药请咨询医生。</Text>
        <View className='guidance__list' role='list' aria-label='医生助理'>
          {assistant.assistants.map((a) => {
            const unread = assistant.unreadOf(a)
            return (
              <View key={a.id} role='listitem'>
                <Tappable className='guidance__item' onTap={() => void assistant.choose(a)}>
                  <Image className='guidance__avatar' src={assetUrl(a.avatar)} aria-hidden='true' />
                  <View className='guidance__who'>
                    <Text className='guidance__name'>{a.name}</Text>
                    <Text className='guidance__role'>医生助理</Text>
                  </View>
                  {unread > 0 && (
                    <View className='guidance__badge' aria-label={`${unread}条未读`}>
                      {unread > 99 ? '99+' : unread}
                    </View>
                  )}
                  <Text className='guidance__go'>咨询</Text>
                </Tappable>
              </View>
            )
          })}
        </View>
      </View>
    )
  }

  const chatting = assistant.chatting && current
  return (
    <PageShell title={chatting ? current.name : '医生助理'} onReady={() => assistant.open()}>
      {chatting ? (
        <View className='guidance-room'>
          <View className='guidance-room__head'>
            <Text className='guidance-room__who'>{current.name} · 医生助理</Text>
            <Tappable className='guidance-room__switch' onTap={() => assistant.leave()}>
              换一位助理
            </Tappable>
          </View>
          <MessageList peerAvatar={current.avatar} now={now} />
          <InputBar />
        </View>
      ) : (
        list()
      )}
    </PageShell>
  )
}

export default observer(Guidance)
