import { get, post } from './request'
import type {
  AccountBalance,
  DailyCharges,
  InpatientRechargeInput,
  InpatientView,
  RechargeAmounts,
  RechargeInput,
  RechargeRecord,
  RechargeStart,
} from '../../types/api/palm'
import type { Page } from '../../types/api/hospital'
import type { DischargeSettlement, DischargeSettlementInput } from '../../types/api/settlement'

/**
 * The outpatient account (门诊预交金, spec §7 Payment `clinic/balance`, `recharge`) and the inpatient deposit
 * (住院预交金, spec §7 Recharge), `/dld-palm/api`. Amounts are whole fen.
 */
const API = '/dld-palm/api'

/** Which money a top-up goes into: the outpatient account (clinic) or a stay's deposit (inpatient). */
export type RechargeKind = 'clinic' | 'inpatient'

export interface RechargeListQuery {
  hospitalCode?: string
  patientId?: number
  page: number
  size: number
}

/** A GET query without its unset fields: Taro's H5 request would send them as the text 'undefined'. */
const query = <T extends object>(q: T) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>

/** The patient's outpatient account balance at the hospital. */
export const getClinicBalance = (hospitalCode: string, patientId: number) =>
  get<AccountBalance>(`${API}/payment/clinic/balance`, { hospitalCode, patientId }, { noLoading: true })

/** Tops up the outpatient account: the record and how to pay it. */
export const rechargeClinic = (input: RechargeInput) => post<RechargeStart>(`${API}/payment/recharge`, input)

/** The patient's current stay (in hospital, else the latest), or null when none. */
export const getInpatient = (hospitalCode: string, patientId: number) => post<InpatientView | null>(`${API}/recharge/inpatient`, { hospitalCode, patientId }, { noLoading: true })

/** One day's charges of a stay (每日清单). */
export const getDailyCharges = (input: { hospitalCode: string; patientId: number; admissionNo: string; date: string }) =>
  post<DailyCharges>(`${API}/recharge/daily`, input, { noLoading: true })

/** The hospital's deposit top-up choices and the limits of one top-up, in fen. */
export const getRechargeAmounts = (hospitalCode: string) => get<RechargeAmounts>(`${API}/recharge/amount`, { hospitalCode }, { noLoading: true })

/** Pays into the stay now in hospital: the record and how to pay it. */
export const rechargeInpatient = (input: InpatientRechargeInput) => post<RechargeStart>(`${API}/recharge`, input)

const PREFIX: Record<RechargeKind, string> = { clinic: `${API}/payment/recharge`, inpatient: `${API}/recharge` }

/** The caller's top-ups of one kind, newest first. */
export const listRecharges = (kind: RechargeKind, q: RechargeListQuery) => get<Page<RechargeRecord>>(`${PREFIX[kind]}/list`, query(q), { noLoading: true })

/** One of the caller's top-ups. */
export const getRecharge = (kind: RechargeKind, id: number) => get<RechargeRecord>(`${PREFIX[kind]}/detail`, { id }, { noLoading: true })

/** The discharge settlement (出院结算) of one of the patient's stays. */
export const getDischargeSettlement = (input: DischargeSettlementInput) => post<DischargeSettlement>(`${API}/recharge/settlement`, input, { noLoading: true })
