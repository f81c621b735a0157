import { makeAutoObservable, runInAction } from 'mobx'
import * as auth from '@/services/auth'
import * as hospitalApi from '@/services/hospital'
import { conversationIDOf, isOrderDescription, type ChatDriver } from '@/services/chat/driver'
import { LocalChatDriver } from '@/services/chat/localDriver'
import { packNickname, type NicknameParts } from '@/utils/nickname'
import { newIdempotencyKey } from '@/utils/register'
import type { UserSig } from '../../types/api/auth'
import type { ChatConversation, ChatEvents, ChatMessage } from '../../types/api/chat'
import type { ConsultationItem } from '../../types/api/hospital'

/** The patient's IM account: prefix 0_ plus the user id (spec §2). */
export const imAccountOf = (userId: number) => `0_${userId}`

/** spec §9: re-login attempts stay under 5. */
export const RELOGIN_LIMIT = 5
/** spec §9: conversation refresh delay. */
export const CONVERSATION_REFRESH_MS = 1000

/** spec §5 chat send. */
export const CHAT_MSG = { noReceiver: '接收人不能为空', emptyContent: '发送内容不能为空' } as const

/** A consultation of the server's list; its `conversationID`, when the server gives one, links it to the IM unread count. */
export type ChatConsultation = ConsultationItem & { conversationID?: string }

/** The IM profile: nick and avatar, plus the patient's sex, age and order type once a consultation knows them (spec §3). */
export type ChatProfile = { nick: string; avatar: string } & Partial<Omit<NicknameParts, 'nick'>>

/** spec §4: the server's consultations with the unread counts of their IM conversations merged in. */
const mergeUnread = (list: ChatConsultation[], conversations: ChatConversation[]): ChatConsultation[] => {
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
  conversationList: ChatConsultation[] = []
  selectedConversation: ChatConsultation | null = null
  order: unknown = null
  messageList: ChatMessage[] = []
  scrollTop = 0
  doctorInfo: unknown = null
  loading = false
  loadFailed = false
  /** the driver is logged in and has said it is ready */
  ready = false
  /** Set by the room page: reloads the order detail when the doctor side marks a turn in the order. */
  onOrderChanged: (() => void) | null = null

  private driver: ChatDriver | null = null
  private profile: ChatProfile | null = null
  private hospitalCode: string | undefined = undefined
  private reloginAttempts = 0
  private relogging = false
  private refreshTimer: ReturnType<typeof setTimeout> | null = null

  constructor(driver?: ChatDriver) {
    makeAutoObservable<ChatStore, 'driver' | 'reloginAttempts' | 'relogging' | 'refreshTimer'>(
      this,
      { onOrderChanged: false, driver: false, reloginAttempts: false, relogging: false, refreshTimer: false },
      { autoBind: true },
    )
    if (driver) this.attach(driver)
  }

  get unreadTotal() {
    return this.conversationList.reduce((n, c) => n + c.unreadCount, 0)
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
    // the signature says which service: ours is built in (attaching logs in); Tencent IM's SDK driver is not
    // built yet, so its signature is kept for the pages that will load it
    else if (sig.driver === 'local') this.attach(new LocalChatDriver())
  }

  loadConversations(hospitalCode?: string) {
    this.hospitalCode = hospitalCode
    return this.refreshConversations()
  }

  /** The room opens the chat with one doctor: messages from that account are appended from now on. */
  async openChat(toUserID: string) {
    this.toUserID = toUserID
    this.messageList = []
    if (this.ready) await this.loadHistory()
  }

  /**
   * spec §5: receiver required and content non-empty; returns the text to show when not, else null once the
   * message has gone from created to sendSuccess or sendFail (spec §4).
   */
  async send(text: string): Promise<string | null> {
    if (!this.toUserID) return CHAT_MSG.noReceiver
    if (!text.trim()) return CHAT_MSG.emptyContent
    const message: ChatMessage = {
      // the service stores a message once per sender and id: unique across sessions and phones, and sent again as is
      id: newIdempotencyKey(),
      conversationID: conversationIDOf(this.toUserID),
      from: this.userID,
      to: this.toUserID,
      type: 'text',
      payload: text,
      description: '',
      time: Date.now(),
      status: 'created',
    }
    this.messageList.push(message)
    await this.deliver(message)
    return null
  }

  /** Sends a failed message again. */
  async resend(id: string) {
    const failed = this.messageList.find((m) => m.id === id && m.status === 'sendFail')
    if (!failed) return
    failed.status = 'created'
    await this.deliver({ ...failed })
  }

  /** Signs out of chat: the user changed or signed out. */
  reset() {
    if (this.driver && this.ready) void this.driver.logout().catch((e) => console.warn('chat logout failed', e))
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
    this.ready = false
    this.userID = ''
    this.signature = null
    this.profile = null
    this.conversationList = []
    this.toUserID = ''
    this.messageList = []
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
    this.reloginAttempts = 0
    void this.refreshConversations()
    void this.pushProfile()
    if (this.toUserID) void this.loadHistory().catch((e) => console.warn('chat history failed', e))
  }

  private handleLost(why: ChatEvents['kickedOut'] | ChatEvents['error']) {
    console.warn('chat lost, logging in again', why)
    this.ready = false
    void this.relogin()
  }

  private handleNetworkState({ state }: ChatEvents['networkStateChange']) {
    console.info('chat network', state)
  }

  private handleMessages(messages: ChatEvents['messageReceived']) {
    if (!this.toUserID) return
    // a message of this chat either comes from the doctor or is our own, sent from another device
    const inChat = messages.filter((m) => (m.from === this.userID ? m.to : m.from) === this.toUserID)
    this.messageList.push(...inChat)
    if (inChat.some((m) => isOrderDescription(m.description))) this.onOrderChanged?.()
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
    try {
      const [list, conversations] = await Promise.all([
        hospitalApi.listConsultations(this.hospitalCode),
        // the server's own counts stand when IM cannot answer
        this.driver && this.ready ? this.driver.getConversationList().catch(() => []) : [],
      ])
      runInAction(() => {
        this.conversationList = mergeUnread(list, conversations)
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

  private async loadHistory() {
    const driver = this.driver
    const toUserID = this.toUserID
    if (!driver) return
    const conversationID = conversationIDOf(toUserID)
    const page = await driver.getMessageList(conversationID)
    runInAction(() => {
      if (this.toUserID !== toUserID) return
      // messages that arrived while the history loaded stay after it
      const loaded = new Set(page.messages.map((m) => m.id))
      this.messageList = [...page.messages, ...this.messageList.filter((m) => !loaded.has(m.id))]
    })
    await driver.setMessageRead(conversationID)
  }

  /** spec §4: created, then sendSuccess with the service's copy of the message, or sendFail. */
  private async deliver(message: ChatMessage) {
    const driver = this.driver
    const sent = driver
      ? await driver.sendMessage(message).catch((e: unknown) => {
          console.warn('chat send failed', e)
          return null
        })
      : null
    runInAction(() => {
      const i = this.messageList.findIndex((m) => m.id === message.id)
      if (i < 0) return // the chat was left meanwhile
      this.messageList[i] = sent ? { ...sent, status: 'sendSuccess' } : { ...message, status: 'sendFail' }
    })
  }
}
