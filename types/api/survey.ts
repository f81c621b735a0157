/**
 * Satisfaction surveys (满意度调查), `/dld-hospital/survey` (spec §2 /pages/survey/list, /index, /result; §7 Internet
 * hospital → Surveys). One answer per account per survey: a survey asks about the caller's own experience of the
 * hospital, not about one of their patients.
 */

/** single: one option (radios); multiple: any options (checkboxes); rating: 1–5 stars; text: free words. */
export type SurveyQuestionKind = 'single' | 'multiple' | 'rating' | 'text'

export interface SurveyOption {
  /** Stable within its question ('a', 'b' ...): answers name options by it. */
  id: string
  text: string
}

export interface SurveyQuestion {
  /** Stable within its survey ('q1' ...): answers name questions by it. */
  id: string
  kind: SurveyQuestionKind
  title: string
  required: boolean
  /** single and multiple only; empty otherwise. */
  options: SurveyOption[]
  /** text only: the most characters an answer may have (0 for other kinds). */
  maxLength: number
}

/** One survey in `GET /survey/list`. */
export interface SurveySummary {
  id: number
  hospitalCode: string
  title: string
  intro: string
  questionCount: number
  /** Whether the caller has answered it (已参与). */
  answered: boolean
}

/** `GET /survey/{id}`: the survey with its questions, and whether the caller has answered it. */
export interface Survey extends SurveySummary {
  hospitalName: string
  questions: SurveyQuestion[]
}

/** One question's answer: option ids (single: exactly one), a rating 1–5, or words. */
export interface SurveyAnswerItem {
  questionId: string
  options?: string[]
  rating?: number
  text?: string
}

/** `POST /survey` (JSON). Questions left out (or answered with nothing) are unanswered: allowed only if optional. */
export interface SurveyAnswerInput {
  surveyId: number
  answers: SurveyAnswerItem[]
}

/** `GET /survey/result/{id}` and `POST /survey`: the caller's own answer with the survey. */
export interface SurveyResult {
  survey: Survey
  answers: SurveyAnswerItem[]
  answeredAt: string
}

// ---- the workbench (staff of the survey's hospital) -------------------------------------------------------------

/** `GET /dld-doctor/api/surveys`: the staff's hospital's surveys with how many answered each. */
export interface DeskSurvey {
  id: number
  title: string
  questionCount: number
  answerCount: number
}

export interface DeskQuestionStats {
  id: string
  kind: SurveyQuestionKind
  title: string
  /** How many answers answered this question. */
  answered: number
  /** single / multiple: each option's count; rating: counts of 1..5 stars (option ids '1'..'5'). */
  options: { id: string; text: string; count: number }[]
  /** rating only: the mean of the stars given, one decimal; null when nobody rated. */
  average: number | null
  /** text only: the latest answers, newest first, the author's name masked. */
  latest: { text: string; author: string; answeredAt: string }[]
}

/** `GET /dld-doctor/api/surveys/{id}`: the results of one survey. */
export interface DeskSurveyResults {
  id: number
  title: string
  answerCount: number
  questions: DeskQuestionStats[]
}
