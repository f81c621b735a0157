import { makeAutoObservable, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import type { QueueChangedFrame, TodayQueue, TodayTicket } from '../../types/api/queue'
import { getTodayQueue } from '@/services/queue'
import { getUserSig } from '@/services/im'
import { chatSocketUrl } from '@/services/chat/localDriver'
import { patientImAccount } from '@/utils/chatRules'
import { Loadable } from './base/Loadable'
import type { PatientStore } from './PatientStore'

/** A patient is told to come near when this many or fewer wait before them. */
export const NEAR_AHEAD = 3
/** A dropped live connection is opened again after this long (while the page is on show). */
export const RECONNECT_MS = 5000

/** Waiting and at most NEAR_AHEAD before: the patient should make their way there. */
export const isNear = (t: TodayTicket) => t.status === 'waiting' && t.ahead <= NEAR_AHEAD

/**
 * 排队叫号 (spec §2 /palm/callRegister/index): the chosen patient's numbers today at the current hospital, and a live
 * connection while the page is on show. The connection is the chat service's socket (our own service, driver
 * `local`): `{op:'queue'}` subscribes, and every call at one of the patient's windows pushes the numbers as they now
 * are (`queueChanged`); no polling. Where the chat is Tencent IM there is no such socket: the numbers are read each
 * time the page shows.
 */
export class QueueStore {
  readonly today: Loadable<TodayQueue, [string, number | undefined]>
  /** The live connection is open and subscribed. */
  live = false
  private socket: Taro.SocketTask | null = null
  private wanted = false
  private retry: ReturnType<typeof setTimeout> | null = null
  private seq = 0

  constructor(
    private readonly hospitalCode: () => string | undefined,
    private readonly patients: PatientStore,
    private readonly userId: () => number | undefined,
  ) {
    this.today = new Loadable((code: string, patientId: number | undefined) => getTodayQueue(code, patientId))
    makeAutoObservable<QueueStore, 'socket' | 'wanted' | 'retry' | 'seq' | 'hospitalCode' | 'patients' | 'userId'>(this, {
      socket: false,
      wanted: false,
      retry: false,
      seq: false,
      hospitalCode: false,
      patients: false,
      userId: false,
    })
  }

  /** The chosen patient's numbers, called first, then by how many wait before them. */
  get tickets(): TodayTicket[] {
    const v = this.today.value
    const patientId = this.patients.current?.id
    if (!v || v.hospitalCode !== this.hospitalCode()) return []
    return patientId === undefined ? v.tickets : v.tickets.filter((t) => t.patientId === patientId)
  }

  /** The numbers the patient should make their way to now (three or fewer before them). */
  get near(): TodayTicket[] {
    return this.tickets.filter(isNear)
  }

  async load(): Promise<void> {
    const code = this.hospitalCode()
    if (!code) return
    await this.today.load(code, this.patients.current?.id).catch(() => undefined)
  }

  /** On show: reads the numbers and subscribes to their changes. */
  async subscribe(): Promise<void> {
    this.wanted = true
    await this.load()
    await this.connect()
  }

  /** On hide: no pushes for a page nobody looks at. */
  unsubscribe(): void {
    this.wanted = false
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
    const socket = this.socket
    this.socket = null
    this.live = false
    socket?.close({})
  }

  /** Another patient chosen: read theirs and subscribe to theirs. */
  async choosePatient(): Promise<void> {
    await this.load()
    this.sendSubscription()
  }

  private async connect(): Promise<void> {
    const userId = this.userId()
    if (!this.wanted || this.socket || !userId) return
    const sig = await getUserSig(patientImAccount(userId)).catch(() => null)
    if (!sig || sig.driver !== 'local' || !this.wanted || this.socket) return
    const socket = await Taro.connectSocket({ url: chatSocketUrl(sig.userSig) }).catch(() => null)
    if (!socket) return this.reconnectLater()
    if (!this.wanted) return void socket.close({})
    this.socket = socket
    socket.onOpen(() => this.sendSubscription())
    socket.onMessage(({ data }) => this.receive(String(data)))
    socket.onClose(() => {
      if (this.socket !== socket) return
      runInAction(() => {
        this.socket = null
        this.live = false
      })
      this.reconnectLater()
    })
    socket.onError(() => undefined)
  }

  private reconnectLater() {
    if (!this.wanted || this.retry) return
    this.retry = setTimeout(() => {
      this.retry = null
      // what moved meanwhile is read again with the subscription
      void this.load().then(() => this.connect())
    }, RECONNECT_MS)
  }

  private sendSubscription() {
    const code = this.hospitalCode()
    if (!this.socket || !code) return
    const patientId = this.patients.current?.id
    this.socket.send({ data: JSON.stringify({ op: 'queue', id: `queue${++this.seq}`, hospitalCode: code, ...(patientId === undefined ? {} : { patientId }) }) })
  }

  private receive(raw: string) {
    let frame: { op?: string; ok?: boolean; id?: string; data?: unknown } | QueueChangedFrame
    try {
      frame = JSON.parse(raw) as typeof frame
    } catch {
      return
    }
    if (frame.op === 'reply' && 'id' in frame && frame.id === `queue${this.seq}`) {
      const ok = frame.ok === true
      runInAction(() => {
        this.live = ok
        if (ok) this.apply(frame.data as TodayQueue)
      })
    } else if (frame.op === 'queueChanged') {
      runInAction(() => this.apply(frame as QueueChangedFrame))
    }
  }

  private apply(queue: TodayQueue | QueueChangedFrame) {
    if (queue.hospitalCode !== this.hospitalCode()) return
    this.today.value = { hospitalCode: queue.hospitalCode, tickets: queue.tickets }
    this.today.state = 'done'
  }
}
