import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/records'
import { toastError } from '@/ui/feedback'
import { MEDICINES_MAX, MEDICINE_NAME_MAX, NO_MEDICINE } from './FollowUpStore'
import { type RecordStore } from './RecordStore'
import type { ChatStore } from './ChatStore'
import type { ChatMessage } from '../../types/api/chat'
import { historyCasesUrl } from '@/pageUrls'
import { pageStore } from './base/pageStore'
import { useRecordStore } from './RecordStore'

/** The server's limit on the note of a 续方申请 (server/src/routes/patient/medical.ts). */
export const RENEWAL_NOTE_MAX = 200

/**
 * The consultation room's tools while its consultation is open: 发送病历 (an earlier case of the same patient, chosen
 * on the history cases page) and 续方申请 (the medicines to renew, with a note). Both are stored by the server as the
 * patient's chat messages and shown in the room at once.
 */
export class RoomToolsStore {
  renewalOpen = false
  /** The rows of medicine names of the 续方申请 panel; one empty row to start with. */
  medicines: string[] = ['']
  note = ''
  sending = false
  /** The patient went to choose a case for this patient; null while the room waits for none. */
  casePatientId: number | null = null

  constructor(
    private readonly chat: ChatStore,
    private readonly records: Pick<RecordStore, 'chosenCase' | 'clearChosenCase'>,
  ) {
    makeAutoObservable<RoomToolsStore, 'chat' | 'records'>(this, { chat: false, records: false }, { autoBind: true })
  }

  /** The room's consultation is open: waiting for or served by the doctor. */
  get available() {
    return !!this.chat.order.inquiry && this.chat.order.canSend
  }

  get canAddMedicine() {
    return this.medicines.length < MEDICINES_MAX
  }

  /** 发送病历: the page to choose the case on (the history cases of the consultation's patient); the room waits for it. */
  chooseCase(): string | null {
    const order = this.chat.order.inquiry
    if (!order || !this.available) return null
    this.records.clearChosenCase() // a case chosen before, for another page, is not sent
    this.casePatientId = order.patientId
    return historyCasesUrl(order.patientId)
  }

  /**
   * The case chosen for the patient the room asked for is shared with the doctor, once: the choice is cleared first.
   * False when there is none to share, or the server refused (the request layer said why).
   */
  async shareChosenCase(): Promise<boolean> {
    const chosen = this.records.chosenCase
    const order = this.chat.order.inquiry
    if (!chosen || this.casePatientId === null || chosen.patientId !== this.casePatientId) return false
    this.records.clearChosenCase()
    this.casePatientId = null
    if (!order || !this.available || order.patientId !== chosen.patientId) return false
    return this.post(() => api.shareRecord({ inquiryId: order.id, imOrderNo: chosen.inquiryNo }))
  }

  openRenewal() {
    if (this.available) this.renewalOpen = true
  }

  closeRenewal() {
    this.renewalOpen = false
  }

  setMedicine(index: number, name: string) {
    if (index >= 0 && index < this.medicines.length) this.medicines[index] = name.slice(0, MEDICINE_NAME_MAX)
  }

  addMedicine() {
    if (this.canAddMedicine) this.medicines.push('')
  }

  /** Takes a row out; the last row stays (emptied). */
  removeMedicine(index: number) {
    if (this.medicines.length > 1) this.medicines.splice(index, 1)
    else this.medicines = ['']
  }

  setNote(text: string) {
    this.note = text.slice(0, RENEWAL_NOTE_MAX)
  }

  /** 发送 of the 续方申请 panel: the named medicines (blank rows left out); the panel closes and empties once stored. */
  async sendRenewal(): Promise<boolean> {
    const order = this.chat.order.inquiry
    if (!order || !this.available || this.sending) return false
    const medicines = this.medicines.map((m) => m.trim()).filter(Boolean)
    if (!medicines.length) {
      toastError(NO_MEDICINE)
      return false
    }
    const note = this.note.trim()
    const sent = await this.post(() => api.sendPrescriptionRequest({ inquiryId: order.id, medicines, ...(note ? { note } : {}) }))
    if (sent) {
      runInAction(() => {
        this.renewalOpen = false
        this.medicines = ['']
        this.note = ''
      })
    }
    return sent
  }

  /** The room was left: no case is waited for, the panel is closed and empty. */
  reset() {
    this.renewalOpen = false
    this.medicines = ['']
    this.note = ''
    this.casePatientId = null
  }

  private async post(call: () => Promise<ChatMessage>): Promise<boolean> {
    this.sending = true
    try {
      this.chat.appendSent(await call())
      return true
    } catch {
      return false // the request layer has shown the server's refusal
    } finally {
      runInAction(() => {
        this.sending = false
      })
    }
  }
}

/** The roomTools store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useRoomToolsStore = pageStore((root) => new RoomToolsStore(root.chat, useRecordStore.of(root)))
