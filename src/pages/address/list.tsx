import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { confirm, toastSuccess } from '@/ui/feedback'
import type { Address } from '../../../types/api/address'
import './list.scss'
import { useAddressStore } from '@/stores/AddressStore'

const editUrl = (id?: number) => `/pages/address/add${id ? `?id=${id}` : ''}`

/**
 * 收货地址: the patient's delivery addresses (names and mobiles masked by the server, spec §9). With `select=1`
 * (pharmacy checkout) tapping one chooses it and goes back; otherwise it opens for editing.
 */
function AddressList() {
  const address = useAddressStore()
  const selecting = useRouter().params.select === '1'

  const tap = (a: Address) => {
    if (!selecting) return void Taro.navigateTo({ url: editUrl(a.id) })
    address.choose(a)
    void Taro.navigateBack()
  }

  const makeDefault = async (a: Address) => {
    await address.setDefault(a.id)
    toastSuccess('已设为默认')
  }

  const remove = async (a: Address) => {
    if (!(await confirm('确定删除该收货地址吗？'))) return
    await address.remove(a.id)
    toastSuccess('已删除')
  }

  return (
    <PageShell title={selecting ? '选择收货地址' : '收货地址'} onReady={() => address.loadList()}>
      <View className='addresses'>
        {address.loaded && address.list.length === 0 && <Empty text='暂无收货地址' />}
        {address.list.map((a) => (
          <View key={a.id} className='addresses__item'>
            <Tappable className='addresses__main' onTap={() => tap(a)}>
              <View className='addresses__who'>
                <Text className='addresses__name'>{a.name}</Text>
                <Text className='addresses__mobile'>{a.mobile}</Text>
                {a.isDefault && <Text className='addresses__tag'>默认</Text>}
              </View>
              <Text className='addresses__region'>{a.regionText}</Text>
              <Text className='addresses__detail'>{a.detail}</Text>
            </Tappable>
            <View className='addresses__actions'>
              {a.isDefault ? (
                <Text className='addresses__is-default'>默认地址</Text>
              ) : (
                <Tappable inline className='addresses__action addresses__action--default' onTap={() => void makeDefault(a).catch(() => undefined)}>
                  设为默认
                </Tappable>
              )}
              <View className='addresses__spacer' />
              <Tappable inline className='addresses__action' onTap={() => void Taro.navigateTo({ url: editUrl(a.id) })}>
                编辑
              </Tappable>
              <Tappable inline className='addresses__action' onTap={() => void remove(a).catch(() => undefined)}>
                删除
              </Tappable>
            </View>
          </View>
        ))}
      </View>
      <View className='addresses__footer'>
        <Button type='primary' block onClick={() => void Taro.navigateTo({ url: editUrl() })}>
          新增收货地址
        </Button>
      </View>
    </PageShell>
  )
}

export default observer(AddressList)
