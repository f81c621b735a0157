import Taro from '@tarojs/taro'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import { HOME_URL } from '@/pageUrls'

/**
 * Where an address that is no page of this build leads (app.tsx: Taro's onPageNotFound, in H5 and the mini-programs
 * alike), instead of a loading placeholder that never ends: it says so and offers the way home.
 */
export default function NotFound() {
  return (
    <PageShell title='页面不存在'>
      <Empty failed text='您访问的页面不存在或已下线' action={{ label: '返回首页', onTap: () => void Taro.reLaunch({ url: HOME_URL }) }} />
    </PageShell>
  )
}
