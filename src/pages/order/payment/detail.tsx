import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import { confirm, toastSuccess } from '@/ui/feedback'
import { localTime, yuan } from '@/utils/register'
import BillItems from './BillItems'
import { afterPay } from './afterPay'
import type { BillPaymentDetail, QueueTicket } from '../../../../types/api/palm'
import './detail.scss'
import { useBillStore } from '@/stores/BillStore'

const statusClass = (r: BillPaymentDetail) => (r.status === 'created' || r.status === 'paying' ? 'waiting' : r.status === 'paid' ? 'done' : 'over')

/**
 * 缴费详情 (spec §2 /pages/order/payment/detail?id=): the payment's status, its bills with their items and the total;
 * once paid, where to go next with the queue number; 申请退款 while nothing was dispensed or performed; 去支付 and
 * 取消支付 while it waits. Back from the cashier (source=pay&orderNo=) it finds the record and asks how it went.
 */
function PaymentDetail() {
  const bills = useBillStore()
  const { params } = useRouter()
  const fromPay = params.source === 'pay'
  const [id, setId] = useState<number | null>(params.id ? Number(params.id) : null)
  const [missing, setMissing] = useState(false)
  const r = id && bills.record.value?.id === id ? bills.record.value : null
  const queue = r && bills.queue.value?.id === r.id ? bills.queue.value : null

  const load = async () => {
    let found = id
    if (!found && params.orderNo) found = await bills.findByOrderNo(params.orderNo)
    if (!found) return setMissing(true)
    setId(found)
    const record = await bills.loadRecord(found).catch(() => null)
    // back from paying (a payment sheet, not the cashier, which came with orderNo): ask how it went
    if (fromPay && record && !params.orderNo) await bills.confirmPaid(record)
  }

  const refund = async () => {
    if (!r) return
    if (!(await confirm(`确定申请退款吗？退款后缴费单将作废，${yuan(r.amountFen)}将原路退回，预计1-7个工作日到账。`))) return
    const after = await bills.refund(r.id).catch(() => null)
    if (after) toastSuccess(after.status === 'refunded' ? '退款成功' : '已申请退款')
  }

  const cancel = async () => {
    if (!r) return
    if (!(await confirm('确定取消支付吗？取消后可重新选择缴费单缴费。'))) return
    const after = await bills.cancel(r.id).catch(() => null)
    if (after) toastSuccess('已取消支付')
  }

  const payAgain = async () => {
    if (!r) return
    const result = await bills
      .payBills({ hospitalCode: r.hospitalCode, patientId: r.patientId, billNos: r.bills.map((b) => b.billNo), sourceType: r.sourceType === 2 ? 2 : 0 }, true)
      .catch(() => null)
    if (result?.outcome === 'paid' || result?.outcome === null) void bills.loadRecord(r.id).catch(() => undefined)
    else afterPay(result)
  }

  const body = () => {
    if (missing) return <Empty text='未找到该缴费记录' />
    if (!r && bills.record.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    const waiting = r.status === 'created' || r.status === 'paying'
    return (
      <View className='pay-detail'>
        <View className={`pay-detail__status pay-detail__status--${statusClass(r)}`}>
          <Text className='pay-detail__status-text'>{r.statusText}</Text>
          {r.status === 'paid' && <Text className='pay-detail__status-note'>缴费成功，请按下方指引前往</Text>}
          {r.status === 'refunding' && <Text className='pay-detail__status-note'>退款处理中：{yuan(r.amountFen)}将原路退回，预计1-7个工作日到账</Text>}
          {r.status === 'refunded' && <Text className='pay-detail__status-note'>已退款{yuan(r.order.refundedFen || r.amountFen)}，已原路退回</Text>}
          {waiting && <Text className='pay-detail__status-note'>请在{localTime(r.order.expiresAt)}前完成支付，超时将自动取消</Text>}
        </View>

        {queue && queue.tickets.length > 0 && (
          <View className='pay-detail__card'>
            <Text className='pay-detail__heading'>下一步去哪里</Text>
            {queue.tickets.map((t) => (
              <Ticket key={`${t.kind}-${t.ticketNo}`} t={t} />
            ))}
          </View>
        )}

        {r.bills.map((b) => (
          <View key={b.billNo} className='pay-detail__card'>
            <View className='pay-detail__head'>
              <Text className='pay-detail__title'>{b.title}</Text>
              <Text className='pay-detail__amount'>{yuan(b.amountFen)}</Text>
            </View>
            <Text className='pay-detail__line'>
              {b.deptName}　{b.doctorName}　{b.visitDate}
            </Text>
            {b.place && <Text className='pay-detail__line'>执行地点：{b.place}</Text>}
            {b.performed && <Text className='pay-detail__line'>已取药或已执行</Text>}
            <BillItems items={b.items} />
          </View>
        ))}

        <View className='pay-detail__card'>
          <Row label='就诊人' value={r.patientName} />
          <Row label='医院' value={r.hospitalName} />
          <Row label='合计' value={yuan(r.amountFen)} strong />
          <Row label='订单号' value={r.orderNo} />
          <Row label='创建时间' value={localTime(r.createdAt)} />
          {r.paidAt && <Row label='支付时间' value={localTime(r.paidAt)} />}
        </View>

        {r.refundable && (
          <View className='pay-detail__actions'>
            <Button block disabled={bills.change.busy} onClick={() => void refund()}>
              申请退款
            </Button>
            <Text className='pay-detail__note'>取药或检查后不可在线退款，请到医院窗口办理</Text>
          </View>
        )}
        {r.status === 'paid' && !r.refundable && <Text className='pay-detail__note'>已取药或已执行的费用不可在线退款，如需退费请到医院窗口办理</Text>}
        {r.payable && (
          <>
            <View className='pay-detail__actions'>
              <Button block disabled={bills.change.busy} onClick={() => void cancel()}>
                取消支付
              </Button>
            </View>
            {r.order.status === 'paying' && (
              <Tappable className='pay-detail__recheck' onTap={() => void load()}>
                已完成支付？点击刷新支付结果
              </Tappable>
            )}
            <ActionBar amount={{ label: '应付', value: yuan(r.amountFen) }}>
              <Button type='primary' block disabled={bills.payment.busy} onClick={() => void payAgain()}>
                {bills.payment.busy ? '支付中...' : '去支付'}
              </Button>
            </ActionBar>
          </>
        )}
      </View>
    )
  }

  return (
    <PageShell title='缴费详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

/** One place to go: what to do there, the number, how many wait before it. */
function Ticket({ t }: { t: QueueTicket }) {
  return (
    <View className='pay-ticket'>
      <View className='pay-ticket__head'>
        <Text className='pay-ticket__place'>
          {t.place} {t.window}
        </Text>
        <Text className='pay-ticket__status'>{t.statusText}</Text>
      </View>
      <Text className='pay-ticket__line'>位置：{t.location}</Text>
      <Text className='pay-ticket__line'>
        排队号：<Text className='pay-ticket__no'>{t.ticketNo}</Text>
      </Text>
      {t.status === 'waiting' && <Text className='pay-ticket__line'>前面还有{t.ahead}人</Text>}
      <Text className='pay-ticket__guide'>{t.guide}</Text>
    </View>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='pay-detail__row'>
      <Text className='pay-detail__label'>{label}</Text>
      <Text className={`pay-detail__value${strong ? ' pay-detail__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(PaymentDetail)
