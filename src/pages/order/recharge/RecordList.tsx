import { useEffect, useRef } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import { localTime, yuan } from '@/utils/register'
import type { RechargeStore } from '@/stores/RechargeStore'
import type { RechargeRecord } from '../../../../types/api/palm'
import './RecordList.scss'
import { usePatientStore } from '@/stores/PatientStore'

export const recordStatusClass = (r: RechargeRecord) => (r.status === 'paid' ? 'paid' : r.status === 'created' || r.status === 'paying' ? 'waiting' : 'over')

interface Props {
  store: RechargeStore
  /** Whose records: the chosen patient's (a picker above the list), else every patient's of the caller. */
  byPatient: boolean
  detailUrl: (id: number) => string
  empty: { text: string; action?: { label: string; url: string } }
  /** The list is ready to read (the patients are known). */
  ready: boolean
}

/** Top-ups a page at a time (spec §8 加载中... / 没有更多了 / 加载失败), newest first; one opens its record. */
function RecordList({ store, byPatient, detailUrl, empty, ready }: Props) {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const list = store.records
  const first = useRef(true)
  useReachBottom(() => void list.loadMore())
  const current = patients.current

  useEffect(() => {
    if (!ready) return
    // the first read after the patients; then again for another patient
    if (first.current || byPatient) void list.reload()
    first.current = false
  }, [ready, current?.id, byPatient, list])

  if (!hospital.hospital) return <NoHospital />
  const state = list.state
  const action = empty.action
  return (
    <View className='recharge-records'>
      {byPatient && (
        <View className='recharge-records__card'>
          <Text className='recharge-records__heading'>就诊人</Text>
          <PatientPicker onChoose={(p) => patients.choose(p)} />
        </View>
      )}
      {list.empty ? (
        <Empty text={empty.text} action={action && { label: action.label, onTap: () => void Taro.navigateTo({ url: action.url }) }} />
      ) : list.failedEmpty ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View>
          {list.items.map((r) => (
            <Tappable key={r.id} className='recharge-record' onTap={() => void Taro.navigateTo({ url: detailUrl(r.id) })}>
              <View className='recharge-record__head'>
                <Text className='recharge-record__amount'>{yuan(r.amountFen)}</Text>
                <Text className={`recharge-record__status recharge-record__status--${recordStatusClass(r)}`}>{r.statusText}</Text>
              </View>
              <Text className='recharge-record__line'>就诊人：{r.patientName}</Text>
              {r.admissionNo && <Text className='recharge-record__line'>住院号：{r.admissionNo}</Text>}
              <Text className='recharge-record__line'>
                {r.paidAt ? '支付时间' : '下单时间'}：{localTime(r.paidAt ?? r.createdAt)}
              </Text>
              <Text className='recharge-record__hospital'>{r.hospitalName}</Text>
            </Tappable>
          ))}
          {state !== 'idle' || list.items.length > 0 ? (
            <Tappable className='recharge-records__more' onTap={() => void list.loadMore(true)}>
              {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
            </Tappable>
          ) : null}
        </View>
      )}
    </View>
  )
}

export default observer(RecordList)
