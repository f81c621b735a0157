import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Choice, FormField, FormGroup } from '@/components/FormField'
import { useStores } from '@/stores'
import { toastError } from '@/ui/feedback'
import { DefaultSwitch, SubmitButton } from './parts'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 电子健康卡: choose a card on the health-card authorisation page; it comes back to this page with healthCode,
 * and the page finishes the bind (spec §2 health-card redirect).
 */
function HealthCardForm() {
  const { hospital } = useStores()
  const patient = usePatientStore()
  const [relation, setRelation] = useState(() => (patient.list.some((p) => p.relation === '本人') ? '' : '本人'))
  const [isDefault, setIsDefault] = useState(() => patient.list.length === 0)
  const hospitalName = hospital.hospital?.hospitalName

  const go = async () => {
    if (!relation) return toastError('请选择与就诊人的关系')
    await patient.saving.run(() => patient.startHealthCard(relation, isDefault))
  }

  return (
    <View>
      <Text className='add-patient__lead'>
        {hospitalName ? `使用已领取的电子健康卡，快速添加就诊人到${hospitalName}。` : '请先在“切换医院”中选择医院，再使用电子健康卡添加就诊人。'}
      </Text>
      <FormGroup>
        <FormField label='关系'>
          <Choice label='与就诊人关系' options={patient.relations} value={relation} onChange={setRelation} />
        </FormField>
        <DefaultSwitch checked={isDefault} onChange={setIsDefault} />
      </FormGroup>
      <SubmitButton label='选择电子健康卡' busy={patient.saving.busy} disabled={!hospitalName} onSubmit={go} />
    </View>
  )
}

export default observer(HealthCardForm)
