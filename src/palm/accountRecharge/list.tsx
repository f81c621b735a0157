import { useState } from 'react'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { ACCOUNT_RECHARGE_URL, accountDetailUrl } from '@/pageUrls'
import { useRecharge } from '../../pages/order/recharge/useRecharge'
import RecordList from '../../pages/order/recharge/RecordList'
import { usePatientStore } from '@/stores/PatientStore'

/** 充值记录 (spec §2 /palm/accountRecharge/list): the chosen patient's outpatient account top-ups, a page at a time. */
function AccountRecords() {
  const patients = usePatientStore()
  const store = useRecharge('clinic')
  const [ready, setReady] = useState(false)
  const load = async () => {
    await patients.load().catch(() => undefined)
    setReady(true)
  }
  return (
    <PageShell title='充值记录' onReady={load}>
      <RecordList store={store} byPatient ready={ready} detailUrl={(id) => accountDetailUrl(id)} empty={{ text: '暂无充值记录', action: { label: '去充值', url: ACCOUNT_RECHARGE_URL } }} />
    </PageShell>
  )
}

export default observer(AccountRecords)
