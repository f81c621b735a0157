import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import CountedTextarea from '@/components/CountedTextarea'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { useCountdown } from '@/components/HoldPay'
import DrugRow from '@/components/PharmacyCheckout/DrugRow'
import { qrDataUrl } from '@/components/PatientList/qrCode'
import Tappable from '@/components/Tappable'
import { REFUND_REASON_MAX, cancelOrderText, pharmacyStatusClass } from '@/stores/PharmacyOrderStore'
import { confirm, toastError, toastSuccess } from '@/ui/feedback'
import { countdownText, localTime, yuan } from '@/utils/register'
import { isBuiltPage } from '@/routes'
import { orderPrescriptionUrl, pharmacyStoreUrl, planOrderUrl } from '@/pageUrls'
import type { PharmacyOrder } from '../../../../types/api/pharmacy'
import './detail.scss'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'

/**
 * 药品订单详情 (spec §2 /pages/order/shop/detail?id=): checked again when the cashier sends the patient back; the
 * state and its steps, the pickup QR code or the address and the carrier's tracking number, the drugs and fees, and
 * what can be done now: 去支付 (with the time left), 取消订单, 申请退款 with a reason, 撤销退款申请; an order from a
 * prescription shows 查看处方, and once completed, 再次购药 when its prescription may be bought again (planOrder).
 */
