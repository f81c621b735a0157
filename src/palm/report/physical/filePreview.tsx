import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { usePhysical } from '../../../pages/order/physical/usePhysical'
import PdfViewer from './PdfViewer'

/**
 * PDF报告 (spec §2 /palm/report/physical/filePreview): the report's PDF, fetched with the patient's token. On H5 the
 * pages are drawn with pdf.js (loaded with this page only); a mini-program opens it in the system's viewer instead.
 */
function PhysicalFilePreview() {
  const store = usePhysical()
  const { params } = useRouter()
  const ref = store.refOf(Number(params.patientId), params.examNo ?? '')
  return (
    <PageShell title='PDF报告'>
      <PdfViewer load={() => store.pdfBytes(ref)} />
    </PageShell>
  )
}

export default observer(PhysicalFilePreview)
