import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { CARD_TYPES } from '@/utils/hospitalVariants'
import { cardTypeAddPatientUrl } from '@/pageUrls'
import './index.scss'

/** 选择证件类型 (spec §2 customer-specific "choose card type"): the card the patient is added with, then the form. */
export default function CardType() {
  return (
    <PageShell title='选择证件类型'>
      <View className='card-type'>
        <Text className='card-type__lead'>请选择就诊人使用的证件</Text>
        {CARD_TYPES.map((c) => (
          <Tappable key={c.key} role='link' className='card-type__item' onTap={() => void Taro.redirectTo({ url: cardTypeAddPatientUrl(c.key) })}>
            <Text className='card-type__label'>{c.label}</Text>
            <Text className='card-type__note'>{c.note}</Text>
          </Tappable>
        ))}
      </View>
    </PageShell>
  )
}
