import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import ExamPreparation from '@/components/ExamPreparation'
import { Button } from '@/components/Button'
import { useStores } from '@/stores'
import { inspectReserveUrl } from '@/pageUrls'
import { weekdayText } from '@/utils/medtech'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useMedTechStore } from '@/stores/MedTechStore'

/**
 * 预约详情 (spec §2 /pages/order/inspectReserve/index?patientId=&appointmentNo=): one examination
 * appointment: what, when (day, weekday, time), which device and where, the preparation notes; 改约 and 取消预约 while
 * its slot has not started.
 */
function InspectReserveDetail() {
  const { hospital } = useStores()
  const store = useMedTechStore()
  const patients = usePatientStore()
  const { params } = useRouter()
  const patientId = Number(params.patientId)
  const appointmentNo = params.appointmentNo ?? ''
  const a = store.appointment.value?.appointmentNo === appointmentNo ? store.appointment.value : null

  const load = async () => {
    const hospitalCode = hospital.hospital?.hospitalCode
    if (hospitalCode) await store.loadAppointment(hospitalCode, patientId, appointmentNo)
  }

  const cancel = async () => {
    const { confirm } = await Taro.showModal({ title: '取消预约', content: '确定取消该检查预约吗？取消后可重新预约其他时间。', confirmText: '取消预约', cancelText: '再想想' })
    if (!confirm) return
    const done = await store.cancel().catch(() => null)
    if (done) void Taro.showToast({ title: '已取消预约', icon: 'success' })
  }

  const reschedule = async () => {
    if (!a) return
    // the examination opens for the patient it is for
    const patient = patients.list.find((p) => p.id === a.patientId)
    if (patient) patients.choose(patient)
    await Taro.navigateTo({ url: inspectReserveUrl(a.billNo) })
  }

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (!a && store.appointment.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!a) return <Loading />
    return (
      <View className='exam-detail'>
        <View className={`exam-detail__status exam-detail__status--${a.status}`} role='status'>
          <Text className='exam-detail__status-text'>{a.statusText}</Text>
          {a.status === 'booked' && a.changeable && <Text className='exam-detail__status-note'>请按预约时间提前15分钟到检查科室登记</Text>}
        </View>
        <View className='exam-detail__card'>
          <Text className='exam-detail__heading'>{a.items.join('、') || a.title}</Text>
          <Row label='检查时间' value={`${a.date}（${weekdayText(a.date)}）${a.startTime}-${a.endTime}`} strong />
          <Row label='检查设备' value={a.deviceName} />
          <Row label='检查地点' value={`${a.place} ${a.location}`} />
          <Row label='就诊人' value={a.patientName} />
          <Row label='预约单号' value={a.appointmentNo} />
          {a.rescheduled > 0 && <Row label='改约次数' value={`${a.rescheduled}次`} />}
        </View>
        {a.status === 'booked' && (
          <View className='exam-detail__card'>
            <ExamPreparation notes={a.preparation} />
          </View>
        )}
        {a.changeable && (
          <ActionBar>
            <Button block loading={store.action.busy} onClick={() => void cancel()}>
              取消预约
            </Button>
            <Button type='primary' block onClick={() => void reschedule()}>
              改约
            </Button>
          </ActionBar>
        )}
      </View>
    )
  }

  return (
    <PageShell title='预约详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className='exam-detail__row'>
      <Text className='exam-detail__label'>{label}</Text>
      <Text className={`exam-detail__value${strong ? ' exam-detail__value--strong' : ''}`}>{value}</Text>
    </View>
  )
}

export default observer(InspectReserveDetail)
