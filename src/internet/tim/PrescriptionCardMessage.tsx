import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Tappable from '@/components/Tappable'
import { yuan } from '@/utils/register'
import { prescriptionUrl } from '@/pageUrls'
import type { PrescriptionCard } from '../../../types/api/pharmacy'

/** 处方笺 in the room: the prescription the pharmacist approved (diagnoses, medicines, total); it opens the prescription. */
export default function PrescriptionCardMessage({ card }: { card: PrescriptionCard }) {
  return (
    <Tappable role='link' className='room-pres' label={`处方笺 ${card.diagnoses.join('、')} 查看处方`} onTap={() => void Taro.navigateTo({ url: prescriptionUrl(card.prescriptionId) })}>
      <Text className='room-pres__title'>处方笺</Text>
      <View className='room-pres__body'>
        <Text className='room-pres__line'>{`诊断：${card.diagnoses.join('、')}`}</Text>
        <Text className='room-pres__line'>{`药品：${card.drugNames.join('、')}`}</Text>
        <Text className='room-pres__line'>{`合计：${yuan(card.totalFen)}`}</Text>
      </View>
      <Text className='room-pres__link'>查看处方 ›</Text>
    </Tappable>
  )
}
