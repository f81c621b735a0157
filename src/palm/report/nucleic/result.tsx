import { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { NucleicResultCard } from '@/components/Nucleic/NucleicResults'
import '@/components/Nucleic/index.scss'
import { useNucleicStore } from '@/stores/NucleicStore'

/** 核酸报告详情 (spec §2 /palm/report/nucleic/result?sampleNo=&patientId=): one test's result, sampling and report times. */
function NucleicReport() {
  const store = useNucleicStore()
  const { params } = useRouter()
  const patientId = Number(params.patientId)
  const load = () => store.loadResults(patientId)
  const results = store.results.value
  const r = results?.find((x) => x.sampleNo === params.sampleNo && x.patientId === patientId)
  const body = () => {
    if (!results && store.results.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!results) return <Loading />
    if (!r) return <Empty text='未找到该核酸报告' />
    return (
      <View className='nucleic__card'>
        <NucleicResultCard r={r} />
      </View>
    )
  }
  return (
    <PageShell title='核酸报告' onReady={load}>
      <View className='nucleic'>{body()}</View>
    </PageShell>
  )
}

export default observer(NucleicReport)
