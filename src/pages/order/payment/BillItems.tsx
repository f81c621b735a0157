import { View, Text } from '@tarojs/components'
import { yuan } from '@/utils/register'
import type { BillItem } from '../../../../types/api/palm'
import './BillItems.scss'

/** The category of a bill or a price item as the patient reads it (one list, shared with the server). */
export { CATEGORY_TEXT } from '@/utils/settlementRules'

/**
 * The lines of a bill (name, specification, quantity, unit price, amount), one card-row each: a table would not fit
 * a phone in elder mode at 200 % text, and every value keeps its label for a screen reader.
 */
export default function BillItems({ items }: { items: BillItem[] }) {
  if (!items.length) return <Text className='bill-items__none'>暂无明细</Text>
  return (
    <View className='bill-items' role='list'>
      {items.map((item, i) => (
        <View key={`${item.name}-${i}`} className='bill-items__item' role='listitem'>
          <View className='bill-items__top'>
            <Text className='bill-items__name'>{item.name}</Text>
            <Text className='bill-items__amount'>{yuan(item.amountFen)}</Text>
          </View>
          <Text className='bill-items__meta'>
            {item.spec ? `规格：${item.spec}　` : ''}数量：{item.quantity}
            {item.unit}　单价：{yuan(item.unitPriceFen)}
          </Text>
        </View>
      ))}
    </View>
  )
}
