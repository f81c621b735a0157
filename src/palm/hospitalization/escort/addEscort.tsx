import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Input } from '@tarojs/components'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { Choice, FormField, FormGroup, FormValue } from '@/components/FormField'
import { ESCORT_RELATIONS } from '@/stores/PatientStore'
import { toastError, toastSuccess } from '@/ui/feedback'
import { firstProblem, idCardProblem, mobileProblem, nameProblem } from '@/utils/personForm'
import './addEscort.scss'
import { escortUrl } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 添加陪护人 / 编辑陪护人 (spec §2 /palm/hospitalization/escort/addEscort?patientId=&id=): a new escort's name,
 * identity number, mobile and relation; an existing one's mobile and relation (who they are cannot change).
 */
function AddEscort() {
  const patient = usePatientStore()
  const { params } = useRouter()
  const patientId = Number(params.patientId)
  const id = params.id ? Number(params.id) : null
  const [name, setName] = useState('')
  const [idCard, setIdCard] = useState('')
  const [mobile, setMobile] = useState('')
  const [relation, setRelation] = useState('')
  const [busy, setBusy] = useState(false)

  const onReady = async () => {
    if (!id) return
    const escort = await patient.escort(id)
    setName(escort.name)
    setIdCard(escort.idCard)
    setMobile(escort.mobile)
    setRelation(escort.relation)
  }

  const leave = () =>
    Taro.getCurrentPages().length > 1 ? Taro.navigateBack() : Taro.redirectTo({ url: escortUrl(patientId) })

  const submit = async () => {
    const number = idCard.trim().toUpperCase()
    const problem = firstProblem(
      id ? null : nameProblem(name, '陪护人'),
      id ? null : idCardProblem(number, '陪护人'),
      mobileProblem(mobile),
      relation ? null : '请选择陪护人与就诊人的关系',
    )
    if (problem) return toastError(problem)
    setBusy(true)
    try {
      if (id) await patient.updateEscort({ id, mobile, relation })
      else await patient.addEscort({ patientId, name: name.trim(), idCard: number, mobile, relation })
      toastSuccess(id ? '保存成功' : '添加成功')
      await leave()
    } finally {
      setBusy(false)
    }
  }

  return (
    <PageShell title={id ? '编辑陪护人' : '添加陪护人'} onReady={onReady}>
      <View className='add-escort'>
        <FormGroup>
          <FormField label='姓名'>
            {id ? (
              <FormValue value={name} />
            ) : (
              <Input className='add-escort__input' placeholder='请输入陪护人姓名' maxlength={20} value={name} onInput={(e) => setName(e.detail.value)} />
            )}
          </FormField>
          <FormField label='身份证号'>
            {id ? (
              <FormValue value={idCard} />
            ) : (
              <Input
                className='add-escort__input'
                type='idcard'
                placeholder='请输入陪护人身份证号'
                maxlength={18}
                value={idCard}
                onInput={(e) => setIdCard(e.detail.value.trim())}
              />
            )}
          </FormField>
          <FormField label='手机号'>
            <Input className='add-escort__input' type='number' placeholder='请输入陪护人手机号' maxlength={11} value={mobile} onInput={(e) => setMobile(e.detail.value.trim())} />
          </FormField>
          <FormField label='关系'>
            <Choice label='陪护人与就诊人关系' options={ESCORT_RELATIONS} value={relation} onChange={setRelation} />
          </FormField>
        </FormGroup>
        <ActionBar>
          <Button type='primary' block loading={busy} onClick={() => void submit().catch(() => undefined)}>
            {id ? '保存' : '确认添加'}
          </Button>
        </ActionBar>
      </View>
    </PageShell>
  )
}

export default observer(AddEscort)
