import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { reportBillUrl } from '@/pageUrls'
import { yuan } from '@/utils/register'
import './ReportList.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useBillStore } from '@/stores/BillStore'

/**
 * 报告缴费 on 报告查询: the chosen patient's unpaid tests and examinations, whose reports the hospital releases once
 * they are paid (src/utils/reportBill.ts), each opening its payment. Nothing is shown when there are none.
 */
function ReportBills({ ready }: { ready: boolean }) {
  const bills = useBillStore()
  const patients = usePatientStore()
  const patientId = patients.current?.id
  useEffect(() => {
    if (ready && patientId) void bills.loadUnpaid()
  }, [ready, patientId, bills])
  const due = patientId && bills.unpaid.value ? bills.reportBills : []
  if (!due.length) return null
  return (
    <View className='report-bills' role='region' aria-label='待缴费的检查检验'>
      <Text className='report-bills__title'>以下项目缴费后才会出具报告</Text>
      {due.map((b) => (
        // its name is what it shows (WCAG 2.5.3); the card's title says why it is there
        <Tappable key={b.billNo} role='link' className='report-bills__item' onTap={() => void Taro.navigateTo({ url: reportBillUrl(b.billNo) })}>
          <Text className='report-bills__name'>{b.title}</Text>
          <Text className='report-bills__amount'>{yuan(b.amountFen)}</Text>
          <Text className='report-bills__go'>去缴费 ›</Text>
        </Tappable>
      ))}
    </View>
  )
}

export default observer(ReportBills)
