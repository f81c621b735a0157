import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text, RichText } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import { useShare } from '@/platform'
import { knowledgeArticleUrl } from '@/pageUrls'
import { useStores } from '@/stores'
import type { Article } from '../../../../types/api/hospital'
import './index.scss'

export default function KnowledgeDetail() {
  const { params } = useRouter()
  const { hospital } = useStores()
  const [article, setArticle] = useState<Article | null>(null)
  // the article's card, which opens this page
  useShare(article && { title: article.title, path: knowledgeArticleUrl(article.id), summary: article.summary, image: article.cover })
  return (
    <PageShell title='健康知识' onReady={async () => setArticle(await hospital.getArticle(Number(params.id)))}>
      {article && (
        <View className='knowledge'>
          <View className='knowledge__item'>
            <Text className='knowledge__title'>{article.title}</Text>
            <Text className='knowledge__meta'>
              {article.author} · {article.publishedAt.slice(0, 10)} · {article.views}次阅读
            </Text>
          </View>
          <RichText className='knowledge__content' nodes={article.content} />
        </View>
      )}
    </PageShell>
  )
}
