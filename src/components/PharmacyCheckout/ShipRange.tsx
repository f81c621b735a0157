import { useEffect } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { ArrowDown, ArrowUp } from '@nutui/icons-react-taro'
import Sheet from '@/components/Sheet'
import { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'

/**
 * 配送范围 of the checkout's store: its fee rule (the send template's words) and the provinces it delivers to, each
 * opened on its cities.
 */
function ShipRange({ onClose }: { onClose: () => void }) {
  const checkout = usePharmacyOrderStore()
  useEffect(() => void checkout.loadShipProvinces(), [checkout])
  const provinces = checkout.shipProvinces.value
  const cities = checkout.shipCities.value

  return (
    <Sheet title='配送范围' onClose={onClose}>
      {checkout.template.value && <Text className='checkout__line'>{`运费规则：${checkout.template.value.tip}`}</Text>}
      {provinces ? (
        <View role='list' aria-label='配送省份'>
          {provinces.map((p) => {
            const open = checkout.shipProvince === p.code
            return (
              <View key={p.code} role='listitem'>
                <Tappable className='checkout__province' expanded={open} onTap={() => void checkout.toggleShipProvince(p.code)}>
                  <Text>{p.name}</Text>
                  {open ? <ArrowUp aria-hidden='true' /> : <ArrowDown aria-hidden='true' />}
                </Tappable>
                {open && <Text className='checkout__cities'>{cities ? cities.map((c) => c.name).join('、') : MSG.listLoading}</Text>}
              </View>
            )
          })}
        </View>
      ) : checkout.shipProvinces.state === 'failed' ? (
        <LoadFailed onRetry={() => void checkout.loadShipProvinces()} />
      ) : (
        <Loading />
      )}
      <Text className='checkout__note'>收货地址不在以上城市的，请选择到店自提。</Text>
    </Sheet>
  )
}

export default observer(ShipRange)
