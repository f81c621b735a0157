import { useEffect, useRef } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'
import { localTime, yuan } from '@/utils/register'
import { PAYMENT_LIST_URL, paymentDetailUrl } from '@/pageUrls'
import type { BillPayment } from '../../../../types/api/palm'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useBillStore } from '@/stores/BillStore'

const statusClass = (r: BillPayment) => (r.status === 'paid' ? 'paid' : 'over')

/** 缴费记录 (spec §2 /pages/order/payment/index): the chosen patient's paid outpatient payments, a page at a time. */
function PaymentRecords() {
  const bills = useBillStore()
  const patients = usePatientStore()
  const list = bills.records
  const ready = useRef(false)
  useReachBottom(() => void list.loadMore())
  const state = list.state
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    ready.current = true
    await list.reload()
  }
  useEffect(() => {
    if (ready.current) void list.reload()
  }, [current?.id, list])

  return (
    <PageShell title='缴费记录' onReady={load}>
      <View className='pay-records__card'>
        <Text className='pay-records__heading'>就诊人</Text>
        <PatientPicker onChoose={(p) => patients.choose(p)} />
      </View>
      {state === 'done' && list.items.length === 0 ? (
        <Empty text='暂无缴费记录' action={{ label: '去缴费', onTap: () => void Taro.navigateTo({ url: PAYMENT_LIST_URL }) }} />
      ) : state === 'failed' && list.items.length === 0 ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View className='pay-records'>
          {list.items.map((r) => (
            <Tappable key={r.id} className='pay-record' onTap={() => void Taro.navigateTo({ url: paymentDetailUrl(r.id) })}>
              <View className='pay-record__head'>
                <Text className='pay-record__dept'>{r.deptNames}</Text>
                <Text className={`pay-record__status pay-record__status--${statusClass(r)}`}>{r.statusText}</Text>
              </View>
              <Text className='pay-record__line'>就诊人：{r.patientName}</Text>
              <Text className='pay-record__line'>缴费项目：{r.bills.map((b) => b.title).join('、')}</Text>
              <Text className='pay-record__line'>支付时间：{localTime(r.paidAt ?? r.createdAt)}</Text>
              <View className='pay-record__foot'>
                <Text className='pay-record__hospital'>{r.hospitalName}</Text>
                <Text className='pay-record__fee'>{yuan(r.amountFen)}</Text>
              </View>
            </Tappable>
          ))}
          <Tappable className='pay-records__more' onTap={() => void list.loadMore(true)}>
            {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(PaymentRecords)
