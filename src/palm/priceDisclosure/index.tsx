import { useMemo, useState } from 'react'
import { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import { debounce } from '@/utils/debounce'
import { yuan } from '@/utils/register'
import './index.scss'
import { useBillStore } from '@/stores/BillStore'

/**
 * 价格公示 (spec §2 /palm/priceDisclosure/index): the hospital's prices of drugs, tests, examinations, treatments,
 * materials and services, searched by name or code 500 ms after the last keystroke, a page at a time.
 */
function PriceDisclosure() {
  const { hospital } = useStores()
  const bills = useBillStore()
  const list = bills.prices
  const [text, setText] = useState(bills.keyword)
  const search = useMemo(() => debounce((k: string) => void bills.searchPrices(k)), [bills])
  useReachBottom(() => void list.loadMore())
  const state = list.state

  const change = (value: string) => {
    setText(value)
    search(value)
  }

  return (
    <PageShell title='价格公示' onReady={() => bills.searchPrices(bills.keyword)}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='prices'>
          <View className='prices__search'>
            <SearchBar placeholder='搜索药品、检查、治疗项目名称' inputProps={fieldName('搜索收费项目')} maxLength={20} value={text} onChange={(v: string) => change(v)} />
          </View>
          {state === 'done' && list.items.length === 0 ? (
            <Empty text={bills.keyword ? '未找到相关收费项目' : '暂无价格信息'} />
          ) : state === 'failed' && list.items.length === 0 ? (
            <LoadFailed onRetry={() => void list.loadMore(true)} />
          ) : (
            <View role='list' aria-label='收费项目'>
              {list.items.map((p) => (
                <View key={p.id} className='price' role='listitem'>
                  <View className='price__head'>
                    <Text className='price__name'>{p.name}</Text>
                    <Text className='price__fee'>
                      {yuan(p.priceFen)}
                      {p.unit ? `/${p.unit}` : ''}
                    </Text>
                  </View>
                  <Text className='price__line'>
                    类别：{p.categoryName}
                    {p.spec ? `　规格：${p.spec}` : ''}
                    {p.unit ? `　单位：${p.unit}` : ''}
                  </Text>
                </View>
              ))}
              <Tappable className='prices__more' onTap={() => void list.loadMore(true)}>
                {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
              </Tappable>
            </View>
          )}
        </View>
      )}
    </PageShell>
  )
}

export default observer(PriceDisclosure)
