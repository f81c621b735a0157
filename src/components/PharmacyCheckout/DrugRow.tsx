import { View, Text } from '@tarojs/components'
import { yuan } from '@/utils/register'

/**
 * One drug of a medicine order (确认订单, 药品订单详情): name, 处方药 when it is one, specification, price × quantity, and
 * on the checkout what stock is short.
 */
export default function DrugRow({
  block,
  line,
  rx,
  short,
}: {
  block: string
  line: { drugName: string; drugSpec: string; priceFen: number; quantity: number; unit: string }
  rx?: boolean
  short?: string | null
}) {
  return (
    <View className={`${block}__drug`}>
      <View>
        <Text className={`${block}__drug-name`}>{line.drugName}</Text>
        {rx && <Text className={`${block}__rx`}>处方药</Text>}
        <Text className={`${block}__line`}>{line.drugSpec}</Text>
        {short && <Text className={`${block}__short`}>{short}</Text>}
      </View>
      <Text className={`${block}__drug-amount`}>
        {yuan(line.priceFen)} × {line.quantity}
        {line.unit}
      </Text>
    </View>
  )
}
