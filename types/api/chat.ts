/**
 * Instant-messaging shapes shared by the app's chat drivers (Tencent IM, our own chat service) and that service.
 * Account ids are IM accounts: a patient is `0_` + user id (spec §2).
 */

/**
 * The custom "desc" the doctor side puts on a message to mark a turn in the consultation order: start, return,
 * doctor busy, order finished (spec §4 chat session). The app names them in `ORDER_DESCRIPTION`.
 */
export type OrderDescription = 'start' | 'return' | 'doctorBusy' | 'orderFinished'

/**
 * 'prescription' is the server's own card (payload: a PrescriptionCard of types/api/pharmacy.ts as JSON), sent from the
 * doctor's account when a pharmacist approves a prescription; a client sends only text and images.
 */
export type ChatMessageType = 'text' | 'image' | 'prescription'

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
  /** the text, the image url, or a prescription card's JSON */
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

/** `/dld-im/im/update-unread-count`: every unread consultation message of the signed-in user (the tab's badge). */
export interface UnreadCount {
  unreadCount: number
}

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

/**
 * Our own chat service's WebSocket frames (`/dld-im/ws?sig=`), JSON both ways. A request carries an `id` the
 * reply repeats; pushes carry none.
 */
export interface ChatSendInput {
  /** The sender's own id of the message: sending it again (after a dropped connection) stores it once. */
  clientId: string
  to: string
  type: ChatMessageType
  /** The text, or the url the upload call answered for a picture. */
  payload: string
  description?: string
  /** The consultation order the message belongs to. */
  orderNo?: string
}

export type ChatClientFrame =
  | { op: 'send'; id: string; message: ChatSendInput }
  | { op: 'history'; id: string; peer: string; before?: string; limit?: number }
  | { op: 'conversations'; id: string }
  | { op: 'read'; id: string; peer: string }

export type ChatServerFrame =
  | { op: 'reply'; id: string; ok: true; data: unknown }
  | { op: 'reply'; id: string; ok: false; error: string }
  | { op: 'message'; message: ChatMessage }
  | { op: 'conversationsUpdated' }
  | { op: 'kicked'; reason: string }
