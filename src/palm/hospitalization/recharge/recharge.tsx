import { useEffect, useRef, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { useRecharge } from '../../../pages/order/recharge/useRecharge'
import AmountChoice, { TopUpBar } from '../../../pages/order/recharge/AmountChoice'
import { HOSPITALIZATION_URL, rechargeDetailUrl } from '@/pageUrls'
import { bedText } from '../../../pages/order/recharge/useRecharge'
import './recharge.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 预交金充值 (spec §2 /palm/hospitalization/recharge/recharge): the stay it goes into and its balance, the hospital's
 * amounts (recharge/amount) or one of the patient's own, and 立即充值, which pays in the cashier and comes back to
 * the top-up's record.
 */
function InpatientRecharge() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useRecharge('inpatient')
  const { params } = useRouter()
  const [ready, setReady] = useState(false)
  const current = patients.current
  /** Whose stay or balance was asked for last: choosing another patient asks again. */
  const shownFor = useRef<number | null>(null)

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    // the amount chosen on the deposit page (预交金), when it is one of the hospital's
    const asked = Number(params.amountFen)
    await Promise.all([store.loadPatient(), store.loadAmountsChoosing(Number.isInteger(asked) && asked > 0 ? asked : null)])
    setReady(true)
  }
  useEffect(() => {
    if (!ready || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadPatient()
  }, [current?.id, store, ready])

  const pay = async () => {
    const result = await store.topUp().catch(() => null)
    if (!result) return
    if (result.outcome === 'paid' || result.outcome === null) void Taro.redirectTo({ url: rechargeDetailUrl(result.id, 'pay') })
    else if (result.outcome === 'cancelled') toastError('支付已取消，可在充值记录中继续支付')
  }

  const body = () => {
    if (!current) return null
    const stay = store.stay.value?.patientId === current.id ? store.stay.value : null
    if (!stay && store.stay.state === 'failed') return <LoadFailed onRetry={() => void store.loadPatient()} />
    if (!stay && store.stay.state === 'done') return <Empty text='该就诊人暂无住院信息，无需缴纳住院预交金' />
    if (!stay) return <Loading />
    if (stay.status !== 'in')
      return <Empty text='该住院已出院结算，无需缴纳住院预交金' action={{ label: '查看住院信息', onTap: () => void Taro.redirectTo({ url: HOSPITALIZATION_URL }) }} />
    if (!store.amounts.value && store.amounts.state === 'failed') return <LoadFailed onRetry={() => void store.loadAmounts()} />
    return (
      <>
        <View className='inpatient-recharge__card'>
          <Text className='inpatient-recharge__heading'>住院信息</Text>
          <Text className='inpatient-recharge__line'>住院号：{stay.admissionNo}</Text>
          <Text className='inpatient-recharge__line'>
            {stay.deptName}　{stay.ward} {bedText(stay.bed)}
          </Text>
          <View className='inpatient-recharge__balance'>
            <Text className='inpatient-recharge__label'>预交金余额</Text>
            <Text className={`inpatient-recharge__value${stay.lowDeposit ? ' inpatient-recharge__value--warn' : ''}`}>{yuan(stay.balanceFen)}</Text>
          </View>
          {stay.lowDeposit && (
            <View className='inpatient-recharge__warn' role='alert'>
              {stay.warning ?? '住院预交金余额不足，请及时缴纳'}
            </View>
          )}
        </View>
        <AmountChoice store={store} />
        <TopUpBar store={store} onPay={() => void pay()} />
      </>
    )
  }

  return (
    <PageShell title='预交金充值' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='inpatient-recharge'>
          <View className='inpatient-recharge__card'>
            <Text className='inpatient-recharge__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(InpatientRecharge)
