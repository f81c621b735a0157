import { useReachBottom, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import CountedTextarea from '@/components/CountedTextarea'
import Tappable from '@/components/Tappable'
import { MESSAGE_MAX, THANKS_TEXT } from '@/stores/EvaluationStore'
import { MSG } from '@/ui/messages'
import { assetUrl } from '@/ui/assets'
import { toastError } from '@/ui/feedback'
import { localTime, yuan } from '@/utils/register'
import './index.scss'
import { useEvaluationStore } from '@/stores/EvaluationStore'

/**
 * 送心意 (spec §2 /internet/tim/gift/index?doctorId=&inquiryId=): the catalogue as cards, an optional message, 送出心意
 * paid through the payment core (the cashier returns here with orderNo=, and the page says 感谢您的心意 once paid);
 * below, the gifts the doctor has received.
 */
function GiftPage() {
  const store = useEvaluationStore()
  const gifts = store.gifts
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const inquiryId = Number(params.inquiryId) || undefined
  const doctor = store.doctor.value?.id === doctorId ? store.doctor.value : null
  const received = gifts.received
  useReachBottom(() => void received.loadMore())

  const load = () => (doctorId ? store.openGift(doctorId, inquiryId, params.orderNo || undefined) : undefined)

  const send = async () => {
    const outcome = await gifts.send().catch(() => 'failed' as const)
    if (outcome === 'cancelled') toastError('支付已取消')
  }

  const form = () => {
    const order = gifts.paidOrder.value
    if (gifts.paid && order) {
      return (
        <View className='gift__card gift__thanks' role='status'>
          <Text className='gift__thanks-title'>{THANKS_TEXT}</Text>
          <Text className='gift__thanks-line'>{gifts.gift?.giftName ? `${gifts.gift.giftName} ${yuan(order.amountFen)}` : `${order.subject} ${yuan(order.amountFen)}`}</Text>
          <Text className='gift__note'>心意已送达医生，感谢您对医生的认可</Text>
          <View className='gift__submit'>
            <Button block onClick={() => gifts.sendAnother()}>
              再送一份
            </Button>
          </View>
        </View>
      )
    }
    if (gifts.catalogue.state === 'failed') return <LoadFailed onRetry={() => void gifts.loadCatalogue()} />
    if (!gifts.catalogue.value?.length) return gifts.catalogue.state === 'done' ? <Empty text='暂无可送出的心意' /> : <Loading />
    return (
      <View>
        {order && !gifts.paid && <Text className='gift__warn'>支付未完成，可重新选择心意送出</Text>}
        {gifts.paidOrder.state === 'failed' && <Text className='gift__warn'>支付结果查询失败，请稍后在医生主页查看</Text>}
        <View className='gift__card'>
          <Text className='gift__heading'>选择心意</Text>
          <View className='gift__items' role='radiogroup' aria-label='心意'>
            {gifts.catalogue.value.map((g) => {
              const on = gifts.giftCode === g.code
              return (
                <Tappable key={g.code} role='radio' checked={on} className={`gift__item${on ? ' gift__item--on' : ''}`} onTap={() => gifts.choose(g.code)}>
                  <View className={`gift__icon gift__icon--${g.code}`} />
                  <Text className='gift__item-name'>{g.name}</Text>
                  <Text className='gift__item-price'>{yuan(g.priceFen)}</Text>
                </Tappable>
              )
            })}
          </View>
        </View>
        <View className='gift__card'>
          <Text className='gift__heading'>留言</Text>
          <CountedTextarea
            className='gift__textarea'
            value={gifts.message}
            max={MESSAGE_MAX}
            placeholder='写一句感谢的话给医生（选填）'
            label='留言'
            onInput={(v) => gifts.setMessage(v)}
          />
        </View>
        <View className='gift__submit'>
          <Button type='primary' block disabled={gifts.attempt.inFlight} onClick={() => void send()}>
            {gifts.attempt.inFlight ? '支付中...' : gifts.chosen ? `送出心意 ${yuan(gifts.chosen.priceFen)}` : '送出心意'}
          </Button>
        </View>
      </View>
    )
  }

  const list = () => {
    if (received.state === 'done' && received.items.length === 0) return <Text className='gift__note'>医生还没有收到心意</Text>
    if (received.state === 'failed' && received.items.length === 0) return <LoadFailed onRetry={() => void received.loadMore(true)} />
    return (
      <View>
        {received.items.map((r) => (
          <View key={r.id} className='gift__received'>
            <View className='gift__received-head'>
              <Text className='gift__received-who'>{`${r.senderName} 送出 ${r.giftName}`}</Text>
              <Text className='gift__received-date'>{localTime(r.paidAt).slice(0, 10)}</Text>
            </View>
            {r.message && <Text className='gift__received-message'>{r.message}</Text>}
          </View>
        ))}
        <Tappable className='gift__more' onTap={() => void received.loadMore(true)}>
          {received.state === 'loading' ? MSG.listLoading : received.state === 'done' ? MSG.listNoMore : received.state === 'failed' ? MSG.listFailed : MSG.loadMore}
        </Tappable>
      </View>
    )
  }

  return (
    <PageShell title='送心意' onReady={load}>
      {!doctorId ? (
        <Empty text='未找到该医生' />
      ) : (
        <View className='gift'>
          {doctor ? (
            <View className='gift__doctor'>
              <Image className='gift__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
              <View>
                <Text className='gift__name'>{doctor.doctorName}</Text>
                <Text className='gift__title'>{doctor.title}</Text>
                <Text className='gift__dept'>
                  {doctor.hospitalName} · {doctor.deptName}
                </Text>
              </View>
            </View>
          ) : store.doctor.state === 'failed' ? (
            <LoadFailed onRetry={() => void store.loadDoctor(doctorId)} />
          ) : null}
          {form()}
          <View className='gift__card'>
            <Text className='gift__heading'>医生收到的心意</Text>
            {list()}
          </View>
        </View>
      )}
    </PageShell>
  )
}

export default observer(GiftPage)