function PharmacyOrderDetail() {
  const orders = usePharmacyOrderStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const o = orders.detail.value?.id === id ? orders.detail.value : null
  const [reason, setReason] = useState<string | null>(null)

  const load = (check = params.source === 'pay') => (id ? orders.loadDetail(id, check).catch(() => undefined) : undefined)

  const pay = async () => {
    const outcome = await orders.pay(id).catch(() => 'failed' as const)
    if (outcome === 'cancelled') toastError('支付已取消，请在倒计时结束前完成支付')
  }

  const cancel = async (order: PharmacyOrder) => {
    if (!(await confirm(cancelOrderText(order)))) return
    const after = await orders.cancel(id).catch(() => null)
    if (after) toastSuccess(order.status === 'unpaid' ? '订单已取消' : '已取消，退款将原路返回')
  }

  const refund = async () => {
    if (!reason?.trim()) return toastError('请填写退款原因')
    const after = await orders.requestRefund(id, reason).catch(() => null)
    if (!after) return
    setReason(null)
    toastSuccess('退款申请已提交')
  }

  const withdraw = async () => {
    if (!(await confirm('确定撤销退款申请吗？'))) return
    if (await orders.cancelRefund(id).catch(() => null)) toastSuccess('已撤销退款申请')
  }

  const body = () => {
    if (!id) return <Empty text='未找到该订单' />
    if (!o && orders.detail.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!o) return <Loading />
    const code = orders.pickupCode.value?.orderId === o.id ? orders.pickupCode.value : null
    return (
      <View className='shop-order'>
        <View className={`shop-order__status shop-order__status--${pharmacyStatusClass(o)}`}>
          <Text className='shop-order__status-text'>{o.statusText}</Text>
          {o.status === 'unpaid' && o.payOrder && <PayLeft expiresAt={o.payOrder.expiresAt} onTimeUp={() => void load(true)} />}
          {refundNote(o) && <Text className='shop-order__status-note'>{refundNote(o)}</Text>}
        </View>

        {code && (
          <View className='shop-order__card shop-order__pickup'>
            <Text className='shop-order__heading'>取药码</Text>
            <Image className='shop-order__qr' src={qrDataUrl(code.qrText)} imgProps={{ alt: `取药二维码，取药码${code.pickupCode}` }} />
            <Text className='shop-order__code'>{code.pickupCode}</Text>
            <Text className='shop-order__note'>{o.status === 'ready' ? '药品已备好，请到店出示取药码' : '药房备药中，备好后请到店出示取药码'}</Text>
          </View>
        )}

        {o.trackingNo && (
          <View className='shop-order__card'>
            <Text className='shop-order__heading'>物流信息</Text>
            <Row label='快递公司' value={o.carrier ?? ''} />
            <Row label='快递单号' value={o.trackingNo} />
          </View>
        )}

        <View className='shop-order__card'>
          {o.delivery === 'express' && o.address ? (
            <>
              <Text className='shop-order__heading'>收货地址</Text>
              <Text className='shop-order__who'>
                {o.address.name} {o.address.mobile}
              </Text>
              <Text className='shop-order__line'>
                {o.address.regionText} {o.address.detail}
              </Text>
            </>
          ) : (
            <>
              <Text className='shop-order__heading'>到店自提</Text>
              <Text className='shop-order__who'>{o.store.name}</Text>
              <Text className='shop-order__line'>地址：{o.store.address}</Text>
              {isBuiltPage(pharmacyStoreUrl(o.store.id)) && (
                <Tappable inline role='link' className='shop-order__link' onTap={() => void Taro.navigateTo({ url: pharmacyStoreUrl(o.store.id) })}>
                  药房详情
                </Tappable>
              )}
            </>
          )}
        </View>

        <View className='shop-order__card'>
          <Text className='shop-order__heading'>药品清单</Text>
          {o.lines.map((l) => (
            <DrugRow key={l.drugId} block='shop-order' line={l} />
          ))}
          <Row label='药品费' value={yuan(o.drugFeeFen)} />
          {o.diagnosisFeeFen > 0 && <Row label='诊查费' value={yuan(o.diagnosisFeeFen)} />}
          {o.delivery === 'express' && <Row label='配送费' value={yuan(o.expressFeeFen)} />}
          <Row label='合计' value={yuan(o.totalFen)} strong />
        </View>

        <View className='shop-order__card'>
          <Row label='订单编号' value={o.orderCode} />
          {o.patientName && <Row label='就诊人' value={o.patientName} />}
          {o.source === 'prescription' && (
            <Tappable inline role='link' className='shop-order__link' onTap={() => void Taro.navigateTo({ url: orderPrescriptionUrl(o.id) })}>
              查看处方
            </Tappable>
          )}
          <Row label='配送方式' value={o.delivery === 'express' ? '快递配送' : '到店自提'} />
          <Row label='下单时间' value={localTime(o.createdAt)} />
          {o.refundReason && <Row label='退款原因' value={o.refundReason} />}
        </View>

        {o.steps.length > 0 && (
          <View className='shop-order__card'>
            <Text className='shop-order__heading'>订单进度</Text>
            <View role='list' aria-label='订单进度'>
              {[...o.steps].reverse().map((s) => (
                <View key={`${s.status}-${s.at}`} className='shop-order__step' role='listitem'>
                  <Text className='shop-order__step-text'>{s.statusText}</Text>
                  {s.note && <Text className='shop-order__line'>{s.note}</Text>}
                  <Text className='shop-order__step-time'>{localTime(s.at)}</Text>
                </View>
              ))}
            </View>
          </View>
        )}

        {reason !== null && (
          <View className='shop-order__card'>
            <Text className='shop-order__heading'>退款原因</Text>
            <CountedTextarea className='shop-order__reason' label='退款原因' placeholder='请填写退款原因' max={REFUND_REASON_MAX} value={reason} onInput={setReason} />
          </View>
        )}

        <View className='shop-order__actions'>
          {orders.planAgain && (
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: planOrderUrl(orders.planAgain!.id) })}>
              再次购药
            </Button>
          )}
          {o.canPay && (
            <Button type='primary' block disabled={orders.payment.busy} onClick={() => void pay()}>
              {orders.payment.busy ? '支付中...' : '去支付'}
            </Button>
          )}
          {o.canRefund &&
            (reason === null ? (
              <Button block onClick={() => setReason('')}>
                申请退款
              </Button>
            ) : (
              <Button type='primary' block disabled={orders.action.busy} onClick={() => void refund()}>
                提交退款申请
              </Button>
            ))}
          {o.canCancelRefund && (
            <Button block disabled={orders.action.busy} onClick={() => void withdraw()}>
              撤销退款申请
            </Button>
          )}
          {o.canCancel && (
            <Button block disabled={orders.action.busy} onClick={() => void cancel(o)}>
              取消订单
            </Button>
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title='订单详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

/** What a cancelled or refunded order says about its money, or null when none was paid or it is not on its way back. */
function refundNote(o: PharmacyOrder): string | null {
  const pay = o.payOrder
  if (!pay || (o.status !== 'cancelled' && o.status !== 'refunded')) return null
  if (pay.status === 'refunding') return `退款处理中：${yuan(pay.selfPayFen)}将原路退回`
  if (pay.status === 'refunded') return `已退款${yuan(pay.refundedFen || pay.selfPayFen)}，已原路返回`
  return null
}

function PayLeft({ expiresAt, onTimeUp }: { expiresAt: string; onTimeUp: () => void }) {
  const left = useCountdown(expiresAt, onTimeUp)
  return (
    <Text className='shop-order__status-note'>
      请在 <Text className='shop-order__clock'>{countdownText(left)}</Text> 内完成支付，超时将自动取消
    </Text>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='shop-order__row'>
      <Text className='shop-order__label'>{label}</Text>
      <Text className={`shop-order__value${strong ? ' shop-order__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(PharmacyOrderDetail)
