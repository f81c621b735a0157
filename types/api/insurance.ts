/**
 * Health insurance mobile payment (医保移动支付, spec §6 chsList / chsRegisterList, §7 "Insurance"), under
 * `/dld-palm/api`. The patient authorises with their insurance voucher on the platform's page (`identify` answers
 * where), comes back with `authCode` (`yibao/{wechat|aliPay}/userquery`), the order's fees are uploaded
 * (`yibao/outpfeeupload`, answering the split) and the cash part is paid through the payment core
 * (`payment/yibao/init`); the insurance part settles with it and is refunded with it.
 */

/** The channel whose voucher page the patient authorises on (the one they signed in with). */
export type InsuranceChannel = 'wechat' | 'alipay'

export interface InsuranceIdentifyInput {
  patientId: number
  hospitalCode: string
  /** The app page the authorisation page returns to (a path such as /palm/chsPayment/index?type=register&id=1). */
  redirect: string
}

/** Whether the patient has a live authorisation; when not, where to authorise. */
export interface InsuranceIdentity {
  authorized: boolean
  channel: InsuranceChannel
  /** The authorisation page (only when not authorised). */
  authUrl: string | null
  /** e.g. 职工基本医疗保险 (only when authorised). */
  insuTypeName: string | null
  /** ISO time the authorisation lapses (only when authorised). */
  expiresAt: string | null
}

export interface InsuranceUserQueryInput {
  authCode: string
  patientId: number
}

/** How insurance splits one order, in fen: fundFen + accountFen is what insurance pays, cashFen the patient. */
export interface InsuranceSplit {
  orderNo: string
  totalFen: number
  /** 统筹基金支付 */
  fundFen: number
  /** 个人账户支付 */
  accountFen: number
  /** 个人现金自付, paid through the channel. */
  cashFen: number
  insuTypeName: string
  status: 'uploaded' | 'settled' | 'refunded' | 'void'
}

/** The insurance platform's test person (test environments only), for binding as a patient to try insurance. */
export interface InsuranceTestUser {
  name: string
  idCard: string
  insuTypeName: string
}
