import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import Segmented from '@/components/Segmented'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import { toastSuccess } from '@/ui/feedback'
import type { PatientDetail } from '../../../types/api/patient'
import IdCardForm from './IdCardForm'
import NeonateForm from './NeonateForm'
import HealthCardForm from './HealthCardForm'
import CompletionForm from './CompletionForm'
import { queryText } from '@/utils/queryText'
import './index.scss'
import { PATIENT_LIST_URL } from '@/pageUrls'

const KINDS = ['身份证', '无证儿童', '电子健康卡'] as const
type Kind = (typeof KINDS)[number]
// as items: with plain strings NutUI's Segmented reports the index, not the text
const KIND_ITEMS = KINDS.map((k) => ({ label: k, value: k }))

/**
 * 添加就诊人 (spec §2 /pages/addPatient/index): by identity card, a child without one, or an electronic health card.
 * With id and business=edit it is the completion page of spec §5; with healthCode it finishes a health-card bind.
 */
function AddPatient() {
  const { patient } = useStores()
  const { params } = useRouter()
  const editId = params.business === 'edit' && params.id ? Number(params.id) : null
  const [kind, setKind] = useState<Kind>(params.business === 'eHealth' ? '电子健康卡' : '身份证')
  const [detail, setDetail] = useState<PatientDetail | null>(null)

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
        <View className='add-patient'>{detail && <CompletionForm detail={detail} />}</View>
      </PageShell>
    )
  }
  return (
    <PageShell title='添加就诊人' onReady={onReady}>
      <View className='add-patient'>
        <View className='add-patient__kinds'>
          <Segmented label='就诊人证件' options={KIND_ITEMS} value={kind} onChange={setKind} />
        </View>
        {kind === '身份证' && <IdCardForm />}
        {kind === '无证儿童' && <NeonateForm />}
        {kind === '电子健康卡' && <HealthCardForm />}
      </View>
    </PageShell>
  )
}

export default observer(AddPatient)
