import type { ChatMessage, ChatMessageType, OrderDescription } from '../../types/api/chat'
import type { PrescriptionCard } from '../../types/api/pharmacy'

/**
 * The chat's rules that the app checks before it sends and the server enforces (server/src/domain/chat.ts): one copy
 * for both sides.
 */

/** IM accounts (spec §2): a patient is `0_` + user id, a doctor `d_` + doctor id, a physician assistant (医生助理) `a_` + assistant id. */
export const PATIENT_PREFIX = '0_'
export const DOCTOR_PREFIX = 'd_'
export const ASSISTANT_PREFIX = 'a_'
export const patientImAccount = (userId: number) => `${PATIENT_PREFIX}${userId}`
/** The conversation with one account: Tencent IM's C2C id, which our own chat service copies. */
export const conversationIDOf = (peer: string) => `C2C${peer}`

/** spec §5 chat send; `ended` when the consultation is over and the room takes no more messages. */
export const CHAT_MSG = { noReceiver: '接收人不能为空', emptyContent: '发送内容不能为空', ended: '本次问诊已结束，无法发送消息' } as const

/** Our chat service stores a text of at most this many characters. */
export const CHAT_TEXT_MAX = 2000

/** The doctor side's order descriptions (spec §4 chat session): each one reloads the order detail in the room. */
export const ORDER_DESCRIPTION = {
  start: 'start',
  return: 'return',
  doctorBusy: 'doctorBusy',
  orderFinished: 'orderFinished',
} as const satisfies Record<string, OrderDescription>

const orderDescriptions: readonly string[] = Object.values(ORDER_DESCRIPTION)
export const isOrderDescription = (description: string): description is OrderDescription => orderDescriptions.includes(description)

/**
 * A prescription the pharmacist approved reaches the room as a message of this type (over Tencent IM: a custom message
 * with this desc) whose payload is the card (PrescriptionCard, types/api/pharmacy.ts) as JSON; the room draws 处方笺.
 */
export const PRESCRIPTION_MESSAGE = 'prescription' satisfies ChatMessageType

/** The prescription card a message carries, or null (another message, or a payload that is not a card). */
export function prescriptionCardOf(m: Pick<ChatMessage, 'type' | 'payload'>): PrescriptionCard | null {
  if (m.type !== PRESCRIPTION_MESSAGE) return null
  try {
    const card = JSON.parse(m.payload) as Partial<PrescriptionCard> | null
    if (!card || typeof card.prescriptionId !== 'number' || !Array.isArray(card.drugNames)) return null
    return { prescriptionId: card.prescriptionId, presNo: String(card.presNo ?? ''), diagnoses: card.diagnoses ?? [], drugNames: card.drugNames, totalFen: Number(card.totalFen) || 0 }
  } catch {
    return null
  }
}
