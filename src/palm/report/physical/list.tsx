import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import { usePhysical } from '../../../pages/order/physical/usePhysical'
import ReportList from './ReportList'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/** 体检报告列表 (spec §2 /palm/report/physical/list?patientId=): one patient's physical-exam reports. */
function PhysicalReportList() {
  const patients = usePatientStore()
  const store = usePhysical()
  const { params } = useRouter()
  const [unknown, setUnknown] = useState(false)
  const load = async () => {
    await patients.load().catch(() => undefined)
    const wanted = patients.list.find((p) => p.id === Number(params.patientId))
    if (!wanted) return setUnknown(true)
    patients.choose(wanted)
    await store.loadReports()
  }
  return (
    <PageShell title='体检报告列表' onReady={load}>
      <View className='physical-report'>{unknown ? <Empty text='未找到该就诊人' /> : <ReportList store={store} />}</View>
    </PageShell>
  )
}

export default observer(PhysicalReportList)
