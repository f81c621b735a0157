import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { openPage } from '@/components/PageShell'
import EvaluationItem from '@/components/EvaluationItem'
import Tappable from '@/components/Tappable'

import { MSG } from '@/ui/messages'
import './EvaluationSection.scss'
import { moreEvaluationUrl } from '@/pageUrls'
import { useEvaluationStore } from '@/stores/EvaluationStore'

/** 患者评价 on the doctor's home: 好评率, how many ratings, the two newest, and 查看全部 (all ratings). */
function EvaluationSection({ doctorId }: { doctorId: number }) {
  const store = useEvaluationStore()
  const list = store.evaluations
  if (store.evaluationsFor !== doctorId) return null
  const summary = store.summary
  return (
    <View className='online-doctor__section doctor-evaluations' aria-label='患者评价'>
      <View className='doctor-evaluations__head'>
        <Text className='doctor-evaluations__heading'>患者评价</Text>
        {list.items.length > 0 && (
          <Tappable className='doctor-evaluations__link' role='link' onTap={() => openPage(moreEvaluationUrl(doctorId))}>
            查看全部
          </Tappable>
        )}
      </View>
      {/* no rating yet: the list says 暂无评价, and a rate beside 共0条评价 would contradict it */}
      {summary && summary.count > 0 && <Text className='doctor-evaluations__summary'>{`好评率 ${summary.goodRate}% · 共${summary.count}条评价`}</Text>}
      {list.state === 'failed' && list.items.length === 0 ? (
        <Tappable inline className='doctor-evaluations__note' onTap={() => void store.openDoctorEvaluations(doctorId)}>
          {MSG.listFailed}，点击重试
        </Tappable>
      ) : list.state === 'loading' && list.items.length === 0 ? (
        <Text className='doctor-evaluations__note'>{MSG.listLoading}</Text>
      ) : list.items.length === 0 ? (
        <Text className='doctor-evaluations__note'>暂无评价</Text>
      ) : (
        store.newest.map((e) => <EvaluationItem key={e.id} evaluation={e} />)
      )}
    </View>
  )
}

export default observer(EvaluationSection)
