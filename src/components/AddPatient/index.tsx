import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Segmented from '@/components/Segmented'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { toastSuccess } from '@/ui/feedback'
import type { AddPatientVariant, CardType, PatientKind } from '@/utils/hospitalVariants'
import type { PatientDetail } from '../../../types/api/patient'
import IdCardForm from './IdCardForm'
import NeonateForm from './NeonateForm'
import HealthCardForm from './HealthCardForm'
import CompletionForm from './CompletionForm'
import { queryText } from '@/utils/queryText'
import './index.scss'
import { PATIENT_LIST_URL } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'

interface Props {
  /** The hospital's rules: the ways it offers and what it tells the patient. */
  variant: AddPatientVariant
  /** The card type chosen on the page before (10412): its one way, and its number's name. */
  cardType?: CardType
}

/**
 * 添加就诊人 (spec §2 /pages/addPatient/index and the hospitals' own): by identity card, a child without one, or an
 * electronic health card, as the hospital offers. With id and business=edit it is the completion page of spec §5;
 * with healthCode it finishes a health-card bind.
 */
function AddPatient({ variant, cardType }: Props) {
  const patient = usePatientStore()
  const { params } = useRouter()
  const editId = params.business === 'edit' && params.id ? Number(params.id) : null
  const kinds = cardType ? [cardType.kind] : variant.kinds
  const [kind, setKind] = useState<PatientKind>(params.business === 'eHealth' && kinds.includes('电子健康卡') ? '电子健康卡' : kinds[0]!)
  const [detail, setDetail] = useState<PatientDetail | null>(null)
  const notice = variant.notice && <Text className='add-patient__lead'>{variant.notice}</Text>

  const onReady = async () => {
    await Promise.all([patient.loadRelations(), patient.load().catch(() => undefined)])
    if (editId) {
      setDetail(await patient.detail(editId))
      return
    }
    if (params.healthCode) {
      const bound = await patient.finishHealthCard(queryText(params.healthCode), queryText(params.relation), params.isDefault === '1').catch(() => null)
      if (bound) {
        toastSuccess('添加成功')
        await Taro.redirectTo({ url: PATIENT_LIST_URL })
      }
    }
  }

  if (editId) {
    return (
      <PageShell title='完善就诊人信息' onReady={onReady}>
        <View className='add-patient'>
          {notice}
          {detail && <CompletionForm detail={detail} />}
        </View>
      </PageShell>
    )
  }
  return (
    <PageShell title={cardType ? `添加就诊人·${cardType.label}` : '添加就诊人'} onReady={onReady}>
      <View className='add-patient'>
        {notice}
        {kinds.length > 1 && (
          <View className='add-patient__kinds'>
            <Segmented label='就诊人证件' options={kinds.map((k) => ({ label: k, value: k }))} value={kind} onChange={setKind} />
          </View>
        )}
        {kind === '身份证' && <IdCardForm numberLabel={cardType?.numberLabel} />}
        {kind === '无证儿童' && <NeonateForm />}
        {kind === '电子健康卡' && <HealthCardForm />}
      </View>
    </PageShell>
  )
}

export default observer(AddPatient)
