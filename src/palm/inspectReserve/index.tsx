import { useEffect, useRef } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import ExamPreparation from '@/components/ExamPreparation'
import { Button } from '@/components/Button'
import { useStores } from '@/stores'
import { examAppointmentUrl, inspectionDetailUrl, INSPECTION_RECORDS_URL } from '@/pageUrls'
import { weekdayText } from '@/utils/medtech'
import type { ExamToBook } from '../../../types/api/medtech'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useMedTechStore } from '@/stores/MedTechStore'

function ExamCard({ exam, open, onOpen, onView }: { exam: ExamToBook; open: boolean; onOpen: () => void; onView: (appointmentNo: string) => void }) {
  const a = exam.appointment
  return (
    <View className='inspect-reserve__card'>
      <View className='inspect-reserve__head'>
        <Tappable role='link' inline className='inspect-reserve__heading' label={`${exam.items.join('、')}，检查详情`} onTap={() => void Taro.navigateTo({ url: inspectionDetailUrl(exam.billNo) })}>
          {exam.items.join('、')}
        </Tappable>
        <Text className={`inspect-reserve__status${a ? ' inspect-reserve__status--booked' : ''}`}>{a ? '已预约' : '待预约'}</Text>
      </View>
      <Text className='inspect-reserve__line'>{`${exam.place} · ${exam.location}`}</Text>
      <Text className='inspect-reserve__line'>{`开单：${exam.deptName} ${exam.doctorName}`}</Text>
      {a && <Text className='inspect-reserve__time'>{`预约时间：${a.date}（${weekdayText(a.date)}）${a.startTime}-${a.endTime} ${a.deviceName}`}</Text>}
      <View className='inspect-reserve__actions'>
        {a && (
          <Button size='small' onClick={() => onView(a.appointmentNo)}>
            查看预约
          </Button>
        )}
        {(!a || a.changeable) && (
          <Button size='small' type='primary' onClick={onOpen}>
            {open ? '收起' : a ? '改约' : '预约'}
          </Button>
        )}
      </View>
    </View>
  )
}

/**
 * 医技预约 (spec §2 /palm/inspectReserve/index, ?billNo= opens one examination): the chosen patient's paid
 * examinations that take a slot (CT, MRI, ultrasound, endoscopy); for the one opened, the days with places, each
 * device's slots of the chosen day with the places left, then 确认预约 (or 确认改约: the old slot is freed in the same
 * step). Then the appointment with its preparation notes.
 */
