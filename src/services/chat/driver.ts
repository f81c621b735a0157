import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage, ChatMessagePage } from '../../../types/api/chat'

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
