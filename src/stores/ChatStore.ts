import { makeAutoObservable, runInAction } from 'mobx'
import * as auth from '@/services/auth'
import * as hospitalApi from '@/services/hospital'
import * as inquiryApi from '@/services/inquiry'
import { conversationIDOf, isOrderDescription, type ChatDriver } from '@/services/chat/driver'
import { LocalChatDriver } from '@/services/chat/localDriver'
import { packNickname, type NicknameParts } from '@/utils/nickname'
import { newIdempotencyKey } from '@/utils/register'
import type { UserSig } from '../../types/api/auth'
import type { ChatConversation, ChatEvents, ChatMessage, ChatMessagePage, ChatMessageType, OrderDescription } from '../../types/api/chat'
import type { ConsultationItem } from '../../types/api/hospital'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'

/** The patient's IM account: prefix 0_ plus the user id (spec §2). */
export const imAccountOf = (userId: number) => `0_${userId}`

/** spec §9: re-login attempts stay under 5. */
export const RELOGIN_LIMIT = 5
/** spec §9: conversation refresh delay. */
export const CONVERSATION_REFRESH_MS = 1000

/** spec §5 chat send; `ended` when the consultation is over and the room takes no more messages. */
export const CHAT_MSG = { noReceiver: '接收人不能为空', emptyContent: '发送内容不能为空', ended: '本次问诊已结束，无法发送消息' } as const

/** A message sent before the driver is ready waits this long for it, then fails (and can be sent again). */
export const READY_WAIT_MS = 10_000

/** Our chat service stores a text of at most this many characters (server domain/chat TEXT_MAX). */
export const CHAT_TEXT_MAX = 2000

/** The doctor side's marks of a turn in the order (spec §4), shown in the room as centred notes instead of bubbles. */
export const ORDER_NOTE: Record<OrderDescription, string> = {
  start: '医生已接诊',
  return: '医生已退诊，费用将原路退回',
  doctorBusy: '医生正在忙，请稍候',
  orderFinished: '问诊已结束',
}

/** The consultation takes messages while it waits for the doctor and while the doctor serves it. */
const OPEN_STATUSES: readonly InquiryStatus[] = ['waiting', 'inProgress']
const ENDED_STATUSES: readonly InquiryStatus[] = ['finished', 'closed', 'cancelled']

/** The other side of a message of a chat: the receiver of our own, the sender of theirs. */
const peerOf = (m: ChatMessage, me: string) => (m.from === me ? m.to : m.from)
const byTime = (a: ChatMessage, b: ChatMessage) => a.time - b.time


/** The IM profile: nick and avatar, plus the patient's sex, age and order type once a consultation knows them (spec §3). */
export type ChatProfile = { nick: string; avatar: string } & Partial<Omit<NicknameParts, 'nick'>>

/** spec §4: the server's consultations with the unread counts of their IM conversations merged in. */
const mergeUnread = (list: ConsultationItem[], conversations: ChatConversation[]): ConsultationItem[] => {
  const unread = new Map(conversations.map((c) => [c.conversationID, c.unreadCount]))
  return list.map((c) => {
    const n = c.conversationID === undefined ? undefined : unread.get(c.conversationID)
    return n === undefined ? c : { ...c, unreadCount: n }
  })
}

/**
 * Chat state of spec §3 and the chat session of spec §4, over whichever driver is attached (the Tencent IM SDK or
 * our own chat service, loaded with the pages that chat). Without a driver it still holds the signature and the
 * server's consultation list.
 */