function InspectReserve() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useMedTechStore()
  const { params } = useRouter()
  const shownFor = useRef<number | null | undefined>(undefined)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    await store.loadExams()
    const asked = params.billNo
    if (asked && store.exams.value?.some((e) => e.billNo === asked)) await store.chooseExam(asked)
    else void store.chooseExam(null)
  }
  useEffect(() => {
    if (shownFor.current === undefined || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.chooseExam(null)
    void store.loadExams()
  }, [current?.id, store])

  const book = async () => {
    const rescheduling = !!store.exam?.appointment
    const made = await store.book().catch(() => null)
    if (!made) return
    void Taro.showToast({ title: rescheduling ? '改约成功' : '预约成功', icon: 'success' })
    void Taro.navigateTo({ url: examAppointmentUrl(made) })
  }

  const booking = () => {
    const exam = store.exam
    if (!exam) return null
    const dates = store.dates.value
    return (
      <View className='inspect-reserve__card' aria-label={`预约${exam.items.join('、')}`}>
        <Text className='inspect-reserve__heading'>{exam.appointment ? '选择新的检查时间' : '选择检查时间'}</Text>
        {!dates && store.dates.state === 'failed' && <LoadFailed onRetry={() => void store.chooseExam(exam.billNo)} />}
        {!dates && store.dates.state !== 'failed' && <Loading />}
        {dates && !dates.length && <Empty text='近期暂无可预约的日期' />}
        {dates && dates.length > 0 && (
          <View className='inspect-reserve__dates' role='radiogroup' aria-label='检查日期'>
            {dates.map((d) => (
              <Tappable
                key={d.date}
                role='radio'
                checked={store.date === d.date}
                disabled={d.remaining === 0}
                className={`inspect-reserve__date${store.date === d.date ? ' inspect-reserve__date--on' : ''}`}
                label={`${d.date} ${weekdayText(d.date)}，${d.remaining > 0 ? `余${d.remaining}个号` : '已约满'}`}
                onTap={() => void store.chooseDate(d.date)}
              >
                <Text className='inspect-reserve__date-day'>{`${d.date.slice(5)} ${weekdayText(d.date)}`}</Text>
                <Text className='inspect-reserve__date-left'>{d.remaining > 0 ? `余${d.remaining}` : '约满'}</Text>
              </Tappable>
            ))}
          </View>
        )}
        {store.date && store.slots.state === 'loading' && !store.slots.value && <Loading />}
        {store.date &&
          (store.slots.value ?? []).map((device) => (
            <View key={device.deviceId} className='inspect-reserve__device'>
              <Text className='inspect-reserve__device-name'>{`${device.deviceName}（${device.location}）`}</Text>
              <View className='inspect-reserve__slots' role='radiogroup' aria-label={`${device.deviceName}的时段`}>
                {device.slots.map((s) => (
                  <Tappable
                    key={s.slotId}
                    role='radio'
                    checked={store.slotId === s.slotId}
                    disabled={s.remaining === 0}
                    className={`inspect-reserve__slot${store.slotId === s.slotId ? ' inspect-reserve__slot--on' : ''}${s.remaining === 0 ? ' inspect-reserve__slot--full' : ''}`}
                    label={`${device.deviceName} ${s.startTime}至${s.endTime}，${s.remaining > 0 ? `余${s.remaining}个号` : '已约满'}`}
                    onTap={() => store.chooseSlot(s.slotId)}
                  >
                    <Text className='inspect-reserve__slot-time'>{`${s.startTime}-${s.endTime}`}</Text>
                    <Text className='inspect-reserve__slot-left'>{s.remaining > 0 ? `余${s.remaining}` : '约满'}</Text>
                  </Tappable>
                ))}
              </View>
            </View>
          ))}
        <ExamPreparation notes={exam.preparation} />
      </View>
    )
  }

  const body = () => {
    if (!current) return null
    const exams = store.exams.value
    if (!exams && store.exams.state === 'failed') return <LoadFailed onRetry={() => void store.loadExams()} />
    if (!exams) return <Loading />
    if (!exams.length) return <Empty text='暂无需要预约的检查（CT、磁共振、超声、内镜检查缴费后可在此预约）' />
    return exams.map((e) => (
      <View key={e.billNo}>
        <ExamCard
          exam={e}
          open={store.billNo === e.billNo}
          onOpen={() => void store.chooseExam(store.billNo === e.billNo ? null : e.billNo)}
          onView={(appointmentNo) => void Taro.navigateTo({ url: examAppointmentUrl({ patientId: current.id, appointmentNo }) })}
        />
        {store.billNo === e.billNo && booking()}
      </View>
    ))
  }

  const slot = store.slot
  return (
    <PageShell title='医技预约' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='inspect-reserve'>
          <View className='inspect-reserve__card'>
            <View className='inspect-reserve__head'>
              <Text className='inspect-reserve__heading'>就诊人</Text>
              <Tappable role='link' inline className='inspect-reserve__link' onTap={() => void Taro.navigateTo({ url: INSPECTION_RECORDS_URL })}>
                预约记录
              </Tappable>
            </View>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
          {store.exam && (
            <ActionBar note={slot ? `${store.date} ${slot.startTime}-${slot.endTime} ${slot.deviceName}` : '请选择检查日期和时段'}>
              <Button type='primary' block disabled={!slot} loading={store.action.busy} onClick={() => void book()}>
                {store.exam.appointment ? '确认改约' : '确认预约'}
              </Button>
            </ActionBar>
          )}
        </View>
      )}
    </PageShell>
  )
}

export default observer(InspectReserve)
