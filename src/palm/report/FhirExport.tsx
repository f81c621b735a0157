import { observer } from 'mobx-react-lite'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { toastSuccess } from '@/ui/feedback'
import { useReportStore } from '@/stores/ReportStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 导出报告: the chosen patient's reports as one FHIR R4 file (an international format other hospitals and health apps
 * read), downloaded on H5, copied in a mini-program (PIPL art. 45).
 */
function FhirExport() {
  const patients = usePatientStore()
  const reports = useReportStore()
  if (!patients.current || reports.verify.required) return null
  const save = async () => {
    const how = await reports.exportFhir().catch(() => null)
    if (how === 'downloaded') toastSuccess('报告文件已下载')
    else if (how === 'copied') toastSuccess('报告内容已复制')
  }
  return (
    <View className='report-export'>
      <Text className='report-export__note'>可将全部检验、检查、病理报告导出为国际通用的 FHIR 格式文件，便于保存或提供给其他医院</Text>
      <Button block fill='outline' loading={reports.action.busy} onClick={() => void save()}>
        导出报告（FHIR）
      </Button>
    </View>
  )
}

export default observer(FhirExport)
