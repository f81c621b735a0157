import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { USED_MEDICINE_URL, renewalUrl } from '@/pageUrls'
import './edit.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

/**
 * 续方用药清单 (spec §2 /internet/prescription/edit): the medicines chosen on 用药记录 with how many of each, and the
 * doctor to ask (one who prescribed them); 下一步 opens the renewal form (复诊续方) with them filled in.
 */
function EditMedicine() {
  const prescription = usePrescriptionStore()
  const doctors = prescription.editDoctors
  const [doctorId, setDoctorId] = useState<number | null>(null)
  const chosenDoctor = doctors.find((d) => d.id === doctorId) ?? doctors[0]

  const next = () => {
    if (chosenDoctor && prescription.continueWith(prescription.editMedicine)) void Taro.navigateTo({ url: renewalUrl(chosenDoctor.id) })
  }

  const body = () => {
    if (!prescription.editMedicine.length) {
      return <Empty text='还没有选择药品' action={{ label: '从用药记录选择', onTap: () => void Taro.redirectTo({ url: USED_MEDICINE_URL }) }} />
    }
    return (
      <View className='pres-edit'>
        <View className='pres-edit__card' role='list' aria-label='续方药品'>
          {prescription.editMedicine.map((m) => (
            <View key={m.drugId} className='pres-edit__drug' role='listitem'>
              <View className='pres-edit__text'>
                <Text className='pres-edit__name'>{m.drugName}</Text>
                <Text className='pres-edit__line'>{`规格：${m.drugSpec}`}</Text>
              </View>
              <View className='pres-edit__count' role='group' aria-label={`${m.drugName}数量`}>
                <Tappable className='pres-edit__step' label={`减少${m.drugName}`} disabled={m.quantity <= 1} onTap={() => prescription.setQuantity(m.drugId, m.quantity - 1)}>
                  −
                </Tappable>
                <Text className='pres-edit__quantity'>{`${m.quantity}${m.unit}`}</Text>
                <Tappable className='pres-edit__step' label={`增加${m.drugName}`} onTap={() => prescription.setQuantity(m.drugId, m.quantity + 1)}>
                  +
                </Tappable>
              </View>
              <Tappable inline className='pres-edit__remove' label={`删除${m.drugName}`} onTap={() => prescription.removeMedicine(m.drugId)}>
                删除
              </Tappable>
            </View>
          ))}
        </View>
        <View className='pres-edit__card' role='radiogroup' aria-label='续方医生'>
          <Text className='pres-edit__heading'>续方医生</Text>
          <View className='pres-edit__doctors'>
            {doctors.map((d) => (
              <Tappable
                key={d.id}
                role='radio'
                checked={d.id === chosenDoctor?.id}
                className={`pres-edit__doctor${d.id === chosenDoctor?.id ? ' pres-edit__doctor--on' : ''}`}
                onTap={() => setDoctorId(d.id)}
              >
                {`${d.name}医生`}
              </Tappable>
            ))}
          </View>
        </View>
        <ActionBar note='下一步填写病情并提交续方申请，医生审核后开具处方'>
          <Button type='primary' block onClick={next}>
            下一步
          </Button>
        </ActionBar>
      </View>
    )
  }

  return <PageShell title='续方用药清单'>{body()}</PageShell>
}

export default observer(EditMedicine)
