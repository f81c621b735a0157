import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import PatientList, { usePatientListLoader } from '@/components/PatientList'

/** 电子健康卡 (spec §2 /pages/healthPatient/index): the patients as cards with the hospital card number's QR code. */
function HealthPatientPage() {
  const { params } = useRouter()
  const load = usePatientListLoader()
  return (
    <PageShell title='电子健康卡' onReady={load}>
      <PatientList variant='healthCard' select={params.select === '1'} />
    </PageShell>
  )
}

export default observer(HealthPatientPage)
