import { useState } from 'react'
import Taro from '@tarojs/taro'
import gcoord from 'gcoord'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { ApiError } from '@/services/request'
import type { Location } from '../../../types/api/address'
import './index.scss'
import { useAddressStore } from '@/stores/AddressStore'

/** Waiting longer than this for a position fix tells the patient it failed (they can retry or choose by hand). */
export const LOCATE_TIMEOUT_MS = 10_000

type State =
  | { phase: 'locating' }
  | { phase: 'denied' }
  | { phase: 'failed'; message: string }
  | { phase: 'ready'; location: Location }

/** Browsers say "User denied Geolocation", mini-programs "getLocation:fail auth deny". */
const isDenied = (err: unknown) => /denied|deny|permission|权限/i.test(String((err as { errMsg?: string })?.errMsg ?? err))

/**
 * /choose-location (spec §2 system page): the device position, the address the server finds there, and 确认 to
 * hand it to the page that opened this one. No map tiles: nothing outside is reachable, so a card shows the place.
 */
function ChooseLocation() {
  const address = useAddressStore()
  const [state, setState] = useState<State>({ phase: 'locating' })

  const locate = async () => {
    setState({ phase: 'locating' })
    let position: { latitude: number; longitude: number }
    try {
      // the browser gives WGS-84; the server, its map service and the mini-programs' pickers all use GCJ-02 (China's
      // system, a few hundred metres off WGS-84), so the position is converted before it is sent
      const device = await Taro.getLocation({ type: 'wgs84', highAccuracyExpireTime: LOCATE_TIMEOUT_MS })
      const [longitude, latitude] = gcoord.transform([device.longitude, device.latitude], gcoord.WGS84, gcoord.GCJ02)
      // six decimals: about 0.1 m, more than any phone knows
      position = { latitude: Number(latitude.toFixed(6)), longitude: Number(longitude.toFixed(6)) }
    } catch (err) {
      setState(isDenied(err) ? { phase: 'denied' } : { phase: 'failed', message: '暂时无法获取您的位置' })
      return
    }
    try {
      setState({ phase: 'ready', location: await address.placeAt(position.latitude, position.longitude) })
    } catch (err) {
      setState({ phase: 'failed', message: err instanceof ApiError ? err.message : '暂时无法获取您的位置' })
    }
  }

  const confirm = (location: Location) => {
    address.handBackLocation(location)
    void Taro.navigateBack()
  }

  const chooseByHand = () => {
    address.askManualRegion(true)
    void Taro.navigateBack()
  }

  return (
    <PageShell title='选择位置' onReady={() => void locate()}>
      <View className='locate'>
        {state.phase === 'locating' && (
          <View className='locate__card' role='status'>
            <View className='locate__pin locate__pin--busy' />
            <Text className='locate__hint'>正在获取您的位置…</Text>
          </View>
        )}
        {state.phase === 'ready' && (
          <View className='locate__card'>
            <View className='locate__pin' />
            <Text className='locate__name'>{state.location.name}</Text>
            <Text className='locate__address'>{state.location.address}</Text>
            <Text className='locate__coords'>
              纬度 {state.location.latitude.toFixed(6)}　经度 {state.location.longitude.toFixed(6)}
            </Text>
          </View>
        )}
        {(state.phase === 'denied' || state.phase === 'failed') && (
          <View className='locate__card' role='alert'>
            <Text className='locate__name'>{state.phase === 'denied' ? '未获得定位权限' : '定位失败'}</Text>
            <Text className='locate__hint'>
              {state.phase === 'denied' ? '请在浏览器或系统设置中允许使用位置信息，或手动选择所在地区。' : `${state.message}，请重试或手动选择所在地区。`}
            </Text>
            <Tappable className='locate__retry' onTap={() => void locate()}>
              重新定位
            </Tappable>
          </View>
        )}
      </View>
      <View className='locate__buttons'>
        {state.phase === 'ready' && (
          <>
            <Button type='primary' block onClick={() => confirm(state.location)}>
              确认
            </Button>
            <Tappable className='locate__retry' onTap={() => void locate()}>
              重新定位
            </Tappable>
          </>
        )}
        {(state.phase === 'denied' || state.phase === 'failed') && (
          <Button type='primary' block onClick={chooseByHand}>
            手动选择地区
          </Button>
        )}
        <Button className='locate__cancel' block onClick={() => void Taro.navigateBack()}>
          取消
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(ChooseLocation)
