import Taro from '@tarojs/taro'
import type { ChatClientFrame, ChatConversation, ChatMessage, ChatMessagePage, ChatServerFrame } from '../../../types/api/chat'
import { ChatEventSource, type ChatDriver } from './driver'

/** A request the service has not answered by then failed (the message shows sendFail and can be sent again). */
export const REQUEST_TIMEOUT_MS = 10_000
/** Reconnecting after a dropped connection waits 1 s, then twice as long each time, up to 30 s. */
export const RECONNECT_MIN_MS = 1000
export const RECONNECT_MAX_MS = 30_000
/** The service closes with this code for a bad or expired signature: the store logs in again with a fresh one. */
export const CLOSE_BAD_SIGNATURE = 4401
/**
 * "Going away": a server draining for a restart closes every socket with it. The signature is still good, so it is a
 * dropped connection like any other: connect again with the usual backoff (the load balancer picks another server).
 */
export const CLOSE_GOING_AWAY = 1001

/** The service's address beside the API: same origin in H5, the configured API origin in the mini-programs. */
export function chatSocketUrl(userSig: string): string {
  const origin = API_BASE || (typeof location !== 'undefined' ? location.origin : '')
  return `${origin.replace(/^http/, 'ws')}/dld-im/ws?sig=${encodeURIComponent(userSig)}`
}

type Pending = { resolve: (data: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }

/**
 * The driver for our own chat service (`/dld-im/ws`, the `local` driver of /dld-im/im/user-sig), over Taro's
 * WebSocket so that H5 and both mini-programs share it. A dropped connection is opened again with backoff (network
 * state events), a refused signature is a kick-out (the store logs in again with a fresh one).
 */
export class LocalChatDriver extends ChatEventSource implements ChatDriver {
  private socket: Taro.SocketTask | null = null
  private sig = ''
  private loggedIn = false
  private seq = 0
  private retryMs = RECONNECT_MIN_MS
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private readonly pending = new Map<string, Pending>()

  /** Connects with this signature; resolves once the service has accepted it (then 'ready'). */
  async login(_userID: string, userSig: string): Promise<void> {
    this.close()
    this.sig = userSig
    this.loggedIn = true
    await this.connect()
  }

  async logout(): Promise<void> {
    this.loggedIn = false
    this.close()
  }

  /** Our service keeps no profiles: the doctor side reads the patient from the consultation order. */
  async updateProfile(): Promise<void> {}

  getConversationList() {
    return this.request<ChatConversation[]>({ op: 'conversations' })
  }

  getMessageList(conversationID: string, cursor?: string) {
    const peer = conversationID.replace(/^C2C/, '')
    return this.request<ChatMessagePage>({ op: 'history', peer, ...(cursor ? { before: cursor } : {}) })
  }

  sendMessage(message: ChatMessage) {
    return this.request<ChatMessage>({
      op: 'send',
      message: { clientId: message.id, to: message.to, type: message.type, payload: message.payload, ...(message.description ? { description: message.description } : {}) },
    })
  }

  async setMessageRead(conversationID: string) {
    await this.request({ op: 'read', peer: conversationID.replace(/^C2C/, '') })
  }

  private connect(): Promise<void> {
    this.emit('networkStateChange', { state: 'connecting' })
    return new Promise((resolve, reject) => {
      let opened = false
      void Taro.connectSocket({ url: chatSocketUrl(this.sig) })
        .then((socket) => {
          this.socket = socket
          socket.onOpen(() => {
            opened = true
            this.retryMs = RECONNECT_MIN_MS
            this.emit('networkStateChange', { state: 'connected' })
            this.emit('ready', undefined)
            resolve()
          })
          socket.onMessage(({ data }) => this.receive(String(data)))
          socket.onClose(({ code, reason }) => {
            if (this.socket !== socket) return
            this.socket = null
            this.failPending()
            if (code === CLOSE_BAD_SIGNATURE) {
              this.loggedIn = false
              this.emit('kickedOut', { reason: reason || 'signature refused' })
              if (!opened) reject(new Error('chat signature refused'))
              return
            }
            // CLOSE_GOING_AWAY included: only a refused signature ends the session
            this.emit('networkStateChange', { state: 'disconnected' })
            if (!opened) reject(new Error(`chat connection closed (${code})`))
            this.scheduleReconnect()
          })
          socket.onError(() => {
            // onClose follows with the code; nothing to add here but the state
            this.emit('networkStateChange', { state: 'disconnected' })
          })
        })
        .catch((e: unknown) => {
          this.emit('error', { code: 0, message: e instanceof Error ? e.message : 'connectSocket failed' })
          reject(e instanceof Error ? e : new Error('connectSocket failed'))
        })
    })
  }

  private scheduleReconnect() {
    if (!this.loggedIn || this.retryTimer) return
    const wait = this.retryMs
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (this.loggedIn) void this.connect().catch(() => undefined)
    }, wait)
  }

  private receive(text: string) {
    let frame: ChatServerFrame
    try {
      frame = JSON.parse(text) as ChatServerFrame
    } catch {
      return
    }
    if (frame.op === 'reply') {
      const p = this.pending.get(frame.id)
      if (!p) return
      this.pending.delete(frame.id)
      clearTimeout(p.timer)
      if (frame.ok) p.resolve(frame.data)
      else p.reject(new Error(frame.error))
    } else if (frame.op === 'message') this.emit('messageReceived', [frame.message])
    else if (frame.op === 'conversationsUpdated') {
      this.getConversationList()
        .then((list) => this.emit('conversationListUpdated', list))
        .catch(() => undefined)
    } else if (frame.op === 'kicked') this.emit('kickedOut', { reason: frame.reason })
  }

  private request<T>(frame: Record<string, unknown> & { op: ChatClientFrame['op'] }): Promise<T> {
    const socket = this.socket
    if (!socket) return Promise.reject(new Error('chat not connected'))
    const id = `q${++this.seq}`
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error('chat request timed out'))
      }, REQUEST_TIMEOUT_MS)
      this.pending.set(id, { resolve: resolve as (d: unknown) => void, reject, timer })
      socket.send({ data: JSON.stringify({ ...frame, id }) })
    })
  }

  /** Requests on a connection that closed will not be answered: they fail now (sendFail, with a resend). */
  private failPending() {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer)
      p.reject(new Error('chat connection closed'))
    }
    this.pending.clear()
  }

  private close() {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    const socket = this.socket
    this.socket = null
    this.failPending()
    socket?.close({ code: 1000, reason: 'logout' })
  }
}
