import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { PHARMACY_ORDER_TABS, pharmacyStatusClass } from '@/stores/PharmacyOrderStore'
import { MSG } from '@/ui/messages'
import { localTime, yuan } from '@/utils/register'
import { pharmacyOrderUrl, SHOP_URL } from '@/pageUrls'
import './index.scss'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'

/** 药品订单 (spec §2 /pages/order/shop/index): prescription and shop orders by status, a page at a time. */
function PharmacyOrders() {
  const orders = usePharmacyOrderStore()
  useReachBottom(() => void orders.list.loadMore())
  const state = orders.list.state

  return (
    <PageShell title='药品订单' onReady={() => orders.list.reload()}>
      <View className='pharmacy-orders__tabs' role='tablist' aria-label='订单状态'>
        {PHARMACY_ORDER_TABS.map((t) => (
          <Tappable
            key={t.key}
            role='tab'
            selected={orders.tab === t.key}
            className={`pharmacy-orders__tab${orders.tab === t.key ? ' pharmacy-orders__tab--on' : ''}`}
            onTap={() => void orders.switchTab(t.key)}
          >
            {t.label}
          </Tappable>
        ))}
      </View>
      {orders.list.empty ? (
        <Empty text='暂无药品订单' action={{ label: '去药品商城', onTap: () => void Taro.navigateTo({ url: SHOP_URL }) }} />
      ) : orders.list.failedEmpty ? (
        <LoadFailed onRetry={() => void orders.list.loadMore(true)} />
      ) : (
        <View className='pharmacy-orders'>
          {orders.list.items.map((o) => (
            <Tappable key={o.id} className='pharmacy-order' onTap={() => void Taro.navigateTo({ url: pharmacyOrderUrl(o.id) })}>
              <View className='pharmacy-order__head'>
                <Text className='pharmacy-order__store'>
                  {o.source === 'prescription' ? '处方购药' : '商城购药'} · {o.storeName}
                </Text>
                <Text className={`pharmacy-order__status pharmacy-order__status--${pharmacyStatusClass(o)}`}>{o.statusText}</Text>
              </View>
              <Text className='pharmacy-order__line'>{o.drugNames.join('、')}</Text>
              <View className='pharmacy-order__foot'>
                <Text className='pharmacy-order__time'>{localTime(o.createdAt)}</Text>
                <Text className='pharmacy-order__fee'>{yuan(o.totalFen)}</Text>
              </View>
            </Tappable>
          ))}
          <Tappable className='pharmacy-orders__more' onTap={() => void orders.list.loadMore(true)}>
            {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(PharmacyOrders)
