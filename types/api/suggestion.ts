/** 投诉建议 (spec §7 POST /userSuggestion, /pages/comment/index): what a patient tells the hospital, and its answer. */
export type SuggestionKind = 'complaint' | 'suggestion' | 'praise'

export interface SuggestionInput {
  hospitalCode: string
  kind: SuggestionKind
  content: string
  /** Pictures uploaded through /dld-file/files-upload first (at most 4). */
  pictures: string[]
  /** The app's key for this submission (its idempotency key): the same key again is the same submission. */
  idempotencyKey: string
}

export interface Suggestion {
  id: number
  kind: SuggestionKind
  content: string
  pictures: string[]
  status: 'open' | 'answered'
  answer: string
  createdAt: string
  answeredAt: string | null
}

/** On the workbench: the patient is named by the account's masked mobile. */
export interface DeskSuggestion extends Suggestion {
  mobile: string
}
