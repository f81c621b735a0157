import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import ExamPreparation from '@/components/ExamPreparation'
import { Button } from '@/components/Button'
import { useStores } from '@/stores'
import { examAppointmentUrl, inspectReserveUrl } from '@/pageUrls'
import { localTime, yuan } from '@/utils/register'
import { weekdayText } from '@/utils/medtech'
import '../inspectReserve/index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useMedTechStore } from '@/stores/MedTechStore'

/**
 * 检查详情 (spec §2 /pages/order/inspection/detail?billNo=): one of the chosen patient's paid examinations that take
 * an appointment: its items, who ordered it, where it is done, the preparation notes, and its appointment (查看预约)
 * or the way to book one (去预约).
 */
function InspectionDetail() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useMedTechStore()
  const { params } = useRouter()
  const billNo = params.billNo ?? ''

  const load = async () => {
    await patients.load().catch(() => undefined)
    await store.loadExams()
  }

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    const exams = store.exams.value
    if (!exams && store.exams.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!exams) return <Loading />
    const e = exams.find((x) => x.billNo === billNo)
    if (!e) return <Empty text='该检查已完成或无需预约' />
    const a = e.appointment
    return (
      <View className='exam-detail'>
        <View className={`exam-detail__status exam-detail__status--${a ? 'booked' : 'waiting'}`} role='status'>
          <Text className='exam-detail__status-text'>{a ? '已预约' : '待预约'}</Text>
          <Text className='exam-detail__status-note'>{a ? `${a.date}（${weekdayText(a.date)}）${a.startTime}-${a.endTime} ${a.deviceName}` : '已缴费，请预约检查时间'}</Text>
        </View>
        <View className='exam-detail__card'>
          <Text className='exam-detail__heading'>{e.items.join('、')}</Text>
          <Row label='检查地点' value={`${e.place} ${e.location}`} />
          <Row label='开单科室' value={`${e.deptName} ${e.doctorName}`} />
          <Row label='开单时间' value={localTime(e.orderedAt)} />
          <Row label='金额' value={yuan(e.amountFen)} />
          <Row label='缴费单号' value={e.billNo} />
        </View>
        <View className='exam-detail__card'>
          <ExamPreparation notes={e.preparation} />
        </View>
        <ActionBar>
          {a ? (
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: examAppointmentUrl({ patientId: patients.current!.id, appointmentNo: a.appointmentNo }) })}>
              查看预约
            </Button>
          ) : (
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: inspectReserveUrl(e.billNo) })}>
              去预约
            </Button>
          )}
        </ActionBar>
      </View>
    )
  }

  return (
    <PageShell title='检查详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className='exam-detail__row'>
      <Text className='exam-detail__label'>{label}</Text>
      <Text className='exam-detail__value'>{value}</Text>
    </View>
  )
}

export default observer(InspectionDetail)