export class ChatStore {
  userID = ''
  toUserID = ''
  signature: UserSig | null = null
  conversationList: ConsultationItem[] = []
  /** The IM service's own conversations (doctors and assistants), as last listed; empty without a driver. */
  imConversations: ChatConversation[] = []
  selectedConversation: ConsultationItem | null = null
  /** The room's consultation order (the inquiry detail), reloaded when the doctor side marks a turn (spec §4). */
  order: Inquiry | null = null
  /** The inquiry the room is open for; null when the room was opened for an account alone. */
  inquiryId: number | null = null
  orderFailed = false
  messageList: ChatMessage[] = []
  /** What the patient is typing in the room. */
  draft = ''
  /** Older history is being fetched (loadOlder), or the last attempt failed. */
  loadingOlder = false
  olderFailed = false
  scrollTop = 0
  doctorInfo: unknown = null
  loading = false
  loadFailed = false
  /** the driver is logged in and has said it is ready */
  ready = false
  /** the driver's connection is up (its last network state); a ready driver may be reconnecting */
  connected = true
  /**
   * Called (after the store has started reloading `order` itself) when the doctor side marks a turn in the order of
   * the open chat: for whoever else shows the consultation (the order lists).
   */
  onOrderChanged: (() => void) | null = null

  private driver: ChatDriver | null = null
  private profile: ChatProfile | null = null
  private hospitalCode: string | undefined = undefined
  private reloginAttempts = 0
  private relogging = false
  private refreshTimer: ReturnType<typeof setTimeout> | null = null
  /** The driver's cursor for the history older than what the room shows; null when nothing older is left. */
  private cursor: string | null = null
  /** The newest page of the open chat has been loaded at least once. */
  private historyLoaded = false
  /** Pictures of the room not uploaded yet: message id -> the local file chosen. */
  private readonly pendingUploads = new Map<string, string>()
  /** Answers to older order loads are dropped when a newer one was asked for. */
  private orderSeq = 0
  /** Sends waiting for the driver to be ready (each settles with whether it became ready in time). */
  private readonly readyWaiters = new Set<(ready: boolean) => void>()

  constructor(driver?: ChatDriver) {
    makeAutoObservable<ChatStore, 'driver' | 'reloginAttempts' | 'relogging' | 'refreshTimer' | 'pendingUploads' | 'orderSeq' | 'readyWaiters'>(
      this,
      {
        onOrderChanged: false,
        driver: false,
        reloginAttempts: false,
        relogging: false,
        refreshTimer: false,
        pendingUploads: false,
        orderSeq: false,
        readyWaiters: false,
      },
      { autoBind: true },
    )
    if (driver) this.attach(driver)
  }

  get unreadTotal() {
    return this.conversationList.reduce((n, c) => n + c.unreadCount, 0)
  }

  /** The IM unread count of the conversation with one account (an assistant's `a_<id>`). */
  unreadWith(account: string): number {
    return this.imConversations.find((c) => c.conversationID === conversationIDOf(account))?.unreadCount ?? 0
  }

  /** Messages can go out now: the driver is ready and connected. */
  get online() {
    return this.ready && this.connected
  }

  /** Older history can be fetched for the open chat (loadOlder). */
  get hasMore() {
    return this.historyLoaded && this.cursor !== null
  }

  /** The room takes messages: no order known, or one that waits for or is served by the doctor. */
  get canSend() {
    return !this.order || OPEN_STATUSES.includes(this.order.status)
  }

  /** The consultation is over: finished, closed or cancelled. */
  get orderEnded() {
    return !!this.order && ENDED_STATUSES.includes(this.order.status)
  }

  /** Connects a driver; logs in at once when startup has already fetched the signature. */
  attach(driver: ChatDriver) {
    this.dispose()
    this.driver = driver
    this.listen(driver, 'on')
    if (this.signature) void this.login()
  }

  /** Drops the pending refresh and lets go of the driver, so nothing outlives the store. */
  dispose() {
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
    for (const settle of [...this.readyWaiters]) settle(false)
    if (this.driver) this.listen(this.driver, 'off')
    this.driver = null
    this.ready = false
  }

