import { useState } from 'react'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { INPATIENT_RECHARGE_URL, rechargeDetailUrl } from '@/pageUrls'
import { useRecharge } from '../../../pages/order/recharge/useRecharge'
import RecordList from '../../../pages/order/recharge/RecordList'
import { usePatientStore } from '@/stores/PatientStore'

/** 充值记录 (spec §2 /palm/hospitalization/recharge/record): the chosen patient's deposit top-ups, a page at a time. */
function InpatientRecords() {
  const patients = usePatientStore()
  const store = useRecharge('inpatient')
  const [ready, setReady] = useState(false)
  const load = async () => {
    await patients.load().catch(() => undefined)
    setReady(true)
  }
  return (
    <PageShell title='充值记录' onReady={load}>
      <RecordList store={store} byPatient ready={ready} detailUrl={(id) => rechargeDetailUrl(id)} empty={{ text: '暂无充值记录', action: { label: '去充值', url: INPATIENT_RECHARGE_URL } }} />
    </PageShell>
  )
}

export default observer(InpatientRecords)
