import { post } from './request'
import type { TriageAnswer, TriageRequest } from '../../types/api/triage'

/**
 * The doctor AI agent's answer to a complaint (智能导诊, `/dld-palm/api/ai/triage`). No loading mask: the chat shows
 * its own "thinking" bubble; a refusal (a description too long, an unknown hospital) is toasted by the request layer.
 */
export const askTriage = (input: TriageRequest) => post<TriageAnswer>('/dld-palm/api/ai/triage', input, { noLoading: true })
