import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { hospitalToday } from '@/utils/hospitalClock'
import { useRecharge } from '../../pages/order/recharge/useRecharge'
import { INPATIENT_DEPOSIT_URL, INPATIENT_RECHARGE_URL, INPATIENT_RECORDS_URL, dailyBillUrl, escortUrl, settlementResultUrl } from '@/pageUrls'
import { stayDays } from '@/utils/settlementRules'
import { LowDepositWarning, StayEntries, StayMoney, StayRow, useStayLoader } from './StayParts'
import type { InpatientView } from '../../../types/api/palm'
import { bedText } from '../../pages/order/recharge/useRecharge'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/** The hospital's calendar date of an instant (Asia/Shanghai). */
const dateOf = (iso: string) => hospitalToday(new Date(iso))

/** Days in hospital so far, or of the whole stay once discharged (算入不算出). */
const daysOf = (stay: InpatientView) => stayDays(dateOf(stay.admittedAt), stay.dischargedAt ? dateOf(stay.dischargedAt) : hospitalToday(new Date()))

/**
 * 住院服务 (spec §2 /palm/hospitalization/index): the chosen patient's current stay (ward, bed, doctor, admission and
 * days, deposits, costs, balance), the low-deposit warning in words, the discharge settlement once discharged, and
 * the ways on: 预交金充值, 每日清单, 充值记录, 陪护人.
 */
function Hospitalization() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useRecharge('inpatient')
  const { load } = useStayLoader(store)
  const current = patients.current

  const go = (url: string) => void Taro.navigateTo({ url })

  const stayCard = () => {
    if (!current) return null
    const stay = store.stay.value?.patientId === current.id ? store.stay.value : null
    if (!stay && store.stay.state === 'failed') return <LoadFailed onRetry={() => void store.loadPatient()} />
    if (!stay && store.stay.state === 'done') return <Empty text='该就诊人暂无住院信息' />
    if (!stay) return <Loading />
    const discharged = stay.status === 'discharged'
    return (
      <>
        {stay.lowDeposit && <LowDepositWarning warning={stay.warning} />}
        <View className='inpatient__card'>
          <View className='inpatient__head'>
            <Text className='inpatient__name'>{stay.patientName}</Text>
            <Text className={`inpatient__state inpatient__state--${stay.status}`}>{discharged ? '已出院' : '在院'}</Text>
          </View>
          <StayRow label='住院号' value={stay.admissionNo} />
          <StayRow label='科室' value={stay.deptName} />
          <StayRow label='病区床位' value={`${stay.ward} ${bedText(stay.bed)}`} />
          <StayRow label='主治医生' value={stay.doctorName} />
          <StayRow label='入院日期' value={dateOf(stay.admittedAt)} />
          {stay.dischargedAt && <StayRow label='出院日期' value={dateOf(stay.dischargedAt)} />}
          <StayRow label='住院天数' value={`${daysOf(stay)}天`} />
        </View>
        <View className='inpatient__card'>
          <StayMoney
            items={[
              { label: '已缴预交金', fen: stay.depositFen },
              { label: '已产生费用', fen: stay.costFen },
              { label: discharged ? '结算余额' : '预交金余额', fen: stay.balanceFen, warn: stay.lowDeposit || stay.balanceFen < 0 },
            ]}
          />
          {!discharged && stay.averageDailyFen > 0 && <Text className='inpatient__note'>近日日均费用{yuan(stay.averageDailyFen)}</Text>}
        </View>
        {discharged && stay.settlement && (
          <View className='inpatient__card'>
            <Text className='inpatient__heading'>出院结算</Text>
            {stay.settlement.owedFen > 0 ? (
              <Text className='inpatient__settle inpatient__settle--owed'>需补缴 {yuan(stay.settlement.owedFen)}，请到住院收费处办理</Text>
            ) : (
              <Text className='inpatient__settle'>
                {stay.settlement.returnedFen > 0 ? `预交金余额 ${yuan(stay.settlement.returnedFen)} 已退还` : '已结清，无需补缴'}
              </Text>
            )}
          </View>
        )}
        <StayEntries
          entries={[
            ...(discharged
              ? [{ title: '出院结算单', note: '费用分类、预交金与退补款', onTap: () => go(settlementResultUrl(stay.patientId, stay.admissionNo)) }]
              : [{ title: '住院预交金', note: '预交金余额与在线充值', onTap: () => go(INPATIENT_DEPOSIT_URL) }]),
            { title: '每日清单', note: '查看每日住院费用明细', onTap: () => go(dailyBillUrl()) },
            { title: '充值记录', note: '住院预交金缴纳记录', onTap: () => go(INPATIENT_RECORDS_URL) },
            ...(discharged ? [] : [{ title: '陪护人', note: '登记陪护人', onTap: () => go(escortUrl(stay.patientId)) }]),
          ]}
        />
        {!discharged && (
          <View className='inpatient__action'>
            <Button type='primary' block onClick={() => go(INPATIENT_RECHARGE_URL)}>
              预交金充值
            </Button>
          </View>
        )}
      </>
    )
  }

  return (
    <PageShell title='住院服务' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='inpatient'>
          <View className='inpatient__card'>
            <Text className='inpatient__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {stayCard()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(Hospitalization)
