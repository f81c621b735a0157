import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { queryText } from '@/utils/queryText'
import { hospitalToday } from '@/utils/hospitalClock'
import { useRecharge, bedText } from '../../../pages/order/recharge/useRecharge'
import { StayMoney, StayRow } from '../StayParts'
import './result.scss'

const dateOf = (iso: string) => hospitalToday(new Date(iso))

/**
 * 出院结算 (spec §2 /palm/hospitalization/settlement/result?patientId=&admissionNo=): the settlement of one of the caller's
 * patients' finished stays, from the HIS: the costs in all and per category, the deposits paid, and the balance
 * returned (and how it goes back) or still owed.
 */
function SettlementResult() {
  const { hospital } = useStores()
  const { params } = useRouter()
  const admissionNo = queryText(params.admissionNo)
  const patientId = Number(params.patientId)
  const store = useRecharge('inpatient')
  const load = () => store.loadSettlement(patientId, admissionNo)

  const body = () => {
    if (!admissionNo || !Number.isInteger(patientId) || patientId <= 0) return <Empty text='未找到住院记录' />
    const s = store.settlement.value
    if (!s && store.settlement.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!s) return <Loading />
    const owed = s.owedFen > 0
    return (
      <>
        <View className={`settle__status${owed ? ' settle__status--owed' : ''}`} role='status'>
          <Text className='settle__status-text'>{owed ? `需补缴 ${yuan(s.owedFen)}` : s.returnedFen > 0 ? `退还 ${yuan(s.returnedFen)}` : '已结清'}</Text>
          <Text className='settle__status-note'>
            {owed ? '预交金不足以支付住院费用，请到住院收费处补缴' : s.returnedFen > 0 ? '预交金余额已办理退还' : '住院费用已由预交金结清，无需补缴'}
          </Text>
        </View>
        <View className='settle__card'>
          <StayMoney
            items={[
              { label: '住院总费用', fen: s.costFen },
              { label: '已缴预交金', fen: s.depositFen },
              owed ? { label: '需补缴', fen: s.owedFen, warn: true } : { label: '退还金额', fen: s.returnedFen },
            ]}
          />
        </View>
        {s.returns.length > 0 && (
          <View className='settle__card' role='group' aria-label='退款方式'>
            <Text className='settle__heading'>退款方式</Text>
            {s.returns.map((r) => (
              <StayRow key={`${r.way}-${r.channel}`} label={r.text} value={yuan(r.amountFen)} />
            ))}
            <Text className='settle__note'>原路退回的款项一般1-7个工作日到账</Text>
          </View>
        )}
        <View className='settle__card' role='group' aria-label='费用分类'>
          <Text className='settle__heading'>费用分类</Text>
          {s.categories.length === 0 ? (
            <Text className='settle__note'>本次住院无费用</Text>
          ) : (
            s.categories.map((c) => <StayRow key={c.category} label={c.name} value={yuan(c.amountFen)} />)
          )}
          <StayRow label='合计' value={yuan(s.costFen)} strong />
        </View>
        <View className='settle__card'>
          <Text className='settle__heading'>住院信息</Text>
          <StayRow label='住院人' value={s.patientName} />
          <StayRow label='住院号' value={s.admissionNo} />
          <StayRow label='科室' value={s.deptName} />
          <StayRow label='病区床位' value={`${s.ward} ${bedText(s.bed)}`} />
          <StayRow label='入院日期' value={dateOf(s.admittedAt)} />
          <StayRow label='出院日期' value={dateOf(s.dischargedAt)} />
          <StayRow label='住院天数' value={`${s.stayDays}天`} />
        </View>
      </>
    )
  }

  return <PageShell title='出院结算' onReady={load}>{!hospital.hospital ? <NoHospital /> : <View className='settle'>{body()}</View>}</PageShell>
}

export default observer(SettlementResult)
