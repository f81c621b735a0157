import { makeAutoObservable, runInAction } from 'mobx'
import { listAssistants } from '@/services/internet'
import type { ChatStore } from './ChatStore'
import type { LoadState } from './KeywordSearch'
import type { PhysicianAssistant } from '../../types/api/internet'
import type { ChatConversation, ChatMessage } from '../../types/api/chat'

/** A physician assistant's IM account prefix (server domain/chat ASSISTANT_PREFIX). */
export const ASSISTANT_PREFIX = 'a_'

// Client state of spec §3 for the service families. Each family's issue adds the behaviour; the fields are
// the spec's, so every page of a family shares one place for them.

/**
 * The assistant chat of spec §3 (/internet/guidance/index): the hospital's physician assistants (医生助理) to choose
 * from, and the chat with the chosen one (IM account `a_<id>`, no consultation order) through the chat store, whose
 * room holds the messages. The unread count is the IM conversation's (`C2Ca_<id>`).
 */
export class AssistantStore {
  currentAssistant: PhysicianAssistant | null = null
  assistants: PhysicianAssistant[] = []
  assistantsState: LoadState = 'idle'
  topPosition = 0

  constructor(
    private readonly chat: ChatStore | null = null,
    private readonly hospitalCode: () => string | undefined = () => undefined,
  ) {
    makeAutoObservable<AssistantStore, 'chat' | 'hospitalCode'>(this, { chat: false, hospitalCode: false })
  }

  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  /** The chosen assistant's unread messages. */
  get assistantUnread(): number {
    return this.currentAssistant ? this.unreadOf(this.currentAssistant) : 0
  }

  unreadOf(assistant: Pick<PhysicianAssistant, 'imAccount'>): number {
    return this.chat?.unreadWith(assistant.imAccount) ?? 0
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
    return (this.chat?.imConversations ?? []).filter((c) => c.peer.startsWith(ASSISTANT_PREFIX))
  }

  /** The chat's whole history is shown (nothing older to fetch). */
  get isCompleted(): boolean {
    return this.chatting && !this.chat!.hasMore
  }

  /** Opens the page: the hospital's assistants, and the IM conversations for their unread counts. */
  async open() {
    const code = this.hospitalCode()
    if (!code) return
    this.assistantsState = 'loading'
    void this.chat?.loadConversations(code)
    try {
      const list = await listAssistants(code)
      runInAction(() => {
        this.assistants = list
        this.assistantsState = 'done'
        // one of another hospital (or no longer listed) is not the current one any more
        if (this.currentAssistant && !list.some((a) => a.id === this.currentAssistant!.id)) this.currentAssistant = null
      })
    } catch {
      runInAction(() => {
        this.assistantsState = 'failed'
      })
    }
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

export class PrescriptionStore {
  editMedicine: unknown = null
  selectMedicineList: unknown[] = []
  presOrder: unknown = null
  orderList: unknown[] = []
  prescription: unknown = null
  continueDrug: unknown = null

  constructor() {
    makeAutoObservable(this)
  }
}

export class PalmStore {
  clinicLabel = ''
  timeSeg = ''
  customPayment: unknown = null
  chsPatient: unknown = null
  chsLocation: unknown = null

  constructor() {
    makeAutoObservable(this)
  }
}

export class InternetStore {
  selectMedicine: unknown[] = []

  constructor() {
    makeAutoObservable(this)
  }
}
