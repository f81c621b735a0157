import type { BillCategory, BillStatus } from '../../types/api/palm'

/**
 * 报告缴费 (spec §7 Payment `unpaid/report/detail`, `report/init`): the bill of a test or an examination whose report
 * the hospital releases only once it is paid. The rule this app keeps:
 * - only a bill for a test (检验, `lab`) or an examination (检查, `exam`) is a report bill: those are the orders that
 *   produce a report (drugs, treatments, materials and services have none, and are paid on the outpatient bill list);
 * - while it is unpaid its report is held (报告待缴费后发布); once paid the report is released when it is issued;
 * - it is paid alone, as one order of one bill, through the same bill payment as any other (payment/init), so that a
 *   bill is paid at most once whichever page pays it; refunded or cancelled, there is nothing to release.
 */
export const REPORT_BILL_CATEGORIES: readonly BillCategory[] = ['lab', 'exam']

export const isReportBill = (category: BillCategory) => REPORT_BILL_CATEGORIES.includes(category)

/** The report a bill's category produces, as the patient reads it. */
export const reportKindText = (category: BillCategory) => (category === 'exam' ? '检查报告' : '检验报告')

/** What the refusal of a bill that is not a report's says. */
export const NOT_REPORT_BILL = '该缴费单不是检查检验费用，请在门诊缴费中支付'

/** Whether the report waits for this bill's payment. */
export const reportHeld = (status: BillStatus) => status === 'unpaid'

/** What the patient is told about the report, by the bill's status. */
export function reportBillNote(category: BillCategory, status: BillStatus): string {
  const kind = reportKindText(category)
  if (status === 'unpaid') return `该${kind}需缴费后发布，缴费成功后可在报告查询中查看`
  if (status === 'paid') return `已缴费，${kind}出具后可在报告查询中查看`
  return `该缴费单已${status === 'refunded' ? '退费' : '作废'}，如有疑问请到医院收费窗口咨询`
}
