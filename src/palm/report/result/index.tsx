import KindPage from '../KindPage'

/** 检验报告 (spec §2 /palm/report/result/index): the chosen patient's lab reports. */
export default function LabReports() {
  return <KindPage tab='lab' title='检验报告' empty='暂无检验报告' />
}
