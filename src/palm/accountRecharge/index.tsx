import { useEffect, useRef, useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { useRecharge } from '../../pages/order/recharge/useRecharge'
import AmountChoice, { TopUpBar } from '../../pages/order/recharge/AmountChoice'
import { ACCOUNT_RECORDS_URL, accountDetailUrl } from '@/pageUrls'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 门诊预交金 (spec §2 /palm/accountRecharge/index): the chosen patient's outpatient account balance (就诊卡余额), an
 * amount to add (a choice or the patient's own) and 立即充值, which pays in the cashier and comes back to the record.
 */
function AccountRecharge() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useRecharge('clinic')
  const [ready, setReady] = useState(false)
  const current = patients.current
  /** Whose stay or balance was asked for last: choosing another patient asks again. */
  const shownFor = useRef<number | null>(null)

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    await store.loadPatient()
    setReady(true)
  }
  useDidShow(() => {
    if (ready) void store.loadPatient()
  })
  useEffect(() => {
    if (!ready || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadPatient()
  }, [current?.id, store, ready])

  const pay = async () => {
    const result = await store.topUp().catch(() => null)
    if (!result) return
    if (result.outcome === 'paid' || result.outcome === null) void Taro.redirectTo({ url: accountDetailUrl(result.id, 'pay') })
    else if (result.outcome === 'cancelled') toastError('支付已取消，可在充值记录中继续支付')
  }

  const body = () => {
    if (!current) return null
    const account = store.balance.value?.patientId === current.id ? store.balance.value : null
    if (!account && store.balance.state === 'failed') return <LoadFailed onRetry={() => void store.loadPatient()} />
    if (!account) return <Loading />
    return (
      <>
        <View className='account-recharge__card account-recharge__balance'>
          <Text className='account-recharge__label'>门诊预交金余额</Text>
          <Text className='account-recharge__value'>{yuan(account.balanceFen)}</Text>
          <Text className='account-recharge__note'>可用于门诊缴费，就诊人：{account.patientName}</Text>
        </View>
        <AmountChoice store={store} />
        <TopUpBar store={store} onPay={() => void pay()} />
      </>
    )
  }

  return (
    <PageShell title='门诊预交金' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='account-recharge'>
          <View className='account-recharge__card'>
            <View className='account-recharge__head'>
              <Text className='account-recharge__heading'>就诊人</Text>
              <Tappable inline role='link' className='account-recharge__link' onTap={() => void Taro.navigateTo({ url: ACCOUNT_RECORDS_URL })}>
                充值记录
              </Tappable>
            </View>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(AccountRecharge)
