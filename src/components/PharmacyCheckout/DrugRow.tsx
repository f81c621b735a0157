import { View, Text } from '@tarojs/components'
import { yuan } from '@/utils/register'

/** One drug of a medicine order (确认订单, 药品订单详情): name, 处方药 when it is one, specification, price × quantity. */
export default function DrugRow({ block, line, rx }: { block: string; line: { drugName: string; drugSpec: string; priceFen: number; quantity: number; unit: string }; rx?: boolean }) {
  return (
    <View className={`${block}__drug`}>
      <View>
        <Text className={`${block}__drug-name`}>{line.drugName}</Text>
        {rx && <Text className={`${block}__rx`}>处方药</Text>}
        <Text className={`${block}__line`}>{line.drugSpec}</Text>
      </View>
      <Text className={`${block}__drug-amount`}>
        {yuan(line.priceFen)} × {line.quantity}
        {line.unit}
      </Text>
    </View>
  )
}
