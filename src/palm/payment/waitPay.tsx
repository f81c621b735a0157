import { useEffect, useRef } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import BillItems from '../../pages/order/payment/BillItems'
import { afterPay } from '../../pages/order/payment/afterPay'
import './mergeList.scss'

/**
 * 待缴费 (spec §2 /palm/payment/waitPay?billNo=&source=scanCode): a bill opened from a scanned code, read for the
 * chosen patient, with its items and 立即支付 (payment/init with sourceType 2 when it came from a scan, spec §4).
 */
function WaitPay() {
  const { bills, patient: patients, hospital } = useStores()
  const { params } = useRouter()
  const billNo = params.billNo ?? ''
  const scanned = params.source === 'scanCode'
  const ready = useRef(false)
  const current = patients.current
  const detail = bills.detailOf(billNo)
  const bill = detail.value

  const load = async () => {
    await patients.load().catch(() => undefined)
    ready.current = true
    if (billNo) await bills.loadDetail(billNo)
  }
  useEffect(() => {
    if (!ready.current || !billNo) return
    bills.details.delete(billNo) // another patient's answer is not this one's
    void bills.loadDetail(billNo)
  }, [current?.id, billNo, bills])

  const pay = async () => {
    const hospitalCode = hospital.hospital?.hospitalCode
    if (!bill || !current || !hospitalCode) return
    const result = await bills.payBills({ hospitalCode, patientId: current.id, billNos: [bill.billNo], sourceType: scanned ? 2 : 0 }, true).catch(() => null)
    afterPay(result)
  }

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (!billNo) return <Empty text='未找到该缴费单' />
    return (
      <View className='merge'>
        <View className='merge__card'>
          <Text className='merge__title'>就诊人</Text>
          <PatientPicker onChoose={(p) => patients.choose(p)} />
        </View>
        {!current ? null : detail.state === 'failed' ? (
          <LoadFailed text='未找到该就诊人的缴费单' onRetry={() => void bills.loadDetail(billNo)} />
        ) : !bill ? (
          <Loading />
        ) : (
          <>
            <View className='merge__card'>
              <View className='merge__head'>
                <Text className='merge__title'>{bill.title}</Text>
                <Text className='merge__amount'>{yuan(bill.amountFen)}</Text>
              </View>
              <Text className='merge__line'>
                {bill.deptName}　{bill.doctorName}　{bill.visitDate}
              </Text>
              {bill.place && <Text className='merge__line'>执行地点：{bill.place}</Text>}
              <BillItems items={bill.items} />
            </View>
            {bill.status === 'unpaid' ? (
              <ActionBar amount={{ label: '应付', value: yuan(bill.amountFen) }}>
                <Button type='primary' block disabled={bills.payment.busy} onClick={() => void pay()}>
                  {bills.payment.busy ? '支付中...' : '立即支付'}
                </Button>
              </ActionBar>
            ) : (
              <Text className='merge__line'>{bill.status === 'paid' ? '该缴费单已缴费' : bill.status === 'refunded' ? '该缴费单已退费' : '该缴费单已作废'}</Text>
            )}
          </>
        )}
      </View>
    )
  }

  return (
    <PageShell title='待缴费' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(WaitPay)
