/**
 * What the hospitals with their own add-patient page (spec §1: 10392, 10387, 10388, 10412) do differently: one form,
 * these rules. Which page a hospital opens is in pageUrls (`ownPageUrl`).
 */

/** The ways of adding a patient (spec §2 /pages/addPatient/index). */
export const PATIENT_KINDS = ['身份证', '无证儿童', '电子健康卡'] as const
export type PatientKind = (typeof PATIENT_KINDS)[number]

export interface AddPatientVariant {
  /** The ways this hospital offers, in order. */
  kinds: readonly PatientKind[]
  /** What the hospital tells the patient above the form, adding or completing. */
  notice?: string
}

export const GENERAL_VARIANT: AddPatientVariant = { kinds: PATIENT_KINDS }

const VARIANTS: Record<string, AddPatientVariant> = {
  // its nucleic tests and health-insurance settlement (spec §9 chsList) are in the patient's real name
  '10392': { kinds: ['身份证', '无证儿童'], notice: '本院核酸检测、医保结算均需实名，请使用身份证添加就诊人，儿童可由监护人代为添加。' },
  // a maternity and child hospital not connected to the health-card platform: mothers and children without a card
  '10387': { kinds: ['无证儿童', '身份证'], notice: '本院暂未接入电子健康卡。未办理身份证的儿童，请由监护人代为添加。' },
  // adults and health-card holders only: its children's clinic files a child at the window with the birth certificate
  '10388': { kinds: ['身份证', '电子健康卡'], notice: '未办理身份证的儿童请携带出生医学证明到门诊一楼建档窗口办理。' },
}

/** The add-patient rules of a hospital: its own, else the general ones. */
export function addPatientVariant(hospitalCode: string | undefined): AddPatientVariant {
  return (hospitalCode ? VARIANTS[hospitalCode] : undefined) ?? GENERAL_VARIANT
}

export interface CardType {
  key: string
  /** The card as the patient knows it. */
  label: string
  /** What the patient is told about it on the chooser. */
  note: string
  /** The way of adding it takes. */
  kind: PatientKind
  /** The number's name on the form, where it is not 身份证号. */
  numberLabel?: string
}

/**
 * 10412's first step, choosing the card type (spec §2 "choose card type"). A social-security card's number is its
 * holder's identity number, so it is bound as one; a child is bound under the guardian's card.
 */
export const CARD_TYPES: readonly CardType[] = [
  { key: 'idCard', label: '居民身份证', note: '使用身份证号实名添加', kind: '身份证' },
  { key: 'socialCard', label: '社会保障卡（医保卡）', note: '社保卡号即本人身份证号，可医保结算', kind: '身份证', numberLabel: '社保卡号' },
  { key: 'birthCert', label: '出生医学证明', note: '未办理身份证的儿童，由监护人代为添加', kind: '无证儿童' },
  { key: 'eHealth', label: '电子健康卡', note: '使用已领取的电子健康卡快速添加', kind: '电子健康卡' },
]

/** The card type a page was opened with, or none (an unknown key chooses none). */
export const cardTypeOf = (key: string | undefined): CardType | undefined => CARD_TYPES.find((c) => c.key === key)
