import KindPage from '../KindPage'

/** 病理报告 (spec §2 /palm/report/pathology/index): the chosen patient's pathology reports. */
export default function PathologyReports() {
  return <KindPage tab='pathology' title='病理报告' empty='暂无病理报告' />
}
