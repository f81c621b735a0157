import { useEffect, useRef, useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text, ScrollView } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { useRecharge } from '../../../pages/order/recharge/useRecharge'
import BillItems, { CATEGORY_TEXT } from '../../../pages/order/payment/BillItems'
import type { BillCategory, DailyCharges } from '../../../../types/api/palm'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/** The day's items by category, in the catalogue's order of categories. */
function byCategory(items: DailyCharges['items']) {
  const groups = new Map<BillCategory, DailyCharges['items']>()
  for (const item of items) groups.set(item.category, [...(groups.get(item.category) ?? []), item])
  return (Object.keys(CATEGORY_TEXT) as BillCategory[]).filter((c) => groups.has(c)).map((c) => ({ category: c, items: groups.get(c)! }))
}

/** 10-24 (周二) of a YYYY-MM-DD date. */
function dayLabel(date: string) {
  const d = new Date(`${date}T00:00:00Z`)
  return `${date.slice(5)} 周${'日一二三四五六'[d.getUTCDay()]}`
}

/**
 * 每日清单 (spec §2 /palm/hospitalization/settlement/index?date=): the chosen patient's stay, a day of it to pick
 * (yesterday by default), that day's items with quantity, unit price and amount by category, and the day's total.
 */
function DailyBill() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const { params } = useRouter()
  const store = useRecharge('inpatient')
  const [ready, setReady] = useState(false)
  const current = patients.current
  /** Whose stay is on show: choosing another patient opens theirs. */
  const shownFor = useRef<number | null>(null)

  const open = async (asked?: string) => {
    shownFor.current = patients.current?.id ?? null
    await store.loadPatient()
    if (store.stay.value) await store.showDay(store.defaultDay(asked))
  }
  const load = async () => {
    await patients.load().catch(() => undefined)
    await open(params.date)
    setReady(true)
  }
  useEffect(() => {
    if (ready && shownFor.current !== (current?.id ?? null)) void open()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.id, ready])

  const day = () => {
    const charges = store.daily.value
    if (!charges && store.daily.state === 'failed') return <LoadFailed onRetry={() => void store.showDay(store.day)} />
    if (!charges) return <Loading />
    return (
      <View className='daily-bill__card'>
        <View className='daily-bill__head'>
          <Text className='daily-bill__heading'>{charges.date} 费用明细</Text>
        </View>
        {charges.items.length === 0 ? (
          <Text className='daily-bill__none'>当日暂无费用</Text>
        ) : (
          byCategory(charges.items).map((g) => (
            <View key={g.category} className='daily-bill__group' role='group' aria-label={CATEGORY_TEXT[g.category]}>
              <Text className='daily-bill__category'>{CATEGORY_TEXT[g.category]}</Text>
              <BillItems items={g.items} />
            </View>
          ))
        )}
        <View className='daily-bill__total'>
          <Text className='daily-bill__total-label'>当日合计</Text>
          <Text className='daily-bill__total-value'>{yuan(charges.totalFen)}</Text>
        </View>
      </View>
    )
  }

  const body = () => {
    if (!current) return null
    const stay = store.stay.value?.patientId === current.id ? store.stay.value : null
    if (!stay && store.stay.state === 'failed') return <LoadFailed onRetry={() => void open()} />
    if (!stay && store.stay.state === 'done') return <Empty text='该就诊人暂无住院信息' />
    if (!stay) return <Loading />
    if (store.days.length === 0) return <Empty text='暂无住院费用清单' />
    return (
      <>
        <View className='daily-bill__card'>
          <Text className='daily-bill__heading' id='daily-bill-days'>
            选择日期
          </Text>
          <Text className='daily-bill__line'>
            住院号：{stay.admissionNo}　入院日期：{stay.admittedAt.slice(0, 10)}
          </Text>
          <ScrollView scrollX className='daily-bill__days'>
            <View className='daily-bill__day-row' role='radiogroup' aria-labelledby='daily-bill-days'>
              {store.days.map((d) => (
                <Tappable
                  key={d.date}
                  role='radio'
                  checked={store.day === d.date}
                  label={`${d.date} ${yuan(d.amountFen)}`}
                  className={`daily-bill__day${store.day === d.date ? ' daily-bill__day--on' : ''}`}
                  onTap={() => void store.showDay(d.date)}
                >
                  <Text className='daily-bill__day-date'>{dayLabel(d.date)}</Text>
                  <Text className='daily-bill__day-sum'>{yuan(d.amountFen)}</Text>
                </Tappable>
              ))}
            </View>
          </ScrollView>
        </View>
        {day()}
      </>
    )
  }

  return (
    <PageShell title='每日清单' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='daily-bill'>
          <View className='daily-bill__card'>
            <Text className='daily-bill__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(DailyBill)
