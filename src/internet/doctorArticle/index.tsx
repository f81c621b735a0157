import { useState } from 'react'
import { useReachBottom, useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import ArticleList from '@/components/ArticleList'
import { useStores } from '@/stores'
import { PagedList } from '@/stores/base/PagedList'
import type { ArticleSummary } from '../../../types/api/hospital'

const PAGE_SIZE = 10

/**
 * 医生文章 (spec §2 /internet/doctorArticle/index?doctorId&name, from the doctor's home): what one doctor wrote, newest
 * first, each opening the article page that 健康知识 uses.
 */
function DoctorArticles() {
  const { hospital } = useStores()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const name = params.name ? decodeURIComponent(params.name) : ''
  const [list] = useState(
    () => new PagedList<ArticleSummary>((q) => hospital.listDoctorArticles(doctorId, q), PAGE_SIZE, { canLoad: () => Number.isInteger(doctorId) && doctorId > 0 }),
  )

  useReachBottom(() => void list.loadMore())

  return (
    <PageShell title={name ? `${name}的文章` : '医生文章'} onReady={() => list.loadMore()}>
      {!(doctorId > 0) ? (
        <Empty text='未找到该医生' />
      ) : list.empty ? (
        <Empty text='医生暂未发表文章' />
      ) : (
        <ArticleList articles={list.items} state={list.state} onMore={() => void list.loadMore(true)} />
      )}
    </PageShell>
  )
}

export default observer(DoctorArticles)