  /**
   * spec §2 startup: the signature of IM account 0_ + user id; with a driver attached, the login follows, and the
   * profile (packed nickname and avatar) is set once the driver is ready.
   */
  async requestSignature(userId: number, profile?: ChatProfile) {
    const sig = await auth.getUserSig(imAccountOf(userId))
    runInAction(() => {
      this.userID = sig.imAccount
      this.signature = sig
      if (profile) this.profile = profile
    })
    if (this.driver) await this.login()
    // the signature says which service: ours is built in (attaching logs in); Tencent IM's driver and SDK load
    // now, in a chunk of their own; if they cannot, the store goes on without chat
    else if (sig.driver === 'local') this.attach(new LocalChatDriver())
    else if (sig.driver === 'tim') {
      try {
        const { TimChatDriver } = await import(/* webpackChunkName: "tim" */ '@/services/chat/timDriver')
        if (!this.driver && this.userID === sig.imAccount) this.attach(new TimChatDriver(sig.sdkAppId))
      } catch (e) {
        console.warn('chat SDK not loaded', e)
      }
    }
  }

  loadConversations(hospitalCode?: string) {
    this.hospitalCode = hospitalCode
    return this.refreshConversations()
  }

  /**
   * The room opens the chat with one doctor, for one inquiry: its order loads, and the history once the driver is
   * ready; messages from that account are appended from now on. Without an account the order's doctor is the peer.
   */
  async openChat(toUserID: string, inquiryId?: number) {
    this.toUserID = toUserID
    this.inquiryId = inquiryId ?? null
    this.order = null
    this.orderFailed = false
    this.orderSeq += 1 // an answer for the room opened before does not land in this one
    this.clearRoom()
    const history = toUserID && this.ready ? this.loadHistory() : Promise.resolve()
    const [order] = await Promise.all([this.loadOrder(), history])
    if (!toUserID && order?.doctor.imAccount && this.inquiryId === order.id && !this.toUserID) {
      runInAction(() => {
        this.toUserID = order.doctor.imAccount
      })
      if (this.ready) await this.loadHistory()
    }
  }

  /** The room was left: its messages are no longer appended nor marked read. */
  closeChat() {
    this.toUserID = ''
    this.inquiryId = null
    this.order = null
    this.orderFailed = false
    this.orderSeq += 1
    this.clearRoom()
  }

  setDraft(text: string) {
    this.draft = text
  }

  /**
   * spec §5: receiver required and content non-empty; returns the text to show when not, else null once the
   * message has gone from created to sendSuccess or sendFail (spec §4). Without an argument it sends the draft,
   * which empties once the message is on its way.
   */
  async send(text: string = this.draft): Promise<string | null> {
    if (!this.toUserID) return CHAT_MSG.noReceiver
    if (!text.trim()) return CHAT_MSG.emptyContent
    if (!this.canSend) return CHAT_MSG.ended
    if (text === this.draft) this.draft = ''
    const message = this.newMessage('text', text)
    this.messageList.push(message)
    await this.deliver(message)
    return null
  }

  /**
   * A picture the patient chose (a local file path): shown at once as created, uploaded, then sent as the url the
   * upload answered. A failed upload is a failed message too; resend uploads it again.
   */
  async sendImage(filePath: string): Promise<string | null> {
    if (!this.toUserID) return CHAT_MSG.noReceiver
    if (!filePath) return CHAT_MSG.emptyContent
    if (!this.canSend) return CHAT_MSG.ended
    const message = this.newMessage('image', filePath)
    this.pendingUploads.set(message.id, filePath)
    this.messageList.push(message)
    await this.deliver(message)
    return null
  }

  /**
   * A message the server stored for the patient in the open chat (a shared record, 续方申请): shown at once, unless
   * the chat service has delivered it already (it is never shown twice, whichever comes first).
   */
  appendSent(message: ChatMessage) {
    if (!this.toUserID || peerOf(message, this.userID) !== this.toUserID) return
    if (this.messageList.some((m) => m.id === message.id)) return
    this.messageList.push({ ...message, status: 'sendSuccess' })
  }

  /** Sends a failed message again. */
  async resend(id: string) {
    const failed = this.messageList.find((m) => m.id === id && m.status === 'sendFail')
    if (!failed || !this.canSend) return
    failed.status = 'created'
    await this.deliver({ ...failed })
  }

