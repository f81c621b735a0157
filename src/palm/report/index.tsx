import { useState } from 'react'
import Taro from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Segmented from '@/components/Segmented'
import { REPORT_TABS } from '@/stores/ReportStore'
import { NUCLEIC_REPORTS_URL, PHYSICAL_REPORTS_URL } from '@/pageUrls'
import ReportList from './ReportList'
import FhirExport from './FhirExport'
import ReportBills from './ReportBills'
import { useReportStore } from '@/stores/ReportStore'
import { usePatientStore } from '@/stores/PatientStore'

const EMPTY = { lab: '暂无检验报告', imaging: '暂无检查报告', pathology: '暂无病理报告', cloud: '暂无云影像' } as const

/**
 * 报告查询 (spec §2 /palm/report/index): the chosen patient's reports by kind, newest first, unread ones marked in
 * words; above them the tests and examinations still to pay before their reports are released (报告缴费); 体检 and 核酸
 * open their own report pages.
 */
function ReportIndex() {
  const patients = usePatientStore()
  const reports = useReportStore()
  const [ready, setReady] = useState(false)
  const load = async () => {
    await patients.load().catch(() => undefined)
    setReady(true)
  }
  return (
    <PageShell title='报告查询' onReady={load}>
      <Segmented
        label='报告类型'
        options={REPORT_TABS}
        value={reports.tab}
        onChange={(v) => {
          if (v === 'physical') return void Taro.navigateTo({ url: PHYSICAL_REPORTS_URL })
          if (v === 'nucleic') return void Taro.navigateTo({ url: NUCLEIC_REPORTS_URL })
          void reports.choose(v)
        }}
      />
      <ReportBills ready={ready} />
      <ReportList ready={ready} empty={EMPTY[reports.tab]} />
      <FhirExport />
    </PageShell>
  )
}

export default observer(ReportIndex)
