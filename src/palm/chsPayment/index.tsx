import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { useStores } from '@/stores'
import { CHANNEL_TEXT, ORDER_STATUS_TEXT, localTime, yuan } from '@/utils/register'
import './index.scss'

/**
 * 医保结算明细 (spec §2 /palm/chsPayment/index?source=&type=): how an order's amount splits between health insurance
 * and the patient. `type=register&id=` reads a registration's order; `orderNo=` reads any order of the patient's.
 */
function ChsPayment() {
  const { register } = useStores()
  const { params } = useRouter()
  const registrationId = params.type === 'register' ? Number(params.id) : 0
  const orderNo = params.orderNo ?? ''
  const by = orderNo ? { orderNo } : registrationId ? { registrationId } : null
  const order = register.payOrder

  const load = () => (by ? register.loadPayOrder(by).catch(() => undefined) : undefined)

  const body = () => {
    if (!by) return <Empty text='未找到该订单' />
    if (register.payOrderState === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (register.payOrderState !== 'done') return <Loading />
    if (!order) return <Empty text='该预约无需支付，没有结算记录' />
    return (
      <View className='chs'>
        <View className='chs__total'>
          <Text className='chs__total-label'>订单总额</Text>
          <Text className='chs__total-amount'>{yuan(order.amountFen)}</Text>
          <Text className='chs__subject'>{order.subject}</Text>
        </View>
        <View className='chs__card'>
          <View className='chs__row'>
            <Text className='chs__label'>医保支付</Text>
            <Text className='chs__value'>{yuan(order.insuranceFen)}</Text>
          </View>
          <View className='chs__row'>
            <Text className='chs__label'>个人自付</Text>
            <Text className='chs__value chs__value--strong'>{yuan(order.selfPayFen)}</Text>
          </View>
          {order.refundedFen > 0 && (
            <View className='chs__row'>
              <Text className='chs__label'>已退款</Text>
              <Text className='chs__value'>{yuan(order.refundedFen)}</Text>
            </View>
          )}
        </View>
        <View className='chs__card'>
          <View className='chs__row'>
            <Text className='chs__label'>订单状态</Text>
            <Text className='chs__value'>{ORDER_STATUS_TEXT[order.status] ?? order.status}</Text>
          </View>
          {order.channel && (
            <View className='chs__row'>
              <Text className='chs__label'>支付方式</Text>
              <Text className='chs__value'>{CHANNEL_TEXT[order.channel] ?? order.channel}</Text>
            </View>
          )}
          {order.paidAt && (
            <View className='chs__row'>
              <Text className='chs__label'>支付时间</Text>
              <Text className='chs__value'>{localTime(order.paidAt)}</Text>
            </View>
          )}
          <View className='chs__row'>
            <Text className='chs__label'>订单号</Text>
            <Text className='chs__value'>{order.orderNo}</Text>
          </View>
        </View>
        <Text className='chs__note'>医保支付部分由医保基金结算，个人自付部分通过所选支付方式支付；退款时各部分原路退回。</Text>
      </View>
    )
  }

  return (
    <PageShell title='医保结算明细' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(ChsPayment)
