import type { QueueTicket } from './palm'

/**
 * `GET /dld-palm/api/queue/today?hospitalCode=&patientId=` (排队叫号, spec §2 /palm/callRegister/index): today's numbers
 * of the chosen patient (or of all the caller's patients) at the hospital, from the bills paid today.
 */
export interface TodayTicket extends QueueTicket {
  patientId: number
  /** Masked (spec §9). */
  patientName: string
  orderNo: string
}

export interface TodayQueue {
  hospitalCode: string
  tickets: TodayTicket[]
}

/** Frames of the queue subscription on the chat socket (server/src/routes/chatSocket.ts). */
export type QueueClientFrame = { op: 'queue'; id: string; hospitalCode: string; patientId?: number } | { op: 'unqueue'; id: string }

/** Pushed when a number of a queue the subscriber waits in is called: the subscriber's tickets as they are now. */
export interface QueueChangedFrame {
  op: 'queueChanged'
  hospitalCode: string
  tickets: TodayTicket[]
}
