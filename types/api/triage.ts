/**
 * The doctor AI agent (智能导诊, spec §1 Palm service, §2 /palm/ds/index): the patient describes a complaint, the agent
 * answers which of the hospital's departments to book, with a few of their doctors. It never diagnoses, prescribes or
 * names a dose. `POST /dld-palm/api/ai/triage`.
 */

/** The body of `POST /dld-palm/api/ai/triage`: 1–200 characters of the patient's own words. */
export interface TriageRequest {
  hospitalCode: string
  text: string
}

export interface TriageDoctor {
  id: number
  doctorName: string
  /** 主任医师, 副主任医师 … */
  title: string
  avatar: string
}

/** A department of the hospital to book (a leaf of the clinic tree), with why and up to 3 of its doctors. */
export interface TriageDepartment {
  id: number
  deptName: string
  reason: string
  doctors: TriageDoctor[]
}

/** Who answered: the built-in rules, or the configured language model (checked by the same rules). */
export type TriageSource = 'offline' | 'model'

export interface TriageAnswer {
  /** One paragraph for the patient. */
  reply: string
  /** A red flag (chest pain with sweating, coma, heavy bleeding …): go to the emergency department or call 120 now. */
  emergency: boolean
  /** At most 3, most relevant first; empty when the agent needs more detail or in an emergency without an 急诊科. */
  departments: TriageDepartment[]
  /** Shown with every answer: 'AI导诊仅供参考，不能替代医生的诊断和治疗'. */
  disclaimer: string
  source: TriageSource
}
