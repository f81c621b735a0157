import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import HoldPay from '@/components/HoldPay'
import Tappable from '@/components/Tappable'
import { confirm, toastError, toastSuccess } from '@/ui/feedback'

import { CHANNEL_TEXT, ORDER_STATUS_TEXT, cancelConfirmText, localTime, refundText, statusClass, yuan } from '@/utils/register'
import './detail.scss'
import { chsPaymentUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/**
 * 挂号详情 (spec §2 /pages/order/register/detail?source=&type=&id=): the record, its amounts and status; while held,
 * the countdown and 去支付; 取消预约 before the hospital's deadline. Back from the cashier (source=pay) it asks the
 * server to confirm the payment first.
 */
function RegisterDetail() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const fromPay = params.source === 'pay'
  const r = register.records.detail.value?.id === id ? register.records.detail.value : null

  const load = (confirmPay = fromPay) => (id ? register.records.loadDetail(id, confirmPay).catch(() => undefined) : undefined)
  const loadRules = () => (register.catalogue.hospital ? register.catalogue.loadRules().catch(() => undefined) : undefined)

  const pay = async () => {
    if (!r) return
    // with insurance, the split is worked out on the insurance payment page before paying
    if (r.insurance && r.order?.status === 'created') return void Taro.navigateTo({ url: chsPaymentUrl(r.id) })
    const outcome = await register.booking.pay(r).catch(() => 'failed' as const)
    if (outcome === 'cancelled') toastError('支付已取消，请在倒计时结束前完成支付')
  }

  const cancel = async () => {
    if (!r) return
    if (!(await confirm(cancelConfirmText(r)))) return
    const after = await register.records.cancel(r.id).catch(() => null)
    if (after) toastSuccess(after.order?.status === 'refunding' || after.order?.status === 'refunded' ? '已取消，退款将原路退回' : '已取消预约')
  }

  const body = () => {
    if (!id) return <Empty text='未找到该挂号记录' />
    if (!r && register.records.detail.state === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!r) return <Loading />
    const order = r.order
    const refund = refundText(r)
    const open = r.status === 'holding' || r.status === 'booked'
    return (
      <View className='reg-detail'>
        <View className={`reg-detail__status reg-detail__status--${statusClass(r)}`}>
          <Text className='reg-detail__status-text'>{r.statusText}</Text>
          {r.status === 'booked' && <Text className='reg-detail__status-note'>请于就诊当日按预约时段提前15分钟到院签到</Text>}
          {r.status === 'expired' && <Text className='reg-detail__status-note'>未在规定时间内完成支付，号源已释放</Text>}
          {refund && <Text className='reg-detail__status-note'>{refund}</Text>}
        </View>

        {r.status === 'holding' && (
          <>
            <HoldPay registration={r} paying={register.booking.payment.busy} onPay={() => void pay()} onExpire={() => void load(false)} />
            {order?.status === 'paying' && (
              <Tappable className='reg-detail__recheck' onTap={() => void load(true)}>
                已完成支付？点击刷新支付结果
              </Tappable>
            )}
          </>
        )}

        <View className='reg-detail__card'>
          <Row label='预约号' value={r.regNo} />
          <Row label='就诊人' value={r.patientName} />
          {r.hisMedCardNo && <Row label='就诊卡号' value={r.hisMedCardNo} />}
          <Row label='医院' value={r.hospitalName} />
          <Row label='科室' value={r.deptName} />
          <Row label='医生' value={`${r.doctorName} ${r.title}`.trim()} />
          <Row label='号别' value={r.registerType} />
          <Row label='就诊时间' value={`${r.visitDate} ${r.week} ${r.segmentText} ${r.timeRange}`} />
          {r.seq > 0 && <Row label='就诊序号' value={`${r.seq}号`} />}
          <Row label='预约时间' value={localTime(r.createdAt)} />
        </View>

        <View className='reg-detail__card'>
          <Row label='挂号费' value={yuan(r.feeFen)} />
          {order ? (
            <>
              <Row label='订单金额' value={yuan(order.amountFen)} />
              {order.insuranceFen > 0 && <Row label='医保支付' value={yuan(order.insuranceFen)} />}
              <Row label='个人支付' value={yuan(order.selfPayFen)} strong />
              <Row label='支付状态' value={ORDER_STATUS_TEXT[order.status] ?? order.status} />
              {order.channel && order.paidAt && <Row label='支付方式' value={CHANNEL_TEXT[order.channel] ?? order.channel} />}
              {order.paidAt && <Row label='支付时间' value={localTime(order.paidAt)} />}
              {order.refundedFen > 0 && <Row label='已退款' value={yuan(order.refundedFen)} />}
              <Row label='订单号' value={order.orderNo} />
              {order.insuranceFen > 0 && (
                <Tappable className='reg-detail__link' onTap={() => void Taro.navigateTo({ url: chsPaymentUrl(r.id) })}>
                  查看医保结算明细 ›
                </Tappable>
              )}
            </>
          ) : (
            r.status !== 'holding' && <Row label='实付' value={yuan(0)} strong />
          )}
        </View>

        {open && (
          <View className='reg-detail__actions'>
            {r.cancellable ? (
              <Button block disabled={register.records.cancellation.busy} onClick={() => void cancel()}>
                取消预约
              </Button>
            ) : (
              <Text className='reg-detail__note'>
                {r.status === 'booked' ? `已超过取消时限，不可取消${register.catalogue.rules.value?.cancelRule ? `（${register.catalogue.rules.value.cancelRule}）` : ''}` : ''}
              </Text>
            )}
            {register.catalogue.rules.value?.cancelRule && r.cancellable && <Text className='reg-detail__note'>取消规则：{register.catalogue.rules.value.cancelRule}</Text>}
          </View>
        )}
      </View>
    )
  }

  return (
    <PageShell title='挂号详情' onReady={() => Promise.all([load(), loadRules()])}>
      {body()}
    </PageShell>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='reg-detail__row'>
      <Text className='reg-detail__label'>{label}</Text>
      <Text className={`reg-detail__value${strong ? ' reg-detail__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(RegisterDetail)
