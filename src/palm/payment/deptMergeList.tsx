import { useEffect, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { useStores } from '@/stores'
import { PAYMENT_LIST_URL } from '@/pageUrls'
import { queryText } from '@/utils/queryText'
import MergeConfirm from './MergeConfirm'

/**
 * 科室合并支付 (spec §2 /palm/payment/deptMergeList?visitNo=&deptName=): every unpaid bill one department ordered at
 * one visit of the chosen patient, read afresh from the HIS, paid together as one order (all of them or none), on the
 * same confirmation and payment as /mergeList. A bill already in a payment that waits is left out.
 */
function DeptMergeList() {
  const { bills, patient: patients, hospital } = useStores()
  const { params } = useRouter()
  const visitNo = queryText(params.visitNo)
  const deptName = queryText(params.deptName)
  const [ready, setReady] = useState(false)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    await bills.loadUnpaid()
    bills.chooseDept(visitNo, deptName)
    setReady(true)
  }
  // another patient chosen meanwhile (on another page): their bills, and this department's among them
  useEffect(() => {
    if (!ready) return
    void bills.loadUnpaid().then(() => bills.chooseDept(visitNo, deptName))
  }, [current?.id, bills, ready, visitNo, deptName])

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (!visitNo || !deptName) return <Empty text='未找到该科室的缴费单' />
    if (!bills.unpaid.value && bills.unpaid.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!ready) return <Loading />
    return (
      <MergeConfirm
        empty={<Empty text={`${deptName}暂无待缴费用`} action={{ label: '查看全部待缴费用', onTap: () => void Taro.redirectTo({ url: PAYMENT_LIST_URL }) }} />}
      />
    )
  }

  return (
    <PageShell title='合并支付' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(DeptMergeList)
