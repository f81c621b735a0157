import { action, computed, makeObservable, observable, runInAction } from 'mobx'
import * as auth from '@/services/auth'
import type { ChatDriver } from '@/services/chat/driver'
import { CHAT_MSG, conversationIDOf, isOrderDescription } from '@/utils/chatRules'
import { newIdempotencyKey } from '@/utils/register'
import { ChatConnection } from './ChatConnection'
import { RoomOrder } from './RoomOrder'
import type { ChatEvents, ChatMessage, ChatMessagePage, ChatMessageType } from '../../types/api/chat'

/** The other side of a message of a chat: the receiver of our own, the sender of theirs. */
const peerOf = (m: ChatMessage, me: string) => (m.from === me ? m.to : m.from)
const byTime = (a: ChatMessage, b: ChatMessage) => a.time - b.time

/**
 * The consultation room of spec §4 over the chat connection: the chat open with one doctor (or assistant) for one
 * inquiry, its order, its messages with the older history, the draft, and sending (text and pictures) with the
 * created → sendSuccess / sendFail states. The connection's `ready` reloads the room; its messages land here.
 */
export class ChatStore extends ChatConnection {
  toUserID = ''
  /** The room's consultation order, reloaded when the doctor side marks a turn (spec §4). */
  readonly order = new RoomOrder()
  messageList: ChatMessage[] = []
  /** What the patient is typing in the room. */
  draft = ''
  /** Older history is being fetched (loadOlder), or the last attempt failed. */
  loadingOlder = false
  olderFailed = false

  /** The driver's cursor for the history older than what the room shows; null when nothing older is left. */
  private cursor: string | null = null
  /** The newest page of the open chat has been loaded at least once. */
  private historyLoaded = false
  /** Pictures of the room not uploaded yet: message id -> the local file chosen. */
  private readonly pendingUploads = new Map<string, string>()

  constructor(driver?: ChatDriver) {
    super(driver)
    makeObservable<ChatStore, 'cursor' | 'historyLoaded' | 'loadHistory' | 'markRead' | 'clearRoom' | 'deliver' | 'finishSend'>(
      this,
      {
        toUserID: observable,
        messageList: observable,
        draft: observable,
        loadingOlder: observable,
        olderFailed: observable,
        cursor: observable,
        historyLoaded: observable,
        hasMore: computed,
        openChat: action.bound,
        closeChat: action.bound,
        setDraft: action.bound,
        send: action.bound,
        sendImage: action.bound,
        appendSent: action.bound,
        resend: action.bound,
        loadOlder: action.bound,
        loadHistory: action.bound,
        markRead: action.bound,
        clearRoom: action.bound,
        deliver: action.bound,
        finishSend: action.bound,
      },
    )
  }

  /** Older history can be fetched for the open chat (loadOlder). */
  get hasMore() {
    return this.historyLoaded && this.cursor !== null
  }

  /**
   * The room opens the chat with one doctor, for one inquiry: its order loads, and the history once the driver is
   * ready; messages from that account are appended from now on. Without an account the order's doctor is the peer.
   */
  async openChat(toUserID: string, inquiryId?: number) {
    this.toUserID = toUserID
    this.order.open(inquiryId ?? null)
    this.clearRoom()
    const history = toUserID && this.ready ? this.loadHistory() : Promise.resolve()
    const [order] = await Promise.all([this.order.load(), history])
    if (!toUserID && order?.doctor.imAccount && this.order.id === order.id && !this.toUserID) {
      runInAction(() => {
        this.toUserID = order.doctor.imAccount
      })
      if (this.ready) await this.loadHistory()
    }
  }

  /** The room was left: its messages are no longer appended nor marked read. */
  closeChat() {
    this.toUserID = ''
    this.order.open(null)
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
    if (!this.order.canSend) return CHAT_MSG.ended
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
    if (!this.order.canSend) return CHAT_MSG.ended
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
    if (!failed || !this.order.canSend) return
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

  /** Signed out of chat: the room closes with it. */
  protected override onSignedOut() {
    this.closeChat()
  }

  /** After a reconnect the room shows the history again, and the order as it is now (turns may have been missed). */
  protected override onReady() {
    if (this.toUserID) void this.loadHistory()
    void this.order.load()
  }

  protected override onMessages(messages: ChatEvents['messageReceived']) {
    if (!this.toUserID) return
    // a message of this chat either comes from the doctor or is our own, sent from another device; one the room
    // shows already (history reloaded after a reconnect) is not shown twice
    const shown = new Set(this.messageList.map((m) => m.id))
    const inChat = messages.filter((m) => peerOf(m, this.userID) === this.toUserID && !shown.has(m.id))
    if (!inChat.length) return
    this.messageList.push(...inChat)
    // the room is open: what the doctor wrote is read
    if (inChat.some((m) => m.from === this.toUserID)) void this.markRead()
    if (inChat.some((m) => isOrderDescription(m.description))) void this.order.load()
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
    if (!this.driver || !this.ready || !this.toUserID) return
    await this.markConversationRead(conversationIDOf(this.toUserID))
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
