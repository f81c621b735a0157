import Taro from '@tarojs/taro'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import { HOME_URL } from '@/pageUrls'

/** spec §8: where envelope code 2999 leads. */
export default function Permission() {
  return (
    <PageShell title='暂无权限'>
      <Empty text='暂无权限访问该内容' action={{ label: '返回首页', onTap: () => void Taro.reLaunch({ url: HOME_URL }) }} />
    </PageShell>
  )
}
