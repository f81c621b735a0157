import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { useCountdown } from '@/components/HoldPay'
import { canEnterRoom, cancelInquiryText, inquiryPrice, inquiryRefundText, inquiryStatusClass, serviceLeftText } from '@/stores/InquiryStore'

import { assetUrl } from '@/ui/assets'
import { confirm, toastError, toastSuccess } from '@/ui/feedback'
import { CHANNEL_TEXT, ORDER_STATUS_TEXT, countdownText, localTime, yuan } from '@/utils/register'
import type { Inquiry } from '../../../../types/api/inquiry'
import IntakeCard from './IntakeCard'
import './detail.scss'
import { complaintUrl, medicalRecordUrl, roomUrl } from '@/pageUrls'
import { useRecordStore } from '@/stores/RecordStore'
import { useInquiryStore } from '@/stores/InquiryStore'

/**
 * 问诊详情 (spec §2 /pages/order/inquiry/detail?id=): the inquiry checked on opening (one whose time ran out shows
 * closed), its doctor, patient, illness, pictures, 问诊单 and money, the time left, and what can be done in its state: 去支付,
 * 取消问诊, 进入诊室, 结束问诊, 查看病历 (once the doctor has written one), 投诉 (once, on its own page).
 */
function InquiryDetail() {
  const inquiry = useInquiryStore()
  const records = useRecordStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const i = inquiry.detail.value?.id === id ? inquiry.detail.value : null

  // the record exists only after a doctor accepted: ask then (the server answers null until one is written)
  const load = () =>
    id
      ? inquiry
          .loadDetail(id)
          .then((loaded) => (loaded.acceptedAt ? records.loadOrderRecord(loaded.inquiryNo) : undefined))
          .catch(() => undefined)
      : undefined

  const pay = async () => {
    if (!i) return
    const outcome = await inquiry.pay(i.id).catch(() => 'failed' as const)
    if (outcome === 'cancelled') toastError('支付已取消，请在倒计时结束前完成支付')
  }

  const cancel = async () => {
    if (!i) return
    if (!(await confirm(cancelInquiryText(i)))) return
    const after = await inquiry.cancel(i.id).catch(() => null)
    if (after) toastSuccess(after.order?.status === 'refunding' || after.order?.status === 'refunded' ? '已取消，退款将原路退回' : '已取消问诊')
  }

  const finish = async () => {
    if (!i) return
    if (!(await confirm('确定结束本次问诊吗？结束后将不能继续向医生提问。'))) return
    const after = await inquiry.finish(i.id).catch(() => null)
    if (after) toastSuccess('问诊已结束')
  }

  const body = () => {
    if (!id) return <Empty text='未找到该问诊' />
    if (!i && inquiry.detail.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!i) return <Loading />
    const order = i.order
    const refund = inquiryRefundText(i)
    const canComplain = !!i.paidAt && !i.complaint
    const record = records.recordOfOrder(i.inquiryNo)
    return (
      <View className='inquiry-detail'>
        <View className={`inquiry-detail__status inquiry-detail__status--${inquiryStatusClass(i)}`}>
          <Text className='inquiry-detail__status-text'>{i.statusText}</Text>
          <StatusNote inquiry={i} onTimeUp={() => void load()} />
          {refund && <Text className='inquiry-detail__status-note'>{refund}</Text>}
        </View>

        <View className='inquiry-detail__card inquiry-detail__doctor'>
          <Image className='inquiry-detail__avatar' src={assetUrl(i.doctor.avatar)} aria-hidden='true' />
          <View>
            <Text className='inquiry-detail__name'>{i.doctor.doctorName}</Text>
            <Text className='inquiry-detail__title'>{i.doctor.title}</Text>
            <Text className='inquiry-detail__dept'>
              {i.hospitalName} · {i.doctor.deptName}
            </Text>
          </View>
        </View>

        <View className='inquiry-detail__card'>
          <Row label='问诊单号' value={i.inquiryNo} />
          <Row label='服务' value={i.serviceName} />
          <Row label='就诊人' value={i.patientName} />
          <Row label='提交时间' value={localTime(i.createdAt)} />
          {i.acceptedAt && <Row label='接诊时间' value={localTime(i.acceptedAt)} />}
          {i.finishedAt && <Row label='结束时间' value={localTime(i.finishedAt)} />}
        </View>

        <View className='inquiry-detail__card'>
          <Text className='inquiry-detail__heading'>病情描述</Text>
          <Text className='inquiry-detail__text'>{i.description}</Text>
          {i.pictures.length > 0 && (
            <View className='inquiry-detail__pictures'>
              {i.pictures.map((url, n) => (
                <Image key={url} className='inquiry-detail__picture' src={assetUrl(url)} imgProps={{ alt: `病情图片${n + 1}` }} />
              ))}
            </View>
          )}
        </View>

        <IntakeCard key={i.id} inquiry={i} />

        <View className='inquiry-detail__card'>
          <Row label='问诊费' value={inquiryPrice(i.priceFen)} strong />
          {order && (
            <>
              <Row label='支付状态' value={ORDER_STATUS_TEXT[order.status] ?? order.status} />
              {order.channel && order.paidAt && <Row label='支付方式' value={CHANNEL_TEXT[order.channel] ?? order.channel} />}
              {i.paidAt && <Row label='支付时间' value={localTime(i.paidAt)} />}
              {order.refundedFen > 0 && <Row label='已退款' value={yuan(order.refundedFen)} />}
              <Row label='订单号' value={order.orderNo} />
            </>
          )}
        </View>

        {i.complaint && (
          <View className='inquiry-detail__card'>
            <Text className='inquiry-detail__heading'>我的投诉</Text>
            <Text className='inquiry-detail__text'>{i.complaint.content}</Text>
            <Text className='inquiry-detail__note'>{localTime(i.complaint.time)}</Text>
          </View>
        )}

        <View className='inquiry-detail__actions'>
          {i.status === 'unpaid' && (
            <Button type='primary' block disabled={inquiry.payment.busy} onClick={() => void pay()}>
              {inquiry.payment.busy ? '支付中...' : '去支付'}
            </Button>
          )}
          {canEnterRoom(i) && (
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: roomUrl(i.doctor.imAccount, i.id) })}>
              进入诊室
            </Button>
          )}
          {record && (
            <Button block onClick={() => void Taro.navigateTo({ url: medicalRecordUrl(i.inquiryNo) })}>
              查看病历
            </Button>
          )}
          {i.status === 'inProgress' && (
            <Button block disabled={inquiry.ending.busy} onClick={() => void finish()}>
              结束问诊
            </Button>
          )}
          {i.cancellable && (
            <Button block disabled={inquiry.cancellation.busy} onClick={() => void cancel()}>
              取消问诊
            </Button>
          )}
          {canComplain && (
            <Button block onClick={() => void Taro.navigateTo({ url: complaintUrl(i.id) })}>
              投诉
            </Button>
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title='问诊详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

/** What the state means for the patient now, with the time left where there is a clock running. */
function StatusNote({ inquiry: i, onTimeUp }: { inquiry: Inquiry; onTimeUp: () => void }) {
  if (i.status === 'unpaid' && i.order) return <PayLeft expiresAt={i.order.expiresAt} onTimeUp={onTimeUp} />
  if ((i.status === 'waiting' || i.status === 'inProgress') && i.serviceEndsAt) return <ServiceLeft inquiry={i} onTimeUp={onTimeUp} />
  if (i.status === 'finished') return <Text className='inquiry-detail__status-note'>问诊已结束，可进入诊室查看问诊记录</Text>
  return null
}

function PayLeft({ expiresAt, onTimeUp }: { expiresAt: string; onTimeUp: () => void }) {
  const left = useCountdown(expiresAt, onTimeUp)
  return (
    <Text className='inquiry-detail__status-note'>
      请在 <Text className='inquiry-detail__clock'>{countdownText(left)}</Text> 内完成支付，超时将自动取消
    </Text>
  )
}

/** The service window: waiting for the doctor (closed and refunded when it runs out), then the consultation's own. */
function ServiceLeft({ inquiry: i, onTimeUp }: { inquiry: Inquiry; onTimeUp: () => void }) {
  const left = useCountdown(i.serviceEndsAt, onTimeUp)
  const waiting = i.status === 'waiting'
  return (
    <View className='inquiry-detail__status-note'>
      <Text>{waiting ? '等待医生接诊，' : '医生已接诊，问诊时间'}</Text>
      <Text className='inquiry-detail__clock'>{serviceLeftText(left)}</Text>
      {waiting && <Text>{i.order ? '，超时未接诊将自动关闭并退款' : '，超时未接诊将自动关闭'}</Text>}
    </View>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='inquiry-detail__row'>
      <Text className='inquiry-detail__label'>{label}</Text>
      <Text className={`inquiry-detail__value${strong ? ' inquiry-detail__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(InquiryDetail)
