import { useEffect, useRef } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import BillItems from '../../pages/order/payment/BillItems'
import { afterPay } from '../../pages/order/payment/afterPay'
import './MergeConfirm.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useBillStore } from '@/stores/BillStore'

/**
 * 待缴费 (spec §2 /palm/payment/waitPay?billNo=&source=scanCode): a bill opened from a scanned code, read for the
 * chosen patient, with its items and 立即支付 (payment/init with sourceType 2 when it came from a scan, spec §4).
 * With source=report (报告缴费): the bill of a test or an examination whose report waits for it
 * (payment/unpaid/report/detail), said so, and paid through payment/report/init.
 */
function WaitPay() {
  const { hospital } = useStores()
  const bills = useBillStore()
  const patients = usePatientStore()
  const { params } = useRouter()
  const billNo = params.billNo ?? ''
  const scanned = params.source === 'scanCode'
  /** 报告缴费: the bill of a test or an examination whose report waits for it (src/utils/reportBill.ts). */
  const forReport = params.source === 'report'
  const ready = useRef(false)
  const current = patients.current
  const detail = bills.detailOf(billNo)
  const report = forReport && bills.reportBill.value?.billNo === billNo ? bills.reportBill.value : null
  const bill = forReport ? report : detail.value
  const failed = forReport ? !report && bills.reportBill.state === 'failed' : detail.state === 'failed'

  const read = async () => {
    const hospitalCode = hospital.hospital?.hospitalCode
    const patientId = patients.current?.id
    if (!forReport) return bills.loadDetail(billNo)
    bills.reportBill.reset() // another patient's answer is not this one's
    if (hospitalCode && patientId) await bills.reportBill.load({ hospitalCode, patientId, billNo }).catch(() => undefined)
  }
  const load = async () => {
    await patients.load().catch(() => undefined)
    ready.current = true
    if (billNo) await read()
  }
  useEffect(() => {
    if (!ready.current || !billNo) return
    bills.details.delete(billNo) // another patient's answer is not this one's
    void read()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.id, billNo, bills])

  const pay = async () => {
    const hospitalCode = hospital.hospital?.hospitalCode
    if (!bill || !current || !hospitalCode) return
    const result = await (
      forReport
        ? bills.payReport({ hospitalCode, patientId: current.id, billNo: bill.billNo })
        : bills.payBills({ hospitalCode, patientId: current.id, billNos: [bill.billNo], sourceType: scanned ? 2 : 0 }, true)
    ).catch(() => null)
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
        {!current ? null : failed ? (
          <LoadFailed text='未找到该就诊人的缴费单' onRetry={() => void read()} />
        ) : !bill ? (
          <Loading />
        ) : (
          <>
            {report && (
              <View className='merge__card' role={report.reportHeld ? 'alert' : undefined}>
                <Text className='merge__title'>{report.reportHeld ? `${report.reportKindText}待缴费后发布` : report.reportKindText}</Text>
                <Text className='merge__line'>{report.note}</Text>
              </View>
            )}
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
