import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { Loading, LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { HealthToolsStore } from '@/stores/HealthToolsStore'
import { filterCheckItems, HEALTH_TOOL_DISCLAIMER } from '@/utils/healthTools'
import { inspectDetailUrl } from './urls'
import './inspect-read.scss'

const SEARCH_HINT = '搜索项目名称或缩写，如 ALT'

/**
 * 化验单解读 (spec §2 /internet/inspectRead/inspect-read): common examination items by category (血常规, 肝功能 …),
 * each with its abbreviation, unit and a typical adult reference range; a search narrows them; one opens its
 * explanation.
 */
function InspectRead() {
  const [tools] = useState(() => new HealthToolsStore())
  const [search, setSearch] = useState('')
  const list = tools.checkItems
  const load = () => list.load().catch(() => undefined)

  const body = () => {
    if (list.state === 'failed' && !list.value) return <LoadFailed onRetry={() => void load()} />
    if (!list.value) return <Loading />
    const categories = filterCheckItems(list.value.categories, search)
    if (categories.length === 0) return <Empty text='没有找到相关检查项目' />
    return categories.map((c) => (
      <View key={c.name} className='inspect-read__group'>
        <View className='inspect-read__heading' role='heading' aria-level={2}>
          {c.name}
        </View>
        {c.items.map((i) => (
          <Tappable key={i.id} role='link' className='inspect-read__item' onTap={() => void Taro.navigateTo({ url: inspectDetailUrl(i.id) })}>
            <View className='inspect-read__name-line'>
              <Text className='inspect-read__name'>{i.name}</Text>
              <Text className='inspect-read__abbr'>{i.abbr}</Text>
            </View>
            <Text className='inspect-read__reference'>
              参考范围：{i.reference}
              {i.unit ? ` ${i.unit}` : ''}
            </Text>
          </Tappable>
        ))}
      </View>
    ))
  }

  return (
    <PageShell title='化验单解读' onReady={load}>
      <View className='inspect-read'>
        <SearchBar placeholder={SEARCH_HINT} inputProps={fieldName('搜索检查项目')} maxLength={20} value={search} onChange={(v: string) => setSearch(v)} />
        <Text className='inspect-read__note'>{list.value?.note ?? '参考范围因医院、检测方法不同而不同，请以您检验单上标注的参考范围为准。'}</Text>
        {body()}
        <Text className='inspect-read__disclaimer'>{HEALTH_TOOL_DISCLAIMER}</Text>
      </View>
    </PageShell>
  )
}

export default observer(InspectRead)
