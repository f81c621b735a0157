import Taro from '@tarojs/taro'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import { PAYMENT_LIST_URL } from '@/pageUrls'
import MergeConfirm from './MergeConfirm'

/**
 * 确认缴费 (spec §2 /palm/payment/mergeList): the bills chosen on /palm/payment/list with their items and the total,
 * paid together as one order.
 */
export default function MergeList() {
  return (
    <PageShell title='确认缴费'>
      <MergeConfirm empty={<Empty text='请先选择要缴纳的费用' action={{ label: '去选择', onTap: () => void Taro.redirectTo({ url: PAYMENT_LIST_URL }) }} />} />
    </PageShell>
  )
}
