import { makeAutoObservable, runInAction } from 'mobx'
import * as inquiryApi from '@/services/inquiry'
import { Latest } from './base/Latest'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'

/** The consultation takes messages while it waits for the doctor and while the doctor serves it. */
const OPEN_STATUSES: readonly InquiryStatus[] = ['waiting', 'inProgress']
const ENDED_STATUSES: readonly InquiryStatus[] = ['finished', 'closed', 'cancelled']

/**
 * The consultation order of the room (spec §3 chat.order, §4): the inquiry the room is open for, read again when the
 * doctor side marks a turn or the connection comes back, and the patient's actions on it (结束问诊, the service window
 * running out). Spec §3's chat doctorInfo is this inquiry's doctor. An answer for an earlier room, or one overtaken
 * by a later read or action, is dropped.
 */
export class RoomOrder {
  /** The inquiry the room is open for; null when the room was opened for an account alone. */
  id: number | null = null
  inquiry: Inquiry | null = null
  failed = false
  private readonly answers = new Latest()

  constructor() {
    makeAutoObservable<RoomOrder, 'answers' | 'update'>(this, { answers: false, update: false })
  }

  /** The room takes messages: no order known, or one that waits for or is served by the doctor. */
  get canSend() {
    return !this.inquiry || OPEN_STATUSES.includes(this.inquiry.status)
  }

  /** The consultation is over: finished, closed or cancelled. */
  get ended() {
    return !!this.inquiry && ENDED_STATUSES.includes(this.inquiry.status)
  }

  /** The room opens for another inquiry (or none): nothing of the one before shows or lands. */
  open(id: number | null) {
    this.id = id
    this.inquiry = null
    this.failed = false
    this.answers.drop()
  }

  /** The inquiry detail, again (after the doctor side marks a turn; after a reconnect). */
  async load(): Promise<Inquiry | null> {
    const id = this.id
    if (!id) return null
    const current = this.answers.next()
    try {
      const inquiry = await inquiryApi.getInquiry(id)
      runInAction(() => {
        if (!current()) return
        this.inquiry = inquiry
        this.failed = false
      })
      return inquiry
    } catch {
      runInAction(() => {
        if (current()) this.failed = true
      })
      return null
    }
  }

  /** The patient ends the consultation in progress (结束问诊); false when the server refused (it said why). */
  finish(): Promise<boolean> {
    return this.update(inquiryApi.finishInquiry)
  }

  /** The service window ran out on the page: the server closes the inquiry when it has (and says so). */
  check(): Promise<boolean> {
    return this.update(inquiryApi.checkInquiry)
  }

  private async update(call: (id: number) => Promise<Inquiry>): Promise<boolean> {
    const id = this.id
    if (!id) return false
    const current = this.answers.next()
    try {
      const inquiry = await call(id)
      runInAction(() => {
        if (current()) this.inquiry = inquiry
      })
      return true
    } catch {
      return false
    }
  }
}
