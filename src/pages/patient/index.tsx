import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import PatientList, { usePatientListLoader } from '@/components/PatientList'

/** 就诊人管理 (spec §2 /pages/patient/index); with select=1 a picker of the patient the next flow acts for. */
function PatientPage() {
  const { params } = useRouter()
  const select = params.select === '1'
  const load = usePatientListLoader()
  return (
    <PageShell title={select ? '选择就诊人' : '就诊人管理'} onReady={load}>
      <PatientList variant='manage' select={select} />
    </PageShell>
  )
}

export default observer(PatientPage)
