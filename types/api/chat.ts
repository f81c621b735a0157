/**
 * Instant-messaging shapes shared by the app's chat drivers (Tencent IM, our own chat service) and that service.
 * Account ids are IM accounts: a patient is `0_` + user id (spec §2).
 */

/**
 * The custom "desc" the doctor side puts on a message to mark a turn in the consultation order: start, return,
 * doctor busy, order finished (spec §4 chat session). The app names them in `ORDER_DESCRIPTION`.
 */
export type OrderDescription = 'start' | 'return' | 'doctorBusy' | 'orderFinished'

export type ChatMessageType = 'text' | 'image'

/** spec §4: a sent message is created, then sendSuccess or sendFail. */
export type ChatMessageStatus = 'created' | 'sendSuccess' | 'sendFail'

export interface ChatMessage {
  id: string
  conversationID: string
  /** IM account of the sender */
  from: string
  /** IM account of the receiver */
  to: string
  type: ChatMessageType
  /** the text, or the image url */
  payload: string
  /** the doctor side's custom desc ('' when none); an OrderDescription marks a turn in the order */
  description: string
  /** ms since epoch */
  time: number
  status: ChatMessageStatus
}

/** spec §3 conversation item. */
export interface ChatConversation {
  conversationID: string
  /** IM account of the other side */
  peer: string
  unreadCount: number
  lastMessage: ChatMessage | null
}

/** One page of a conversation's history, newest last; `nextCursor` null when nothing older is left. */
export interface ChatMessagePage {
  messages: ChatMessage[]
  nextCursor: string | null
}

export type NetworkState = 'connected' | 'connecting' | 'disconnected'

/** Every event a chat driver emits, with its payload. */
export interface ChatEvents {
  ready: undefined
  messageReceived: ChatMessage[]
  conversationListUpdated: ChatConversation[]
  kickedOut: { reason: string }
  networkStateChange: { state: NetworkState }
  error: { code: number; message: string }
}

export type ChatEvent = keyof ChatEvents
