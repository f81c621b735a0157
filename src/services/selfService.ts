import { post } from './request'
import type { SelfServiceBill, SelfServiceBillInput, SelfServiceDictInput, SelfServiceItem } from '../../types/api/selfService'

/** Self-service tests (自助开单), `/dld-palm/api/diagnosis` (spec §7 Palm service Payment). */
const API = '/dld-palm/api'

/** The hospital's self-service tests, and for this patient whether each is allowed and why not. */
export const listSelfServiceItems = (input: SelfServiceDictInput) => post<SelfServiceItem[]>(`${API}/diagnosis/dict`, input, { noLoading: true })

/** One unpaid bill for the chosen tests (form encoding: the codes joined with commas); paid with payment/init. */
export const createSelfServiceBill = (input: SelfServiceBillInput) => post<SelfServiceBill>(`${API}/diagnosis/onLine/clinicalBill`, { ...input, codes: input.codes.join(',') })
