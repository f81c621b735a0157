import NucleicResults from '@/components/Nucleic/NucleicResults'
import { nucleicReportUrl } from '@/pageUrls'

/** 核酸报告 (spec §2 /palm/report/nucleic/index, the reports' 核酸 tab): each result opens its report. */
export default function NucleicReports() {
  return <NucleicResults title='核酸报告' detailUrl={(r) => nucleicReportUrl(r.sampleNo, r.patientId)} />
}
