import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { oneById } from '@/components/Empty/oneById'
import Tappable from '@/components/Tappable'
import { openLocationUrl } from '@/pageUrls'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

/**
 * 药房介绍 (spec §2 /internet/store/index?id=): the pharmacy's name, introduction, hours, address (on the map when it
 * has coordinates), phone, and whether it delivers or has medicines picked up.
 */
function PharmacyStorePage() {
  const prescription = usePrescriptionStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const { value: s, load, placeholder } = oneById(prescription.store, id, '未找到该药房')

  const body = () => {
    if (!s) return placeholder
    const services = [s.delivery && '快递配送', s.pickup && '到店自提'].filter(Boolean).join('、')
    return (
      <View className='pharmacy'>
        <View className='pharmacy__card'>
          <Text className='pharmacy__name'>{s.name}</Text>
          {services && <Text className='pharmacy__line'>{`服务：${services}`}</Text>}
          {s.hours && <Text className='pharmacy__line'>{`营业时间：${s.hours}`}</Text>}
          {s.latitude && s.longitude ? (
            <Tappable
              role='link'
              className='pharmacy__link'
              label={`在地图中查看 ${s.address}`}
              onTap={() => void Taro.navigateTo({ url: openLocationUrl({ latitude: s.latitude!, longitude: s.longitude!, name: s.name, address: s.address }) })}
            >
              {`地址：${s.address} ›`}
            </Tappable>
          ) : (
            <Text className='pharmacy__line'>{`地址：${s.address}`}</Text>
          )}
          {s.phone && (
            <Tappable role='link' className='pharmacy__link' label={`拨打药房电话 ${s.phone}`} onTap={() => void Taro.makePhoneCall({ phoneNumber: s.phone }).catch(() => undefined)}>
              {`电话：${s.phone}`}
            </Tappable>
          )}
        </View>
        <View className='pharmacy__card'>
          <Text className='pharmacy__heading'>药房简介</Text>
          <Text className='pharmacy__text'>{s.intro || '暂无简介'}</Text>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='药房介绍' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(PharmacyStorePage)
