import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import PatientList, { usePatientListLoader } from '@/components/PatientList'
import CardDetail, { useCardLoader } from './CardDetail'
import './index.scss'

/**
 * 电子健康卡 (spec §2 /pages/healthPatient/index): the patients as cards with the hospital card number's QR code; with
 * query id, that one patient's 电子就诊卡 and the hospital's record of them.
 */
function HealthPatientPage() {
  const { params } = useRouter()
  const patientId = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null
  const loadList = usePatientListLoader(() => patientId === null)
  const loadCard = useCardLoader(patientId ?? 0)
  if (patientId !== null)
    return (
      <PageShell title='电子就诊卡' onReady={loadCard}>
        <CardDetail patientId={patientId} />
      </PageShell>
    )
  return (
    <PageShell title='电子健康卡' onReady={loadList}>
      <PatientList variant='healthCard' select={params.select === '1'} />
    </PageShell>
  )
}

export default observer(HealthPatientPage)
