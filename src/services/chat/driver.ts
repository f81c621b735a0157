import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage, ChatMessagePage, OrderDescription } from '../../../types/api/chat'

/** The doctor side's order descriptions (spec §4 chat session): each one reloads the order detail in the room. */
export const ORDER_DESCRIPTION = {
  start: 'start',
  return: 'return',
  doctorBusy: 'doctorBusy',
  orderFinished: 'orderFinished',
} as const satisfies Record<string, OrderDescription>

const orderDescriptions: readonly string[] = Object.values(ORDER_DESCRIPTION)
export const isOrderDescription = (description: string): description is OrderDescription => orderDescriptions.includes(description)

/** The conversation with one account: Tencent IM's C2C id, which our own chat service copies. */
export const conversationIDOf = (peer: string) => `C2C${peer}`

export type ChatHandler<E extends ChatEvent> = (payload: ChatEvents[E]) => void

/**
 * The one instant-messaging driver: the Tencent IM SDK and our own WebSocket chat service both implement it,
 * so the chat store never knows which one it talks to. Failures reject.
 */
export interface ChatDriver {
  login(userID: string, userSig: string): Promise<void>
  logout(): Promise<void>
  updateProfile(profile: { nick: string; avatar: string }): Promise<void>
  getConversationList(): Promise<ChatConversation[]>
  /** history older than `cursor` (the newest page without it) */
  getMessageList(conversationID: string, cursor?: string): Promise<ChatMessagePage>
  /** resolves with the message as the service stored it (its id and time) */
  sendMessage(message: ChatMessage): Promise<ChatMessage>
  setMessageRead(conversationID: string): Promise<void>
  on<E extends ChatEvent>(event: E, handler: ChatHandler<E>): void
  off<E extends ChatEvent>(event: E, handler: ChatHandler<E>): void
}
