import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Choice, FormField, FormGroup, FormValue } from '@/components/FormField'
import SmsCodeField from '@/components/SmsCodeField'
import { toastError } from '@/ui/feedback'
import { factsOfValidIdCard } from '@/utils/idCard'
import { firstProblem, idCardProblem, mobileProblem, nameProblem } from '@/utils/personForm'
import type { CompletePatientInput, PatientDetail } from '../../../types/api/patient'
import { GuardianFields, SubmitButton, leaveSaved, usePatientMobile } from './parts'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * The completion page of spec §5 (?id=&business=edit): the patient whole, with what is missing to fill in.
 * Name and identity number can be filled only where empty; a new mobile needs its SMS code.
 */
function CompletionForm({ detail }: { detail: PatientDetail }) {
  const patient = usePatientStore()
  const [name, setName] = useState(detail.name)
  const [idCard, setIdCard] = useState(detail.idCard)
  const [guardianName, setGuardianName] = useState(detail.guardianName)
  const [guardianIdCard, setGuardianIdCard] = useState(detail.guardianIdCard)
  const [relation, setRelation] = useState(detail.relation)
  const phone = usePatientMobile(detail.mobile)
  const mobile = phone.mobile

  const missing = new Set(detail.missing)
  const number = idCard.trim().toUpperCase()
  const parsed = !detail.idCard && number ? factsOfValidIdCard(number) : null
  const mobileChanged = mobile !== detail.mobile
  const relations = detail.neonate ? patient.relations.filter((r) => r !== '本人') : patient.relations

  const submit = async () => {
    const problem = firstProblem(
      !detail.name ? nameProblem(name) : null,
      !detail.neonate && !detail.idCard ? idCardProblem(number) : null,
      detail.neonate && missing.has('guardianName') ? nameProblem(guardianName, '监护人') : null,
      detail.neonate && missing.has('guardianIdCard') ? idCardProblem(guardianIdCard, '监护人') : null,
      mobileChanged || !detail.mobile ? mobileProblem(mobile) : null,
      mobileChanged ? phone.problem() : null,
    )
    if (problem) return toastError(problem)
    const input: CompletePatientInput = { id: detail.id }
    if (!detail.name) input.name = name.trim()
    if (!detail.idCard && number) input.idCard = number
    if (detail.neonate && guardianName.trim() !== detail.guardianName) input.guardianName = guardianName.trim()
    if (detail.neonate && guardianIdCard.trim().toUpperCase() !== detail.guardianIdCard) input.guardianIdCard = guardianIdCard.trim().toUpperCase()
    if (relation !== detail.relation) input.relation = relation
    if (mobileChanged) Object.assign(input, { mobile, code: phone.code })
    await patient.saving.run(async () => {
      await patient.complete(input).catch(phone.refused)
      await leaveSaved('保存成功')
    })
  }

  return (
    <View>
      {!detail.complete && <Text className='add-patient__lead'>请补充就诊人的以下信息后再继续办理业务。</Text>}
      <FormGroup>
        <FormField label='姓名'>
          {detail.name ? (
            <FormValue value={detail.name} />
          ) : (
            <Input className='add-patient__input' placeholder='请输入就诊人姓名' maxlength={20} value={name} onInput={(e) => setName(e.detail.value)} />
          )}
        </FormField>
        {!detail.neonate && (
          <FormField label='身份证号'>
            {detail.idCard ? (
              <FormValue value={detail.idCard} />
            ) : (
              <Input className='add-patient__input' type='idcard' placeholder='请输入身份证号' maxlength={18} value={idCard} onInput={(e) => setIdCard(e.detail.value.trim())} />
            )}
          </FormField>
        )}
        <FormField label='性别'>
          <FormValue value={parsed?.sexText ?? detail.sexText} />
        </FormField>
        <FormField label='出生日期'>
          <FormValue value={parsed?.birthday ?? detail.birthday} />
        </FormField>
        <FormField label='关系'>
          <Choice label='与就诊人关系' options={relations} value={relation} onChange={setRelation} />
        </FormField>
      </FormGroup>
      {detail.neonate && (
        <FormGroup title='监护人信息'>
          <GuardianFields name={guardianName} idCard={guardianIdCard} onName={setGuardianName} onIdCard={setGuardianIdCard} />
        </FormGroup>
      )}
      <FormGroup title={detail.mobile ? '修改手机号需重新验证' : '请填写就诊人手机号并验证'}>
        <SmsCodeField variant='form' purpose='patient' {...phone.field} />
      </FormGroup>
      <SubmitButton label='保存' busy={patient.saving.busy} onSubmit={submit} />
    </View>
  )
}

export default observer(CompletionForm)
