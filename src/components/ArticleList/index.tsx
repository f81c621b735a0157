import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Tappable from '../Tappable'
import type { LoadState } from '@/stores/base/Loadable'
import { MSG } from '@/ui/messages'
import { knowledgeArticleUrl } from '@/pageUrls'
import type { ArticleSummary } from '../../../types/api/hospital'
import './index.scss'

interface Props {
  articles: ArticleSummary[]
  state: LoadState
  /** Loads the next page; the more-line's tap after a failure. */
  onMore: () => void
}

/**
 * Articles newest first, each opening the article, with the more-line under them (spec §8 加载中... / 没有更多了 /
 * 加载失败): 健康知识 and a doctor's 医生文章.
 */
export default function ArticleList({ articles, state, onMore }: Props) {
  return (
    <View className='article-list'>
      {articles.map((a) => (
        <Tappable key={a.id} className='article-list__item' onTap={() => void Taro.navigateTo({ url: knowledgeArticleUrl(a.id) })}>
          <Text className='article-list__title'>{a.title}</Text>
          <Text className='article-list__summary'>{a.summary}</Text>
          <Text className='article-list__meta'>
            {a.category} · {a.author} · {a.views}次阅读
          </Text>
        </Tappable>
      ))}
      <Tappable className='article-list__more' onTap={state === 'failed' ? onMore : undefined}>
        {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
      </Tappable>
    </View>
  )
}
