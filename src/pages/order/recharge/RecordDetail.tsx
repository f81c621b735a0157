import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import { toastError } from '@/ui/feedback'
import { CHANNEL_TEXT, localTime, yuan } from '@/utils/register'
import type { RechargeKind } from '@/services/recharge'
import { ACCOUNT_RECHARGE_URL, HOSPITALIZATION_URL } from '@/pageUrls'
import { useRecharge } from './useRecharge'
import { recordStatusClass } from './RecordList'
import './RecordDetail.scss'

const WORDS: Record<RechargeKind, { title: string; what: string; balance: string; back: string; backUrl: string }> = {
  inpatient: { title: '充值详情', what: '住院预交金', balance: '当前预交金余额', back: '返回住院服务', backUrl: HOSPITALIZATION_URL },
  clinic: { title: '充值详情', what: '门诊预交金', balance: '当前账户余额', back: '返回门诊预交金', backUrl: ACCOUNT_RECHARGE_URL },
}

/**
 * One top-up (?id=): its status, amount, patient and order. Back from the cashier (source=pay, `id` and the cashier's
 * `orderNo`) it asks the server how the payment went first; once paid, the balance as it now is. 去支付 while it waits.
 */
function RecordDetail({ kind }: { kind: RechargeKind }) {
  const store = useRecharge(kind)
  const { params } = useRouter()
  const words = WORDS[kind]
  const fromPay = params.source === 'pay'
  const [id, setId] = useState<number | null>(params.id ? Number(params.id) : null)
  const [missing, setMissing] = useState(false)
  const r = id && store.record.value?.id === id ? store.record.value : null

  const load = async () => {
    let found = id
    if (!found && params.orderNo) found = await store.findByOrderNo(params.orderNo)
    if (!found) return setMissing(true)
    setId(found)
    await store.loadRecord(found, fromPay).catch(() => undefined)
  }

  const pay = async () => {
    if (!r) return
    const outcome = await store.payAgain(r).catch(() => null)
    if (outcome === 'cancelled') toastError('支付已取消，可在充值记录中继续支付')
  }

  const balanceFen = () => {
    if (!r || r.status !== 'paid') return null
    if (kind === 'inpatient') {
      const stay = store.stay.value
      return stay && stay.admissionNo === r.admissionNo ? stay.balanceFen : null
    }
    const account = store.balance.value
    return account && account.patientId === r.patientId ? account.balanceFen : null
  }

  const body = () => {
    if (missing) return <Empty text='未找到该充值记录' />
    if (!r && store.record.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    const waiting = r.status === 'created' || r.status === 'paying'
    const balance = balanceFen()
    const order = r.order
    return (
      <View className='recharge-detail'>
        <View className={`recharge-detail__status recharge-detail__status--${recordStatusClass(r)}`} role='status'>
          <Text className='recharge-detail__status-text'>{r.statusText}</Text>
          {r.status === 'paid' && <Text className='recharge-detail__status-note'>{words.what}充值成功</Text>}
          {waiting && <Text className='recharge-detail__status-note'>请在{localTime(order.expiresAt)}前完成支付，超时将自动取消</Text>}
          {r.status === 'refunding' && <Text className='recharge-detail__status-note'>退款处理中，将原路退回</Text>}
          {r.status === 'refunded' && <Text className='recharge-detail__status-note'>已原路退回{yuan(order.refundedFen || r.amountFen)}</Text>}
        </View>

        {balance !== null && (
          <View className='recharge-detail__card recharge-detail__balance'>
            <Text className='recharge-detail__label'>{words.balance}</Text>
            <Text className='recharge-detail__balance-value'>{yuan(balance)}</Text>
          </View>
        )}

        <View className='recharge-detail__card'>
          <Row label='充值金额' value={yuan(r.amountFen)} strong />
          <Row label='充值类型' value={words.what} />
          <Row label='就诊人' value={r.patientName} />
          {r.admissionNo && <Row label='住院号' value={r.admissionNo} />}
          <Row label='医院' value={r.hospitalName} />
          <Row label='下单时间' value={localTime(r.createdAt)} />
          {r.paidAt && <Row label='支付时间' value={localTime(r.paidAt)} />}
          {order.channel && r.paidAt && <Row label='支付方式' value={CHANNEL_TEXT[order.channel] ?? order.channel} />}
          <Row label='订单号' value={r.orderNo} />
        </View>

        {waiting && order.status === 'paying' && (
          <Tappable className='recharge-detail__recheck' onTap={() => id && void store.loadRecord(id, true).catch(() => undefined)}>
            已完成支付？点击刷新支付结果
          </Tappable>
        )}

        {waiting && r.payable ? (
          <ActionBar amount={{ label: '待支付', value: yuan(r.amountFen) }}>
            <Button type='primary' block loading={store.payment.busy} onClick={() => void pay()}>
              去支付
            </Button>
          </ActionBar>
        ) : (
          <View className='recharge-detail__actions'>
            <Button block onClick={() => void Taro.redirectTo({ url: words.backUrl })}>
              {words.back}
            </Button>
          </View>
        )}
      </View>
    )
  }

  return (
    <PageShell title={words.title} onReady={load}>
      {body()}
    </PageShell>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='recharge-detail__row'>
      <Text className='recharge-detail__label'>{label}</Text>
      <Text className={`recharge-detail__value${strong ? ' recharge-detail__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(RecordDetail)
