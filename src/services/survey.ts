import { get, post } from './request'
import type { Survey, SurveyAnswerInput, SurveyResult, SurveySummary } from '../../types/api/survey'

/** Satisfaction surveys (满意度调查), `/dld-hospital/survey` (spec §7 Internet hospital → Surveys). */
const API = '/dld-hospital/survey'

/** The hospital's surveys, each saying whether the caller answered it; silent: the list shows 加载失败. */
export const listSurveys = (hospitalCode: string) => get<SurveySummary[]>(`${API}/list`, { hospitalCode }, { noLoading: true, silent: true })

/** One survey with its questions. */
export const getSurvey = (id: number) => get<Survey>(`${API}/${id}`, undefined, { noLoading: true })

/** The caller's own answer with the survey (2999 when the caller has not answered it). */
export const getSurveyResult = (id: number) => get<SurveyResult>(`${API}/result/${id}`, undefined, { noLoading: true })

/** Answers a survey, once; JSON for the lists of options. */
export const submitSurvey = (input: SurveyAnswerInput) => post<SurveyResult>(API, input, { json: true })
