import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import { localTime, yuan } from '@/utils/register'
import { toastError } from '@/ui/feedback'
import { afterPay } from '../../pages/order/payment/afterPay'
import { PAYMENT_PAY_RETURN_URL, billChsPaymentUrl, paymentDetailUrl } from '@/pageUrls'
import type { BillPaymentDetail } from '../../../types/api/palm'
import SplitRows from './SplitRows'
import SettledOrder from './SettledOrder'
import TestPerson from './TestPerson'
import { useInsuranceStore } from '@/stores/InsuranceStore'
import { useBillStore } from '@/stores/BillStore'

/** An unpaid payment of bills that has not gone to a channel yet: its split is worked out here. */
const settlesHere = (r: BillPaymentDetail | null) => !!r && r.payable && r.order.status === 'created'

/**
 * 医保支付 of a payment of outpatient bills (`/palm/chsPayment/index?type=outpatient&id=`), the same flow as a
 * registration's: the voucher authorisation, the split the bills' upload answers, and the cash part through the
 * cashier; for a payment already paid or closed, how its amount was split.
 */
function BillSettlement({ id, authCode }: { id: number; authCode?: string }) {
  const bills = useBillStore()
  const insurance = useInsuranceStore()
  const record = bills.record.value?.id === id ? bills.record.value : null

  const load = async () => {
    if (!id) return
    const r = await bills.loadRecord(id).catch(() => null)
    if (r && settlesHere(r)) {
      await insurance.prepare({ orderNo: r.orderNo, patientId: r.patientId, hospitalCode: r.hospitalCode, redirect: billChsPaymentUrl(r.id) }, authCode)
      // the upload set the order's insurance part: the amounts to pay come from the server again
      if (insurance.step === 'ready') await bills.loadRecord(id).catch(() => undefined)
    } else if (r) {
      await insurance.loadSplit(r.orderNo)
    }
  }
  useEffect(() => () => insurance.reset(), [insurance])

  const pay = async () => {
    if (!record) return
    const outcome = await insurance.pay(record.orderNo, PAYMENT_PAY_RETURN_URL)
    if (outcome === 'paid') void Taro.redirectTo({ url: paymentDetailUrl(record.id, 'pay') })
    else if (outcome === 'cancelled') toastError('支付已取消，可在缴费记录中继续支付')
  }

  /** The patient gives up insurance for these bills: the whole amount through the cashier. */
  const paySelf = async () => {
    if (!record) return
    const billNos = record.bills.map((b) => b.billNo)
    const result = await bills.payBills({ hospitalCode: record.hospitalCode, patientId: record.patientId, billNos, channel: 'cashier' }, true).catch(() => null)
    afterPay(result)
  }

  const settling = (r: BillPaymentDetail) => (
    <View className='chs__card'>
      <Text className='chs__heading'>医保结算</Text>
      {(insurance.step === 'checking' || insurance.step === 'uploading' || insurance.step === 'idle') && (
        <Text className='chs__note chs__note--inline'>{insurance.step === 'uploading' ? '正在获取医保结算金额...' : '正在查询医保授权...'}</Text>
      )}
      {insurance.error && (
        <View className='chs__error' role='alert'>
          {insurance.error}
        </View>
      )}
      {insurance.step === 'needAuth' && (
        <View className='chs__auth'>
          <Text className='chs__note chs__note--inline'>使用医保支付，需先授权就诊人本人的医保电子凭证</Text>
          <Button type='primary' block onClick={() => insurance.authorise()}>
            医保电子凭证授权
          </Button>
          {insurance.testUser && <TestPerson person={insurance.testUser} patientId={r.patientId} />}
        </View>
      )}
      {insurance.step === 'failed' && (
        <Button block onClick={() => void load()}>
          重试
        </Button>
      )}
      {insurance.step === 'ready' && insurance.split && <SplitRows split={insurance.split} />}
    </View>
  )

  const body = () => {
    if (!id) return <Empty text='未找到该订单' />
    if (bills.record.state === 'failed' && !record) return <LoadFailed onRetry={() => void load()} />
    if (!record) return <Loading />
    const order = record.order
    const here = settlesHere(record)
    return (
      <View className='chs'>
        <View className='chs__total'>
          <Text className='chs__total-label'>订单总额</Text>
          <Text className='chs__total-amount'>{yuan(order.amountFen)}</Text>
          <Text className='chs__subject'>{order.subject}</Text>
          <Text className='chs__subject'>就诊人：{record.patientName}</Text>
        </View>
        {here ? (
          <>
            {settling(record)}
            {insurance.step !== 'ready' && insurance.step !== 'checking' && insurance.step !== 'uploading' && (
              <Tappable className='chs__link' onTap={() => void paySelf()}>
                不使用医保，改为自费支付 ›
              </Tappable>
            )}
            {insurance.step === 'ready' && insurance.split && (
              <ActionBar amount={{ label: '个人自付', value: yuan(insurance.split.cashFen) }} note={`请在${localTime(order.expiresAt)}前完成支付`} live={false}>
                <Button type='primary' block disabled={insurance.payment.busy} onClick={() => void pay()}>
                  {insurance.payment.busy ? '支付中...' : '支付个人自付部分'}
                </Button>
              </ActionBar>
            )}
          </>
        ) : (
          <SettledOrder order={order} split={insurance.split} />
        )}
        <Text className='chs__note'>医保支付部分由医保基金结算，个人自付部分通过所选支付方式支付；退款时各部分原路退回。</Text>
      </View>
    )
  }

  return (
    <PageShell title='医保支付' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(BillSettlement)
