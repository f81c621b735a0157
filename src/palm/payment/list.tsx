import { useEffect, useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Check } from '@nutui/icons-react-taro'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import BillItems from '../../pages/order/payment/BillItems'
import { CHOOSE_PATIENT_URL, PAYMENT_MERGE_URL, deptMergeUrl, payTypeUrl, paymentDetailUrl } from '@/pageUrls'
import type { UnpaidBill } from '../../../types/api/palm'
import './list.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useBillStore } from '@/stores/BillStore'

/**
 * 门诊缴费 (spec §2 /palm/payment/list): the chosen patient's unpaid bills by visit and department, each with a
 * checkbox; every bill of the newest visit is chosen at first; the chosen ones are paid together after /mergeList.
 * A bill already in a payment that waits says 待支付 and opens that payment. 合并支付 on a department pays all its
 * unpaid bills of that visit at once (/deptMergeList).
 */
function PaymentList() {
  const { hospital } = useStores()
  const bills = useBillStore()
  const patients = usePatientStore()
  const [open, setOpen] = useState<string | null>(null)
  const [ready, setReady] = useState(false)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    await bills.loadUnpaid()
    setReady(true)
  }
  // back from paying, choosing or adding a patient: the bills as they now stand
  useDidShow(() => {
    if (ready) void bills.loadUnpaid()
  })
  useEffect(() => {
    if (ready) void bills.loadUnpaid()
  }, [current?.id, bills, ready])

  const expand = (bill: UnpaidBill) => {
    const next = open === bill.billNo ? null : bill.billNo
    setOpen(next)
    if (next) void bills.loadDetail(next)
  }

  const list = () => {
    if (!current) return null
    const state = bills.unpaid.state
    if (state === 'failed' && !bills.unpaid.value) return <LoadFailed onRetry={() => void bills.loadUnpaid()} />
    if (!bills.unpaid.value) return <Loading />
    if (bills.visits.length === 0) return <Empty text='暂无待缴费用' />
    return bills.visits.map((visit) => (
      <View key={`${visit.visitNo}\n${visit.deptName}`} className='bill-visit' role='group' aria-label={`${visit.visitDate} ${visit.deptName}`}>
        <View className='bill-visit__head'>
          <Text className='bill-visit__dept'>{visit.deptName}</Text>
          <Text className='bill-visit__sum'>{yuan(visit.amountFen)}</Text>
        </View>
        <Text className='bill-visit__line'>
          就诊日期：{visit.visitDate}　医生：{visit.doctorName}
        </Text>
        {bills.payableOfDept(visit.visitNo, visit.deptName).length > 0 && (
          <Tappable
            inline
            role='link'
            className='bill-visit__merge'
            label={`${visit.deptName}合并支付`}
            onTap={() => void Taro.navigateTo({ url: deptMergeUrl(visit.visitNo, visit.deptName) })}
          >
            合并支付
          </Tappable>
        )}
        {visit.bills.map((bill) => {
          const detail = bills.detailOf(bill.billNo)
          const on = bills.isSelected(bill.billNo)
          return (
            <View key={bill.billNo} className='bill'>
              <View className='bill__row'>
                {bill.paying ? (
                  <Tappable
                    className='bill__main'
                    label={`${bill.title}，待支付，查看支付`}
                    disabled={bill.payingId === null}
                    onTap={() => bill.payingId !== null && void Taro.navigateTo({ url: paymentDetailUrl(bill.payingId) })}
                  >
                    <Text className='bill__tag'>待支付</Text>
                    <BillText bill={bill} />
                  </Tappable>
                ) : (
                  <Tappable className='bill__main' role='checkbox' checked={on} label={`${bill.title} ${yuan(bill.amountFen)}`} onTap={() => bills.toggle(bill)}>
                    <View className={`bill__box${on ? ' bill__box--on' : ''}`} aria-hidden='true'>
                      {on && <Check size={14} />}
                    </View>
                    <BillText bill={bill} />
                  </Tappable>
                )}
              </View>
              <Tappable inline className='bill__toggle' expanded={open === bill.billNo} label={`${bill.title}明细`} onTap={() => expand(bill)}>
                {open === bill.billNo ? '收起明细' : '查看明细'}
              </Tappable>
              {!bill.paying && (
                <Tappable inline role='link' className='bill__alone' label={`${bill.title}单独支付`} onTap={() => void Taro.navigateTo({ url: payTypeUrl(bill.billNo) })}>
                  单独支付
                </Tappable>
              )}
              {open === bill.billNo && (
                <View className='bill__detail'>
                  {detail.value ? (
                    <BillItems items={detail.value.items} />
                  ) : detail.state === 'failed' ? (
                    <Tappable inline className='bill__retry' onTap={() => void bills.loadDetail(bill.billNo)}>
                      明细加载失败，点击重试
                    </Tappable>
                  ) : (
                    <Loading />
                  )}
                </View>
              )}
            </View>
          )
        })}
      </View>
    ))
  }

  const count = bills.selected.length
  return (
    <PageShell title='门诊缴费' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='bill-list'>
          <View className='bill-list__card'>
            <View className='bill-list__head'>
              <Text className='bill-list__heading'>就诊人</Text>
              <Tappable inline className='bill-list__link' onTap={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
                管理
              </Tappable>
            </View>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {list()}
          {bills.visits.length > 0 && (
            <ActionBar amount={{ label: '合计', value: yuan(bills.totalFen) }} note={count ? `已选${count}项` : '请选择要缴纳的费用'}>
              <Button type='primary' block disabled={!count} onClick={() => void Taro.navigateTo({ url: PAYMENT_MERGE_URL })}>
                去缴费
              </Button>
            </ActionBar>
          )}
        </View>
      )}
    </PageShell>
  )
}

function BillText({ bill }: { bill: UnpaidBill }) {
  return (
    <View className='bill__text'>
      <View className='bill__top'>
        <Text className='bill__title'>{bill.title}</Text>
        <Text className='bill__amount'>{yuan(bill.amountFen)}</Text>
      </View>
      {bill.place && <Text className='bill__place'>执行地点：{bill.place}</Text>}
    </View>
  )
}

export default observer(PaymentList)
