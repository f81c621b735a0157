import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { usePhysical } from '../../../pages/order/physical/usePhysical'
import ReportList from './ReportList'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/** 体检报告 (spec §2 /palm/report/physical/index): the chosen patient's physical-exam reports. */
function PhysicalReports() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = usePhysical()
  const [ready, setReady] = useState(false)
  const current = patients.current
  useEffect(() => {
    if (ready) void store.loadReports()
  }, [ready, current?.id, store])
  return (
    <PageShell
      title='体检报告'
      onReady={async () => {
        await patients.load().catch(() => undefined)
        setReady(true)
      }}
    >
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='physical-report'>
          <View className='physical-report__card'>
            <Text className='physical-report__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {current && <ReportList store={store} />}
        </View>
      )}
    </PageShell>
  )
}

export default observer(PhysicalReports)
