import { useEffect } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Sheet from '../Sheet'
import { LoadFailed, Loading } from '../Empty'
import { yuan } from '@/utils/register'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

/**
 * 药品说明: what the formulary says of one medicine (pres/drugDetail): common name, specification, dosage form,
 * manufacturer, usage, price, and whether it is sold only against a prescription. Opened from a prescription's line
 * or a product of the shop.
 */
function DrugSheet({ drugId, name, onClose }: { drugId: number; name: string; onClose: () => void }) {
  const prescription = usePrescriptionStore()
  const info = prescription.drugInfo
  const load = () => void info.load(drugId).catch(() => undefined)
  useEffect(() => {
    if (info.value?.id !== drugId) info.reset()
    load()
    // reread only for another medicine
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drugId])

  const d = info.value?.id === drugId ? info.value : null
  const row = (label: string, value: string) => (
    <View className='drug-sheet__row'>
      <Text className='drug-sheet__label'>{label}</Text>
      <Text className='drug-sheet__value'>{value}</Text>
    </View>
  )
  return (
    <Sheet title={`${name} 药品说明`} onClose={onClose}>
      {d ? (
        <View className='drug-sheet'>
          {row('通用名', d.commonName)}
          {row('规格', d.drugSpec)}
          {row('剂型', d.dosageForm)}
          {row('生产厂家', d.manufacturer)}
          {row('用法用量', d.defaultUsage || '遵医嘱')}
          {row('单价', `${yuan(d.priceFen)}/${d.unit}`)}
          {row('类别', d.rx ? '处方药' : '非处方药')}
          <Text className='drug-sheet__note'>{d.rx ? '处方药须凭医生开具并经药师审核的处方购买，请遵医嘱使用。' : '请仔细阅读药品说明书并按说明使用，如有疑问请咨询药师。'}</Text>
        </View>
      ) : info.state === 'failed' ? (
        <LoadFailed onRetry={load} />
      ) : (
        <Loading />
      )}
    </Sheet>
  )
}

export default observer(DrugSheet)
