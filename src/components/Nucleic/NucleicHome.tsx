import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import type { nucleicUrls } from '@/pageUrls'
import './index.scss'
import { useNucleicStore } from '@/stores/NucleicStore'

/** 核酸检测 (spec §2 /palm/nucleic/index and a hospital's own): the tests sold with their prices, and the three ways on. */
function NucleicHome({ urls }: { urls: ReturnType<typeof nucleicUrls> }) {
  const { hospital } = useStores()
  const store = useNucleicStore()
  const kinds = store.kinds.value
  const go = (url: string) => void Taro.navigateTo({ url })
  return (
    <PageShell title='核酸检测' onReady={() => store.loadKinds()}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='nucleic'>
          <View className='nucleic__card'>
            <Text className='nucleic__heading'>检测项目</Text>
            {!kinds && store.kinds.state === 'failed' && <LoadFailed onRetry={() => void store.loadKinds()} />}
            {!kinds && store.kinds.state !== 'failed' && <Loading />}
            {kinds?.map((k) => (
              <View key={k.code} className='nucleic__kind'>
                <View className='nucleic__kind-head'>
                  <Text className='nucleic__kind-name'>{k.name}</Text>
                  <Text className='nucleic__price'>{yuan(k.priceFen)}</Text>
                </View>
                <Text className='nucleic__line'>{k.description}</Text>
                <Text className='nucleic__line'>{`采样地点：${k.place}`}</Text>
              </View>
            ))}
          </View>
          <View className='nucleic__menu'>
            <Tappable role='link' className='nucleic__entry' onTap={() => go(urls.purchase)}>
              <Text className='nucleic__entry-name'>自助开单</Text>
              <Text className='nucleic__line'>选择检测项目，线上缴费</Text>
            </Tappable>
            <Tappable role='link' className='nucleic__entry' onTap={() => go(urls.orderList)}>
              <Text className='nucleic__entry-name'>我的订单</Text>
              <Text className='nucleic__line'>采样码、取消退款</Text>
            </Tappable>
            <Tappable role='link' className='nucleic__entry' onTap={() => go(urls.result)}>
              <Text className='nucleic__entry-name'>检测结果</Text>
              <Text className='nucleic__line'>查看核酸检测报告</Text>
            </Tappable>
          </View>
        </View>
      )}
    </PageShell>
  )
}

export default observer(NucleicHome)
