import { useRouter } from '@tarojs/taro'
import { queryText } from '@/utils/queryText'
import ChosenBillsPage from './ChosenBillsPage'
import { useBillStore } from '@/stores/BillStore'

/**
 * 科室合并支付 (spec §2 /palm/payment/deptMergeList?visitNo=&deptName=): every unpaid bill one department ordered at
 * one visit of the chosen patient, read afresh from the HIS, paid together as one order (all of them or none), on the
 * same confirmation and payment as /mergeList. A bill already in a payment that waits is left out.
 */
export default function DeptMergeList() {
  const bills = useBillStore()
  const { params } = useRouter()
  const visitNo = queryText(params.visitNo)
  const deptName = queryText(params.deptName)
  return (
    <ChosenBillsPage
      title='合并支付'
      choose={() => bills.chooseDept(visitNo, deptName)}
      missing={!visitNo || !deptName ? '未找到该科室的缴费单' : null}
      emptyText={`${deptName}暂无待缴费用`}
    />
  )
}
