import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import DrugSheet from '@/components/DrugSheet'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { PrescriptionActions, statusClass } from '@/components/PrescriptionItem'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import type { PrescriptionRef } from '@/stores/PrescriptionStore'
import { localTime, yuan } from '@/utils/register'
import type { DrugCategory } from '../../../types/api/pharmacy'
import './medicine.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

export const CATEGORY_TEXT: Record<DrugCategory, string> = { western: '西药', patent: '中成药', chinese: '中药饮片' }

/** The prescription the address names: `id`, `presNo` (a message or card with the number only) or `orderId` (查看处方). */
function refOf(params: Partial<Record<string, string>>): PrescriptionRef | null {
  if (Number(params.id)) return { id: Number(params.id) }
  if (params.presNo) return { presNo: params.presNo }
  if (Number(params.orderId)) return { orderId: Number(params.orderId) }
  return null
}

/**
 * 处方笺 (spec §2 /internet/prescription/medicine?id= | presNo= | orderId=): the prescription as the paper one reads:
 * hospital, patient, diagnoses, the Rp lines (each opens its 药品说明), the fees, the doctor and the reviewing
 * pharmacist, when written and until when it holds; 去购药 / 查看订单 as on the list. Shown again (back from buying
 * it), its status line is read again.
 */
function Medicine() {
  const { hospital } = useStores()
  const prescription = usePrescriptionStore()
  const { params } = useRouter()
  const ref = refOf(params)
  const p = ref ? prescription.opened(ref) : null
  const [drug, setDrug] = useState<{ id: number; name: string } | null>(null)
  const load = async () => {
    if (ref) await prescription.open(ref).catch(() => undefined)
  }
  useDidShow(() => {
    if (p) void prescription.refreshStatus().catch(() => undefined)
  })

  const body = () => {
    if (!ref) return <Empty text='未找到该处方' />
    if (!p) return prescription.prescription.state === 'failed' ? <LoadFailed onRetry={() => void load()} /> : <Loading />
    const row = (label: string, value: string, strong = false) => (
      <View className='pres-paper__row'>
        <Text className='pres-paper__label'>{label}</Text>
        <Text className={`pres-paper__value${strong ? ' pres-paper__value--strong' : ''}`}>{value}</Text>
      </View>
    )
    return (
      <View className='pres-paper'>
        <View className='pres-paper__sheet' role='article' aria-label='处方笺'>
          <Text className='pres-paper__hospital'>{hospital.hospital?.hospitalName ?? ''}</Text>
          <Text className='pres-paper__title'>{`处方笺（${CATEGORY_TEXT[p.category]}）`}</Text>
          <View className='pres-paper__head'>
            <Text className='pres-paper__no'>{`处方号 ${p.presNo}`}</Text>
            <Text className={`pres-paper__status pres-paper__status--${statusClass(p)}`}>{p.statusText}</Text>
          </View>
          <View className='pres-paper__patient'>
            <Text>{`姓名 ${p.patientName}`}</Text>
            <Text>{`性别 ${p.sex === 1 ? '男' : '女'}`}</Text>
            <Text>{`年龄 ${p.age}岁`}</Text>
            <Text>{`科室 ${p.deptName}`}</Text>
          </View>
          <Text className='pres-paper__line'>{`诊断：${p.diagnoses.map((d) => d.name).join('、')}`}</Text>
          <Text className='pres-paper__rp'>
            Rp
          </Text>
          <View role='list' aria-label='药品'>
            {p.lines.map((l, i) => (
              <View key={l.drugId} className='pres-paper__drug' role='listitem'>
                <View className='pres-paper__drug-head'>
                  <Text className='pres-paper__drug-name'>{`${i + 1}. ${l.drugName}`}</Text>
                  <Text className='pres-paper__drug-count'>{`×${l.totalCount}${l.unit}`}</Text>
                </View>
                <Text className='pres-paper__drug-line'>{`规格：${l.drugSpec}`}</Text>
                <Text className='pres-paper__drug-line'>{`用法：${l.dose}，${l.frequency}，共${l.days}天`}</Text>
                <Text className='pres-paper__drug-line'>{`金额：${yuan(l.amountFen)}`}</Text>
                <Tappable inline className='pres-paper__drug-info' label={`${l.drugName} 药品说明`} onTap={() => setDrug({ id: l.drugId, name: l.drugName })}>
                  药品说明
                </Tappable>
              </View>
            ))}
          </View>
          {p.advice && <Text className='pres-paper__line'>{`医嘱：${p.advice}`}</Text>}
          <View className='pres-paper__fees'>
            {row('药品费', yuan(p.drugFeeFen))}
            {row('诊查费', yuan(p.diagnosisFeeFen))}
            {row('合计', yuan(p.totalFen), true)}
          </View>
          <View className='pres-paper__fees'>
            {row('医师', p.doctorName)}
            {row('审核药师', p.pharmacistName || '待审核')}
            {row('开具时间', localTime(p.createdAt))}
            {row('有效期至', localTime(p.expiresAt))}
          </View>
          <Text className='pres-paper__note'>本处方自开具起有效期至上述时间，过期需重新开具。</Text>
        </View>
        <View className='pres-paper__actions'>
          <PrescriptionActions p={p} />
        </View>
        {drug && <DrugSheet drugId={drug.id} name={drug.name} onClose={() => setDrug(null)} />}
      </View>
    )
  }

  return (
    <PageShell title='处方详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(Medicine)
