import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { USED_MEDICINE_URL } from '@/pageUrls'
import { PrescriptionList } from '@/components/PrescriptionItem'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 复诊续方 / 我的处方 (spec §2 /internet/prescription/index): the chosen patient's prescriptions, newest first, each with
 * its diagnoses, medicines, total, status and validity (3 days unless the hospital says otherwise); 去购药 on one that
 * can be bought, 查看订单 on one bought; 用药记录 to renew medicines prescribed before.
 */
function Prescriptions() {
  const patients = usePatientStore()
  const prescription = usePrescriptionStore()
  const [ready, setReady] = useState(false)
  const currentId = patients.current?.id
  useEffect(() => {
    if (ready) void prescription.orderList.reload()
  }, [ready, currentId, prescription])

  return (
    <PageShell
      title='我的处方'
      onReady={async () => {
        await patients.load().catch(() => undefined)
        setReady(true)
      }}
    >
      <View className='prescription'>
        <View className='prescription__card'>
          <Text className='prescription__heading'>就诊人</Text>
          <PatientPicker onChoose={(p) => patients.choose(p)} />
        </View>
        <Tappable role='link' className='prescription__renew' onTap={() => void Taro.navigateTo({ url: USED_MEDICINE_URL })}>
          <Text>用药记录 · 选择用过的药品申请续方</Text>
          <Text aria-hidden='true'>›</Text>
        </Tappable>
        <Text className='prescription__note'>处方自开具起 3 天内有效（以每张处方所示有效期为准），请在有效期内购药。</Text>
        <PrescriptionList list={prescription.orderList} empty='暂无处方' />
      </View>
    </PageShell>
  )
}

export default observer(Prescriptions)
