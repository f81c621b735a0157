import { makeAutoObservable } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/inquiry'
import { getOnlineDoctor } from '@/services/internet'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { InquiryForm } from './InquiryForm'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { Patient } from '../../types/api/patient'
import type { Inquiry, InquiryIntakeInput, InquiryStatus } from '../../types/api/inquiry'
import { WAIT_HOURS, SERVICE_HOURS, INQUIRY_PAY_MINUTES as PAY_MINUTES } from '@/utils/internetRules'
import { INQUIRY_LIST_URL, inquiryDetailUrl, inquiryPayReturnUrl, roomUrl } from '@/pageUrls'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

export { CONSENT_TEXT, DESCRIPTION_MAX, NO_CONSENT, PICTURES_MAX, type InquiryPicture } from './InquiryForm'

/** The server's limits (server/src/domain/inquiry.ts). */
export const COMPLAINT_MAX = 500
export const INQUIRY_PAGE_SIZE = 10
/** The service window (server/src/domain/inquiry.ts WAIT_HOURS, SERVICE_HOURS, PAY_MINUTES). */
export { WAIT_HOURS, SERVICE_HOURS, PAY_MINUTES }

/** The 问诊单's field limits (server/src/domain/inquiry.ts INTAKE_LIMITS). */
export const INTAKE_LIMITS = { offlineDiagnosis: 100, pastHistory: 200, allergyHistory: 200, currentMedication: 200 } as const
/** The patient may fill in or change the 问诊单 before and during the consultation. */
export const canEditIntake = (i: Pick<Inquiry, 'status'>) => i.status === 'unpaid' || i.status === 'waiting' || i.status === 'inProgress'

/** The server's own refusals, shown before asking it when the app can tell. */
export const NO_DESCRIPTION = '请描述您的病情'
export const NO_COMPLAINT = '请填写投诉内容'
export const DOCTOR_OFFLINE = '该医生暂不接诊，请选择其他医生'

export type InquiryTab = 'all' | 'unpaid' | 'waiting' | 'inProgress' | 'finished'
/** The tabs of /pages/order/inquiry/index and the status each asks the server for. */
export const INQUIRY_TABS: { key: InquiryTab; label: string; status?: InquiryStatus }[] = [
  { key: 'all', label: '全部' },
  { key: 'unpaid', label: '待支付', status: 'unpaid' },
  { key: 'waiting', label: '待接诊', status: 'waiting' },
  { key: 'inProgress', label: '问诊中', status: 'inProgress' },
  { key: 'finished', label: '已结束', status: 'finished' },
]

/**
 * Where a row of "my consultations" leads: its room when the row names the conversation (`C2C` + the doctor's IM
 * account) and the inquiry; the inquiry's detail without a conversation; the consultation orders without an inquiry.
 */
export function consultationUrl(item: { conversationID?: string; inquiryId?: number }): string {
  if (!item.inquiryId) return INQUIRY_LIST_URL
  const peer = item.conversationID?.replace(/^C2C/, '')
  return peer ? roomUrl(peer, item.inquiryId) : inquiryDetailUrl(item.inquiryId)
}

/** The states in which the room is open to the patient (it stays readable once finished). */
export const canEnterRoom = (i: Pick<Inquiry, 'status'>) => i.status === 'waiting' || i.status === 'inProgress' || i.status === 'finished'

/** A status's colour on the list and the detail: what the patient must still do stands out, what is over fades. */
export const inquiryStatusClass = (i: Pick<Inquiry, 'status'>) =>
  i.status === 'unpaid' ? 'pay' : i.status === 'waiting' || i.status === 'inProgress' ? 'active' : 'over'

/** 图文问诊's price: 免费 for a free consultation. */
export const inquiryPrice = (fen: number) => (fen === 0 ? '免费' : yuan(fen))

/**
 * The time left of a service window, to the minute: '剩余 23小时10分', '剩余 5分', '剩余 不足1分钟'; '' once it is over.
 * Minutes round down, so the text never promises time that is not there.
 */
