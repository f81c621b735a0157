import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { Button } from '@/components/Button'
import { toastError } from '@/ui/feedback'
import { localTime, yuan } from '@/utils/register'
import type { nucleicUrls } from '@/pageUrls'
import type { NucleicOrder } from '../../../types/api/medtech'
import './index.scss'
import { useNucleicStore } from '@/stores/NucleicStore'

/**
 * 核酸订单 (spec §2 /palm/nucleic/orderList; a hospital's own): the caller's tests, newest first. A paid one shows its
 * sampling QR code (drawn by the server) for the sampling point; before sampling it may be cancelled with a refund;
 * an unpaid one may be paid. Back from the cashier (`orderNo=`) the payment is confirmed first.
 */
function NucleicOrders({ urls }: { urls: ReturnType<typeof nucleicUrls> }) {
  const store = useNucleicStore()
  const { params } = useRouter()
  const orders = store.orders.value?.records

  const load = async () => {
    if (params.orderNo) await store.confirmReturn(params.orderNo)
    else await store.loadOrders()
  }

  const cancel = async (o: NucleicOrder) => {
    const paid = o.status === 'paid'
    const { confirm } = await Taro.showModal({
      title: paid ? '取消并退款' : '取消订单',
      content: paid ? `确定取消该核酸检测吗？${yuan(o.amountFen)}将原路退回。` : '确定取消该订单吗？',
      confirmText: '确定取消',
      cancelText: '再想想',
    })
    if (!confirm) return
    const done = await store.cancel(o.id).catch(() => null)
    if (done) void Taro.showToast({ title: paid ? '已取消，退款处理中' : '已取消', icon: 'none' })
  }

  const pay = async (o: NucleicOrder) => {
    const outcome = await store.payAgain(o, `/h5${urls.orderList}`).catch(() => null)
    if (outcome === 'cancelled') toastError('支付已取消')
  }

  const card = (o: NucleicOrder) => {
    const code = store.codes.get(o.id)
    return (
      <View key={o.id} className='nucleic__card' aria-label={`${o.kindName}，${o.patientName}，${o.testStatusText || o.statusText}`}>
        <View className='nucleic__kind-head'>
          <Text className='nucleic__kind-name'>{o.kindName}</Text>
          <Text className='nucleic__status'>{o.testStatusText || o.statusText}</Text>
        </View>
        <Text className='nucleic__line'>{`就诊人：${o.patientName}`}</Text>
        <Text className='nucleic__line'>{`金额：${yuan(o.amountFen)} · ${o.statusText}`}</Text>
        <Text className='nucleic__line'>{`下单时间：${localTime(o.createdAt)}`}</Text>
        {o.status === 'refunding' && <Text className='nucleic__line'>退款处理中，将原路退回</Text>}
        {o.status === 'refunded' && <Text className='nucleic__line'>{`已原路退回${yuan(o.order.refundedFen || o.amountFen)}`}</Text>}
        {code && (
          <View className='nucleic__code'>
            <Image className='nucleic__code-image' src={code.image} mode='aspectFit' imgProps={{ alt: `采样码，条码号${code.sampleNo}` }} />
            <Text className='nucleic__code-no'>{code.sampleNo}</Text>
            <Text className='nucleic__line'>请在采样点出示此码，工作人员扫码后采样</Text>
          </View>
        )}
        <View className='nucleic__actions'>
          {o.payable && (
            <Button size='small' type='primary' loading={store.payment.busy} onClick={() => void pay(o)}>
              去支付
            </Button>
          )}
          {(o.payable || o.refundable) && (
            <Button size='small' onClick={() => void cancel(o)}>
              {o.refundable ? '取消并退款' : '取消订单'}
            </Button>
          )}
          {o.sampleNo && o.testStatus === 'registered' && (
            <Button size='small' type='primary' onClick={() => (code ? store.hideCode(o.id) : void store.showCode(o.id).catch(() => undefined))}>
              {code ? '收起采样码' : '出示采样码'}
            </Button>
          )}
          {o.testStatus === 'reported' && (
            <Button size='small' onClick={() => void Taro.navigateTo({ url: urls.result })}>
              查看结果
            </Button>
          )}
        </View>
      </View>
    )
  }

  const body = () => {
    if (!orders && store.orders.state === 'failed') return <LoadFailed onRetry={() => void store.loadOrders()} />
    if (!orders) return <Loading />
    if (!orders.length) return <Empty text='暂无核酸检测订单' action={{ label: '去开单', onTap: () => void Taro.navigateTo({ url: urls.purchase }) }} />
    return orders.map(card)
  }

  return (
    <PageShell title='我的核酸订单' onReady={load}>
      <View className='nucleic'>{body()}</View>
    </PageShell>
  )
}

export default observer(NucleicOrders)
