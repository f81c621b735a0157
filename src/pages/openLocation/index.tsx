import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import platform from '@/platform'
import Empty from '@/components/Empty'
import { toastSuccess } from '@/ui/feedback'
import { queryText } from '@/utils/queryText'
import './index.scss'

function coordinate(v: string | undefined, max: number): number | null {
  const n = Number(queryText(v))
  return v && Number.isFinite(n) && Math.abs(n) <= max ? n : null
}

/**
 * /open-location?latitude=&longitude=&name=&address= (spec §2 system page): one place, e.g. a hospital to go to,
 * with its coordinates, 在地图中查看 where the system has a map (a mini-program) and 复制地址 for a map app.
 */
export default function OpenLocation() {
  const { params } = useRouter()
  const latitude = coordinate(params.latitude, 90)
  const longitude = coordinate(params.longitude, 180)
  const name = queryText(params.name)
  const address = queryText(params.address)

  const copy = async () => {
    await Taro.setClipboardData({ data: [name, address].filter(Boolean).join(' ') })
    toastSuccess('地址已复制')
  }

  return (
    <PageShell title='位置'>
      {latitude === null || longitude === null ? (
        <Empty text='位置信息不完整' />
      ) : (
        <>
          <View className='place'>
            <Text className='place__name'>{name || '目的地'}</Text>
            {address && <Text className='place__address'>{address}</Text>}
            <Text className='place__coords'>
              纬度 {latitude}　经度 {longitude}
            </Text>
          </View>
          {/* the system's map where there is one (a mini-program): the way there from the patient's position */}
          {platform.showPlace && (
            <View className='place__copy'>
              <Button type='primary' block onClick={() => void platform.showPlace?.({ latitude, longitude, name, address }).catch(() => undefined)}>
                在地图中查看
              </Button>
            </View>
          )}
          {(name || address) && (
            <View className='place__copy'>
              <Button type={platform.showPlace ? 'default' : 'primary'} block onClick={() => void copy().catch(() => undefined)}>
                复制地址
              </Button>
            </View>
          )}
        </>
      )}
    </PageShell>
  )
}
