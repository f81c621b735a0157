import { makeAutoObservable, runInAction } from 'mobx'
import * as hospitalApi from '@/services/hospital'
import * as imApi from '@/services/im'
import type { ChatDriver } from '@/services/chat/driver'
import { conversationIDOf } from '@/utils/chatRules'
import type { ChatConversation } from '../../types/api/chat'
import type { ConsultationItem } from '../../types/api/hospital'

/** spec §9: conversation refresh delay. */
export const CONVERSATION_REFRESH_MS = 1000

/** spec §4: the server's consultations with the unread counts of their IM conversations merged in. */
const mergeUnread = (list: ConsultationItem[], conversations: ChatConversation[]): ConsultationItem[] => {
  const unread = new Map(conversations.map((c) => [c.conversationID, c.unreadCount]))
  return list.map((c) => {
    const n = c.conversationID === undefined ? undefined : unread.get(c.conversationID)
    return n === undefined ? c : { ...c, unreadCount: n }
  })
}

/** A conversation of either list, with nothing unread in it. */
const readIn = <C extends { conversationID?: string; unreadCount: number }>(list: C[], conversationID: string) =>
  list.map((c) => (c.conversationID === conversationID && c.unreadCount ? { ...c, unreadCount: 0 } : c))

/** What the list reads of the chat connection. */
export interface ChatState {
  /** the driver while it is logged in and ready, else null */
  readyDriver(): ChatDriver | null
  /** signed in to chat with no driver attached (Tencent IM's comes with the internet pages that chat) */
  countsFromServer(): boolean
}

/**
 * The consultation list of spec §3 (chat conversationList) and §4: the server's consultations of the hospital with
 * the unread counts of their IM conversations merged in, and the IM service's own conversations (doctors and
 * assistants). The server's counts stand when IM cannot answer or no driver is ready; the IM service's bursts of
 * updates refresh it once a second at most. Without a driver at all, the badge is the server's total.
 */
export class ConsultationList {
  list: ConsultationItem[] = []
  /** The IM service's own conversations, as last listed; empty without a ready driver. */
  im: ChatConversation[] = []
  loading = false
  loadFailed = false
  /** The server's count of every unread consultation message, as last asked (refreshUnread). */
  serverUnread = 0
  private hospitalCode: string | undefined = undefined
  private refreshTimer: ReturnType<typeof setTimeout> | null = null

  constructor(private readonly chat: ChatState) {
    makeAutoObservable<ConsultationList, 'chat' | 'refreshTimer'>(this, { chat: false, refreshTimer: false }, { autoBind: true })
  }

  /** The consultation tab's badge: the consultations' counts, or the server's total while no driver keeps them. */
  get unreadTotal() {
    return this.chat.countsFromServer() ? this.serverUnread : this.list.reduce((n, c) => n + c.unreadCount, 0)
  }

  /** Asks the server for the badge's number while it is the server that counts (a tab page shows, a signature comes). */
  async refreshUnread() {
    if (!this.chat.countsFromServer()) return
    try {
      const { unreadCount } = await imApi.getUnreadCount()
      runInAction(() => {
        // a driver may have come, or the account gone, meanwhile
        if (this.chat.countsFromServer()) this.serverUnread = unreadCount
      })
    } catch {
      // the badge keeps the number it has
    }
  }

  /** The IM unread count of the conversation with one account (an assistant's `a_<id>`). */
  unreadWith(account: string): number {
    return this.im.find((c) => c.conversationID === conversationIDOf(account))?.unreadCount ?? 0
  }

  /** The hospital's consultations (the tab, the assistant page); refreshes read the same hospital's. */
  load(hospitalCode?: string) {
    this.hospitalCode = hospitalCode
    return this.refresh()
  }

  async refresh() {
    this.loading = true
    this.loadFailed = false
    const driver = this.chat.readyDriver()
    const fromIm = driver ? driver.getConversationList().catch(() => null) : Promise.resolve(null)
    void fromIm.then((conversations) => {
      if (conversations) runInAction(() => (this.im = conversations))
    })
    try {
      const [list, conversations] = await Promise.all([hospitalApi.listConsultations(this.hospitalCode), fromIm])
      runInAction(() => {
        this.list = mergeUnread(list, conversations ?? [])
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

  /** Updates come in bursts: the first one schedules the refresh, the rest of that second ride along. */
  scheduleRefresh() {
    if (this.refreshTimer) return
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null
      void this.refresh()
    }, CONVERSATION_REFRESH_MS)
  }

  /** Everything of a conversation is read: shown at once in both lists (the service is told by the connection). */
  markRead(conversationID: string) {
    this.list = readIn(this.list, conversationID)
    this.im = readIn(this.im, conversationID)
  }

  /** Drops the pending refresh. */
  stop() {
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
  }

  /** Signed out: nothing of the account before stays on show. */
  clear() {
    this.stop()
    this.list = []
    this.im = []
    this.serverUnread = 0
  }
}
