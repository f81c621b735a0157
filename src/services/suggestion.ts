import { get, post } from './request'
import type { Suggestion, SuggestionInput } from '../../types/api/suggestion'

/** 投诉建议, `/dld-hospital/userSuggestion` (spec §7 Surveys → POST /userSuggestion). */
const API = '/dld-hospital/userSuggestion'

/** Sends a complaint, suggestion or praise; the same idempotencyKey again is the same one. JSON for the pictures. */
export const submitSuggestion = (input: SuggestionInput) => post<Suggestion>(API, input, { json: true })

/** The caller's own, with the hospital's answers; silent: the list shows 加载失败. */
export const listMySuggestions = (hospitalCode: string) => get<Suggestion[]>(`${API}/list`, { hospitalCode }, { noLoading: true, silent: true })
