import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/triage'
import type { TriageAnswer } from '../../types/api/triage'
import { pageStore } from './base/pageStore'

/** The fixed line every answer comes with (the server sends the same with each answer). */
export const TRIAGE_DISCLAIMER = 'AI导诊仅供参考，不能替代医生的诊断和治疗'
export const TRIAGE_GREETING = '您好，我是智能导诊助手。请告诉我您哪里不舒服、持续了多久，我会为您推荐合适的就诊科室和医生。'
/** Complaints the patient can tap instead of typing. */
export const TRIAGE_EXAMPLES = ['最近总是胸闷心慌', '孩子发烧咳嗽两天了', '肚子疼还拉肚子', '膝盖关节痛']
/** The server takes 1–200 characters; longer input is cut as it is typed. */
export const MAX_TRIAGE_TEXT = 200
export const EMERGENCY_PHONE = '120'

export type TriageMessage =
  | { id: number; from: 'patient'; text: string; status: 'sending' | 'sent' | 'failed' }
  | { id: number; from: 'agent'; answer: TriageAnswer }

/** At most MAX_TRIAGE_TEXT characters (an emoji is one, as the server counts). */
const cut = (text: string) => Array.from(text).slice(0, MAX_TRIAGE_TEXT).join('')

/**
 * The doctor AI agent's conversation (智能导诊, spec §2 /palm/ds/index): the patient's messages and the agent's
 * answers, the draft being typed, whether a message is on its way, and the last failure. Kept for the app's life,
 * so the conversation is still there after looking at a department's schedule; another hospital starts afresh.
 */
export class TriageStore {
  messages: TriageMessage[] = []
  draft = ''
  sending = false
  /** Why the last message got no answer (the request layer has already shown it). */
  error: string | null = null
  private conversationFor: string | null = null
  private nextId = 1

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<TriageStore, 'hospitalCode' | 'nextId' | 'conversationFor'>(this, { hospitalCode: false, nextId: false, conversationFor: false })
  }

  /** The hospital whose departments the agent recommends. */
  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  get canSend(): boolean {
    return !this.sending && !!this.hospital && this.draft.trim().length > 0
  }

  /** The page opens: a conversation about another hospital's departments is not carried over. */
  open() {
    const code = this.hospital ?? null
    if (code !== this.conversationFor) this.reset()
    this.conversationFor = code
  }

  reset() {
    this.messages = []
    this.draft = ''
    this.error = null
  }

  setDraft(text: string) {
    this.draft = cut(text)
  }

  /** Sends the draft, or an example the patient tapped (the draft then stays as it was). */
  async send(example?: string) {
    const text = cut(example ?? this.draft).trim()
    const code = this.hospital
    if (!text || !code || this.sending) return
    const id = this.nextId++
    this.messages.push({ id, from: 'patient', text, status: 'sending' })
    if (example === undefined) this.draft = ''
    await this.deliver(id, text, code)
  }

  /** Sends a message that got no answer once more. */
  async resend(id: number) {
    const code = this.hospital
    const msg = this.patientMessage(id)
    if (!msg || msg.status !== 'failed' || !code || this.sending) return
    msg.status = 'sending'
    await this.deliver(id, msg.text, code)
  }

  private patientMessage(id: number) {
    const msg = this.messages.find((m) => m.id === id)
    return msg?.from === 'patient' ? msg : null
  }

  private async deliver(id: number, text: string, hospitalCode: string) {
    this.sending = true
    this.error = null
    try {
      const answer = await api.askTriage({ hospitalCode, text })
      runInAction(() => {
        const msg = this.patientMessage(id)
        if (msg) msg.status = 'sent'
        this.messages.push({ id: this.nextId++, from: 'agent', answer })
      })
    } catch (e) {
      runInAction(() => {
        const msg = this.patientMessage(id)
        if (msg) msg.status = 'failed'
        this.error = e instanceof Error ? e.message : '发送失败'
      })
    } finally {
      runInAction(() => {
        this.sending = false
      })
    }
  }
}

/** The triage store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useTriageStore = pageStore((root) => new TriageStore(() => root.hospital.hospital?.hospitalCode))
