import { useEffect, type ReactNode } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import { Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import { maskName } from '@/utils/mask'
import { yuan } from '@/utils/register'
import BillItems from '../../pages/order/payment/BillItems'
import { afterPay } from '../../pages/order/payment/afterPay'
import { ACCOUNT_RECHARGE_URL, billChsPaymentUrl } from '@/pageUrls'
import './MergeConfirm.scss'
import { useBillStore } from '@/stores/BillStore'

/**
 * 确认缴费 of the bills chosen in the bill store (shared by /palm/payment/mergeList and /deptMergeList): the patient,
 * each bill with its items, how to pay (online, the hospital-card balance, insurance where taken) and the total, paid
 * together as one order through payment/init. `empty` shows while nothing is chosen.
 */
function MergeConfirm({ empty }: { empty: ReactNode }) {
  const bills = useBillStore()
  const chosen = bills.chosen
  const patient = bills.patient

  const chosenKey = bills.selected.join()
  useEffect(() => {
    for (const no of chosenKey.split(',').filter(Boolean)) void bills.loadDetail(no)
  }, [chosenKey, bills])
  const patientId = patient?.id
  useEffect(() => {
    if (patientId) void bills.loadBalance()
  }, [patientId, bills])
  const balance = bills.balance.value?.patientId === patientId ? bills.balance.value : null

  const pay = async () => {
    const viaInsurance = bills.payChannel === 'insurance'
    const result = await bills.payChosen().catch(() => null) // the request layer has shown the server's reason
    // insurance: the voucher, the split and the cash part on the chsPayment page
    if (result && viaInsurance) void Taro.redirectTo({ url: billChsPaymentUrl(result.id) })
    else afterPay(result)
  }

  const body = () => {
    if (!chosen.length || !patient) return empty
    return (
      <View className='merge'>
        <View className='merge__card'>
          <View className='merge__row'>
            <Text className='merge__label'>就诊人</Text>
            <Text>{maskName(patient.name)}</Text>
          </View>
          <View className='merge__row'>
            <Text className='merge__label'>缴费项目</Text>
            <Text>{chosen.length}项</Text>
          </View>
        </View>
        {chosen.map((b) => {
          const detail = bills.detailOf(b.billNo)
          return (
            <View key={b.billNo} className='merge__card'>
              <View className='merge__head'>
                <Text className='merge__title'>{b.title}</Text>
                <Text className='merge__amount'>{yuan(b.amountFen)}</Text>
              </View>
              <Text className='merge__line'>
                {b.visit.deptName}　{b.visit.doctorName}　{b.visit.visitDate}
              </Text>
              {b.place && <Text className='merge__line'>执行地点：{b.place}</Text>}
              {detail.value ? (
                <BillItems items={detail.value.items} />
              ) : detail.state === 'failed' ? (
                <Tappable inline className='merge__retry' onTap={() => void bills.loadDetail(b.billNo)}>
                  明细加载失败，点击重试
                </Tappable>
              ) : (
                <Loading />
              )}
            </View>
          )
        })}
        <View className='merge__card' role='radiogroup' aria-label='支付方式'>
          <Text className='merge__label'>支付方式</Text>
          <Tappable role='radio' row checked={bills.payChannel === 'cashier'} className='merge__channel' onTap={() => bills.chooseChannel('cashier')}>
            <Text>在线支付</Text>
            <Text className='merge__line'>微信或支付宝</Text>
          </Tappable>
          <Tappable
            role='radio'
            row
            checked={bills.payChannel === 'account'}
            disabled={!bills.balanceCovers}
            className='merge__channel'
            onTap={() => bills.chooseChannel('account')}
          >
            <Text>就诊卡余额</Text>
            <Text className='merge__line'>
              {balance ? `余额${yuan(balance.balanceFen)}${bills.balanceCovers ? '' : '，不足以支付'}` : '余额查询中'}
            </Text>
          </Tappable>
          {bills.insuranceOffered && (
            <Tappable role='radio' row checked={bills.payChannel === 'insurance'} className='merge__channel' onTap={() => bills.chooseChannel('insurance')}>
              <Text>医保支付</Text>
              <Text className='merge__line'>医保电子凭证授权后结算，自付部分微信或支付宝支付</Text>
            </Tappable>
          )}
          {balance && !bills.balanceCovers && (
            <Tappable role='link' inline className='merge__retry' onTap={() => void Taro.navigateTo({ url: ACCOUNT_RECHARGE_URL })}>
              去充值就诊卡
            </Tappable>
          )}
        </View>
        <ActionBar amount={{ label: '合计', value: yuan(bills.totalFen) }} note='支付成功后请按指引到相应窗口取药或检查'>
          <Button type='primary' block disabled={bills.payment.busy} onClick={() => void pay()}>
            {bills.payment.busy ? '支付中...' : bills.payChannel === 'account' ? '余额支付' : bills.payChannel === 'insurance' ? '医保支付' : '确认支付'}
          </Button>
        </ActionBar>
      </View>
    )
  }

  return body()
}

export default observer(MergeConfirm)
