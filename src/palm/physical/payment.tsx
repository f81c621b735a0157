import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import Tappable from '@/components/Tappable'
import { toastError } from '@/ui/feedback'
import { CHANNEL_TEXT, localTime, yuan } from '@/utils/register'
import { weekOf } from '@/utils/physicalRules'
import { usePhysical, physicalStatusClass } from '../../pages/order/physical/usePhysical'
import { PHYSICAL_RESERVE_LIST_URL, physicalReportUrl } from '@/pageUrls'
import './payment.scss'

/**
 * 体检预约详情 (spec §2 /palm/physical/payment?id=, sourceType 4): the appointment, its payment and what can be done
 * with it: 去支付 while it waits, 取消预约 (a paid one is refunded, before the exam day only), 查看体检报告 once out.
 * Back from the cashier (source=pay) it asks the server how the payment went first.
 */
function PhysicalAppointmentPage() {
  const store = usePhysical()
  const { params } = useRouter()
  const id = Number(params.id)
  const fromPay = params.source === 'pay'
  const [missing, setMissing] = useState(false)
  const a = store.appointment.value?.id === id ? store.appointment.value : null

  const load = async () => {
    if (!id) return setMissing(true)
    await store.loadAppointment(id, fromPay).catch(() => undefined)
  }

  const pay = async () => {
    if (!a) return
    const outcome = await store.payAgain(a).catch(() => null)
    if (outcome === 'cancelled') toastError('支付已取消，可稍后继续支付')
  }

  const cancel = async () => {
    if (!a) return
    const paid = a.status === 'booked'
    const { confirm } = await Taro.showModal({
      title: '取消体检预约',
      content: paid ? `取消后体检费用${yuan(a.amountFen)}将原路退回，确定取消吗？` : '确定取消该体检预约吗？',
      confirmText: '确定取消',
      cancelText: '再想想',
    })
    if (!confirm) return
    const done = await store.cancel(a.id).catch(() => null)
    if (done) Taro.showToast({ title: paid ? '已取消，费用将原路退回' : '已取消', icon: 'none' })
  }

  const body = () => {
    if (missing) return <Empty text='未找到该体检预约' />
    if (!a && store.appointment.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!a) return <Loading />
    const order = a.order
    const waiting = a.status === 'holding'
    return (
      <View className='physical-appointment'>
        <View className={`physical-appointment__status physical-appointment__status--${physicalStatusClass(a.status)}`} role='status'>
          <Text className='physical-appointment__status-text'>{a.statusText}</Text>
          {waiting && <Text className='physical-appointment__status-note'>请在{localTime(order.expiresAt)}前完成支付，超时将自动取消并释放名额</Text>}
          {a.status === 'booked' && <Text className='physical-appointment__status-note'>请于体检当日早晨空腹到体检中心，出示体检编号登记</Text>}
          {a.refundText && (
            <Text className='physical-appointment__status-note'>
              {a.refundText}
              {order.refundedFen ? `：已原路退回${yuan(order.refundedFen)}` : ''}
            </Text>
          )}
          {a.status === 'finished' && <Text className='physical-appointment__status-note'>体检已完成{a.reportReady ? '，报告已出' : ''}</Text>}
        </View>
        <View className='physical-appointment__card'>
          <Row label='体检套餐' value={a.packageName} />
          <Row label='体检人' value={a.patientName} />
          <Row label='体检日期' value={`${a.examDate} ${weekOf(a.examDate)}`} />
          <Row label='体检编号' value={a.examNo} />
          <Row label='医院' value={a.hospitalName} />
          <Row label='费用' value={yuan(a.amountFen)} strong />
          <Row label='下单时间' value={localTime(a.createdAt)} />
          {order.paidAt && <Row label='支付时间' value={localTime(order.paidAt)} />}
          {order.channel && order.paidAt && <Row label='支付方式' value={CHANNEL_TEXT[order.channel] ?? order.channel} />}
          <Row label='订单号' value={order.orderNo} />
        </View>
        {a.cancelNote && <Text className='physical-appointment__note'>{a.cancelNote}</Text>}
        {waiting && order.status === 'paying' && (
          <Tappable className='physical-appointment__recheck' onTap={() => void store.loadAppointment(a.id, true).catch(() => undefined)}>
            已完成支付？点击刷新支付结果
          </Tappable>
        )}
        <View className='physical-appointment__actions'>
          {a.reportReady && (
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: physicalReportUrl({ patientId: a.patientId, examNo: a.examNo }) })}>
              查看体检报告
            </Button>
          )}
          {a.cancellable && (
            <Button block loading={store.cancelling.busy} onClick={() => void cancel()}>
              取消预约
            </Button>
          )}
          {!waiting && (
            <Button block onClick={() => void Taro.redirectTo({ url: PHYSICAL_RESERVE_LIST_URL })}>
              我的体检预约
            </Button>
          )}
        </View>
        {waiting && a.payable && (
          <ActionBar amount={{ label: '待支付', value: yuan(a.amountFen) }}>
            <Button type='primary' block loading={store.payment.busy} onClick={() => void pay()}>
              去支付
            </Button>
          </ActionBar>
        )}
      </View>
    )
  }

  return (
    <PageShell title='体检预约详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='physical-appointment__row'>
      <Text className='physical-appointment__label'>{label}</Text>
      <Text className={`physical-appointment__value${strong ? ' physical-appointment__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(PhysicalAppointmentPage)
