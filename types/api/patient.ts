/**
 * Patients (就诊人), escorts (陪护人) and the account's own identity: `/dld-palm/api/patient`, `/accompany`,
 * `/dld-user/user/modifyiIdentify`, `/thirdParty/tencent-EHealth/refreshUrl`. Spec §3, §5, §7.
 *
 * Lists answer names, identity numbers and mobiles masked (spec §9); only the detail calls that feed an edit page
 * answer them whole. Identity numbers travel base64-encoded either way (spec §3, sensitive fields).
 */

/** 1 male, 2 female (spec §3 identity-card parsing: odd male, even female). */
export type Sex = 1 | 2

export type PatientSource = 'idCard' | 'ocr' | 'neonate' | 'eHealth'

/** Fields a patient may lack; any missing one makes the patient incomplete (spec §5 modal). */
export type PatientField = 'name' | 'idCard' | 'mobile' | 'guardianName' | 'guardianIdCard'

export interface Patient {
  id: number
  /** Masked in lists. */
  name: string
  /** Masked in lists; '' for a child bound without an identity card. */
  idCard: string
  /** Masked in lists; '' when unknown (e.g. bound by health card without a mobile). */
  mobile: string
  sex: Sex
  sexText: '男' | '女'
  birthday: string
  age: number
  relation: string
  source: PatientSource
  neonate: boolean
  isDefault: boolean
  /** Card number at the hospital asked about; '' until the patient is filed there. */
  hisMedCardNo: string
  complete: boolean
  missing: PatientField[]
}

/** One patient whole, for the edit / completion page. */
export interface PatientDetail extends Patient {
  guardianName: string
  guardianIdCard: string
}

interface NewPatientCommon {
  mobile: string
  /**
   * The 6-digit SMS code sent to `mobile` with purpose 'patient'; none for the account's own mobile, which the
   * holder verified when binding the account.
   */
  code?: string
  relation: string
  isDefault?: boolean
  hospitalCode?: string
}

/** POST /dld-palm/api/patient/bind without `id`: bind by identity card (typed, or read by OCR). */
export interface BindPatientInput extends NewPatientCommon {
  name: string
  idCard: string
  source?: 'idCard' | 'ocr'
}

/**
 * POST /dld-palm/api/patient/bind with `id`: completes or edits a bound patient. Name and identity number can only
 * be filled where missing; a changed mobile needs its SMS code.
 */
export interface CompletePatientInput {
  id: number
  name?: string
  idCard?: string
  mobile?: string
  code?: string
  relation?: string
  guardianName?: string
  guardianIdCard?: string
}

/** POST /dld-palm/api/patient/bind/neonate: a child without an identity card, bound under a guardian. */
export interface BindNeonateInput extends NewPatientCommon {
  name: string
  sex: Sex
  birthday: string
  guardianName: string
  guardianIdCard: string
}

/** POST /dld-palm/api/patient/bind/eHealth: the one-time code the health-card authorisation returned. */
export interface BindHealthCardInput {
  healthCode: string
  relation: string
  isDefault?: boolean
  hospitalCode?: string
}

export interface UnbindPatientResult {
  /** The patient that became default, when the unbound one was. */
  defaultPatientId: number | null
}

/** GET /patient/hospital/patient/bind and /dld-hospital/autoRegister: the patient filed at a hospital. */
export interface HospitalCard {
  patientId: number
  hospitalCode: string
  hospitalName: string
  hisMedCardNo: string
  /** False when this call filed the patient; true when the card already existed. */
  existed: boolean
}

/** GET /patient/hospital/patient/record-info. */
export interface PatientRecordInfo {
  patientId: number
  hospitalCode: string
  hospitalName: string
  filed: boolean
  hisMedCardNo: string
  filedAt: string | null
}

/**
 * GET /dld-hospital/jkt/photoUrl?patientId&hospitalCode: the QR code of a patient's electronic health card, as the
 * health-card platform draws it (`url`, a data URL) and the text it encodes. Dynamic: asked for each time it is shown.
 */
export interface HealthCardQrCode {
  patientId: number
  url: string
  text: string
}

/** POST /patient/hospital/patient/ocr: what was read off an identity-card photo (the patient's own, so whole). */
export interface IdCardOcrResult {
  name: string
  idCard: string
  sex: Sex
  birthday: string
  nation: string
  address: string
}

export interface Accompany {
  id: number
  patientId: number
  /** Masked in lists. */
  name: string
  idCard: string
  mobile: string
  relation: string
  createdAt: string
}

export interface AccompanyInput {
  patientId: number
  name: string
  idCard: string
  mobile: string
  relation: string
}

export interface UpdateAccompanyInput {
  id: number
  mobile: string
  relation: string
}

/** POST /dld-user/user/modifyiIdentify: the account holder's own real-name identity. */
export interface IdentityInput {
  name: string
  idCard: string
}

export interface UserIdentity {
  /** Masked. */
  name: string
  idCard: string
  verified: boolean
}

/** POST /thirdParty/tencent-EHealth/refreshUrl: where to send the browser to authorise a health card. */
export interface HealthCardUrlInput {
  hospitalCode: string
  /** App page to come back to, e.g. /pages/addPatient/index; the provider appends healthCode. */
  redirect: string
}
