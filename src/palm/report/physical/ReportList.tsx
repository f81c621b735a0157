import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { localTime } from '@/utils/register'
import type { PhysicalStore } from '@/stores/PhysicalStore'
import { PHYSICAL_SELECT_URL, physicalReportUrl } from '@/pageUrls'
import './index.scss'

/** The chosen patient's physical-exam reports, newest first; one opens the report. */
function ReportList({ store }: { store: PhysicalStore }) {
  const list = store.reports.value
  if (!list && store.reports.state === 'failed') return <LoadFailed onRetry={() => void store.loadReports()} />
  if (!list) return <Loading />
  if (!list.length) return <Empty text='暂无体检报告' action={{ label: '预约体检', onTap: () => void Taro.navigateTo({ url: PHYSICAL_SELECT_URL }) }} />
  return (
    <View>
      {list.map((r) => (
        <Tappable key={r.examNo} className='physical-report__entry' onTap={() => void Taro.navigateTo({ url: physicalReportUrl(r) })}>
          <Text className='physical-report__name'>{r.packageName}</Text>
          <Text className='physical-report__line'>体检人：{r.patientName}</Text>
          <Text className='physical-report__line'>体检日期：{r.examDate}</Text>
          <Text className='physical-report__line'>报告时间：{localTime(r.reportedAt)}</Text>
        </Tappable>
      ))}
    </View>
  )
}

export default observer(ReportList)
