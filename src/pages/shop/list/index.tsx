import { useMemo, useState } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { Cart } from '@nutui/icons-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import DrugSheet from '@/components/DrugSheet'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { MAX_KEYWORD } from '@/stores/KeywordSearch'
import { toastError, toastSuccess } from '@/ui/feedback'
import { MSG } from '@/ui/messages'
import { debounce } from '@/utils/debounce'
import { yuan } from '@/utils/register'
import { CART_URL } from '@/pageUrls'
import type { ShopDrug } from '../../../../types/api/pharmacy'
import './index.scss'
import { useCartStore } from '@/stores/CartStore'

/**
 * 药品商城 (spec §2 /pages/shop/list/index): the categories, the products a page at a time, searched 500 ms after the
 * last keystroke, each added to the cart (处方药 are marked: they are sold against a reviewed prescription) or opened on
 * its 药品说明, and the cart with its count.
 */
function ShopList() {
  const cart = useCartStore()
  const list = cart.products
  const [text, setText] = useState(cart.keyword)
  const [shown, setShown] = useState<ShopDrug | null>(null)
  const search = useMemo(() => debounce((k: string) => void cart.search(k.slice(0, MAX_KEYWORD))), [cart])
  useReachBottom(() => void list.loadMore())
  const state = list.state

  const add = (d: ShopDrug) => {
    if (cart.add(d)) toastSuccess('已加入购物车')
    else toastError(d.stock <= 0 ? '该药品暂时缺货' : '已达库存上限')
  }

  const types = [{ id: null, name: '全部' }, ...(cart.types.value ?? [])]

  return (
    <PageShell title='药品商城' onReady={() => Promise.all([cart.types.load().catch(() => undefined), list.reload()])}>
      <View className='shop'>
        <View className='shop__search'>
          <SearchBar
            placeholder='搜索药品名称'
            inputProps={fieldName('搜索药品')}
            maxLength={MAX_KEYWORD}
            value={text}
            onChange={(v: string) => {
              setText(v)
              search(v)
            }}
          />
        </View>
        <View className='shop__tabs' role='tablist' aria-label='药品分类'>
          {types.map((t) => (
            <Tappable
              key={t.id ?? 0}
              role='tab'
              selected={cart.typeId === t.id}
              className={`shop__tab${cart.typeId === t.id ? ' shop__tab--on' : ''}`}
              onTap={() => void cart.chooseType(t.id)}
            >
              {t.name}
            </Tappable>
          ))}
        </View>
        {list.empty ? (
          <Empty text={cart.keyword ? '未找到相关药品' : '暂无药品'} />
        ) : list.failedEmpty ? (
          <LoadFailed onRetry={() => void list.loadMore(true)} />
        ) : (
          <View role='list' aria-label='药品'>
            {list.items.map((d) => {
              const inCart = cart.quantityOf(d.id)
              return (
                <View key={d.id} className='product' role='listitem'>
                  <Tappable className='product__info' label={`${d.name} 药品说明`} onTap={() => setShown(d)}>
                    <View className='product__head'>
                      <Text className='product__name'>{d.name}</Text>
                      {d.rx && <Text className='product__rx'>处方药</Text>}
                    </View>
                    <Text className='product__line'>
                      {d.drugSpec} · {d.manufacturer}
                    </Text>
                  </Tappable>
                  {d.rx && <Text className='product__note'>需凭医生开具并经药师审核的处方购买</Text>}
                  <View className='product__foot'>
                    <Text className='product__price'>
                      {yuan(d.priceFen)}/{d.unit}
                    </Text>
                    <Text className='product__stock'>{d.stock > 0 ? `库存${d.stock}` : '缺货'}</Text>
                    <Tappable className='product__add' label={`${d.name}加入购物车`} disabled={d.stock <= 0} onTap={() => add(d)}>
                      {inCart ? `加入购物车(${inCart})` : '加入购物车'}
                    </Tappable>
                  </View>
                </View>
              )
            })}
            <Tappable className='shop__more' onTap={() => void list.loadMore(true)}>
              {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
            </Tappable>
          </View>
        )}
        {shown && <DrugSheet drugId={shown.id} name={shown.name} onClose={() => setShown(null)} />}
        <Tappable className='shop__cart' label={`购物车，${cart.count}件`} onTap={() => void Taro.navigateTo({ url: CART_URL })}>
          <Cart aria-hidden='true' />
          {cart.count > 0 && <Text className='shop__badge'>{cart.count > 99 ? '99+' : cart.count}</Text>}
        </Tappable>
      </View>
    </PageShell>
  )
}

export default observer(ShopList)
