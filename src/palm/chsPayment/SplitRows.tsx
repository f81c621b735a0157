import { View, Text } from '@tarojs/components'
import { yuan } from '@/utils/register'
import type { InsuranceSplit } from '../../../types/api/insurance'

/** How insurance split an order: the fund's part, the personal account's, and what the patient pays. */
export default function SplitRows({ split }: { split: InsuranceSplit }) {
  const rows: [string, number][] = [
    ['统筹基金支付', split.fundFen],
    ['个人账户支付', split.accountFen],
  ]
  return (
    <>
      <View className='chs__row'>
        <Text className='chs__label'>参保类型</Text>
        <Text className='chs__value'>{split.insuTypeName}</Text>
      </View>
      {rows.map(([label, fen]) => (
        <View key={label} className='chs__row'>
          <Text className='chs__label'>{label}</Text>
          <Text className='chs__value'>{yuan(fen)}</Text>
        </View>
      ))}
      <View className='chs__row'>
        <Text className='chs__label'>个人自付</Text>
        <Text className='chs__value chs__value--strong'>{yuan(split.cashFen)}</Text>
      </View>
    </>
  )
}
