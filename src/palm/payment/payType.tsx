import { useRouter } from '@tarojs/taro'
import { queryText } from '@/utils/queryText'
import ChosenBillsPage from './ChosenBillsPage'
import { useBillStore } from '@/stores/BillStore'

/**
 * 选择支付方式 (spec §2 /palm/payment/payType?billNo=): one bill of the chosen patient paid on its own (单独支付 on the
 * bill list), with the ways to pay it: online, the outpatient account's balance, or health insurance where the
 * hospital takes it. The same confirmation and payment as /mergeList, for that one bill.
 */
export default function PayType() {
  const bills = useBillStore()
  const { params } = useRouter()
  const billNo = queryText(params.billNo)
  return (
    <ChosenBillsPage
      title='选择支付方式'
      choose={() => bills.chooseOne(billNo)}
      missing={billNo ? null : '未找到该缴费单'}
      emptyText='该缴费单已缴费或正在支付中'
    />
  )
}
