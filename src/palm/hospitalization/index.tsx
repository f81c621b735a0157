import { useEffect, useRef, useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { hospitalToday } from '@/utils/hospitalClock'
import { useRecharge } from '../../pages/order/recharge/useRecharge'
import { INPATIENT_RECHARGE_URL, INPATIENT_RECORDS_URL, dailyBillUrl, escortUrl } from '@/pageUrls'
import type { InpatientView } from '../../../types/api/palm'
import { bedText } from '../../pages/order/recharge/useRecharge'
import './index.scss'

/** Whole days in hospital, counting the day of admission (as hospitals count a stay). */
function stayDays(stay: InpatientView, now = new Date()): number {
  const from = new Date(stay.admittedAt).getTime()
  const to = stay.dischargedAt ? new Date(stay.dischargedAt).getTime() : now.getTime()
  return Math.max(1, Math.ceil((to - from) / 86_400_000))
}

/** The hospital's calendar date of an instant (Asia/Shanghai). */
const dateOf = (iso: string) => hospitalToday(new Date(iso))

/**
 * 住院服务 (spec §2 /palm/hospitalization/index): the chosen patient's current stay (ward, bed, doctor, admission and
 * days, deposits, costs, balance), the low-deposit warning in words, the discharge settlement once discharged, and
 * the ways on: 预交金充值, 每日清单, 充值记录, 陪护人.
 */
function Hospitalization() {
  const { hospital, patient: patients } = useStores()
  const store = useRecharge('inpatient')
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
  // back from a top-up or another patient: the stay as it now stands
  useDidShow(() => {
    if (ready) void store.loadPatient()
  })
  useEffect(() => {
    if (!ready || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadPatient()
  }, [current?.id, store, ready])

  const go = (url: string) => void Taro.navigateTo({ url })

  const stayCard = () => {
    if (!current) return null
    const stay = store.stay.value?.patientId === current.id ? store.stay.value : null
    if (!stay && store.stay.state === 'failed') return <LoadFailed onRetry={() => void store.loadPatient()} />
    if (!stay && store.stay.state === 'done') return <Empty text='该就诊人暂无住院信息' />
    if (!stay) return <Loading />
    const discharged = stay.status === 'discharged'
    return (
      <>
        {stay.lowDeposit && (
          <View className='inpatient__warning' role='alert'>
            <Text className='inpatient__warning-title'>预交金余额不足</Text>
            <Text className='inpatient__warning-text'>{stay.warning ?? '住院预交金余额不足，请及时缴纳'}</Text>
          </View>
        )}
        <View className='inpatient__card'>
          <View className='inpatient__head'>
            <Text className='inpatient__name'>{stay.patientName}</Text>
            <Text className={`inpatient__state inpatient__state--${stay.status}`}>{discharged ? '已出院' : '在院'}</Text>
          </View>
          <Row label='住院号' value={stay.admissionNo} />
          <Row label='科室' value={stay.deptName} />
          <Row label='病区床位' value={`${stay.ward} ${bedText(stay.bed)}`} />
          <Row label='主治医生' value={stay.doctorName} />
          <Row label='入院日期' value={dateOf(stay.admittedAt)} />
          {stay.dischargedAt && <Row label='出院日期' value={dateOf(stay.dischargedAt)} />}
          <Row label='住院天数' value={`${stayDays(stay)}天`} />
        </View>
        <View className='inpatient__card'>
          <View className='inpatient__money'>
            <Money label='已缴预交金' fen={stay.depositFen} />
            <Money label='已产生费用' fen={stay.costFen} />
            <Money label={discharged ? '结算余额' : '预交金余额'} fen={stay.balanceFen} warn={stay.lowDeposit || stay.balanceFen < 0} />
          </View>
          {!discharged && stay.averageDailyFen > 0 && <Text className='inpatient__note'>近日日均费用{yuan(stay.averageDailyFen)}</Text>}
        </View>
        {discharged && stay.settlement && (
          <View className='inpatient__card'>
            <Text className='inpatient__heading'>出院结算</Text>
            {stay.settlement.owedFen > 0 ? (
              <Text className='inpatient__settle inpatient__settle--owed'>需补缴 {yuan(stay.settlement.owedFen)}，请到住院收费处办理</Text>
            ) : (
              <Text className='inpatient__settle'>
                {stay.settlement.returnedFen > 0 ? `预交金余额 ${yuan(stay.settlement.returnedFen)} 已退还` : '已结清，无需补缴'}
              </Text>
            )}
          </View>
        )}
        <View className='inpatient__entries'>
          {!discharged && (
            <Entry title='预交金充值' note='在线缴纳住院预交金' onTap={() => go(INPATIENT_RECHARGE_URL)} />
          )}
          <Entry title='每日清单' note='查看每日住院费用明细' onTap={() => go(dailyBillUrl())} />
          <Entry title='充值记录' note='住院预交金缴纳记录' onTap={() => go(INPATIENT_RECORDS_URL)} />
          {!discharged && <Entry title='陪护人' note='登记陪护人' onTap={() => go(escortUrl(stay.patientId))} />}
        </View>
        {!discharged && (
          <View className='inpatient__action'>
            <Button type='primary' block onClick={() => go(INPATIENT_RECHARGE_URL)}>
              预交金充值
            </Button>
          </View>
        )}
      </>
    )
  }

  return (
    <PageShell title='住院服务' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='inpatient'>
          <View className='inpatient__card'>
            <Text className='inpatient__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {stayCard()}
        </View>
      )}
    </PageShell>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className='inpatient__row'>
      <Text className='inpatient__label'>{label}</Text>
      <Text className='inpatient__value'>{value}</Text>
    </View>
  )
}

function Money({ label, fen, warn }: { label: string; fen: number; warn?: boolean }) {
  return (
    <View className='inpatient__money-item'>
      <Text className={`inpatient__money-value${warn ? ' inpatient__money-value--warn' : ''}`}>{yuan(fen)}</Text>
      <Text className='inpatient__money-label'>{label}</Text>
    </View>
  )
}

function Entry({ title, note, onTap }: { title: string; note: string; onTap: () => void }) {
  return (
    <Tappable className='inpatient__entry' role='link' onTap={onTap}>
      <Text className='inpatient__entry-title'>{title}</Text>
      <Text className='inpatient__entry-note'>{note}</Text>
    </Tappable>
  )
}

export default observer(Hospitalization)
