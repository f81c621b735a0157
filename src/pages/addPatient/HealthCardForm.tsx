import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { Choice, FormField, FormGroup } from '@/components/FormField'
import { useStores } from '@/stores'
import { toastError } from '@/ui/feedback'
import { DefaultSwitch } from './parts'

/**
 * 电子健康卡: choose a card on the health-card authorisation page; it comes back to this page with healthCode,
 * and the page finishes the bind (spec §2 health-card redirect).
 */
function HealthCardForm() {
  const { patient, hospital } = useStores()
  const [relation, setRelation] = useState(() => (patient.list.some((p) => p.relation === '本人') ? '' : '本人'))
  const [isDefault, setIsDefault] = useState(() => patient.list.length === 0)
  const [busy, setBusy] = useState(false)
  const hospitalName = hospital.hospital?.hospitalName

  const go = async () => {
    if (!relation) return toastError('请选择与就诊人的关系')
    setBusy(true)
    try {
      await patient.startHealthCard(relation, isDefault)
    } finally {
      setBusy(false)
    }
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
      <View className='add-patient__submit'>
        <Button type='primary' block loading={busy} disabled={!hospitalName} onClick={() => void go().catch(() => undefined)}>
          选择电子健康卡
        </Button>
      </View>
    </View>
  )
}

export default observer(HealthCardForm)
