import { useEffect } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import HoldPay from '@/components/HoldPay'
import Tappable from '@/components/Tappable'
import TestPerson from './TestPerson'
import SplitRows from './SplitRows'
import SettledOrder from './SettledOrder'
import BillSettlement from './BillSettlement'

import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import type { Registration } from '../../../types/api/register'
import './index.scss'
import { chsPaymentUrl, detailUrl, payReturnUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'
import { useInsuranceStore } from '@/stores/InsuranceStore'

/** A held registration that settles with insurance and has not gone to a channel yet: its split is worked out here. */
const settlesHere = (r: Registration | null) => !!r && r.insurance && r.status === 'holding' && r.order?.status === 'created'

/**
 * 医保支付 (spec §2 /palm/chsPayment/index?source=&type=): for a held registration that chose insurance, the
 * voucher authorisation, the split worked out by the fee upload and paying the cash part within the hold; for any
 * other order (`type=register&id=` or `orderNo=`), how its amount was split between insurance and the patient.
 */
function ChsPayment() {
  const register = useRegisterStore()
  const insurance = useInsuranceStore()
  const { params } = useRouter()
  const registrationId = params.type === 'register' ? Number(params.id) : 0
  const orderNo = params.orderNo ?? ''
  const by = orderNo ? { orderNo } : registrationId ? { registrationId } : null
  const order = register.records.payOrder.value
  const reg = registrationId && register.records.detail.value?.id === registrationId ? register.records.detail.value : null

  const load = async () => {
    if (!by) return
    await register.records.loadPayOrder(by).catch(() => undefined)
    const r = registrationId && register.records.detail.value?.id === registrationId ? register.records.detail.value : null
    if (settlesHere(r) && r!.order) {
      await insurance.prepare(
        { orderNo: r!.order.orderNo, patientId: r!.patientId, hospitalCode: r!.hospitalCode, redirect: chsPaymentUrl(r!.id) },
        params.authCode,
      )
      // the upload set the order's insurance part: the amounts to pay come from the server again
      if (insurance.step === 'ready') await register.records.loadPayOrder(by).catch(() => undefined)
    } else if (register.records.payOrder.value) {
      await insurance.loadSplit(register.records.payOrder.value.orderNo)
    }
  }
  useEffect(() => () => insurance.reset(), [insurance])

  const pay = async () => {
    if (!reg?.order) return
    const outcome = await insurance.pay(reg.order.orderNo, payReturnUrl(reg.id))
    if (outcome === 'paid') void Taro.redirectTo({ url: detailUrl(reg.id, 'pay') })
    else if (outcome === 'cancelled') toastError('支付已取消，请在倒计时结束前完成支付')
  }

  /** The patient gives up insurance for this booking: the whole fee through the channel. */
  const paySelf = async () => {
    if (!reg) return
    const outcome = await register.booking.pay(reg).catch(() => 'failed' as const)
    if (outcome === 'paid') void Taro.redirectTo({ url: detailUrl(reg.id, 'pay') })
  }

  const settling = () => {
    const split = insurance.split
    return (
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
            {insurance.testUser && reg && <TestPerson person={insurance.testUser} patientId={reg.patientId} />}
          </View>
        )}
        {insurance.step === 'failed' && (
          <Button block onClick={() => void load()}>
            重试
          </Button>
        )}
        {insurance.step === 'ready' && split && <SplitRows split={split} />}
      </View>
    )
  }

  const body = () => {
    if (!by) return <Empty text='未找到该订单' />
    if (register.records.payOrder.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (register.records.payOrder.state !== 'done') return <Loading />
    if (!order) return <Empty text='该预约无需支付，没有结算记录' />
    const here = settlesHere(reg)
    return (
      <View className='chs'>
        <View className='chs__total'>
          <Text className='chs__total-label'>订单总额</Text>
          <Text className='chs__total-amount'>{yuan(order.amountFen)}</Text>
          <Text className='chs__subject'>{order.subject}</Text>
          {reg && <Text className='chs__subject'>就诊人：{reg.patientName}</Text>}
        </View>
        {here ? (
          <>
            {settling()}
            {insurance.step === 'ready' && reg && (
              <HoldPay registration={reg} paying={insurance.payment.busy} onPay={() => void pay()} onExpire={() => void load()} />
            )}
            {insurance.step !== 'ready' && insurance.step !== 'checking' && insurance.step !== 'uploading' && (
              <Tappable className='chs__link' onTap={() => void paySelf()}>
                不使用医保，改为自费支付 ›
              </Tappable>
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

const RegisterChsPayment = observer(ChsPayment)

/** One page for every order insurance settles: a payment of outpatient bills (`type=outpatient&id=`) has its own part. */
function ChsPaymentPage() {
  const { params } = useRouter()
  if (params.type === 'outpatient') return <BillSettlement id={Number(params.id) || 0} authCode={params.authCode} />
  return <RegisterChsPayment />
}

export default ChsPaymentPage
