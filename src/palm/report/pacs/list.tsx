import KindPage from '../KindPage'

/** 检查报告 (spec §2 /palm/report/pacs/list): the chosen patient's imaging reports (CT, MR, X-ray, ultrasound). */
export default function ImagingReports() {
  return <KindPage tab='imaging' title='检查报告' empty='暂无检查报告' />
}