export function serviceLeftText(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return ''
  const minutes = Math.floor(ms / 60_000)
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h > 0) return `剩余 ${h}小时${m}分`
  if (m > 0) return `剩余 ${m}分`
  return '剩余 不足1分钟'
}

/** The fields the money texts read. */
type Money = Pick<Inquiry, 'status' | 'priceFen' | 'acceptedAt'> & { order: Pick<NonNullable<Inquiry['order']>, 'status' | 'selfPayFen' | 'refundedFen'> | null }

/** What cancelling asks, saying what happens to the money: a paid one no doctor has accepted is refunded. */
export function cancelInquiryText(i: Money): string {
  if (i.status === 'unpaid') return '确定取消本次问诊吗？'
  if (i.order?.status === 'paid') return `确定取消问诊吗？取消后已支付的${yuan(i.order.selfPayFen)}将原路退回，预计1-7个工作日到账。`
  return '确定取消问诊吗？'
}

/** What a cancelled or closed inquiry says about its money, or null when there was none to give back. */
export function inquiryRefundText(i: Money): string | null {
  const order = i.order
  if ((i.status !== 'cancelled' && i.status !== 'closed') || !order) return null
  if (order.status === 'refunding') return `退款处理中：${yuan(order.selfPayFen)}将原路退回，预计1-7个工作日到账`
  if (order.status === 'refunded') return `已退款${yuan(order.refundedFen || order.selfPayFen)}，已原路退回`
  // a consultation the doctor served keeps its fee when its window runs out
  if (order.status === 'paid' && !i.acceptedAt) return `退款未成功，${yuan(order.selfPayFen)}尚未退回，请联系医院处理`
  return null
}

/**
 * 图文问诊 (spec §2 /internet/inquiry and /pages/order/inquiry, §4 inquiry orders): the ordering attempt with its
 * patient, illness, pictures and idempotency key, paying through the payment core, the consultation orders with their
 * tabs and pages, and one inquiry with its actions (check, cancel, finish, complain).
 */
export class InquiryStore {
  readonly doctor = new Loadable((id: number) => getOnlineDoctor(id))

  /** The attempt on the inquiry page: patient, illness, pictures, consent, key. */
  readonly form: InquiryForm
  readonly payment = new OneAtATime()

  tab: InquiryTab = 'all'
  /** The consultation orders of the current tab. */
  readonly list = new PagedList<Inquiry>(
    (q) => api.listInquiries({ status: INQUIRY_TABS.find((t) => t.key === this.tab)?.status, ...q }),
    INQUIRY_PAGE_SIZE,
  )

  /** One inquiry, checked: the server first closes one whose time ran out and asks the provider about an unpaid one. */
  readonly detail = new Loadable(
    (id: number) => api.checkInquiry(id),
    (inquiry) => this.showElsewhere(inquiry),
  )
  /** 问诊记录 · 复诊续方: the caller's past renewals, newest first (全部 is RecordStore.history). */
  readonly renewals = new PagedList<Inquiry>((q) => api.listPastRenewals(q), INQUIRY_PAGE_SIZE)
  readonly cancellation = new OneAtATime()
  readonly ending = new OneAtATime()
  readonly complaint = new OneAtATime()
  readonly intakeSave = new OneAtATime()

  constructor(patients: Pick<PatientStore, 'current'> | null = null) {
    this.form = new InquiryForm(patients)
    makeAutoObservable(this, {
      doctor: false,
      form: false,
      payment: false,
      list: false,
      detail: false,
      renewals: false,
      cancellation: false,
      ending: false,
      complaint: false,
      intakeSave: false,
    })
  }

  // ----- the ordering attempt -----

  /** Opens the inquiry page for one doctor: a new attempt with its own key, nothing written yet. */
  async openInquiry(doctorId: number) {
    this.form.reset()
    if (this.doctor.value?.id !== doctorId) this.doctor.reset()
    await this.doctor.load(doctorId).catch(() => undefined)
  }

  /** The doctor's 图文问诊 price, or null when the doctor does not offer it. */
  get priceFen(): number | null {
    return this.doctor.value?.services.find((s) => s.type === 'text')?.priceFen ?? null
  }

