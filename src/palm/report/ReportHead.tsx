import { View, Text } from '@tarojs/components'
import { localTime } from '@/utils/register'
import type { ReportDetail } from '../../../types/api/report'

/** The top of a report: what it is, for whom, who asked for and reported it, and when. */
export default function ReportHead({ r, extra }: { r: ReportDetail; extra?: [string, string][] }) {
  const rows: [string, string][] = [
    ['就诊人', r.patientName],
    ['科室', r.deptName],
    ['申请医生', r.doctorName],
    ...(extra ?? []),
    ['报告医生', r.reporterName],
    ['审核医生', r.checkerName],
    ['申请时间', localTime(r.requestedAt)],
    ['报告时间', localTime(r.reportedAt)],
    ['报告单号', r.reportNo],
  ]
  return (
    <View className='report-head'>
      <View className='report-head__title' role='heading' aria-level={1}>
        {r.title}
      </View>
      {rows
        .filter(([, v]) => v)
        .map(([k, v]) => (
          <View key={k} className='report-head__row'>
            <Text className='report-head__label'>{k}</Text>
            <Text className='report-head__value'>{v}</Text>
          </View>
        ))}
    </View>
  )
}
