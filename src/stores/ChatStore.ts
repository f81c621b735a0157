import { makeAutoObservable, runInAction } from 'mobx'
import * as auth from '@/services/auth'
import * as hospitalApi from '@/services/hospital'
import type { UserSig } from '../../types/api/auth'
import type { ConsultationItem } from '../../types/api/hospital'

/** The patient's IM account: prefix 0_ plus the user id (spec §2). */
export const imAccountOf = (userId: number) => `0_${userId}`

/**
 * Chat state of spec §3. Instant-messaging login and the room belong to the consultation service; here the
 * signature is fetched at startup and the consultation list comes from the server.
 */
export class ChatStore {
  userID = ''
  toUserID = ''
  signature: UserSig | null = null
  conversationList: ConsultationItem[] = []
  selectedConversation: ConsultationItem | null = null
  order: unknown = null
  messageList: unknown[] = []
  scrollTop = 0
  doctorInfo: unknown = null
  loading = false
  loadFailed = false

  constructor() {
    makeAutoObservable(this)
  }

  get unreadTotal() {
    return this.conversationList.reduce((n, c) => n + c.unreadCount, 0)
  }

  async requestSignature(userId: number) {
    const sig = await auth.getUserSig(imAccountOf(userId))
    runInAction(() => {
      this.userID = sig.imAccount
      this.signature = sig
    })
  }

  async loadConversations(hospitalCode?: string) {
    this.loading = true
    this.loadFailed = false
    try {
      const list = await hospitalApi.listConsultations(hospitalCode)
      runInAction(() => {
        this.conversationList = list
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

  reset() {
    this.userID = ''
    this.signature = null
    this.conversationList = []
  }
}
