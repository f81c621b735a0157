import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage, ChatMessagePage } from '../../../types/api/chat'

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

/** The drivers' own event listeners: `on`/`off` for the store, `emit` for what the service or the SDK reports. */
export abstract class ChatEventSource {
  private readonly handlers = new Map<ChatEvent, Set<(payload: never) => void>>()

  on<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    const set = this.handlers.get(event) ?? new Set()
    set.add(handler as (payload: never) => void)
    this.handlers.set(event, set)
  }

  off<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    this.handlers.get(event)?.delete(handler as (payload: never) => void)
  }

  protected emit<E extends ChatEvent>(event: E, payload: ChatEvents[E]) {
    for (const h of this.handlers.get(event) ?? []) (h as ChatHandler<E>)(payload)
  }
}
