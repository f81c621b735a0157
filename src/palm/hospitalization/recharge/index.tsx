import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { fenToYuan } from '@/utils/number'
import { yuan } from '@/utils/register'
import { useRecharge, bedText } from '../../../pages/order/recharge/useRecharge'
import { INPATIENT_RECORDS_URL, dailyBillUrl, inpatientRechargeUrl, settlementResultUrl } from '@/pageUrls'
import { LowDepositWarning, StayEntries, StayMoney, StayRow, useStayLoader } from '../StayParts'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 住院预交金 (spec §2 /palm/hospitalization/recharge/index): the deposit of the chosen patient's current stay (paid,
 * costs so far, balance, the low-deposit warning), the hospital's top-up amounts (recharge/amount), each opening
 * 预交金充值 with it chosen, and the ways on: 充值记录, 每日清单, and once discharged 出院结算单.
 */
function InpatientDeposit() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useRecharge('inpatient')
  const { load } = useStayLoader(store, () => store.loadAmounts())
  const current = patients.current

  const go = (url: string) => void Taro.navigateTo({ url })

  const body = () => {
    if (!current) return null
    const stay = store.stay.value?.patientId === current.id ? store.stay.value : null
    if (!stay && store.stay.state === 'failed') return <LoadFailed onRetry={() => void store.loadPatient()} />
    if (!stay && store.stay.state === 'done') return <Empty text='该就诊人暂无住院信息，无需缴纳住院预交金' />
    if (!stay) return <Loading />
    const inHospital = stay.status === 'in'
    return (
      <>
        {stay.lowDeposit && <LowDepositWarning warning={stay.warning} />}
        <View className='deposit__card'>
          <Text className='deposit__heading'>{inHospital ? '预交金余额' : '结算余额'}</Text>
          <Text className={`deposit__balance${stay.balanceFen < 0 || stay.lowDeposit ? ' deposit__balance--warn' : ''}`}>{yuan(stay.balanceFen)}</Text>
          <StayMoney
            items={[
              { label: '已缴预交金', fen: stay.depositFen },
              { label: '已产生费用', fen: stay.costFen },
              ...(inHospital && stay.averageDailyFen > 0 ? [{ label: '近日日均费用', fen: stay.averageDailyFen }] : []),
            ]}
          />
        </View>
        <View className='deposit__card'>
          <StayRow label='住院人' value={stay.patientName} />
          <StayRow label='住院号' value={stay.admissionNo} />
          <StayRow label='病区床位' value={`${stay.ward} ${bedText(stay.bed)}`} />
        </View>
        {inHospital ? (
          <View className='deposit__card'>
            <Text className='deposit__heading' id='deposit-amounts'>
              选择充值金额
            </Text>
            {!store.amounts.value && store.amounts.state === 'failed' ? (
              <LoadFailed onRetry={() => void store.loadAmounts()} />
            ) : !store.amounts.value ? (
              <Loading />
            ) : (
              <View className='deposit__amounts' role='group' aria-labelledby='deposit-amounts'>
                {store.choices.map((fen) => (
                  <Tappable key={fen} role='link' className='deposit__amount' label={`充值${fenToYuan(fen).replace(/\.00$/, '')}元`} onTap={() => go(inpatientRechargeUrl(fen))}>
                    <Text className='deposit__amount-value'>{fenToYuan(fen).replace(/\.00$/, '')}</Text>
                    <Text className='deposit__amount-unit'>元</Text>
                  </Tappable>
                ))}
              </View>
            )}
            <Button className='deposit__other' type='primary' block onClick={() => go(inpatientRechargeUrl())}>
              预交金充值
            </Button>
          </View>
        ) : (
          <View className='deposit__card'>
            <Text className='deposit__note'>该住院已出院结算，无需缴纳住院预交金</Text>
          </View>
        )}
        <StayEntries
          entries={[
            ...(inHospital ? [] : [{ title: '出院结算单', note: '费用分类、预交金与退补款', onTap: () => go(settlementResultUrl(stay.patientId, stay.admissionNo)) }]),
            { title: '充值记录', note: '住院预交金缴纳记录', onTap: () => go(INPATIENT_RECORDS_URL) },
            { title: '每日清单', note: '查看每日住院费用明细', onTap: () => go(dailyBillUrl()) },
          ]}
        />
      </>
    )
  }

  return (
    <PageShell title='住院预交金' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='deposit'>
          <View className='deposit__card'>
            <Text className='deposit__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(InpatientDeposit)
