import Taro from '@tarojs/taro'
import { toastError } from '@/ui/feedback'
import { paymentDetailUrl } from '@/pageUrls'
import type { PayResult } from '@/stores/BillStore'

/**
 * Where paying leads: the record once the channel says paid (or nothing was left to pay), which asks the server how
 * it went; the H5 cashier has left the page already and comes back to the record by itself.
 */
export function afterPay(result: PayResult | null) {
  if (!result) return
  if (result.outcome === 'paid' || result.outcome === null) void Taro.redirectTo({ url: paymentDetailUrl(result.id, 'pay') })
  else if (result.outcome === 'cancelled') toastError('支付已取消，可在缴费记录中继续支付')
}
