import { get } from './request'
import type { TodayQueue } from '../../types/api/queue'

/**
 * 排队叫号 (spec §2 /palm/callRegister/index), `/dld-palm/api/queue`: today's numbers of the chosen patient, or of all
 * the account's patients, at the hospital. Changes are pushed on the chat service's socket (stores/QueueStore.ts).
 */
export const getTodayQueue = (hospitalCode: string, patientId?: number) =>
  get<TodayQueue>('/dld-palm/api/queue/today', patientId === undefined ? { hospitalCode } : { hospitalCode, patientId }, { noLoading: true })
