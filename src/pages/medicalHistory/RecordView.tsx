import { View, Text } from '@tarojs/components'
import { RECORD_FIELDS } from '@/stores/RecordStore'
import { localTime } from '@/utils/register'
import type { MedicalRecord } from '../../../types/api/medical'

const SEX_TEXT = { 1: '男', 2: '女' } as const

/** Who and where: the patient, the visit, the hospital, the department and the doctor. */
export function RecordHeader({ record: r }: { record: MedicalRecord }) {
  return (
    <View className='record-head'>
      <Text className='record-head__title'>门诊病历</Text>
      <Row label='就诊人' value={`${r.patientName}  ${SEX_TEXT[r.sex]}  ${r.age}岁`} />
      <Row label='就诊日期' value={localTime(r.createdAt)} />
      <Row label='就诊医院' value={r.hospitalName} />
      <Row label='就诊科室' value={r.deptName} />
      <Row label='接诊医生' value={`${r.doctorName} ${r.doctorTitle}`.trim()} />
    </View>
  )
}

/** The record's text in reading order: 主诉, 现病史, 既往史, 过敏史, 初步诊断 with its disease names, 处理意见. */
export function RecordFields({ record: r }: { record: MedicalRecord }) {
  return (
    <View className='record-fields'>
      {RECORD_FIELDS.map((f) => (
        <View key={f.key} className='record-field'>
          <Text className='record-field__label'>{f.label}</Text>
          <Text className='record-field__value'>{r.fields[f.key] || '无'}</Text>
          {f.key === 'diagnosis' && r.diseases.length > 0 && (
            <View className='record-field__diseases'>
              {r.diseases.map((d) => (
                <Text key={d.code} className='record-field__disease'>
                  {d.name}
                </Text>
              ))}
            </View>
          )}
        </View>
      ))}
    </View>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className='record-head__row'>
      <Text className='record-head__label'>{label}</Text>
      <Text className='record-head__value'>{value}</Text>
    </View>
  )
}
