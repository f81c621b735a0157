import { get, post } from './request'
import type { PayAction, PayInput } from '../../types/api/payment'
import type { InsuranceChannel, InsuranceIdentifyInput, InsuranceIdentity, InsuranceSplit, InsuranceTestUser } from '../../types/api/insurance'

/** Health insurance mobile payment, `/dld-palm/api` (spec §7 "Insurance"). */
const API = '/dld-palm/api'
/** The channel names as the paths spell them. */
const USER_QUERY_PATH: Record<InsuranceChannel, string> = { wechat: 'wechat', alipay: 'aliPay' }

/** Whether the patient is authorised, else where to authorise (the page comes back with `authCode`). */
export const identifyInsurance = (input: InsuranceIdentifyInput) => post<InsuranceIdentity>(`${API}/yibao/identify`, input, { noLoading: true })

/** Redeems the voucher page's one-time code for the patient. */
export const queryInsuranceUser = (channel: InsuranceChannel, authCode: string, patientId: number) =>
  post<InsuranceIdentity>(`${API}/yibao/${USER_QUERY_PATH[channel]}/userquery`, { authCode, patientId })

/** Uploads an order's fees and answers how insurance splits them. */
export const uploadInsuranceFees = (orderNo: string) => post<InsuranceSplit>(`${API}/yibao/outpfeeupload`, { orderNo })

/** How insurance split an order (null without insurance). */
export const getInsuranceSplit = (orderNo: string) => get<InsuranceSplit | null>(`${API}/yibao/split`, { orderNo }, { noLoading: true })

/** How to pay the cash part of an order whose fees were uploaded. */
export const payWithInsurance = (input: PayInput) => post<PayAction>(`${API}/payment/yibao/init`, input)

/**
 * The insurance platform's test person; only a test platform (the sandbox) has one, anywhere else the server refuses,
 * so this is quiet: the caller shows nothing then.
 */
export const getInsuranceTestUser = () => get<InsuranceTestUser>(`${API}/yibao/getAuthTestUserInfo`, undefined, { noLoading: true, silent: true })
