import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/records'
import { listAccessRecords } from '@/services/user'
import { MSG } from '@/services/messages'
import type { LoadState } from './KeywordSearch'
import type { Page } from '../../types/api/hospital'
import type { Inquiry } from '../../types/api/inquiry'
import type { ChatRecord, InquiryHistory } from '../../types/api/consultation'
import type { MedicalHistoryItem, MedicalRecord, MedicalRecordFieldKey } from '../../types/api/medical'
import type { UserMessage } from '../../types/api/message'
import type { AccessRecord } from '../../types/api/audit'

export const MESSAGE_PAGE_SIZE = 10
export const RECORD_PAGE_SIZE = 10
export const HISTORY_PAGE_SIZE = 10
export const ACCESS_LOG_PAGE_SIZE = 20

// The pages' addresses, in one place.
export const MESSAGE_CENTRE_URL = '/pages/message/index'
export const MEDICAL_HISTORY_URL = '/pages/medicalHistory/index'
export const ACCESS_LOG_URL = '/pages/accessLog/index'
export const medicalRecordUrl = (imOrderNo: string) => `${MEDICAL_HISTORY_URL}?imOrderNo=${encodeURIComponent(imOrderNo)}`
export const CHAT_HISTORY_URL = '/internet/timHistory/index'
export const chatRecordUrl = (inquiryId: number) => `${CHAT_HISTORY_URL}?inquiryId=${inquiryId}`
export const historyCasesUrl = (patientId: number) => `/internet/historyCases/index?patientId=${patientId}`
export const complaintUrl = (inquiryId: number) => `/internet/complaint/index?id=${inquiryId}`

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

/**
 * A list read a page at a time (spec §8 加载中... / 没有更多了 / 加载失败): a page after the last, a retry after a
 * failed one; after `reload` an answer to the earlier list is dropped; an item already shown is not shown twice.
 */
export class PagedList<T extends { id: number }> {
  items: T[] = []
  state: LoadState = 'idle'
  private page = 0
  private seq = 0

  constructor(
    private readonly fetch: (q: api.PageQuery) => Promise<Page<T>>,
    private readonly size: number,
  ) {
    makeAutoObservable<PagedList<T>, 'page' | 'seq' | 'fetch' | 'size'>(this, { page: false, seq: false, fetch: false, size: false })
  }

  get empty() {
    return this.state === 'done' && this.items.length === 0
  }

  /** The first page failed: nothing to show but the failure. */
  get failedEmpty() {
    return this.state === 'failed' && this.items.length === 0
  }

  async reload() {
    this.items = []
    this.page = 0
    this.state = 'idle'
    this.seq++
    await this.loadMore(true)
  }

  /** The next page; `retry` also after a failed one (the more-line's tap), not on reaching the bottom. */
  async loadMore(retry = false) {
    if (this.state === 'loading' || this.state === 'done') return
    if (this.state === 'failed' && !retry) return
    const seq = ++this.seq
    const page = this.page + 1
    this.state = 'loading'
    try {
      const res = await this.fetch({ page, size: this.size })
      runInAction(() => {
        if (seq !== this.seq) return
        const known = new Set(this.items.map((i) => i.id))
        this.items = [...this.items, ...res.records.filter((i) => !known.has(i.id))]
        this.page = page
        this.state = page * this.size >= res.total || res.records.length === 0 ? 'done' : 'idle'
      })
    } catch {
      runInAction(() => {
        if (seq === this.seq) this.state = 'failed'
      })
    }
  }

  /** Changes items in place (a notice read). */
  update(change: (item: T) => T) {
    this.items = this.items.map(change)
  }
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
  orderRecord: { imOrderNo: string; record: MedicalRecord | null } | null = null
  orderRecordState: LoadState = 'idle'

  // ----- past consultations -----
  history = new PagedList<Inquiry>((q) => api.listPastInquiries(q), HISTORY_PAGE_SIZE)
  chatRecord: ChatRecord | null = null
  steps: InquiryHistory | null = null
  chatRecordState: LoadState = 'idle'
  private chatSeq = 0

  // ----- 访问记录: who at the hospital opened the account's records -----
  accessLog = new PagedList<AccessRecord>((q) => listAccessRecords(q), ACCESS_LOG_PAGE_SIZE)

  // ----- the cases a follow-up may continue -----
  casesPatientId: number | null = null
  cases: MedicalHistoryItem[] = []
  casesState: LoadState = 'idle'
  /** The case chosen on /internet/historyCases for the follow-up inquiry page; null until one is. */
  chosenCase: ChosenCase | null = null

  constructor() {
    makeAutoObservable<RecordStore, 'chatSeq' | 'fetchMessages'>(this, {
      messages: false,
      records: false,
      history: false,
      accessLog: false,
      chatSeq: false,
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

  /** The record of one consultation by its number; null when the doctor has written none. */
  async loadOrderRecord(imOrderNo: string) {
    if (this.orderRecord?.imOrderNo !== imOrderNo) this.orderRecord = null
    this.orderRecordState = 'loading'
    try {
      const record = await api.getRecordByOrderNo(imOrderNo)
      runInAction(() => {
        this.orderRecord = { imOrderNo, record }
        this.orderRecordState = 'done'
      })
      return record
    } catch {
      runInAction(() => {
        this.orderRecordState = 'failed'
      })
      return null
    }
  }

  /** The record of a consultation when it is known to exist (the inquiry detail's 查看病历). */
  recordOfOrder(imOrderNo: string): MedicalRecord | null {
    return this.orderRecord?.imOrderNo === imOrderNo ? this.orderRecord.record : null
  }

  // ----- past consultations -----

  /** One consultation's messages and its steps, read together. */
  async loadChatRecord(inquiryId: number) {
    const seq = ++this.chatSeq
    if (this.chatRecord?.inquiryId !== inquiryId) {
      this.chatRecord = null
      this.steps = null
    }
    this.chatRecordState = 'loading'
    try {
      const [record, steps] = await Promise.all([api.getChatRecord(inquiryId), api.getInquirySteps(inquiryId)])
      runInAction(() => {
        if (seq !== this.chatSeq) return
        this.chatRecord = record
        this.steps = steps
        this.chatRecordState = 'done'
      })
    } catch {
      runInAction(() => {
        if (seq === this.chatSeq) this.chatRecordState = 'failed'
      })
    }
  }

  // ----- the cases a follow-up may continue -----

  async loadCases(patientId: number) {
    if (this.casesPatientId !== patientId) this.cases = []
    this.casesPatientId = patientId
    this.casesState = 'loading'
    try {
      const cases = await api.listFinishedCases(patientId)
      runInAction(() => {
        if (this.casesPatientId !== patientId) return
        this.cases = cases
        this.casesState = 'done'
      })
    } catch {
      runInAction(() => {
        if (this.casesPatientId === patientId) this.casesState = 'failed'
      })
    }
  }

  chooseCase(item: MedicalHistoryItem, patientId: number) {
    this.chosenCase = { ...item, patientId }
  }

  clearChosenCase() {
    this.chosenCase = null
  }
}
