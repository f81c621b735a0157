/** 电子陪护证 (spec §2 /palm/hospitalization/escort/eleAttend): the pass an escort shows on the ward, and its check. */

/** GET /dld-palm/api/accompany/pass?escortId=&hospitalCode=: a signed pass for one escort of a patient in hospital. */
export interface EscortPass {
  /** What the QR code carries: signed by the server, read back only by the ward's check. */
  token: string
  escortId: number
  patientId: number
  /** Masked (spec §9). */
  escortName: string
  /** Masked (spec §9). */
  patientName: string
  relation: string
  hospitalName: string
  deptName: string
  ward: string
  bed: string
  admissionNo: string
  /** ISO time: 24 hours after it was issued (discharge ends it sooner). */
  expiresAt: string
  issuedAt: string
}

/** Why a pass is refused at the ward. */
export type EscortPassRefusal = 'forged' | 'expired' | 'ended' | 'unbound'

/** POST /dld-doctor/api/escort-pass/verify {token}: what the ward staff see. */
export interface EscortPassCheck {
  valid: boolean
  reason: EscortPassRefusal | null
  /** Said to the staff: 有效 or why not. */
  reasonText: string
  /** What the pass names (masked), when it is the server's own; null for a forged one. */
  pass: {
    escortName: string
    patientName: string
    relation: string
    deptName: string
    ward: string
    bed: string
    admissionNo: string
    expiresAt: string
  } | null
}
