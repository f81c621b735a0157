import { useState } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import type { ArticleSummary } from '../../../../types/api/hospital'
import './index.scss'
import { knowledgeArticleUrl } from '@/pageUrls'

const PAGE_SIZE = 10

type ListState = 'idle' | 'loading' | 'done' | 'failed'

/** Health knowledge: the hospital's and the platform's articles, newest first, loading more at the bottom. */
function Knowledge() {
  const { hospital } = useStores()
  const [articles, setArticles] = useState<ArticleSummary[]>([])
  const [page, setPage] = useState(0)
  const [state, setState] = useState<ListState>('idle')

  const loadMore = async () => {
    if (state === 'loading' || state === 'done') return
    setState('loading')
    try {
      const next = page + 1
      const res = await hospital.listArticles({ page: next, size: PAGE_SIZE })
      setArticles((a) => [...a, ...res.records])
      setPage(next)
      setState(next * PAGE_SIZE >= res.total ? 'done' : 'idle')
    } catch {
      setState('failed')
    }
  }

  useReachBottom(() => void loadMore())

  return (
    <PageShell title='健康知识' tab onReady={loadMore}>
      {state === 'done' && articles.length === 0 ? (
        <Empty text='暂无健康知识文章' />
      ) : (
        <View className='knowledge'>
          {articles.map((a) => (
            <Tappable key={a.id} className='knowledge__item' onTap={() => void Taro.navigateTo({ url: knowledgeArticleUrl(a.id) })}>
              <Text className='knowledge__title'>{a.title}</Text>
              <Text className='knowledge__summary'>{a.summary}</Text>
              <Text className='knowledge__meta'>
                {a.category} · {a.author} · {a.views}次阅读
              </Text>
            </Tappable>
          ))}
          <Tappable className='knowledge__more' onTap={state === 'failed' ? () => void loadMore() : undefined}>
            {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(Knowledge)
