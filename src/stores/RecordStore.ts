import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/records'
import { listAccessRecords } from '@/services/user'
import { MSG } from '@/ui/messages'
import type { LoadState } from './base/Loadable'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { Inquiry } from '../../types/api/inquiry'
import type { MedicalHistoryItem, MedicalRecord, MedicalRecordFieldKey } from '../../types/api/medical'
import type { UserMessage } from '../../types/api/message'
import type { AccessRecord } from '../../types/api/audit'
import { pageStore } from './base/pageStore'

export const MESSAGE_PAGE_SIZE = 10
export const RECORD_PAGE_SIZE = 10
export const HISTORY_PAGE_SIZE = 10
export const ACCESS_LOG_PAGE_SIZE = 20

/** The medical record's fields in reading order, with the labels the record uses (server MEDICAL_RECORD_FIELDS). */
export const RECORD_FIELDS: { key: MedicalRecordFieldKey; label: string }[] = [
  { key: 'chiefComplaint', label: '主诉' },
  { key: 'presentIllness', label: '现病史' },
  { key: 'pastHistory', label: '既往史' },
  { key: 'allergyHistory', label: '过敏史' },
  { key: 'diagnosis', label: '初步诊断' },
  { key: 'advice', label: '处理意见' },
]

/** A record's diagnosis as read: the doctor's words, then the coded disease names not already in them. */
export function diagnosisText(r: { diagnosis: string; diseases: { name: string }[] }): string {
  const names = r.diseases.map((d) => d.name).filter((n) => n && !r.diagnosis.includes(n))
  return [r.diagnosis, ...names].filter(Boolean).join('、')
}

/** The line under a paged list (spec §8): 加载中... / 没有更多了 / 加载失败, else 加载更多. */
export function moreText(state: LoadState): string {
  if (state === 'loading') return MSG.listLoading
  if (state === 'done') return MSG.listNoMore
  if (state === 'failed') return MSG.listFailed
  return MSG.loadMore
}

/** A finished consultation chosen as the one a follow-up continues, with the patient it was chosen for. */
export type ChosenCase = MedicalHistoryItem & { patientId: number }

/**
 * What the patient reads back (spec §2 /pages/message, /pages/medicalHistory, /internet/timHistory,
 * /internet/historyCases): the message centre with its unread count, medical records by patient or by consultation,
 * past consultations with their chat records and steps, and the finished consultations a follow-up may continue.
 */
export class RecordStore {
  // ----- the message centre -----
  unread = 0
  messages = new PagedList<UserMessage>((q) => this.fetchMessages(q), MESSAGE_PAGE_SIZE)
  markingAll = false

  // ----- medical records -----
  recordPatientId: number | null = null
  records = new PagedList<MedicalRecord>((q) => api.listMedicalRecords({ ...q, patientId: this.recordPatientId ?? undefined }), RECORD_PAGE_SIZE)
  /** The record of one consultation (null: none written yet), by its number. */
  readonly orderRecord = new Loadable(async (imOrderNo: string) => ({ imOrderNo, record: await api.getRecordByOrderNo(imOrderNo) }))

  // ----- past consultations -----
  history = new PagedList<Inquiry>((q) => api.listPastInquiries(q), HISTORY_PAGE_SIZE)
  /** One consultation's messages and its steps, read together. */
  readonly chatRecord = new Loadable(async (inquiryId: number) => {
    const [record, steps] = await Promise.all([api.getChatRecord(inquiryId), api.getInquirySteps(inquiryId)])
    return { record, steps }
  })

  // ----- 访问记录: who at the hospital opened the account's records -----
  accessLog = new PagedList<AccessRecord>((q) => listAccessRecords(q), ACCESS_LOG_PAGE_SIZE)

  // ----- the cases a follow-up may continue -----
  casesPatientId: number | null = null
  readonly cases = new Loadable((patientId: number) => api.listFinishedCases(patientId))
  /** The case chosen on /internet/historyCases for the follow-up inquiry page; null until one is. */
  chosenCase: ChosenCase | null = null

  constructor() {
    makeAutoObservable<RecordStore, 'fetchMessages'>(this, {
      messages: false,
      records: false,
      orderRecord: false,
      history: false,
      chatRecord: false,
      accessLog: false,
      cases: false,
      fetchMessages: false,
    })
  }

  // ----- the message centre -----

  private async fetchMessages(q: api.PageQuery) {
    const res = await api.listMessages(q)
    runInAction(() => {
      this.unread = res.unread
    })
    return res
  }

  /** How many notices are unread (the mine page's entry); quiet when it cannot be told. */
  async loadUnread() {
    try {
      const res = await api.listMessages({ page: 1, size: 1 }, { silent: true })
      runInAction(() => {
        this.unread = res.unread
      })
    } catch {
      // the entry shows no count
    }
  }

  /** Marks a notice read once (the server's count follows); answers whether it is read now. */
  async readMessage(message: UserMessage): Promise<boolean> {
    if (message.read) return true
    try {
      const res = await api.markMessagesRead(message.id)
      runInAction(() => {
        this.messages.update((m) => (m.id === message.id ? { ...m, read: true } : m))
        this.unread = res.unread
      })
      return true
    } catch {
      return false
    }
  }

  /** 全部已读: every notice of the caller, those not loaded yet too. */
  async readAll() {
    if (this.markingAll || this.unread === 0) return
    this.markingAll = true
    try {
      const res = await api.markMessagesRead()
      runInAction(() => {
        this.messages.update((m) => (m.read ? m : { ...m, read: true }))
        this.unread = res.unread
      })
    } catch {
      // the request layer has said why
    } finally {
      runInAction(() => {
        this.markingAll = false
      })
    }
  }

  // ----- medical records -----

  /** The records of one patient, from their first page (an answer for the patient left behind is dropped). */
  async showRecordsOf(patientId: number) {
    this.recordPatientId = patientId
    await this.records.reload()
  }

  /** The record of one consultation by its number; null when the doctor has written none (or it cannot be read). */
  async loadOrderRecord(imOrderNo: string) {
    if (this.orderRecord.value?.imOrderNo !== imOrderNo) this.orderRecord.reset()
    const loaded = await this.orderRecord.load(imOrderNo).catch(() => null)
    return loaded?.record ?? null
  }

  /** The record of a consultation when it is known to exist (the inquiry detail's 查看病历). */
  recordOfOrder(imOrderNo: string): MedicalRecord | null {
    const loaded = this.orderRecord.value
    return loaded?.imOrderNo === imOrderNo ? loaded.record : null
  }

  // ----- past consultations -----

  async loadChatRecord(inquiryId: number) {
    if (this.chatRecord.value?.record.inquiryId !== inquiryId) this.chatRecord.reset()
    await this.chatRecord.load(inquiryId).catch(() => undefined)
  }

  // ----- the cases a follow-up may continue -----

  async loadCases(patientId: number) {
    if (this.casesPatientId !== patientId) this.cases.reset()
    this.casesPatientId = patientId
    await this.cases.load(patientId).catch(() => undefined)
  }

  chooseCase(item: MedicalHistoryItem, patientId: number) {
    this.chosenCase = { ...item, patientId }
  }

  clearChosenCase() {
    this.chosenCase = null
  }
}

/** The records store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useRecordStore = pageStore(() => new RecordStore())
