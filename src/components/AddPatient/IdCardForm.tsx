import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Choice, FormField, FormGroup, FormValue } from '@/components/FormField'
import SmsCodeField from '@/components/SmsCodeField'
import Tappable from '@/components/Tappable'
import { toastError, toastSuccess } from '@/ui/feedback'
import { factsOfValidIdCard } from '@/utils/idCard'
import { firstProblem, idCardProblem, mobileProblem, nameProblem } from '@/utils/personForm'
import type { IdCardOcrResult } from '../../../types/api/patient'
import { DefaultSwitch, SubmitButton, leaveSaved, usePatientMobile } from './parts'
import { usePatientStore } from '@/stores/PatientStore'

/** Only a whole number (15 or 18 characters) is read (spec §5). */
const ID_LENGTHS = [15, 18]
const AUTO = '根据身份证号自动识别'
const MISTYPED = '身份证号有误，请核对'

/**
 * 身份证: name and identity number (typed, or read from a photo), sex, birth date and age read from the number. A card
 * whose number is the identity number (社保卡号) names it so.
 */
function IdCardForm({ numberLabel = '身份证号' }: { numberLabel?: string }) {
  const patient = usePatientStore()
  // a person the page that sent the patient here named (the insurance sandbox's test person), once
  const [name, setName] = useState(() => patient.draft?.name ?? '')
  const [idCard, setIdCard] = useState(() => patient.draft?.idCard ?? '')
  useEffect(() => patient.clearDraft(), [patient])
  const [relation, setRelation] = useState(() => (patient.list.some((p) => p.relation === '本人') ? '' : '本人'))
  const phone = usePatientMobile()
  const [isDefault, setIsDefault] = useState(() => patient.list.length === 0)
  const [read, setRead] = useState<IdCardOcrResult | null>(null)

  const number = idCard.trim().toUpperCase()
  // spec §3: sex, birth date and age come from the number and cannot be set against it
  const whole = ID_LENGTHS.includes(number.length)
  const parsed = whole ? factsOfValidIdCard(number) : null
  const hint = whole && !parsed ? MISTYPED : AUTO

  const readPhoto = async () => {
    const result = await patient.readIdCard()
    if (!result) return
    setRead(result)
    setName(result.name)
    setIdCard(result.idCard)
    toastSuccess('识别成功，请核对')
  }

  const submit = async () => {
    const problem = firstProblem(
      nameProblem(name),
      idCardProblem(number),
      relation ? null : '请选择与就诊人的关系',
      mobileProblem(phone.mobile),
      phone.problem(),
    )
    if (problem) return toastError(problem)
    await patient.saving.run(async () => {
      const source = read && read.name === name.trim() && read.idCard === number ? 'ocr' : 'idCard'
      await patient.bind({ name: name.trim(), idCard: number, relation, mobile: phone.mobile, code: phone.code, isDefault, source }).catch(phone.refused)
      await leaveSaved('添加成功')
    })
  }

  return (
    <View>
      <Tappable className='add-patient__ocr' onTap={() => void readPhoto().catch(() => undefined)}>
        <Text className='add-patient__ocr-title'>拍照识别</Text>
        <Text className='add-patient__ocr-note'>拍摄身份证人像面，自动填写姓名和身份证号</Text>
      </Tappable>
      <FormGroup>
        <FormField label='姓名'>
          <Input className='add-patient__input' placeholder='请输入就诊人姓名' maxlength={20} value={name} onInput={(e) => setName(e.detail.value)} />
        </FormField>
        <FormField label={numberLabel}>
          <Input className='add-patient__input' type='idcard' placeholder={`请输入${numberLabel}`} maxlength={18} value={idCard} onInput={(e) => setIdCard(e.detail.value.trim())} />
        </FormField>
        <FormField label='性别'>
          <FormValue value={parsed?.sexText ?? ''} placeholder={hint} />
        </FormField>
        <FormField label='出生日期'>
          <FormValue value={parsed?.birthday ?? ''} placeholder={hint} />
        </FormField>
        <FormField label='年龄'>
          <FormValue value={parsed ? `${parsed.age}岁` : ''} placeholder={hint} />
        </FormField>
        <FormField label='关系'>
          <Choice label='与就诊人关系' options={patient.relations} value={relation} onChange={setRelation} />
        </FormField>
      </FormGroup>
      <FormGroup>
        <SmsCodeField variant='form' purpose='patient' {...phone.field} />
        <DefaultSwitch checked={isDefault} onChange={setIsDefault} />
      </FormGroup>
      <SubmitButton label='确认添加' busy={patient.saving.busy} onSubmit={submit} />
    </View>
  )
}

export default observer(IdCardForm)
