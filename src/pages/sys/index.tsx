import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'

/** `/` and `/pages/sys/index`: after startup, the home tab of the hospital's role. */
export default function Entry() {
  const { hospital } = useStores()
  return (
    <PageShell title='掌上医院' onReady={() => Taro.reLaunch({ url: hospital.homePath })}>
      <View />
    </PageShell>
  )
}
