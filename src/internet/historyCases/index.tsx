import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { diagnosisText } from '@/stores/RecordStore'
import { localTime } from '@/utils/register'
import type { MedicalHistoryItem } from '../../../types/api/medical'
import './index.scss'
import { medicalRecordUrl } from '@/pageUrls'
import { useRecordStore } from '@/stores/RecordStore'

/**
 * 历史病例 (spec §2 /internet/historyCases/index?patientId=): the patient's finished consultations with a medical
 * record, newest first; 选择 one to continue (the follow-up inquiry reads RecordStore.chosenCase on coming back), or
 * 查看病历 to read it.
 */
function HistoryCases() {
  const records = useRecordStore()
  const { params } = useRouter()
  const patientId = Number(params.patientId) || 0
  const cases = records.casesPatientId === patientId ? (records.cases.value ?? []) : []
  const state = records.casesPatientId === patientId ? records.cases.state : 'loading'

  const choose = (item: MedicalHistoryItem) => {
    records.chooseCase(item, patientId)
    void Taro.navigateBack()
  }

  const body = () => {
    if (!patientId) return <Empty text='请先选择就诊人' />
    if (state === 'failed') return <LoadFailed onRetry={() => void records.loadCases(patientId)} />
    if (state !== 'done') return <Loading />
    if (cases.length === 0) return <Empty text='暂无历史病例' />
    return (
      <View className='cases'>
        <Text className='cases__hint'>请选择本次复诊对应的既往诊断</Text>
        {cases.map((c) => {
          const chosen = records.chosenCase?.inquiryId === c.inquiryId && records.chosenCase.patientId === patientId
          return (
            <View key={c.inquiryId} className={`case-item${chosen ? ' case-item--chosen' : ''}`} aria-selected={chosen}>
              <Text className='case-item__diagnosis'>{diagnosisText(c)}</Text>
              <Text className='case-item__line'>
                {c.doctorName} · {c.deptName}
              </Text>
              <Text className='case-item__line'>{c.hospitalName}</Text>
              {c.finishedAt && <Text className='case-item__time'>问诊结束 {localTime(c.finishedAt)}</Text>}
              <View className='case-item__actions'>
                <Button size='small' onClick={() => void Taro.navigateTo({ url: medicalRecordUrl(c.inquiryNo) })}>
                  查看病历
                </Button>
                <Button size='small' type='primary' onClick={() => choose(c)}>
                  {chosen ? '已选择' : '选择'}
                </Button>
              </View>
            </View>
          )
        })}
      </View>
    )
  }

  return (
    <PageShell title='历史病例' onReady={() => (patientId ? records.loadCases(patientId) : undefined)}>
      {body()}
    </PageShell>
  )
}

export default observer(HistoryCases)
