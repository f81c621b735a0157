import { Swiper, SwiperItem } from '@tarojs/components'
import Banner, { BANNER_INTERVAL_MS } from './Banner'
import type { AdBanner } from '../../../types/api/hospital'

/** The mini-programs' banners: their own native swiper, which costs the package nothing (H5 has Banners.tsx). */
export default function Banners({ banners }: { banners: AdBanner[] }) {
  return (
    <Swiper className='home__banners' autoplay circular indicatorDots interval={BANNER_INTERVAL_MS}>
      {banners.map((b) => (
        <SwiperItem key={b.id}>
          <Banner banner={b} />
        </SwiperItem>
      ))}
    </Swiper>
  )
}
