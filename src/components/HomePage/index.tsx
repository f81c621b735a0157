import { useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { NoticeBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { useStores } from '@/stores'
import PageShell, { openPage } from '../PageShell'
import Tappable from '../Tappable'
import ServiceIcon from '../ServiceIcon'
import ScanEntry from './ScanEntry'
import Banners from './Banners'
import { elderMenus, groupMenus } from '@/utils/homeMenus'
import type { Hospital } from '../../../types/api/hospital'
import './index.scss'

/**
 * The home tab of all three tab bars; its entries come from the hospital's home-page and menu config. In 长辈模式 the
 * most used services come first in a group of their own (src/utils/homeMenus.ts) and the banners are left out.
 */
function HomePage({ title, children }: { title: string; children?: ReactNode }) {
  const { hospital, preferences } = useStores()
  // 长辈模式: the most used services first, and no moving banners
  const elder = preferences.elderMode
  const [hospitals, setHospitals] = useState<Hospital[]>([])
  const config = hospital.homeConfig
  const h = hospital.hospital
  const banners = hospital.ads.value ?? []

  return (
    <PageShell
      title={title}
      tab
      onReady={async () => {
        // the banners never hold the page up: drawn when they come, left out when they fail
        hospital.loadBanners(h?.hospitalCode)
        if (hospital.main) setHospitals(await hospital.listHospitals())
      }}
    >
      <View className='home'>
        <View className='home__header'>
          <View className='home__logo' aria-hidden>
            {(h?.shortName || '医').slice(0, 1)}
          </View>
          <View className='home__titles'>
            <Text className='home__name'>{h?.hospitalName ?? '智慧医疗服务平台'}</Text>
            <Text className='home__meta'>{h ? `${h.level} · ${h.address}` : '选择医院后即可使用全部服务'}</Text>
          </View>
          <ScanEntry />
        </View>
        {!elder && !!banners.length && (
          <Banners banners={banners} />
        )}
        {/* the whole notice at once, wrapped: moving text cannot be paused (WCAG 2.2.2) and is hard to read */}
        {config?.notice && <NoticeBar content={config.notice} wrap />}
        {(elder ? elderMenus : groupMenus)(hospital.menus).map(([group, items]) => (
          <View key={group} className='home__group'>
            <Text className='home__group-title'>{group}</Text>
            <View className='home__grid'>
              {items.map((m) => (
                <Tappable key={m.url} className='home__entry' onTap={() => openPage(m.url)}>
                  <ServiceIcon name={m.icon} />
                  <Text className='home__entry-name'>{m.name}</Text>
                </Tappable>
              ))}
            </View>
          </View>
        ))}
        {/* the home's own sections under the services (the internet hospital's doctors) */}
        {children}
        {hospital.main && hospitals.length > 0 && (
          <View className='home__group'>
            <Text className='home__group-title'>合作医院</Text>
            {hospitals.map((item) => (
              <Tappable
                key={item.hospitalCode}
                className='home__hospital'
                onTap={() => void hospital.switchTo(item.hospitalCode)}
              >
                <Text className='home__hospital-name'>{item.hospitalName}</Text>
                <Text className='home__hospital-meta'>
                  {item.level} · {item.address}
                </Text>
              </Tappable>
            ))}
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(HomePage)
