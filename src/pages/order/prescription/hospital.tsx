import { observer } from 'mobx-react-lite'
import { View } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import { PrescriptionList } from '@/components/PrescriptionItem'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

/** 处方流转 (spec §2 /pages/order/prescription/hospital): every prescription of the user's patients, newest first. */
function PrescriptionOutflow() {
  const prescription = usePrescriptionStore()
  return (
    <PageShell title='处方流转' onReady={() => prescription.outflow.reload()}>
      <View>
        <PrescriptionList list={prescription.outflow} empty='暂无处方' showPatient />
      </View>
    </PageShell>
  )
}

export default observer(PrescriptionOutflow)
