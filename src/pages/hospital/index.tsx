import { useMemo, useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Segmented from '@/components/Segmented'
import { fieldName } from '@/components/FormField/fieldName'
import { debounce } from '@/utils/debounce'
import HospitalItem from './HospitalItem'
import BrandView from './BrandView'
import './index.scss'

/** The tab of every hospital; a brand's tab is its id. */
const ALL = 'all'

/**
 * 选择医院 (spec §2 /pages/hospital/index): every hospital, searched by name, or a brand's (医联体 / 集团) hospitals and
 * featured departments (query brandId opens on that brand). Choosing a hospital caches its code and restarts the app
 * for it.
 */
function HospitalList() {
  const { hospital } = useStores()
  const { params } = useRouter()
  const [tab, setTab] = useState(params.brandId && /^\d+$/.test(params.brandId) ? params.brandId : ALL)
  // one debounced search for the page's life, not a new one per render
  const search = useMemo(() => debounce((keyword: string) => void hospital.hospitalList.load(keyword.trim() || undefined).catch(() => undefined)), [hospital])
  const brands = hospital.brands.value ?? []
  const brand = tab === ALL ? null : Number(tab)

  const showTab = (next: string) => {
    setTab(next)
    if (next === ALL) void hospital.hospitalList.load().catch(() => undefined)
    else void hospital.showBrand(Number(next)).catch(() => undefined)
  }

  const load = () =>
    Promise.all([
      hospital.brands.load().catch(() => undefined),
      brand === null ? hospital.hospitalList.load().catch(() => undefined) : hospital.showBrand(brand).catch(() => undefined),
    ])

  const allHospitals = () => {
    const list = hospital.hospitalList
    if (list.state === 'failed' && !list.value) return <LoadFailed onRetry={() => void list.load().catch(() => undefined)} />
    if (!list.value) return <Loading />
    if (list.value.length === 0) return <Empty text='没有找到相关医院' />
    return list.value.map((h) => <HospitalItem key={h.hospitalCode} hospital={h} />)
  }

  return (
    <PageShell title='选择医院' onReady={load}>
      {brands.length > 0 && (
        <View className='hospitals__tabs'>
          <Segmented
            label='按医联体浏览'
            options={[{ label: '全部医院', value: ALL }, ...brands.map((b) => ({ label: b.name, value: String(b.id) }))]}
            value={tab}
            onChange={showTab}
          />
        </View>
      )}
      {brand === null ? (
        <>
          <SearchBar placeholder='搜索医院名称' inputProps={fieldName('搜索医院名称')} onChange={(v: string) => search(v)} />
          <View className='hospitals'>{allHospitals()}</View>
        </>
      ) : (
        <BrandView brandId={brand} />
      )}
    </PageShell>
  )
}

export default observer(HospitalList)
