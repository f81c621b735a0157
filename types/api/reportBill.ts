import type { BillDetail, BillPayInput } from './palm'

/** POST /dld-palm/api/payment/unpaid/report/detail: a report's bill (src/utils/reportBill.ts) and its report's state. */
export interface ReportBillDetail extends BillDetail {
  reportKind: 'lab' | 'exam'
  /** 检验报告 or 检查报告. */
  reportKindText: string
  /** The report waits for this bill's payment. */
  reportHeld: boolean
  note: string
  /** The caller's unpaid payment that holds this bill (去支付 continues it), else null. */
  payingId: number | null
}

export interface ReportBillInput {
  hospitalCode: string
  patientId: number
  billNo: string
}

/** POST /dld-palm/api/payment/report/init: pays one report's bill, as payment/init pays one bill. */
export type ReportPayInput = ReportBillInput & Pick<BillPayInput, 'returnUrl' | 'idempotencyKey' | 'channel'>
