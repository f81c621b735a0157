import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { ABOUT_TOPICS } from './topics'
import './index.scss'
import { brandHospitalsUrl } from '@/pageUrls'

/** The hospital list opened on one brand's tab. */

/**
 * About / agreements: the text the hospital configures under that key. Before any hospital is chosen (main mode)
 * the platform's texts are those of its first hospital, which runs the platform. 关于我们 of a hospital also names the
 * brand (医联体 / 集团) it belongs to (brand/hospitalInfo), with the way to its member hospitals.
 */
function AboutRich() {
  const { params } = useRouter()
  const { hospital } = useStores()
  const key = params.key ?? 'about'
  const [text, setText] = useState<string | null>(null)
  const hospitalCode = key === 'about' ? hospital.hospital?.hospitalCode : undefined
  const info = hospitalCode && hospital.brandInfo.value?.hospital.hospitalCode === hospitalCode ? hospital.brandInfo.value : null
  const load = () => {
    const code = key === 'about' ? hospital.hospital?.hospitalCode : undefined
    return Promise.all([
      hospital.textConfig(key).then(setText),
      // the brand is extra: without it the page still says what the hospital is
      code ? hospital.brandInfo.load(code).catch(() => undefined) : undefined,
    ])
  }
  return (
    <PageShell title={ABOUT_TOPICS.find((t) => t.key === key)?.title ?? '关于'} onReady={load}>
      {text ? <Text className='about__text'>{text}</Text> : text === '' && <Empty text='暂无内容' />}
      {info?.brand && (
        <View className='about__brand'>
          <Text className='about__brand-label'>所属医联体</Text>
          <Text className='about__brand-name'>{info.brand.name}</Text>
          {info.brand.intro && <Text className='about__brand-intro'>{info.brand.intro}</Text>}
          <Tappable role='link' className='about__brand-link' onTap={() => void Taro.navigateTo({ url: brandHospitalsUrl(info.brand!.id) })}>
            查看{info.brand.name}的医院和特色科室 ›
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(AboutRich)
