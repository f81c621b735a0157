import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { oneById } from '@/components/Empty/oneById'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { prescriptionUrl } from '@/pageUrls'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

/**
 * 暂无可配药的药房 (spec §2 /internet/noStorePrescription/index?id=): no partner pharmacy has every medicine of this
 * prescription in stock; what it holds, and the hospital's own pharmacy to fill it in person.
 */
function NoStorePrescription() {
  const { hospital } = useStores()
  const prescription = usePrescriptionStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const { value: p, load, placeholder } = oneById(prescription.toOrder, id, '未找到该处方')
  const h = hospital.hospital

  const body = () => {
    if (!p) return placeholder
    return (
      <View className='no-store'>
        <View className='no-store__card' role='alert'>
          <Text className='no-store__title'>暂无可配药的药房</Text>
          <Text className='no-store__text'>合作药房暂时无法配齐这张处方的药品，请在处方有效期内到医院药房取药。</Text>
        </View>
        <Tappable role='link' className='no-store__card' onTap={() => void Taro.navigateTo({ url: prescriptionUrl(p.id) })}>
          <Text className='no-store__heading'>处方</Text>
          <Text className='no-store__line'>{`诊断：${p.diagnoses.map((d) => d.name).join('、')}`}</Text>
          <Text className='no-store__line'>{`药品：${p.lines.map((l) => `${l.drugName} ×${l.totalCount}${l.unit}`).join('、')}`}</Text>
          <Text className='no-store__line'>{`合计 ${yuan(p.totalFen)}`}</Text>
          <Text className='no-store__link'>查看处方 ›</Text>
        </Tappable>
        {h && (
          <View className='no-store__card'>
            <Text className='no-store__heading'>{`${h.hospitalName} 药房`}</Text>
            {h.address && <Text className='no-store__line'>{`地址：${h.address}`}</Text>}
            {h.phone && (
              <Tappable role='link' inline className='no-store__link' label={`拨打医院电话 ${h.phone}`} onTap={() => void Taro.makePhoneCall({ phoneNumber: h.phone }).catch(() => undefined)}>
                {`电话：${h.phone}`}
              </Tappable>
            )}
          </View>
        )}
      </View>
    )
  }

  return (
    <PageShell title='暂无可配药的药房' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(NoStorePrescription)
