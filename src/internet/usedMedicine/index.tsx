import { useEffect, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Check } from '@nutui/icons-react-taro'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { MEDICINES_MAX } from '@/stores/FollowUpStore'
import { localTime } from '@/utils/register'
import { maskName } from '@/utils/mask'
import { PRESCRIPTION_EDIT_URL } from '@/pageUrls'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 用药记录 (spec §2 /internet/usedMedicine/index): the medicines prescribed to the chosen patient before, each with its
 * spec, when and by whom it was last prescribed and how often; the ticked ones go on to 续方用药清单, or, opened from
 * the renewal form (`doctorId`), back to that form.
 */
function UsedMedicine() {
  const patients = usePatientStore()
  const prescription = usePrescriptionStore()
  const { params } = useRouter()
  // opened from the renewal form: the form's patient stays, the medicines go back to it
  const picking = !!Number(params.doctorId)
  const [ready, setReady] = useState(false)
  const current = patients.current
  const currentId = current?.id
  useEffect(() => {
    if (ready) void prescription.loadHistory()
  }, [ready, currentId, prescription])

  const next = () => {
    prescription.startEditing()
    if (!picking) void Taro.navigateTo({ url: PRESCRIPTION_EDIT_URL })
    else if (prescription.continueWith(prescription.editMedicine)) void Taro.navigateBack()
  }

  const history = prescription.historyDrug
  const list = () => {
    if (!current) return null
    if (!history.value && history.state === 'failed') return <LoadFailed onRetry={() => void prescription.loadHistory()} />
    if (!history.value) return <Loading />
    if (!prescription.usedDrugs.length) return <Empty text='暂无用药记录' />
    return (
      <View className='used-medicine__card' role='group' aria-label='用药记录'>
        <Text className='used-medicine__hint'>{`选择需要续方的药品，最多 ${MEDICINES_MAX} 种`}</Text>
        {prescription.usedDrugs.map((d) => {
          const on = prescription.selectMedicineList.includes(d.drugId)
          return (
            <Tappable
              key={d.drugId}
              className='used-drug'
              role='checkbox'
              checked={on}
              label={`${d.drugName} ${d.drugSpec}`}
              onTap={() => prescription.toggle(d.drugId)}
            >
              <View className={`used-drug__box${on ? ' used-drug__box--on' : ''}`} aria-hidden='true'>
                {on && <Check size={14} />}
              </View>
              <View className='used-drug__text'>
                <Text className='used-drug__name'>{d.drugName}</Text>
                <Text className='used-drug__line'>{`规格：${d.drugSpec}`}</Text>
                <Text className='used-drug__line'>{`最近开具：${localTime(d.lastPrescribedAt)}`}</Text>
                <Text className='used-drug__line'>{`开具医生：${d.doctorName}`}</Text>
                <Text className='used-drug__line'>{`共开具 ${d.times} 次`}</Text>
              </View>
            </Tappable>
          )
        })}
      </View>
    )
  }

  const count = prescription.selectMedicineList.length
  return (
    <PageShell
      title='用药记录'
      onReady={async () => {
        await patients.load().catch(() => undefined)
        setReady(true)
      }}
    >
      <View className='used-medicine'>
        <View className='used-medicine__card'>
          <Text className='used-medicine__heading'>就诊人</Text>
          {picking ? <Text className='used-medicine__patient'>{current ? maskName(current.name) : ''}</Text> : <PatientPicker onChoose={(p) => patients.choose(p)} />}
        </View>
        {list()}
        <ActionBar note={count ? `已选 ${count} 种药品` : '请选择需要续方的药品'}>
          <Button type='primary' block disabled={!count} onClick={next}>
            {picking ? '确定' : '续方'}
          </Button>
        </ActionBar>
      </View>
    </PageShell>
  )
}

export default observer(UsedMedicine)
