import { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { LevelStars } from '@/components/OnlineDoctorCard'
import EvaluationItem from '@/components/EvaluationItem'
import Tappable from '@/components/Tappable'

import { MSG } from '@/ui/messages'
import { assetUrl } from '@/ui/assets'
import './index.scss'
import { moreEvaluationUrl } from '@/pageUrls'
import { useEvaluationStore } from '@/stores/EvaluationStore'

/**
 * 医生评分 (spec §2 /internet/score/index?doctorId=): the doctor's service level as stars (spec §3), 好评率, how many
 * ratings and how often each tag was chosen, the two newest ratings and 查看全部评价.
 */
function ScorePage() {
  const store = useEvaluationStore()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const doctor = store.doctor.value?.id === doctorId ? store.doctor.value : null
  const list = store.evaluations
  const summary = store.evaluationsFor === doctorId ? store.summary : null
  const load = () => (doctorId ? Promise.all([store.loadDoctor(doctorId), store.openDoctorEvaluations(doctorId)]) : undefined)

  const body = () => {
    if (!doctorId) return <Empty text='未找到该医生' />
    if (!doctor && store.doctor.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!doctor) return <Loading />
    return (
      <View className='score'>
        <View className='score__doctor'>
          <Image className='score__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
          <View>
            <Text className='score__name'>{doctor.doctorName}</Text>
            <Text className='score__title'>{doctor.title}</Text>
            <Text className='score__dept'>
              {doctor.hospitalName} · {doctor.deptName}
            </Text>
          </View>
        </View>
        <View className='score__card'>
          <View className='score__level'>
            <Text className='score__label'>服务等级</Text>
            <LevelStars level={doctor.level} />
          </View>
          <View className='score__figures'>
            <View className='score__figure'>
              <Text className='score__figure-value'>{`${summary?.goodRate ?? doctor.goodRate}%`}</Text>
              <Text className='score__figure-label'>好评率</Text>
            </View>
            <View className='score__figure'>
              <Text className='score__figure-value'>{summary ? String(summary.count) : '-'}</Text>
              <Text className='score__figure-label'>评价数</Text>
            </View>
          </View>
          {summary && summary.tags.length > 0 && (
            <View className='score__tags' aria-label='评价标签'>
              {summary.tags.map((t) => (
                <Text key={t.tag} className='score__tag'>{`${t.tag} ${t.count}`}</Text>
              ))}
            </View>
          )}
        </View>
        <View className='score__card'>
          <View className='score__head'>
            <Text className='score__heading'>患者评价</Text>
            {list.items.length > 0 && (
              <Tappable className='score__link' role='link' onTap={() => openPage(moreEvaluationUrl(doctorId))}>
                查看全部评价
              </Tappable>
            )}
          </View>
          {list.state === 'failed' && list.items.length === 0 ? (
            <Tappable inline className='score__note' onTap={() => void store.openDoctorEvaluations(doctorId)}>
              {MSG.listFailed}，点击重试
            </Tappable>
          ) : list.state === 'loading' && list.items.length === 0 ? (
            <Text className='score__note'>{MSG.listLoading}</Text>
          ) : list.items.length === 0 ? (
            <Text className='score__note'>暂无评价</Text>
          ) : (
            store.newest.map((e) => <EvaluationItem key={e.id} evaluation={e} />)
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title='医生评分' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(ScorePage)
