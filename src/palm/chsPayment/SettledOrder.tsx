import { View, Text } from '@tarojs/components'
import { CHANNEL_TEXT, ORDER_STATUS_TEXT, localTime, yuan } from '@/utils/register'
import type { InsuranceSplit } from '../../../types/api/insurance'
import type { PayOrder } from '../../../types/api/payment'
import SplitRows from './SplitRows'

/**
 * An order insurance has settled (or that is past paying), as the 医保 page shows it for a booking and for bills alike:
 * how it was split (or the parts the order records), what was refunded, its status, channel, time and number.
 */
export default function SettledOrder({ order, split }: { order: PayOrder; split: InsuranceSplit | null }) {
  return (
    <>
      <View className='chs__card'>
        {split && split.status !== 'void' ? (
          <SplitRows split={split} />
        ) : (
          <>
            <View className='chs__row'>
              <Text className='chs__label'>医保支付</Text>
              <Text className='chs__value'>{yuan(order.insuranceFen)}</Text>
            </View>
            <View className='chs__row'>
              <Text className='chs__label'>个人自付</Text>
              <Text className='chs__value chs__value--strong'>{yuan(order.selfPayFen)}</Text>
            </View>
          </>
        )}
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
    </>
  )
}
