import { useReachBottom, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import EvaluationItem from '@/components/EvaluationItem'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'
import './index.scss'
import { useEvaluationStore } from '@/stores/EvaluationStore'

/**
 * 全部评价 (spec §2 /internet/moreEvaluation/index?doctorId=): the count, 好评率 and how often each tag was chosen, then
 * every rating from the newest, a page at a time (spec §8 加载中... / 没有更多了 / 加载失败).
 */
function MoreEvaluation() {
  const store = useEvaluationStore()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const list = store.evaluations
  const summary = store.evaluationsFor === doctorId ? store.summary : null
  useReachBottom(() => void list.loadMore())
  const load = () => (doctorId ? store.openDoctorEvaluations(doctorId) : undefined)

  const body = () => {
    if (!doctorId) return <Empty text='未找到该医生' />
    if (list.state === 'failed' && list.items.length === 0) return <LoadFailed onRetry={() => void list.loadMore(true)} />
    return (
      <View className='more-evaluation'>
        {summary && summary.count > 0 && (
          <View className='more-evaluation__summary'>
            <View className='more-evaluation__figures'>
              <Text className='more-evaluation__figure'>{`好评率 ${summary.goodRate}%`}</Text>
              <Text className='more-evaluation__figure'>{`共${summary.count}条评价`}</Text>
            </View>
            {summary.tags.length > 0 && (
              <View className='more-evaluation__tags' aria-label='评价标签'>
                {summary.tags.map((t) => (
                  <Text key={t.tag} className='more-evaluation__tag'>{`${t.tag} ${t.count}`}</Text>
                ))}
              </View>
            )}
          </View>
        )}
        {list.state === 'done' && list.items.length === 0 ? (
          <Empty text='暂无评价' />
        ) : (
          <View className='more-evaluation__list'>
            {list.items.map((e) => (
              <EvaluationItem key={e.id} evaluation={e} />
            ))}
            <Tappable className='more-evaluation__more' onTap={() => void list.loadMore(true)}>
              {list.state === 'loading' ? MSG.listLoading : list.state === 'done' ? MSG.listNoMore : list.state === 'failed' ? MSG.listFailed : MSG.loadMore}
            </Tappable>
          </View>
        )}
      </View>
    )
  }

  return (
    <PageShell title='患者评价' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(MoreEvaluation)
