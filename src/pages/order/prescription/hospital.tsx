import { observer } from 'mobx-react'
import { View } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import { PrescriptionList } from '@/components/PrescriptionItem'

/** 处方流转 (spec §2 /pages/order/prescription/hospital): every prescription of the user's patients, newest first. */
function PrescriptionOutflow() {
  const { prescription } = useStores()
  return (
    <PageShell title='处方流转' onReady={() => prescription.outflow.reload()}>
      <View>
        <PrescriptionList list={prescription.outflow} empty='暂无处方' showPatient />
      </View>
    </PageShell>
  )
}

export default observer(PrescriptionOutflow)
