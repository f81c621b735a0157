import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import Tappable from '../Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import { maskName } from '@/utils/mask'
import type { Patient } from '../../../types/api/patient'
import { addPatientUrl } from '@/pageUrls'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 就诊人 in a booking form (确认挂号, the inquiry forms): the patient store's patients as chips, the current one
 * chosen and the incomplete ones marked 待完善; a retry when the list failed, a way to add one when there is none.
 * `onChoose` decides whether a tap may change the patient (a locked form, an incomplete patient).
 */
function PatientPicker({ onChoose }: { onChoose: (p: Patient) => void }) {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const current = patients.current
  if (!patients.loaded && patients.loadFailed) {
    return (
      <Tappable inline className='patient-picker__note patient-picker__note--warn' onTap={() => void patients.load().catch(() => undefined)}>
        就诊人{MSG.listFailed}，点击重试
      </Tappable>
    )
  }
  if (!patients.loaded) return <Text className='patient-picker__note'>{MSG.listLoading}</Text>
  if (patients.list.length === 0) {
    return (
      <View className='patient-picker__add'>
        <Text className='patient-picker__note'>还没有就诊人，请先添加</Text>
        <Button type='primary' size='small' onClick={() => void Taro.navigateTo({ url: addPatientUrl(hospital.hospital?.hospitalCode) })}>
          添加就诊人
        </Button>
      </View>
    )
  }
  return (
    <View className='patient-picker' role='radiogroup' aria-label='就诊人'>
      {patients.list.map((p) => (
        <Tappable
          key={p.id}
          role='radio'
          checked={current?.id === p.id}
          className={`patient-picker__chip${current?.id === p.id ? ' patient-picker__chip--on' : ''}`}
          onTap={() => onChoose(p)}
        >
          <Text>{maskName(p.name)}</Text>
          {!p.complete && <Text className='patient-picker__chip-tag'>待完善</Text>}
        </Tappable>
      ))}
    </View>
  )
}

export default observer(PatientPicker)
