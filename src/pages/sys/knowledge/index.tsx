import { useState } from 'react'
import { useReachBottom } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import ArticleList from '@/components/ArticleList'
import { useStores } from '@/stores'
import { PagedList } from '@/stores/base/PagedList'
import type { ArticleSummary } from '../../../../types/api/hospital'
import './index.scss'

const PAGE_SIZE = 10

/** Health knowledge: the hospital's and the platform's articles, newest first, loading more at the bottom. */
function Knowledge() {
  const { hospital } = useStores()
  const [list] = useState(() => new PagedList<ArticleSummary>((q) => hospital.listArticles(q), PAGE_SIZE))

  useReachBottom(() => void list.loadMore())

  return (
    <PageShell title='健康知识' tab onReady={() => list.loadMore()}>
      {list.empty ? <Empty text='暂无健康知识文章' /> : <ArticleList articles={list.items} state={list.state} onMore={() => void list.loadMore(true)} />}
    </PageShell>
  )
}

export default observer(Knowledge)
