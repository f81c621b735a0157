import { useState } from 'react'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { HOSPITALIZATION_URL, rechargeDetailUrl } from '@/pageUrls'
import { useRecharge } from './useRecharge'
import RecordList from './RecordList'
import { usePatientStore } from '@/stores/PatientStore'

/** 充值记录 (spec §2 /pages/order/recharge/index): every deposit top-up of the caller's patients at the hospital. */
function RechargeRecords() {
  const patients = usePatientStore()
  const store = useRecharge('inpatient', false)
  const [ready, setReady] = useState(false)
  const load = async () => {
    await patients.load().catch(() => undefined)
    setReady(true)
  }
  return (
    <PageShell title='充值记录' onReady={load}>
      <RecordList store={store} byPatient={false} ready={ready} detailUrl={(id) => rechargeDetailUrl(id)} empty={{ text: '暂无充值记录', action: { label: '去充值', url: HOSPITALIZATION_URL } }} />
    </PageShell>
  )
}

export default observer(RechargeRecords)
