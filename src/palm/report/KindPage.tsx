import { useState } from 'react'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import type { ReportTab } from '@/stores/ReportStore'
import ReportList from './ReportList'
import FhirExport from './FhirExport'
import { useReportStore } from '@/stores/ReportStore'
import { usePatientStore } from '@/stores/PatientStore'

/** A page of one kind of report (检验报告, 检查报告, 病理报告): the chosen patient's, newest first. */
function KindPage({ tab, title, empty }: { tab: ReportTab; title: string; empty: string }) {
  const patients = usePatientStore()
  const reports = useReportStore()
  const [ready, setReady] = useState(false)
  const load = async () => {
    reports.setTab(tab)
    await patients.load().catch(() => undefined)
    setReady(true)
  }
  return (
    <PageShell title={title} onReady={load}>
      <ReportList ready={ready} empty={empty} />
      <FhirExport />
    </PageShell>
  )
}

export default observer(KindPage)
