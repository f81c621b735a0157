import { useRef } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { DESCRIPTION_MAX } from '@/stores/InquiryStore'
import { ConsentLine, DescriptionField, DoctorHeader, PatientField, PictureField, SubmitBar, useInquiryFlow } from './form'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useInquiryStore } from '@/stores/InquiryStore'

/**
 * 图文问诊 (spec §2 /internet/inquiry/index?doctorId=): the doctor and the price, the patient, the illness in words and
 * up to 9 pictures, the consent, then 提交并支付 through the payment core; the detail of the inquiry follows.
 */
function InquiryPage() {
  const inquiry = useInquiryStore()
  const patients = usePatientStore()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const ready = useRef(false)
  const form = inquiry.form
  const doctor = inquiry.doctor.value?.id === doctorId ? inquiry.doctor.value : null
  const created = form.created
  const price = inquiry.priceFen
  const { choose, submit, pay, modal } = useInquiryFlow(() => inquiry.submit(), !!created)

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), doctorId ? inquiry.openInquiry(doctorId) : undefined])
    ready.current = true
  }
  // back from adding or completing a patient
  useDidShow(() => {
    if (ready.current && !form.created) void patients.load().catch(() => undefined)
  })

  const body = () => {
    if (!doctorId) return <Empty text='未找到该医生' />
    if (!doctor && inquiry.doctor.state === 'failed') return <LoadFailed onRetry={() => void inquiry.openInquiry(doctorId)} />
    if (!doctor) return <Loading />
    const locked = !!created
    return (
      <View className='inquiry'>
        <DoctorHeader doctor={doctor} service='图文问诊' priceFen={price} />
        <PatientField locked={locked} onChoose={choose} />
        <DescriptionField
          title='病情描述'
          value={form.description}
          max={DESCRIPTION_MAX}
          locked={locked}
          placeholder='请详细描述症状、持续时间、做过的检查和用药情况，以便医生了解您的病情'
          onInput={(text) => form.setDescription(text)}
        />
        <PictureField photos={form.photos} locked={locked} />
        <ConsentLine agreed={form.agreed} locked={locked} onToggle={(on) => form.setAgreed(on)} />
        <SubmitBar
          created={created}
          blocker={inquiry.blocker}
          submitting={form.attempt.inFlight}
          paying={inquiry.payment.busy}
          priceFen={price}
          label={price === 0 ? '提交问诊' : '提交并支付'}
          onSubmit={submit}
          onPay={(made) => void pay(made)}
        />
      </View>
    )
  }

  return (
    <PageShell title='图文问诊' onReady={load}>
      {body()}
      {modal}
    </PageShell>
  )
}

export default observer(InquiryPage)
