import { useState } from 'react'
import { View, Text, Input, Textarea } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import { fieldName, textareaName } from '@/components/FormField/fieldName'
import Toggle from '@/components/Toggle'
import { INTAKE_LIMITS, canEditIntake } from '@/stores/InquiryStore'
import { toastSuccess } from '@/ui/feedback'
import { localTime } from '@/utils/register'
import type { Inquiry, InquiryIntake } from '../../../../types/api/inquiry'
import { useInquiryStore } from '@/stores/InquiryStore'

type Texts = Pick<InquiryIntake, 'offlineDiagnosis' | 'pastHistory' | 'allergyHistory' | 'currentMedication'>
const TEXT_FIELDS: { key: Exclude<keyof Texts, 'offlineDiagnosis'>; label: string }[] = [
  { key: 'pastHistory', label: '既往史' },
  { key: 'allergyHistory', label: '过敏史' },
  { key: 'currentMedication', label: '正在使用的药物' },
]

/**
 * 问诊单 (spec §7 Conversation orders `/im/trade/medicalRecord`): what the patient tells the doctor before the
 * consultation. While the inquiry is unpaid, waiting or in progress a small form (prefilled with what was saved);
 * afterwards what was saved, if anything.
 */
function IntakeCard({ inquiry: i }: { inquiry: Inquiry }) {
  const inquiry = useInquiryStore()
  const saved = i.intake
  const [visitedOffline, setVisitedOffline] = useState(saved?.visitedOffline ?? false)
  const [texts, setTexts] = useState<Texts>({
    offlineDiagnosis: saved?.offlineDiagnosis ?? '',
    pastHistory: saved?.pastHistory ?? '',
    allergyHistory: saved?.allergyHistory ?? '',
    currentMedication: saved?.currentMedication ?? '',
  })
  const set = (key: keyof Texts) => (e: { detail: { value: string } }) => setTexts((t) => ({ ...t, [key]: e.detail.value }))

  if (!canEditIntake(i)) {
    if (!saved) return null
    return (
      <View className='inquiry-detail__card inquiry-detail__intake'>
        <Text className='inquiry-detail__heading'>问诊单</Text>
        <Row label='线下是否就诊' value={saved.visitedOffline ? '是' : '否'} />
        {saved.visitedOffline && <Row label='线下诊断' value={saved.offlineDiagnosis || '无'} />}
        {TEXT_FIELDS.map((f) => (
          <Row key={f.key} label={f.label} value={saved[f.key] || '无'} />
        ))}
      </View>
    )
  }

  const save = async () => {
    const after = await inquiry.saveIntake({ inquiryId: i.id, visitedOffline, ...texts }).catch(() => null)
    if (after) toastSuccess('问诊单已保存')
  }

  return (
    <View className='inquiry-detail__card inquiry-detail__intake'>
      <Text className='inquiry-detail__heading'>问诊单</Text>
      <View className='inquiry-detail__intake-switch'>
        <Text className='inquiry-detail__label'>线下是否就诊</Text>
        <Toggle checked={visitedOffline} onChange={(v) => setVisitedOffline(v)} label='线下是否就诊' />
      </View>
      {visitedOffline && (
        <View className='inquiry-detail__intake-field'>
          <Text className='inquiry-detail__label'>线下诊断</Text>
          <Input
            className='inquiry-detail__intake-input'
            value={texts.offlineDiagnosis}
            maxlength={INTAKE_LIMITS.offlineDiagnosis}
            placeholder='请输入线下医院的诊断'
            {...fieldName('线下诊断')}
            onInput={set('offlineDiagnosis')}
          />
        </View>
      )}
      {TEXT_FIELDS.map((f) => (
        <View key={f.key} className='inquiry-detail__intake-field'>
          <Text className='inquiry-detail__label'>{f.label}</Text>
          <Textarea
            className='inquiry-detail__intake-input'
            value={texts[f.key]}
            maxlength={INTAKE_LIMITS[f.key]}
            autoHeight
            placeholder={`请输入${f.label}（选填）`}
            {...textareaName(f.label)}
            onInput={set(f.key)}
          />
        </View>
      ))}
      {saved && <Text className='inquiry-detail__note'>已保存 {localTime(saved.updatedAt)}</Text>}
      <Button type='primary' block disabled={inquiry.intakeSave.busy} onClick={() => void save()}>
        {inquiry.intakeSave.busy ? '保存中...' : '保存问诊单'}
      </Button>
    </View>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className='inquiry-detail__row'>
      <Text className='inquiry-detail__label'>{label}</Text>
      <Text className='inquiry-detail__value'>{value}</Text>
    </View>
  )
}

export default observer(IntakeCard)
