import { useEffect, useRef } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { DESCRIPTION_MAX } from '@/stores/InquiryStore'

import { DIAGNOSIS_MAX, MEDICINES_MAX, MEDICINE_NAME_MAX } from '@/stores/FollowUpStore'

import DiseasePicker from './DiseasePicker'
import { ConsentLine, DescriptionField, DoctorHeader, FormCard, PatientField, PictureField, SubmitBar, useInquiryFlow } from './form'
import './index.scss'
import './useMedicine.scss'
import { historyCasesUrl, inquiryUrl, usedMedicinePickUrl } from '@/pageUrls'
import { useRecordStore } from '@/stores/RecordStore'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'
import { usePatientStore } from '@/stores/PatientStore'
import { useInquiryStore } from '@/stores/InquiryStore'
import { useFollowUpStore } from '@/stores/FollowUpStore'

/**
 * 复诊续方 (spec §2 /internet/inquiry/useMedicine?doctorId=): renewing the medicines of a condition diagnosed before,
 * with a doctor the patient follows or who served them: the patient, the diagnosis (typed, picked from the hospital's
 * disease list, or taken from a past case), the medicines, the illness, pictures and the consent, then paid like 图文问诊.
 */
function RenewalPage() {
  const followUp = useFollowUpStore()
  const patients = usePatientStore()
  const inquiry = useInquiryStore()
  const records = useRecordStore()
  const prescription = usePrescriptionStore()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const ready = useRef(false)
  const form = followUp.form
  const doctor = followUp.doctor.value?.id === doctorId ? followUp.doctor.value : null
  const created = form.created
  const price = followUp.priceFen
  const { choose, submit, pay, modal } = useInquiryFlow(() => followUp.submit(), !!created)

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), doctorId ? followUp.openRenewal(doctorId) : undefined])
    followUp.takeMedicines(prescription)
    ready.current = true
  }
  useDidShow(() => {
    if (ready.current && !form.created) void patients.load().catch(() => undefined)
  })
  // a case chosen on the history cases page fills the diagnosis when the patient comes back
  const chosen = records.chosenCase
  useEffect(() => {
    if (chosen && ready.current) followUp.takeChosenCase(records)
  }, [chosen, followUp, records])
  // so do the medicines chosen on 用药记录
  const chosenMedicines = prescription.continueDrug
  useEffect(() => {
    if (chosenMedicines && ready.current) followUp.takeMedicines(prescription)
  }, [chosenMedicines, followUp, prescription])

  const body = () => {
    if (!doctorId) return <Empty text='未找到该医生' />
    if (!doctor && followUp.doctor.state === 'failed') return <LoadFailed onRetry={() => void followUp.openRenewal(doctorId)} />
    if (!doctor) return <Loading />
    const locked = !!created
    const patient = form.patient
    const fromCases = !locked && patient && (
      <Tappable inline className='inquiry__link' onTap={() => void Taro.navigateTo({ url: historyCasesUrl(patient.id) })}>
        从历史病例选择
      </Tappable>
    )
    return (
      <View className='inquiry'>
        <DoctorHeader doctor={doctor} service='复诊续方' priceFen={price} />
        <Text className='inquiry__tip'>复诊续方适用于已在线下医院明确诊断、病情稳定的复诊患者，首次就诊或病情变化请到医院门诊就医。</Text>
        <PatientField locked={locked} onChoose={choose} />

        <FormCard title='诊断' extra={fromCases}>
          <Input
            className='inquiry__input'
            value={followUp.diagnosis}
            maxlength={DIAGNOSIS_MAX}
            disabled={locked}
            placeholder='请填写线下医院给出的诊断，如：原发性高血压'
            {...fieldName('诊断')}
            onInput={(e) => followUp.setDiagnosis(e.detail.value)}
          />
          {!locked && (
            <DiseasePicker
              picker={form.diseases}
              hospitalCode={doctor.hospitalCode}
              diagnosis={followUp.diagnosis}
              onPick={(name) => {
                const next = form.diseases.toggle(followUp.diagnosis, name, DIAGNOSIS_MAX)
                if (next !== null) followUp.setDiagnosis(next)
              }}
            />
          )}
        </FormCard>

        <FormCard title='用药' extra={<Text className='inquiry__note'>{`${followUp.medicines.length}/${MEDICINES_MAX}`}</Text>}>
          <View className='inquiry__medicines' role='list' aria-label='续方药品'>
            {followUp.medicines.map((name, i) => (
              <View key={i} className='inquiry__medicine' role='listitem'>
                <Input
                  className='inquiry__input inquiry__input--medicine'
                  value={name}
                  maxlength={MEDICINE_NAME_MAX}
                  disabled={locked}
                  placeholder='药品名称，如：苯磺酸氨氯地平片'
                  {...fieldName(`第${i + 1}个药品名称`)}
                  onInput={(e) => followUp.setMedicine(i, e.detail.value)}
                />
                {!locked && followUp.medicines.length > 1 && (
                  <Tappable className='inquiry__medicine-remove' label={`删除第${i + 1}个药品`} onTap={() => followUp.removeMedicine(i)}>
                    删除
                  </Tappable>
                )}
              </View>
            ))}
          </View>
          {followUp.canAddMedicine && (
            <>
              <Tappable className='inquiry__medicine-add' onTap={() => followUp.addMedicine()}>
                + 添加药品
              </Tappable>
              <Tappable className='inquiry__medicine-add' onTap={() => void Taro.navigateTo({ url: usedMedicinePickUrl(doctor.id) })}>
                从用药记录选择
              </Tappable>
            </>
          )}
        </FormCard>

        <DescriptionField
          title='病情描述'
          value={form.description}
          max={DESCRIPTION_MAX}
          locked={locked}
          placeholder='请描述目前的病情、用药后的情况及需要续方的原因'
          onInput={(text) => form.setDescription(text)}
        />
        <PictureField photos={form.photos} locked={locked} />

        {followUp.refusal && (
          <View className='inquiry__refusal' role='alert'>
            <Text>{followUp.refusal}</Text>
            <Tappable inline className='inquiry__link' onTap={() => openPage(inquiryUrl(doctor.id))}>
              先向该医生图文问诊
            </Tappable>
          </View>
        )}
        <ConsentLine agreed={form.agreed} locked={locked} onToggle={(on) => form.setAgreed(on)} />
        <SubmitBar
          created={created}
          blocker={followUp.blocker}
          submitting={form.attempt.inFlight}
          paying={inquiry.payment.busy}
          priceFen={price}
          label={price === 0 ? '提交续方' : '提交并支付'}
          onSubmit={submit}
          onPay={(made) => void pay(made)}
        />
      </View>
    )
  }

  return (
    <PageShell title='复诊续方' onReady={load}>
      {body()}
      {modal}
    </PageShell>
  )
}

export default observer(RenewalPage)
