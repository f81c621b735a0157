import { get, post, put } from './request'
import type {
  Accompany,
  AccompanyInput,
  BindHealthCardInput,
  BindNeonateInput,
  BindPatientInput,
  CompletePatientInput,
  HealthCardUrlInput,
  HospitalCard,
  IdCardOcrResult,
  Patient,
  PatientDetail,
  PatientRecordInfo,
  UnbindPatientResult,
  UpdateAccompanyInput,
} from '../../types/api/patient'
import type { EscortPass } from '../../types/api/escortPass'

/** `/dld-palm` (patients, escorts, the system dictionary) and the health-card authorisation of spec §7. */
const PATIENT = '/dld-palm/api/patient'
const ACCOMPANY = '/dld-palm/api/accompany'

/** A query string for the calls that take the hospital in the address of a POST. */
const atHospital = (hospitalCode?: string) => (hospitalCode ? `?hospitalCode=${encodeURIComponent(hospitalCode)}` : '')

export interface DictItem {
  label: string
  value: string
  sort: number
}

export const listDict = (type: string) => post<DictItem[]>('/dld-palm/admin/system/dict', { type }, { noLoading: true, silent: true })

export const listPatients = (hospitalCode?: string) => get<Patient[]>(`${PATIENT}/list`, hospitalCode ? { hospitalCode } : undefined, { noLoading: true })
export const getDefaultPatient = (hospitalCode?: string) =>
  get<Patient | null>(`${PATIENT}/default`, hospitalCode ? { hospitalCode } : undefined, { noLoading: true })
/** One patient whole: only the edit / completion page asks for this. */
export const getPatient = (id: number) => get<PatientDetail>(`${PATIENT}/${id}`)

/** One patient masked, with its card number at the hospital and whether it is complete (what a flow checks). */
export const getPatientInfo = (id: number, hospitalCode: string) => get<Patient>(`${PATIENT}/info`, { id, hospitalCode }, { noLoading: true })
/** Whether and since when a patient is filed (建档) at a hospital, with the card number. */
export const getPatientRecordInfo = (id: number, hospitalCode: string) =>
  get<PatientRecordInfo>(`${PATIENT}/hospital/patient/record-info`, { id, hospitalCode }, { noLoading: true })
/** The patient asks for their card at a hospital (申领就诊卡): filed once; a card it has already is answered as it is. */
export const fileAtHospital = (id: number, hospitalCode: string) => get<HospitalCard>(`${PATIENT}/hospital/patient/bind`, { id, hospitalCode })

export const bindPatient = (input: BindPatientInput) => post<Patient>(`${PATIENT}/bind`, input)
export const completePatient = (input: CompletePatientInput) => post<PatientDetail>(`${PATIENT}/bind`, input)
export const bindNeonate = (input: BindNeonateInput) => post<Patient>(`${PATIENT}/bind/neonate`, input)
export const bindHealthCard = (input: BindHealthCardInput) => post<Patient>(`${PATIENT}/bind/eHealth`, input)
export const setDefaultPatient = (id: number, hospitalCode?: string) => post<Patient>(`${PATIENT}/default/${id}${atHospital(hospitalCode)}`)
export const unbindPatient = (id: number) => post<UnbindPatientResult>(`${PATIENT}/unbind/${id}`)
/** Reads an identity-card photo uploaded through /dld-file/files-upload. */
export const readIdCardPhoto = (url: string) => post<IdCardOcrResult>(`${PATIENT}/hospital/patient/ocr`, { url })

/** Where to send the browser to choose an electronic health card; it comes back to `redirect` with healthCode. */
export const getHealthCardUrl = (input: HealthCardUrlInput) => post<{ url: string }>('/thirdParty/tencent-EHealth/refreshUrl', input)

export const listAccompanies = (patientId: number) => get<Accompany[]>(`${ACCOMPANY}/list/${patientId}`, undefined, { noLoading: true })
/** One escort whole, for the edit page. */
export const getAccompany = (id: number) => get<Accompany>(`${ACCOMPANY}/${id}`)
export const addAccompany = (input: AccompanyInput) => post<Accompany>(ACCOMPANY, input)
export const updateAccompany = (input: UpdateAccompanyInput) => put<Accompany>(ACCOMPANY, input)
export const unbindAccompany = (id: number) => post<{ id: number }>(`${ACCOMPANY}/${id}`)

/** 电子陪护证: a signed pass for one escort while the patient is in hospital at the hospital (refusal shown by the page). */
export const getEscortPass = (escortId: number, hospitalCode: string) =>
  get<EscortPass>(`${ACCOMPANY}/pass`, { escortId, hospitalCode }, { noLoading: true, silent: true })
