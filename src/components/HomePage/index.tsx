import { useState } from 'react'
import { View, Text, Swiper, SwiperItem, Image } from '@tarojs/components'
import { NoticeBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { useStores } from '@/stores'
import PageShell, { openPage } from '../PageShell'
import type { Hospital, MenuEntry } from '../../../types/api/hospital'
import './index.scss'

/** spec §9: swiper interval 3000 ms. */
const SWIPER_INTERVAL_MS = 3000

function groupMenus(menus: MenuEntry[]) {
  const groups = new Map<string, MenuEntry[]>()
  menus.forEach((m) => groups.set(m.group ?? '服务', [...(groups.get(m.group ?? '服务') ?? []), m]))
  return [...groups.entries()]
}

/** The home tab of all three tab bars; its entries come from the hospital's home-page and menu config. */
function HomePage({ title }: { title: string }) {
  const { hospital } = useStores()
  const [hospitals, setHospitals] = useState<Hospital[]>([])
  const config = hospital.homeConfig
  const h = hospital.hospital

  return (
    <PageShell title={title} tab onReady={async () => hospital.main && setHospitals(await hospital.listHospitals())}>
      <View className='home'>
        <View className='home__header'>
          <View className='home__logo'>{(h?.shortName || '医').slice(0, 1)}</View>
          <View className='home__titles'>
            <Text className='home__name'>{h?.hospitalName ?? '智慧医疗服务平台'}</Text>
            <Text className='home__meta'>{h ? `${h.level} · ${h.address}` : '选择医院后即可使用全部服务'}</Text>
          </View>
        </View>
        {!!config?.banners.length && (
          <Swiper className='home__banners' autoplay circular indicatorDots interval={SWIPER_INTERVAL_MS}>
            {config.banners.map((b) => (
              <SwiperItem key={b.title}>
                {b.image ? <Image className='home__banner-image' src={b.image} mode='aspectFill' /> : <View className='home__banner'>{b.title}</View>}
              </SwiperItem>
            ))}
          </Swiper>
        )}
        {config?.notice && <NoticeBar content={config.notice} />}
        {groupMenus(hospital.menus).map(([group, items]) => (
          <View key={group} className='home__group'>
            <Text className='home__group-title'>{group}</Text>
            <View className='home__grid'>
              {items.map((m) => (
                <View key={m.url} className='home__entry' onClick={() => openPage(m.url)}>
                  <View className={`home__icon home__icon--${m.icon}`}>{m.name.slice(0, 1)}</View>
                  <Text className='home__entry-name'>{m.name}</Text>
                </View>
              ))}
            </View>
          </View>
        ))}
        {hospital.main && hospitals.length > 0 && (
          <View className='home__group'>
            <Text className='home__group-title'>合作医院</Text>
            {hospitals.map((item) => (
              <View
                key={item.hospitalCode}
                className='home__hospital'
                onClick={() => void hospital.switchTo(item.hospitalCode)}
              >
                <Text className='home__hospital-name'>{item.hospitalName}</Text>
                <Text className='home__hospital-meta'>
                  {item.level} · {item.address}
                </Text>
              </View>
            ))}
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(HomePage)
