import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import PageShell from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { ABOUT_TOPICS, APP_VERSION } from './topics'
import './index.scss'
import { aboutTopicUrl } from '@/pageUrls'

/** More: about, agreements and the version. */
export default function About() {
  return (
    <PageShell title='更多'>
      <View className='about'>
        {ABOUT_TOPICS.map((t) => (
          <Tappable key={t.key} role='link' label={t.title} onTap={() => void Taro.navigateTo({ url: aboutTopicUrl(t.key) })}>
            <Cell title={t.title} extra='›' />
          </Tappable>
        ))}
        <Text className='about__version'>
          版本 {APP_VERSION.name}（{APP_VERSION.code}）
        </Text>
      </View>
    </PageShell>
  )
}
