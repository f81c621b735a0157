import { useState } from 'react'
import Taro, { useReachBottom, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'

import { useStores } from '@/stores'
import { diagnosisText, moreText } from '@/stores/RecordStore'
import { maskName } from '@/utils/mask'
import { localTime } from '@/utils/register'
import { RecordFields, RecordHeader } from './RecordView'
import './index.scss'
import { addPatientUrl } from '@/pageUrls'
import { useRecordStore } from '@/stores/RecordStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 电子病历 (spec §2 /pages/medicalHistory/index): the medical records of the patient chosen above, newest first, each
 * opening in place to the whole record; with `?imOrderNo=` the record of one consultation (from its detail page).
 */
function MedicalHistory() {
  const { hospital } = useStores()
  const records = useRecordStore()
  const patients = usePatientStore()
  const { params } = useRouter()
  const imOrderNo = params.imOrderNo
  const list = records.records
  const [openId, setOpenId] = useState<number | null>(null)
  useReachBottom(() => {
    if (!imOrderNo) void list.loadMore()
  })

  const loadByPatient = async () => {
    await patients.load().catch(() => undefined)
    const first = patients.current
    if (first) await records.showRecordsOf(first.id)
  }
  const load = () => (imOrderNo ? records.loadOrderRecord(imOrderNo) : loadByPatient())

  const choose = (patientId: number) => {
    if (patientId === records.recordPatientId) return
    setOpenId(null)
    void records.showRecordsOf(patientId)
  }

  /** The record of one consultation, whole. */
  const oneRecord = (no: string) => {
    const known = records.orderRecord.value?.imOrderNo === no ? records.orderRecord.value : null
    if (!known && records.orderRecord.state === 'failed') return <LoadFailed onRetry={() => void records.loadOrderRecord(no)} />
    if (!known) return <Loading />
    if (!known.record) return <Empty text='医生暂未填写病历' />
    return (
      <View className='medical'>
        <View className='medical__card'>
          <RecordHeader record={known.record} />
          <RecordFields record={known.record} />
        </View>
      </View>
    )
  }

  /** The patients as chips, the chosen one's records below. */
  const byPatient = () => {
    if (!patients.loaded && patients.loadFailed) return <LoadFailed onRetry={() => void loadByPatient()} />
    if (!patients.loaded) return <Loading />
    if (patients.list.length === 0) {
      return (
        <Empty text='还没有就诊人，添加后可查看其电子病历' action={{ label: '添加就诊人', onTap: () => void Taro.navigateTo({ url: addPatientUrl(hospital.hospital?.hospitalCode) }) }} />
      )
    }
    return (
      <View className='medical'>
        <View className='medical__chips' role='radiogroup' aria-label='就诊人'>
          {patients.list.map((p) => {
            const on = p.id === records.recordPatientId
            return (
              <Tappable key={p.id} role='radio' checked={on} className={`medical__chip${on ? ' medical__chip--on' : ''}`} onTap={() => choose(p.id)}>
                {maskName(p.name)}
              </Tappable>
            )
          })}
        </View>
        {list.empty ? (
          <Empty text='暂无病历' />
        ) : list.failedEmpty ? (
          <LoadFailed onRetry={() => void list.loadMore(true)} />
        ) : (
          <>
            {list.items.map((r) => {
              const open = openId === r.id
              return (
                <View key={r.id} className='medical__card medical-record'>
                  <Tappable className='medical-record__summary' expanded={open} onTap={() => setOpenId(open ? null : r.id)}>
                    <View className='medical-record__head'>
                      <Text className='medical-record__date'>{localTime(r.createdAt).slice(0, 10)}</Text>
                      <Text className='medical-record__toggle'>{open ? '收起' : '展开'}</Text>
                    </View>
                    <Text className='medical-record__line'>
                      {r.hospitalName} · {r.deptName}
                    </Text>
                    <Text className='medical-record__line'>
                      {r.doctorName} {r.doctorTitle}
                    </Text>
                    <Text className='medical-record__diagnosis'>诊断：{diagnosisText({ diagnosis: r.fields.diagnosis, diseases: r.diseases })}</Text>
                  </Tappable>
                  {open && <RecordFields record={r} />}
                </View>
              )
            })}
            <Tappable className='medical__more' onTap={() => void list.loadMore(true)}>
              {moreText(list.state)}
            </Tappable>
          </>
        )}
      </View>
    )
  }

  return (
    <PageShell title='电子病历' onReady={load}>
      {imOrderNo ? oneRecord(imOrderNo) : byPatient()}
    </PageShell>
  )
}

export default observer(MedicalHistory)
