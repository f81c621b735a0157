import { makeAutoObservable } from 'mobx'
import { listAssistants } from '@/services/internet'
import type { ChatStore } from './ChatStore'
import { Loadable } from './base/Loadable'
import { ASSISTANT_PREFIX } from '@/utils/chatRules'
import type { PhysicianAssistant } from '../../types/api/internet'
import type { ChatConversation, ChatMessage } from '../../types/api/chat'
import { pageStore } from './base/pageStore'

/**
 * The assistant chat of spec §3 (/internet/guidance/index): the hospital's physician assistants (医生助理) to choose
 * from, and the chat with the chosen one (IM account `a_<id>`, no consultation order) through the chat store, whose
 * room holds the messages. The unread count is the IM conversation's (`C2Ca_<id>`).
 */
export class AssistantStore {
  currentAssistant: PhysicianAssistant | null = null
  /** The hospital's assistants; one of another hospital (or no longer listed) is not the current one any more. */
  readonly assistantList = new Loadable(
    (hospitalCode: string) => listAssistants(hospitalCode),
    (list) => {
      if (this.currentAssistant && !list.some((a) => a.id === this.currentAssistant!.id)) this.currentAssistant = null
    },
  )
  topPosition = 0

  constructor(
    private readonly chat: ChatStore | null = null,
    private readonly hospitalCode: () => string | undefined = () => undefined,
  ) {
    makeAutoObservable<AssistantStore, 'chat' | 'hospitalCode'>(this, { assistantList: false, chat: false, hospitalCode: false })
  }

  get assistants(): PhysicianAssistant[] {
    return this.assistantList.value ?? []
  }

  get assistantsState() {
    return this.assistantList.state
  }

  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  /** The chosen assistant's unread messages. */
  get assistantUnread(): number {
    return this.currentAssistant ? this.unreadOf(this.currentAssistant) : 0
  }

  unreadOf(assistant: Pick<PhysicianAssistant, 'imAccount'>): number {
    return this.chat?.conversations.unreadWith(assistant.imAccount) ?? 0
  }

  /** The chat room is open with the chosen assistant. */
  get chatting(): boolean {
    return !!this.currentAssistant && this.chat?.toUserID === this.currentAssistant.imAccount
  }

  /** The messages of the chat with the chosen assistant (the room's, while it is open with them). */
  get assistantMessage(): ChatMessage[] {
    return this.chatting ? this.chat!.messageList : []
  }

  /** The IM conversations with assistants. */
  get conversationList(): ChatConversation[] {
    return (this.chat?.conversations.im ?? []).filter((c) => c.peer.startsWith(ASSISTANT_PREFIX))
  }

  /** The chat's whole history is shown (nothing older to fetch). */
  get isCompleted(): boolean {
    return this.chatting && !this.chat!.hasMore
  }

  /** Opens the page: the hospital's assistants, and the IM conversations for their unread counts. */
  async open() {
    const code = this.hospitalCode()
    if (!code) return
    void this.chat?.conversations.load(code)
    await this.assistantList.load(code).catch(() => undefined)
  }

  /** Chooses an assistant and opens the chat with them (no order: the room takes messages at once). */
  async choose(assistant: PhysicianAssistant) {
    this.currentAssistant = assistant
    await this.chat?.openChat(assistant.imAccount)
  }

  /** Back to the list: the chat is left (its messages are no longer appended nor marked read). */
  leave() {
    if (this.chatting) this.chat!.closeChat()
  }
}

/** The assistant store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useAssistantStore = pageStore((root) => new AssistantStore(root.chat, () => root.hospital.hospital?.hospitalCode))
