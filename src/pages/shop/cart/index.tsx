import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Check, Minus, Plus } from '@nutui/icons-react-taro'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import ActionBar from '@/components/ActionBar'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { MIN_QUANTITY, shortText } from '@/stores/CartStore'
import { confirm } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { SHOP_URL, STORE_PAYMENT_URL } from '@/pageUrls'
import type { CartLine } from '@/stores/CartStore'
import './index.scss'
import { useCartStore } from '@/stores/CartStore'

/**
 * 购物车 (spec §2 /pages/shop/cart/index, §3 `shopping`): the current hospital's lines, each selected or not, its
 * quantity between 1 and the stock, removed after a confirm; the selected lines' total and 去结算. The store's stock is
 * read when the cart opens: a line asking for more is marked 库存不足 and 去结算 waits until the patient changes it.
 */
function ShopCart() {
  const cart = useCartStore()

  const remove = async (line: CartLine) => {
    if (await confirm(`确定从购物车删除${line.drug.name}吗？`)) cart.remove([line.drug.id])
  }

  return (
    <PageShell title='购物车' onReady={() => cart.checkStock()}>
      {cart.lines.length === 0 ? (
        <Empty text='购物车是空的' action={{ label: '去逛逛', onTap: () => void Taro.navigateTo({ url: SHOP_URL }) }} />
      ) : (
        <View className='cart'>
          <View role='list' aria-label='购物车药品'>
            {cart.lines.map((l) => {
              const short = cart.shortOf(l)
              return (
                <View key={l.drug.id} className='cart-line' role='listitem'>
                  <Tappable role='checkbox' checked={l.selected} label={`选择${l.drug.name}`} className={`cart-line__tick${l.selected ? ' cart-line__tick--on' : ''}`} onTap={() => cart.toggle(l.drug.id)}>
                    {l.selected && <Check aria-hidden='true' />}
                  </Tappable>
                  <View className='cart-line__main'>
                    <View>
                      <Text className='cart-line__name'>{l.drug.name}</Text>
                      {l.drug.rx && <Text className='cart-line__rx'>处方药</Text>}
                    </View>
                    <Text className='cart-line__spec'>{l.drug.drugSpec}</Text>
                    {short !== null && <Text className='cart-line__short'>{shortText(short, l.drug.unit)}</Text>}
                    <View className='cart-line__foot'>
                      <Text className='cart-line__price'>{yuan(l.drug.priceFen)}</Text>
                      <View className='cart-line__stepper'>
                        <Tappable className='cart-line__step' label={`${l.drug.name}减少一${l.drug.unit}`} disabled={l.quantity <= MIN_QUANTITY} onTap={() => cart.setQuantity(l.drug.id, l.quantity - 1)}>
                          <Minus aria-hidden='true' />
                        </Tappable>
                        <Text className='cart-line__quantity' aria-label={`${l.drug.name}数量`}>
                          {l.quantity}
                        </Text>
                        <Tappable className='cart-line__step' label={`${l.drug.name}增加一${l.drug.unit}`} disabled={l.quantity >= cart.limitOf(l)} onTap={() => cart.setQuantity(l.drug.id, l.quantity + 1)}>
                          <Plus aria-hidden='true' />
                        </Tappable>
                      </View>
                    </View>
                    <Tappable inline className='cart-line__remove' label={`删除${l.drug.name}`} onTap={() => void remove(l)}>
                      删除
                    </Tappable>
                  </View>
                </View>
              )
            })}
          </View>
          <ActionBar amount={{ label: '合计', value: yuan(cart.totalFen) }} note={!cart.selectedLines.length ? '请选择要结算的药品' : cart.blockedByStock ? '部分药品库存不足，请修改数量' : null}>
            <View className='cart__foot'>
              <Tappable role='checkbox' checked={cart.allSelected} row className='cart__all' onTap={() => cart.selectAll(!cart.allSelected)}>
                全选
              </Tappable>
              <Button type='primary' disabled={!cart.selectedLines.length || cart.blockedByStock} onClick={() => void Taro.navigateTo({ url: STORE_PAYMENT_URL })}>
                去结算
              </Button>
            </View>
          </ActionBar>
        </View>
      )}
    </PageShell>
  )
}

export default observer(ShopCart)
