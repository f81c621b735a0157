import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ReportHead from '../ReportHead'
import FhirExport from '../FhirExport'
import '../report.scss'
import { useReportStore } from '@/stores/ReportStore'

/** 病理报告单 (spec §2 /palm/report/pathology/inspect?id=): the specimen, what was seen, and the pathological diagnosis. */
function PathologyInspect() {
  const reports = useReportStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const r = reports.pathology.value?.id === id ? reports.pathology.value : null
  const load = async () => {
    if (id > 0) await reports.pathology.load(id).catch(() => undefined)
  }
  const body = () => {
    if (!(id > 0)) return <Empty text='未找到该报告' />
    if (!r && reports.pathology.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    if (r.kind !== 'pathology') return <Empty text='该报告不是病理报告' />
    return (
      <View>
        <ReportHead r={r} extra={[['标本', r.specimen]]} />
        <View className='report-section'>
          <Text className='report-section__title'>肉眼及镜下所见</Text>
          <Text className='report-section__text'>{r.description || '无'}</Text>
        </View>
        <View className='report-section'>
          <Text className='report-section__title'>病理诊断</Text>
          <Text className='report-section__text'>{r.diagnosis || '无'}</Text>
          <Text className='report-section__hint'>病理诊断请由您的主治医生解读</Text>
        </View>
        <FhirExport />
      </View>
    )
  }
  return (
    <PageShell title='病理报告单' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(PathologyInspect)
