import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import PageShell from '@/components/PageShell'
import './index.scss'

/** spec §9: app version 1.0.0, version code 100. */
export const APP_VERSION = { name: '1.0.0', code: 100 }

export const ABOUT_TOPICS = [
  { key: 'about', title: '关于我们' },
  { key: 'userAgreement', title: '用户协议' },
  { key: 'privacyPolicy', title: '隐私政策' },
]

/** More: about, agreements and the version. */
export default function About() {
  return (
    <PageShell title='更多'>
      <View className='about'>
        {ABOUT_TOPICS.map((t) => (
          <Cell key={t.key} title={t.title} extra='›' onClick={() => void Taro.navigateTo({ url: `/pages/about/rich?key=${t.key}` })} />
        ))}
        <Text className='about__version'>
          版本 {APP_VERSION.name}（{APP_VERSION.code}）
        </Text>
      </View>
    </PageShell>
  )
}
