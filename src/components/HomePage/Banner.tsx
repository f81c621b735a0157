import { View, Image } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { openPage } from '../PageShell'
import Tappable from '../Tappable'
import { webviewUrl } from '@/pageUrls'
import type { AdBanner } from '../../../types/api/hospital'

/** spec §9: swiper interval 3000 ms. */
export const BANNER_INTERVAL_MS = 3000

/** A banner's picture (its title as alt text) or, without one, its title; a tap opens its page, an https one in the web-view. */
export default function Banner({ banner }: { banner: AdBanner }) {
  const face = banner.image ? (
    <Image className='home__banner-image' src={banner.image} mode='aspectFill' imgProps={{ alt: banner.title }} />
  ) : (
    <View className='home__banner'>{banner.title}</View>
  )
  if (!banner.url) return face
  const open = () => (/^https:\/\//.test(banner.url) ? void Taro.navigateTo({ url: webviewUrl(banner.url) }) : openPage(banner.url))
  return (
    <Tappable className='home__banner-link' role='link' label={banner.title} onTap={open}>
      {face}
    </Tappable>
  )
}