  /** The patient the attempt is for: the patient store's current one. */
  get patient(): Patient | null {
    return this.form.patient
  }

  /** Why the attempt cannot be submitted at all, or null (what the patient writes is checked on submitting). */
  get blocker(): string | null {
    const doctor = this.doctor.value
    if (!doctor) return '医生信息加载中'
    if (!doctor.online || this.priceFen === null) return DOCTOR_OFFLINE
    if (!this.patient) return '请先添加就诊人'
    if (this.form.photos.uploading) return '图片上传中'
    return null
  }

  /**
   * Orders the consultation; answers the inquiry, or null when the attempt is refused here (the reason is shown). The
   * key rules of InquiryForm.submit apply: a business refusal starts a new attempt, no answer keeps the key.
   */
  async submit(): Promise<Inquiry | null> {
    const form = this.form
    if (!form.created && this.blocker) return null
    return form.submit(
      () => (form.description.trim() ? null : NO_DESCRIPTION),
      (idempotencyKey) =>
        api.createInquiry({
          doctorId: this.doctor.value!.id,
          patientId: this.patient!.id,
          description: form.description.trim(),
          pictures: form.pictureUrls,
          idempotencyKey,
        }),
    )
  }

  // ----- paying -----

  /**
   * Pays an unpaid inquiry: the server answers how (the cashier to open, or WeChat's sheet), the platform does it.
   * When the sheet reports paid the server is asked at once; the cashier returns to the detail, which asks then.
   */
  async pay(id: number): Promise<PayOutcome> {
    return this.payment.run(async () => {
      const action = await api.payInquiry(id, inquiryPayReturnUrl(id))
      const outcome = await platform.pay(action)
      if (outcome === 'paid') await this.loadDetail(id).catch(() => undefined)
      return outcome
    }, 'failed')
  }

  // ----- the consultation orders -----

  async switchTab(tab: InquiryTab) {
    if (tab === this.tab && this.list.state !== 'failed' && this.list.state !== 'idle') return
    this.tab = tab
    await this.list.reload()
  }

  // ----- one inquiry -----

  async loadDetail(id: number) {
    if (this.detail.value?.id !== id) this.detail.reset()
    return this.detail.load(id)
  }

  /** Gives up an inquiry no doctor has accepted (refunded when paid); null when one is already on its way. */
  async cancel(id: number) {
    return this.cancellation.run(async () => this.applied(await api.cancelInquiry(id)))
  }

  /** Ends a consultation in progress. */
  async finish(id: number) {
    return this.ending.run(async () => this.applied(await api.finishInquiry(id)))
  }

  /** One complaint about a paid inquiry; an empty one is refused here with the server's own words. */
  async complain(id: number, content: string) {
    const text = content.trim()
    if (!text) {
      toastError(NO_COMPLAINT)
      return null
    }
    return this.complaint.run(async () => this.applied(await api.complainInquiry({ id, content: text.slice(0, COMPLAINT_MAX) })))
  }

  /** Saves the 问诊单 (replacing an earlier one), trimmed; null when a save is already on its way. */
  async saveIntake(input: InquiryIntakeInput) {
    return this.intakeSave.run(async () => {
      const inquiry = await api.saveIntake({
        inquiryId: input.inquiryId,
        visitedOffline: input.visitedOffline,
        offlineDiagnosis: input.visitedOffline ? (input.offlineDiagnosis ?? '').trim() : '',
        pastHistory: (input.pastHistory ?? '').trim(),
        allergyHistory: (input.allergyHistory ?? '').trim(),
        currentMedication: (input.currentMedication ?? '').trim(),
      })
      return this.applied(inquiry)
    })
  }

  /** An inquiry as it now stands, wherever the pages show it; answers it. */
  private applied(inquiry: Inquiry) {
    this.detail.value = inquiry
    this.showElsewhere(inquiry)
    return inquiry
  }

  private showElsewhere(inquiry: Inquiry) {
    this.form.apply(inquiry)
    this.list.update((i) => (i.id === inquiry.id ? inquiry : i))
  }
}

/** The inquiry store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useInquiryStore = pageStore((root) => new InquiryStore(usePatientStore.of(root)))
