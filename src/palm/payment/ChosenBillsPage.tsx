import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { useStores } from '@/stores'
import { PAYMENT_LIST_URL } from '@/pageUrls'
import MergeConfirm from './MergeConfirm'
import { usePatientStore } from '@/stores/PatientStore'
import { useBillStore } from '@/stores/BillStore'

interface Props {
  title: string
  /** Chooses the bills the page pays among the unpaid ones just read (BillStore.chooseDept, chooseOne). */
  choose: () => void
  /** Why there is nothing to choose from the address (its parameters are missing); null when they are there. */
  missing: string | null
  /** What is said when none of the chosen bills is payable any longer. */
  emptyText: string
}

/**
 * A payment page for bills named by its address (科室合并支付, 选择支付方式): the chosen patient's unpaid bills read
 * afresh from the HIS, the page's own choice among them, then the confirmation and payment of /mergeList. Another
 * patient chosen meanwhile (on another page) is asked again.
 */
function ChosenBillsPage({ title, choose, missing, emptyText }: Props) {
  const { hospital } = useStores()
  const bills = useBillStore()
  const patients = usePatientStore()
  const [ready, setReady] = useState(false)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    await bills.loadUnpaid()
    choose()
    setReady(true)
  }
  useEffect(() => {
    if (!ready) return
    void bills.loadUnpaid().then(choose)
    // `choose` is the page's, the same for its address
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.id, bills, ready])

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (missing) return <Empty text={missing} />
    if (!bills.unpaid.value && bills.unpaid.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!ready) return <Loading />
    return <MergeConfirm empty={<Empty text={emptyText} action={{ label: '查看全部待缴费用', onTap: () => void Taro.redirectTo({ url: PAYMENT_LIST_URL }) }} />} />
  }

  return (
    <PageShell title={title} onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(ChosenBillsPage)
