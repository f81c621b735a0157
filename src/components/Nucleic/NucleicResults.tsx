import { useEffect, useRef } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { localTime } from '@/utils/register'
import { nucleicResultText } from '@/utils/medtech'
import type { NucleicResult } from '../../../types/api/medtech'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useNucleicStore } from '@/stores/NucleicStore'

/** One test's result in words (阴性 / 阳性 said, never colour alone), with its sampling and report times. */
export function NucleicResultCard({ r }: { r: NucleicResult }) {
  return (
    <>
      <View className='nucleic__kind-head'>
        <Text className='nucleic__kind-name'>{r.kindName}</Text>
        <Text className={`nucleic__result${r.result ? ` nucleic__result--${r.result === '阴性' ? 'negative' : 'positive'}` : ''}`}>{r.result ?? r.statusText}</Text>
      </View>
      <Text className='nucleic__line'>{`检测结果：${nucleicResultText(r.result)}`}</Text>
      <Text className='nucleic__line'>{`就诊人：${r.patientName}`}</Text>
      <Text className='nucleic__line'>{`条码号：${r.sampleNo}`}</Text>
      {r.sampledAt && <Text className='nucleic__line'>{`采样时间：${localTime(r.sampledAt)}`}</Text>}
      {r.reportedAt && <Text className='nucleic__line'>{`报告时间：${localTime(r.reportedAt)}`}</Text>}
    </>
  )
}

/**
 * 核酸检测结果 (spec §2 /palm/nucleic/result, /palm/report/nucleic/index, a hospital's own /nucleic/result): the
 * chosen patient's tests at the hospital, newest first, each with its result once released. With `detailUrl` each
 * opens its own page (the reports' /palm/report/nucleic/result).
 */
function NucleicResults({ title, detailUrl }: { title: string; detailUrl?: (r: NucleicResult) => string }) {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useNucleicStore()
  const shownFor = useRef<number | null | undefined>(undefined)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    await store.loadResults()
  }
  useEffect(() => {
    if (shownFor.current === undefined || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.loadResults()
  }, [current?.id, store])

  const body = () => {
    if (!current) return null
    const results = store.results.value?.filter((r) => r.patientId === current.id)
    if (!results && store.results.state === 'failed') return <LoadFailed onRetry={() => void store.loadResults()} />
    if (!results) return <Loading />
    if (!results.length) return <Empty text='暂无核酸检测结果' />
    return results.map((r) =>
      detailUrl ? (
        <Tappable key={r.sampleNo} role='link' className='nucleic__card' onTap={() => void Taro.navigateTo({ url: detailUrl(r) })}>
          <NucleicResultCard r={r} />
        </Tappable>
      ) : (
        <View key={r.sampleNo} className='nucleic__card'>
          <NucleicResultCard r={r} />
        </View>
      ),
    )
  }

  return (
    <PageShell title={title} onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='nucleic'>
          <View className='nucleic__card'>
            <Text className='nucleic__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(NucleicResults)
