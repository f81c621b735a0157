import type { BillCategory } from './palm'

/** How the balance of a settled stay goes back (原路退回 to a deposit's channel, or at the inpatient cashier's window). */
export interface SettlementReturn {
  way: 'original' | 'window'
  /** wechat, alipay, sandbox, window... */
  channel: string
  /** How the patient reads it, e.g. 原路退回微信支付. */
  text: string
  amountFen: number
}

/** POST /dld-palm/api/recharge/settlement: the discharge settlement (出院结算) of one of the patient's stays. */
export interface DischargeSettlement {
  hospitalCode: string
  patientId: number
  patientName: string
  admissionNo: string
  deptName: string
  ward: string
  bed: string
  admittedAt: string
  dischargedAt: string
  /** Days in hospital, the day of admission and the day of discharge counted as one (住院天数). */
  stayDays: number
  costFen: number
  depositFen: number
  returnedFen: number
  owedFen: number
  returns: SettlementReturn[]
  categories: { category: BillCategory; name: string; amountFen: number }[]
}

export interface DischargeSettlementInput {
  hospitalCode: string
  patientId: number
  admissionNo: string
}
