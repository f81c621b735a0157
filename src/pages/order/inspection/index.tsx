import { useEffect, useRef } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { examAppointmentUrl, INSPECT_RESERVE_URL } from '@/pageUrls'
import { weekdayText } from '@/utils/medtech'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useMedTechStore } from '@/stores/MedTechStore'

/**
 * 医技预约记录 (spec §2 /pages/order/inspection/index): the chosen patient's examination appointments at the
 * hospital, booked and cancelled, newest first; each opens its detail (/pages/order/inspectReserve/index).
 */
function InspectionRecords() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useMedTechStore()
  const shownFor = useRef<number | null | undefined>(undefined)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    await store.loadRecords()
  }
  useEffect(() => {
    if (shownFor.current === undefined || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadRecords()
  }, [current?.id, store])

  const body = () => {
    if (!current) return null
    const records = store.records.value
    if (!records && store.records.state === 'failed') return <LoadFailed onRetry={() => void store.loadRecords()} />
    if (!records) return <Loading />
    if (!records.length) return <Empty text='暂无医技预约记录' action={{ label: '去预约', onTap: () => void Taro.navigateTo({ url: INSPECT_RESERVE_URL }) }} />
    return records.map((r) => (
      <Tappable key={r.appointmentNo} role='link' className='inspection__card' onTap={() => void Taro.navigateTo({ url: examAppointmentUrl(r) })}>
        <View className='inspection__head'>
          <Text className='inspection__heading'>{r.items.join('、') || r.title}</Text>
          <Text className={`inspection__status${r.status === 'booked' ? ' inspection__status--booked' : ''}`}>{r.statusText}</Text>
        </View>
        <Text className='inspection__time'>{`${r.date}（${weekdayText(r.date)}）${r.startTime}-${r.endTime}`}</Text>
        <Text className='inspection__line'>{`${r.deviceName} · ${r.location}`}</Text>
        <Text className='inspection__line'>{`就诊人：${r.patientName}`}</Text>
      </Tappable>
    ))
  }

  return (
    <PageShell title='医技预约记录' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='inspection'>
          <View className='inspection__card'>
            <Text className='inspection__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(InspectionRecords)