  /** The page of history before the oldest message the room shows (pull-up or 查看更多消息). */
  async loadOlder() {
    const { driver, toUserID, cursor } = this
    if (!driver || !this.ready || !toUserID || cursor === null || !this.historyLoaded || this.loadingOlder) return
    this.loadingOlder = true
    this.olderFailed = false
    try {
      const page = await driver.getMessageList(conversationIDOf(toUserID), cursor)
      runInAction(() => {
        if (this.toUserID !== toUserID || this.cursor !== cursor) return
        const shown = new Set(this.messageList.map((m) => m.id))
        this.messageList = [...page.messages.filter((m) => !shown.has(m.id)), ...this.messageList]
        this.cursor = page.nextCursor
      })
    } catch (e) {
      console.warn('chat older history failed', e)
      runInAction(() => {
        this.olderFailed = true
      })
    } finally {
      runInAction(() => {
        this.loadingOlder = false
      })
    }
  }

  /** The room's inquiry detail, again (spec §4: after the doctor side marks a turn; after a reconnect). */
  async loadOrder(): Promise<Inquiry | null> {
    const id = this.inquiryId
    if (!id) return null
    const seq = ++this.orderSeq
    try {
      const order = await inquiryApi.getInquiry(id)
      runInAction(() => {
        if (seq !== this.orderSeq) return
        this.order = order
        this.orderFailed = false
      })
      return order
    } catch {
      runInAction(() => {
        if (seq === this.orderSeq) this.orderFailed = true
      })
      return null
    }
  }

  /** The patient ends the consultation in progress (结束问诊); false when the server refused (it said why). */
  async finishOrder(): Promise<boolean> {
    return this.updateOrder(inquiryApi.finishInquiry)
  }

  /** The service window ran out on the page: the server closes the inquiry when it has (and says so). */
  async checkOrder(): Promise<boolean> {
    return this.updateOrder(inquiryApi.checkInquiry)
  }

  /** Signs out of chat: the user changed or signed out. */
  reset() {
    if (this.driver && this.ready) void this.driver.logout().catch((e) => console.warn('chat logout failed', e))
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
    for (const settle of [...this.readyWaiters]) settle(false)
    this.ready = false
    this.userID = ''
    this.signature = null
    this.profile = null
    this.conversationList = []
    this.imConversations = []
    this.closeChat()
  }

  private listen(driver: ChatDriver, method: 'on' | 'off') {
    driver[method]('ready', this.handleReady)
    driver[method]('kickedOut', this.handleLost)
    driver[method]('error', this.handleLost)
    driver[method]('networkStateChange', this.handleNetworkState)
    driver[method]('messageReceived', this.handleMessages)
    driver[method]('conversationListUpdated', this.handleConversationsUpdated)
  }

  private handleReady() {
    this.ready = true
    this.connected = true
    this.reloginAttempts = 0
    for (const settle of [...this.readyWaiters]) settle(true)
    void this.refreshConversations()
    void this.pushProfile()
    // after a reconnect the room shows the history again, and the order as it is now (turns may have been missed)
    if (this.toUserID) void this.loadHistory()
    void this.loadOrder()
  }

  private handleLost(why: ChatEvents['kickedOut'] | ChatEvents['error']) {
    console.warn('chat lost, logging in again', why)
    this.ready = false
    void this.relogin()
  }

  /**
   * spec §4: network states do not log in again (the driver reconnects by itself); the store logs them and keeps
   * whether the connection is up, so the room says so and a message waits for it instead of failing at once.
   */
  private handleNetworkState({ state }: ChatEvents['networkStateChange']) {
    console.info('chat network', state)
    this.connected = state === 'connected'
    if (this.online) for (const settle of [...this.readyWaiters]) settle(true)
  }

