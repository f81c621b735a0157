import { useMemo, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { debounce } from '@/utils/debounce'
import type { Hospital } from '../../../types/api/hospital'
import './index.scss'

const SERVICES = (h: Hospital) => [h.configDto.isPalm && '掌上医院', h.configDto.isInternet && '互联网医院'].filter(Boolean).join(' · ')

/** Hospital list: choosing one caches its code and restarts the app for it (spec §2). */
export default function HospitalList() {
  const { hospital } = useStores()
  const [list, setList] = useState<Hospital[] | null>(null)
  // one debounced search for the page's life, not a new one per render
  const search = useMemo(() => debounce((keyword: string) => void hospital.listHospitals(keyword.trim() || undefined).then(setList)), [hospital])
  return (
    <PageShell title='选择医院' onReady={async () => setList(await hospital.listHospitals())}>
      <SearchBar placeholder='搜索医院名称' inputProps={fieldName('搜索医院名称')} onChange={(v: string) => search(v)} />
      {list?.length === 0 && <Empty text='没有找到相关医院' />}
      <View className='hospitals'>
        {list?.map((h) => (
          <Tappable key={h.hospitalCode} className='hospitals__item' onTap={() => void hospital.switchTo(h.hospitalCode)}>
            <View className='hospitals__logo'>{(h.shortName || h.hospitalName).slice(0, 1)}</View>
            <View className='hospitals__body'>
              <Text className='hospitals__name'>{h.hospitalName}</Text>
              <Text className='hospitals__meta'>
                {h.level} · {SERVICES(h)}
              </Text>
              <Text className='hospitals__meta'>{h.address}</Text>
            </View>
          </Tappable>
        ))}
      </View>
    </PageShell>
  )
}
