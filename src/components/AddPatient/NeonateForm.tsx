import { useState } from 'react'
import { View, Input } from '@tarojs/components'
import { DatePicker } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { Choice, FormField, FormGroup, FormValue } from '@/components/FormField'
import SmsCodeField from '@/components/SmsCodeField'
import Tappable from '@/components/Tappable'
import { toastError } from '@/ui/feedback'
import { firstProblem, idCardProblem, mobileProblem, nameProblem } from '@/utils/personForm'
import type { Sex } from '../../../types/api/patient'
import { DefaultSwitch, GuardianFields, SubmitButton, leaveSaved, usePatientMobile } from './parts'
import { usePatientStore } from '@/stores/PatientStore'

/** A child without an identity card is bound until 6 (the server's NEONATE_MAX_AGE): the picker offers those dates. */
const NEONATE_YEARS = 6
const SEXES: { text: '男' | '女'; sex: Sex }[] = [
  { text: '男', sex: 1 },
  { text: '女', sex: 2 },
]

const pad2 = (n: number) => String(n).padStart(2, '0')

/** 无证儿童: a child bound under an adult guardian's identity card. */
function NeonateForm() {
  const patient = usePatientStore()
  const [name, setName] = useState('')
  const [sexText, setSexText] = useState<'' | '男' | '女'>('')
  const [birthday, setBirthday] = useState('')
  const [picking, setPicking] = useState(false)
  const [guardianName, setGuardianName] = useState('')
  const [guardianIdCard, setGuardianIdCard] = useState('')
  const [relation, setRelation] = useState('子女')
  const phone = usePatientMobile()
  const [isDefault, setIsDefault] = useState(() => patient.list.length === 0)

  // fixed for the page's life, so the picker's range does not change under the patient's finger
  const [{ today, earliest }] = useState(() => {
    const now = new Date()
    return { today: now, earliest: new Date(now.getFullYear() - NEONATE_YEARS, now.getMonth(), now.getDate() + 1) }
  })

  const submit = async () => {
    const problem = firstProblem(
      nameProblem(name, '儿童'),
      sexText ? null : '请选择性别',
      birthday ? null : '请选择出生日期',
      nameProblem(guardianName, '监护人'),
      idCardProblem(guardianIdCard, '监护人'),
      mobileProblem(phone.mobile),
      phone.problem(),
    )
    if (problem) return toastError(problem)
    await patient.saving.run(async () => {
      const sex = SEXES.find((s) => s.text === sexText)!.sex
      await patient.bindNeonate({
        name: name.trim(),
        sex,
        birthday,
        guardianName: guardianName.trim(),
        guardianIdCard: guardianIdCard.trim().toUpperCase(),
        relation,
        mobile: phone.mobile,
        code: phone.code,
        isDefault,
      }).catch(phone.refused)
      await leaveSaved('添加成功')
    })
  }

  return (
    <View>
      <FormGroup title='儿童信息'>
        <FormField label='姓名'>
          <Input className='add-patient__input' placeholder='请输入儿童姓名' maxlength={20} value={name} onInput={(e) => setName(e.detail.value)} />
        </FormField>
        <FormField label='性别'>
          <Choice label='性别' options={SEXES.map((s) => s.text)} value={sexText} onChange={(v) => setSexText(v as '男' | '女')} />
        </FormField>
        <FormField label='出生日期'>
          <Tappable className='add-patient__pick' onTap={() => setPicking(true)}>
            <FormValue value={birthday} placeholder='请选择出生日期' />
          </Tappable>
        </FormField>
        <FormField label='关系'>
          <Choice label='与就诊人关系' options={patient.relations.filter((r) => r !== '本人')} value={relation} onChange={setRelation} />
        </FormField>
      </FormGroup>
      <FormGroup title='监护人信息'>
        <GuardianFields name={guardianName} idCard={guardianIdCard} onName={setGuardianName} onIdCard={setGuardianIdCard} />
        <SmsCodeField variant='form' purpose='patient' {...phone.field} />
        <DefaultSwitch checked={isDefault} onChange={setIsDefault} />
      </FormGroup>
      <SubmitButton label='确认添加' busy={patient.saving.busy} onSubmit={submit} />
      <DatePicker
        title='选择出生日期'
        type='date'
        visible={picking}
        defaultValue={today}
        startDate={earliest}
        endDate={today}
        showChinese
        onClose={() => setPicking(false)}
        onConfirm={(_options, values) => {
          const [y, m, d] = values.map(Number)
          setBirthday(`${y}-${pad2(m!)}-${pad2(d!)}`)
          setPicking(false)
        }}
      />
    </View>
  )
}

export default observer(NeonateForm)