  private handleMessages(messages: ChatEvents['messageReceived']) {
    if (!this.toUserID) return
    // a message of this chat either comes from the doctor or is our own, sent from another device; one the room
    // shows already (history reloaded after a reconnect) is not shown twice
    const shown = new Set(this.messageList.map((m) => m.id))
    const inChat = messages.filter((m) => peerOf(m, this.userID) === this.toUserID && !shown.has(m.id))
    if (!inChat.length) return
    this.messageList.push(...inChat)
    // the room is open: what the doctor wrote is read
    if (inChat.some((m) => m.from === this.toUserID)) void this.markRead()
    if (inChat.some((m) => isOrderDescription(m.description))) {
      void this.loadOrder()
      this.onOrderChanged?.()
    }
  }

  /** Updates come in bursts: the first one schedules the refresh, the rest of that second ride along. */
  private handleConversationsUpdated() {
    if (this.refreshTimer) return
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null
      void this.refreshConversations()
    }, CONVERSATION_REFRESH_MS)
  }

  private async login() {
    const { driver, signature } = this
    if (!driver || !signature) return
    try {
      await driver.login(signature.imAccount, signature.userSig)
    } catch (e) {
      console.warn('chat login failed', e)
      await this.relogin() // spec §8: a failed start logs in again
    }
  }

  /** spec §4: a fresh signature each time, fewer than 5 attempts until the driver is ready again. */
  private async relogin() {
    const driver = this.driver
    if (!driver || this.relogging || !this.userID) return
    this.relogging = true
    try {
      while (this.driver === driver && this.reloginAttempts < RELOGIN_LIMIT) {
        this.reloginAttempts += 1
        try {
          const sig = await auth.getUserSig(this.userID)
          runInAction(() => {
            this.signature = sig
          })
          await driver.login(sig.imAccount, sig.userSig)
          return
        } catch (e) {
          console.warn(`chat re-login ${this.reloginAttempts} failed`, e)
        }
      }
    } finally {
      this.relogging = false
    }
  }

  private async refreshConversations() {
    this.loading = true
    this.loadFailed = false
    // the server's own counts stand when IM cannot answer
    const fromIm = this.driver && this.ready ? this.driver.getConversationList().catch(() => null) : Promise.resolve(null)
    void fromIm.then((conversations) => {
      if (conversations) runInAction(() => (this.imConversations = conversations))
    })
    try {
      const [list, conversations] = await Promise.all([hospitalApi.listConsultations(this.hospitalCode), fromIm])
      runInAction(() => {
        this.conversationList = mergeUnread(list, conversations ?? [])
      })
    } catch {
      runInAction(() => {
        this.loadFailed = true
      })
    } finally {
      runInAction(() => {
        this.loading = false
      })
    }
  }

  private async pushProfile() {
    if (!this.driver || !this.profile) return
    const { nick, avatar, sex = '', age = '', orderType = '' } = this.profile
    try {
      await this.driver.updateProfile({ nick: packNickname({ nick, sex, age, orderType }), avatar })
    } catch (e) {
      console.warn('chat profile update failed', e)
    }
  }

  /**
   * The newest page of the open chat. The first time it is the start of the room; again (after a reconnect) it joins
   * what the room shows when the two meet, and replaces it when messages were missed in between (a gap no cursor
   * could fill). Sends still in progress or failed stay either way.
   */
  private async loadHistory() {
    const driver = this.driver
    const toUserID = this.toUserID
    if (!driver || !toUserID) return
    let page: ChatMessagePage
    try {
      page = await driver.getMessageList(conversationIDOf(toUserID))
    } catch (e) {
      console.warn('chat history failed', e)
      return
    }
    runInAction(() => {
      if (this.toUserID !== toUserID) return
      const fresh = new Set(page.messages.map((m) => m.id))
      const rest = this.messageList.filter((m) => !fresh.has(m.id))
      const meets = rest.length < this.messageList.length
      const gap = this.historyLoaded && !meets && page.nextCursor !== null
      const kept = gap ? rest.filter((m) => m.status !== 'sendSuccess') : rest
      // stable: messages that arrived while the history loaded stay after it
      this.messageList = [...page.messages, ...kept].sort(byTime)
      if (page.nextCursor === null || !this.historyLoaded || gap) this.cursor = page.nextCursor
      this.historyLoaded = true
    })
    await this.markRead()
  }

  /** Everything of the open chat is read: on the service, and at once in the consultation list. */
  private async markRead() {
    const driver = this.driver
    if (!driver || !this.ready || !this.toUserID) return
    const conversationID = conversationIDOf(this.toUserID)
    this.conversationList = this.conversationList.map((c) => (c.conversationID === conversationID && c.unreadCount ? { ...c, unreadCount: 0 } : c))
    this.imConversations = this.imConversations.map((c) => (c.conversationID === conversationID && c.unreadCount ? { ...c, unreadCount: 0 } : c))
    await driver.setMessageRead(conversationID).catch((e: unknown) => console.warn('chat read mark failed', e))
  }

  private clearRoom() {
    this.messageList = []
    this.draft = ''
    this.cursor = null
    this.historyLoaded = false
    this.loadingOlder = false
    this.olderFailed = false
    this.pendingUploads.clear()
  }

  private newMessage(type: ChatMessageType, payload: string): ChatMessage {
    return {
      // the service stores a message once per sender and id: unique across sessions and phones, and sent again as is
      id: newIdempotencyKey(),
      conversationID: conversationIDOf(this.toUserID),
      from: this.userID,
      to: this.toUserID,
      type,
      payload,
      description: '',
      time: Date.now(),
      status: 'created',
    }
  }

  private async updateOrder(call: (id: number) => Promise<Inquiry>): Promise<boolean> {
    const id = this.inquiryId
    if (!id) return false
    const seq = ++this.orderSeq
    try {
      const order = await call(id)
      runInAction(() => {
        if (seq === this.orderSeq) this.order = order
      })
      return true
    } catch {
      return false
    }
  }

  /** Resolves true once the driver is ready and connected, false when it is not within READY_WAIT_MS (or there is none). */
  private whenReady(): Promise<boolean> {
    if (this.online) return Promise.resolve(true)
    if (!this.driver) return Promise.resolve(false)
    return new Promise((resolve) => {
      const settle = (ready: boolean) => {
        clearTimeout(timer)
        this.readyWaiters.delete(settle)
        resolve(ready)
      }
      const timer = setTimeout(() => settle(false), READY_WAIT_MS)
      this.readyWaiters.add(settle)
    })
  }

  /**
   * spec §4: created, then sendSuccess with the service's copy of the message, or sendFail. A picture is uploaded
   * first. A message sent while the driver is not ready (connecting, logging in again) stays created until it is, and
   * fails when it is not within READY_WAIT_MS; it can be sent again.
   */
  private async deliver(message: ChatMessage) {
    let outgoing = message
    const localFile = this.pendingUploads.get(message.id)
    if (localFile !== undefined) {
      const uploaded = await auth.uploadFile(localFile).catch((e: unknown) => {
        console.warn('chat picture upload failed', e)
        return null
      })
      if (!uploaded) return this.finishSend(message, null)
      this.pendingUploads.delete(message.id)
      outgoing = { ...message, payload: uploaded.url }
    }
    const ready = await this.whenReady()
    if (!this.messageList.some((m) => m.id === message.id)) return // the chat was left meanwhile: nothing to send
    const driver = this.driver
    const sent =
      ready && driver
        ? await driver.sendMessage(outgoing).catch((e: unknown) => {
            console.warn('chat send failed', e)
            return null
          })
        : null
    this.finishSend(outgoing, sent)
  }

  private finishSend(message: ChatMessage, sent: ChatMessage | null) {
    const i = this.messageList.findIndex((m) => m.id === message.id)
    if (i < 0) return // the chat was left meanwhile
    this.messageList[i] = sent ? { ...sent, status: 'sendSuccess' } : { ...message, status: 'sendFail' }
  }
}
