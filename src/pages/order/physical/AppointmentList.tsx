import { useEffect } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import { yuan } from '@/utils/register'
import { weekOf } from '@/utils/physicalRules'
import type { PhysicalStore } from '@/stores/PhysicalStore'
import { PHYSICAL_SELECT_URL, physicalAppointmentUrl } from '@/pageUrls'
import { physicalStatusClass } from './usePhysical'
import './AppointmentList.scss'

/** Physical-exam appointments a page at a time, newest first; one opens the appointment (pay, cancel, report). */
function AppointmentList({ store, empty }: { store: PhysicalStore; empty: string }) {
  const { hospital } = useStores()
  const list = store.appointments
  useReachBottom(() => void list.loadMore())
  useEffect(() => {
    void list.reload()
  }, [list, hospital.hospital?.hospitalCode])

  if (!hospital.hospital) return <NoHospital />
  const state = list.state
  return (
    <View className='physical-list'>
      {list.empty ? (
        <Empty text={empty} action={{ label: '预约体检', onTap: () => void Taro.navigateTo({ url: PHYSICAL_SELECT_URL }) }} />
      ) : list.failedEmpty ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View>
          {list.items.map((a) => (
            <Tappable key={a.id} className='physical-item' onTap={() => void Taro.navigateTo({ url: physicalAppointmentUrl(a.id) })}>
              <View className='physical-item__head'>
                <Text className='physical-item__name'>{a.packageName}</Text>
                <Text className={`physical-item__status physical-item__status--${physicalStatusClass(a.status)}`}>
                  {a.statusText}
                  {a.refundText ? `（${a.refundText}）` : ''}
                </Text>
              </View>
              <Text className='physical-item__line'>体检人：{a.patientName}</Text>
              <Text className='physical-item__line'>
                体检日期：{a.examDate} {weekOf(a.examDate)}
              </Text>
              <Text className='physical-item__line'>费用：{yuan(a.amountFen)}</Text>
              <Text className='physical-item__hospital'>{a.hospitalName}</Text>
            </Tappable>
          ))}
          {state !== 'idle' || list.items.length > 0 ? (
            <Tappable className='physical-list__more' onTap={() => void list.loadMore(true)}>
              {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
            </Tappable>
          ) : null}
        </View>
      )}
    </View>
  )
}

export default observer(AppointmentList)
