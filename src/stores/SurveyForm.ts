import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/survey'
import { ApiError, outcomeUnknown } from '@/services/request'
import { toastError, toastSuccess } from '@/ui/feedback'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { SURVEY_RATING_MAX } from '@/utils/surveyRules'
import type { SurveyAnswerItem, SurveyQuestion, SurveyResult } from '../../types/api/survey'

export const SUBMITTED_TEXT = '提交成功'
export const ANSWERED_TEXT = '已参与'

/** The place of a question in its survey, as the page and the refusals name it: 第3题. */
export const questionLabel = (questions: SurveyQuestion[], q: SurveyQuestion) => `第${questions.indexOf(q) + 1}题`

/**
 * One survey being answered (spec §2 /pages/survey/index): page-local, as nothing in it outlives the page. Holds the
 * survey, the patient's choices and words, and the required questions still open, named in words before anything is
 * sent (the server checks the same and refuses in the same words).
 */
export class SurveyForm {
  readonly survey = new Loadable((id: number) => api.getSurvey(id))
  /** question id → chosen option ids */
  options: Record<string, string[]> = {}
  ratings: Record<string, number> = {}
  texts: Record<string, string> = {}
  readonly submission = new OneAtATime()
  submitted: SurveyResult | null = null
  /** What is missing, or the server's refusal, shown above 提交. */
  refusal: string | null = null

  constructor() {
    makeAutoObservable(this, { survey: false, submission: false })
  }

  async open(id: number) {
    this.options = {}
    this.ratings = {}
    this.texts = {}
    this.submitted = null
    this.refusal = null
    await this.survey.load(id).catch(() => undefined)
  }

  get questions(): SurveyQuestion[] {
    return this.survey.value?.questions ?? []
  }

  pick(q: SurveyQuestion, optionId: string) {
    if (this.submitted) return
    const now = this.options[q.id] ?? []
    if (q.kind === 'single') this.options[q.id] = [optionId]
    else if (q.kind === 'multiple') this.options[q.id] = now.includes(optionId) ? now.filter((o) => o !== optionId) : [...now, optionId]
    this.refusal = null
  }

  rate(q: SurveyQuestion, stars: number) {
    if (this.submitted || !Number.isInteger(stars) || stars < 1 || stars > SURVEY_RATING_MAX) return
    this.ratings[q.id] = stars
    this.refusal = null
  }

  write(q: SurveyQuestion, text: string) {
    if (this.submitted) return
    this.texts[q.id] = text.slice(0, q.maxLength)
  }

  answered(q: SurveyQuestion): boolean {
    if (q.kind === 'rating') return (this.ratings[q.id] ?? 0) > 0
    if (q.kind === 'text') return (this.texts[q.id] ?? '').trim().length > 0
    return (this.options[q.id] ?? []).length > 0
  }

  /** The required questions not answered yet, in words: 第2题「……」. */
  get missing(): string[] {
    return this.questions.filter((q) => q.required && !this.answered(q)).map((q) => `${questionLabel(this.questions, q)}「${q.title}」`)
  }

  get answers(): SurveyAnswerItem[] {
    return this.questions
      .filter((q) => this.answered(q))
      .map((q) =>
        q.kind === 'rating'
          ? { questionId: q.id, rating: this.ratings[q.id] }
          : q.kind === 'text'
            ? { questionId: q.id, text: this.texts[q.id]!.trim() }
            : { questionId: q.id, options: q.options.filter((o) => this.options[q.id]!.includes(o.id)).map((o) => o.id) },
      )
  }

  /** Sends the answer; null when something required is missing or the server refused (its words kept for the page). */
  async submit(): Promise<SurveyResult | null> {
    const survey = this.survey.value
    if (!survey) return null
    if (this.submitted) return this.submitted
    if (this.missing.length > 0) {
      this.refusal = `请回答必答题：${this.missing.join('、')}`
      toastError('还有必答题未回答')
      return null
    }
    return this.submission.run(async () => {
      this.refusal = null
      try {
        const result = await api.submitSurvey({ surveyId: survey.id, answers: this.answers })
        runInAction(() => (this.submitted = result))
        toastSuccess(SUBMITTED_TEXT)
        return result
      } catch (e) {
        runInAction(() => {
          if (e instanceof ApiError && !outcomeUnknown(e)) this.refusal = e.message
        })
        return null
      }
    })
  }
}

/** The hospital's surveys with 已参与 marks (/pages/survey/list), page-local. */
export const newSurveyList = () => new Loadable((hospitalCode: string) => api.listSurveys(hospitalCode))

/** The caller's own answer with its survey (/pages/survey/result), page-local. */
export const newSurveyResult = () => new Loadable((surveyId: number) => api.getSurveyResult(surveyId))
