/**
 * The message centre (消息中心), `/dld-hospital/message`: notices to the signed-in user about their consultations and
 * orders, written by the server when the thing they tell of happens. Spec §2 /pages/message/index, §7 Tools and misc
 * (`GET /message/messageList`). `POST /message/read` is this server's own addition (the spec lists no call to mark a
 * notice read).
 */
import type { Page } from './hospital'

export type UserMessageKind = 'inquiry' | 'register' | 'payment' | 'system'

export interface UserMessage {
  id: number
  kind: UserMessageKind
  title: string
  content: string
  /** The app page the notice opens (e.g. `/pages/order/inquiry/detail?id=3`), '' when none. */
  link: string
  read: boolean
  createdAt: string
}

/** `GET /message/messageList?page=&size=`: newest first, with how many of all the user's notices are unread. */
export interface UserMessagePage extends Page<UserMessage> {
  unread: number
}

/** `POST /message/read` {id?}: one notice read, or all of them without an id. */
export interface MessageReadInput {
  id?: number
}

export interface MessageReadResult {
  /** How many notices were marked read by this call. */
  marked: number
  /** How many are still unread. */
  unread: number
}
