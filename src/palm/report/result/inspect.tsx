import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { Button } from '@/components/Button'
import { pacsRedirectUrl } from '@/pageUrls'
import ReportHead from '../ReportHead'
import FhirExport from '../FhirExport'
import '../report.scss'
import { useReportStore } from '@/stores/ReportStore'

/**
 * 检查报告单 (spec §2 /palm/report/result/inspect?id=): an examination's findings (检查所见) and impression (诊断意见),
 * and its cloud film (云影像) when the study is online.
 */
function Inspect() {
  const reports = useReportStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const r = reports.imaging.value?.id === id ? reports.imaging.value : null
  const load = async () => {
    if (id > 0) await reports.imaging.load(id).catch(() => undefined)
  }
  const body = () => {
    if (!(id > 0)) return <Empty text='未找到该报告' />
    if (!r && reports.imaging.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    return (
      <View>
        <ReportHead r={r} extra={[['检查类型', r.modality], ['检查部位', r.examPart], ['检查设备', r.device]]} />
        <View className='report-section'>
          <Text className='report-section__title'>检查所见</Text>
          <Text className='report-section__text'>{r.findings || '无'}</Text>
        </View>
        <View className='report-section'>
          <Text className='report-section__title'>诊断意见</Text>
          <Text className='report-section__text'>{r.impression || '无'}</Text>
          <Text className='report-section__hint'>报告仅供参考，请结合临床，如有疑问请咨询医生</Text>
        </View>
        {r.hasImages && (
          <View className='report-actions'>
            <Button type='primary' block onClick={() => void Taro.navigateTo({ url: pacsRedirectUrl(r.id) })}>
              查看云影像
            </Button>
          </View>
        )}
        <FhirExport />
      </View>
    )
  }
  return (
    <PageShell title='检查报告单' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(Inspect)
