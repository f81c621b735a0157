import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import type { Hospital } from '../../../types/api/hospital'

const SERVICES = (h: Hospital) => [h.configDto.isPalm && '掌上医院', h.configDto.isInternet && '互联网医院'].filter(Boolean).join(' · ')

/** One hospital to choose: its initial, name, level and services, address; the one in use says so. */
function HospitalItem({ hospital: h }: { hospital: Hospital }) {
  const { hospital } = useStores()
  const current = hospital.hospital?.hospitalCode === h.hospitalCode
  return (
    <Tappable className='hospitals__item' onTap={() => void hospital.switchTo(h.hospitalCode)}>
      <View className='hospitals__logo' aria-hidden>
        {(h.shortName || h.hospitalName).slice(0, 1)}
      </View>
      <View className='hospitals__body'>
        <View className='hospitals__title'>
          <Text className='hospitals__name'>{h.hospitalName}</Text>
          {current && <Text className='hospitals__tag'>当前医院</Text>}
        </View>
        <Text className='hospitals__meta'>
          {h.level} · {SERVICES(h)}
        </Text>
        <Text className='hospitals__meta'>{h.address}</Text>
      </View>
    </Tappable>
  )
}

export default observer(HospitalItem)
