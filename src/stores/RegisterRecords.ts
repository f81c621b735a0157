import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/register'
import { getPayOrder } from '@/services/pay'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { Registration, RegistrationStatus } from '../../types/api/register'

export const RECORD_PAGE_SIZE = 10

export type RecordTab = 'all' | 'holding' | 'booked' | 'cancelled'
/** The record tabs of /pages/order/register/index and the status each asks the server for. */
export const RECORD_TABS: { key: RecordTab; label: string; status?: RegistrationStatus }[] = [
  { key: 'all', label: '全部' },
  { key: 'holding', label: '待支付', status: 'holding' },
  { key: 'booked', label: '预约成功', status: 'booked' },
  { key: 'cancelled', label: '已取消', status: 'cancelled' },
]

/**
 * My registrations (spec §2 Order pages register): the records by tab a page at a time, one record's detail with
 * cancelling, and the order of a registration split between insurance and self-pay (chsPayment).
 */
export class RegisterRecords {
  tab: RecordTab = 'all'
  readonly list = new PagedList<Registration>(
    (q) => api.listRegistrations({ hospitalCode: this.hospitalCode(), status: RECORD_TABS.find((t) => t.key === this.tab)?.status, ...q }),
    RECORD_PAGE_SIZE,
  )

  /** One registration; back from the cashier (`confirm`) the server first asks the provider how the payment went. */
  readonly detail = new Loadable(
    (id: number, confirm: boolean) => (confirm ? api.confirmRegistration(id) : api.getRegistration(id)),
    (registration) => this.showElsewhere(registration),
  )
  readonly cancellation = new OneAtATime()

  /** The order of a registration (`type=register&id=`) or an order by number, for the insurance/self-pay split. */
  readonly payOrder = new Loadable(async (by: { registrationId: number } | { orderNo: string }) =>
    'orderNo' in by ? getPayOrder(by.orderNo) : (await this.loadDetail(by.registrationId)).order,
  )

  constructor(
    private readonly hospitalCode: () => string | undefined = () => undefined,
    /** A registration as it now stands, for whoever else shows it (the booking attempt). */
    private readonly onChange: (registration: Registration) => void = () => undefined,
  ) {
    makeAutoObservable<RegisterRecords, 'hospitalCode' | 'onChange'>(this, {
      list: false,
      detail: false,
      payOrder: false,
      cancellation: false,
      hospitalCode: false,
      onChange: false,
    })
  }

  async switchTab(tab: RecordTab) {
    if (tab === this.tab && this.list.state !== 'failed' && this.list.state !== 'idle') return
    this.tab = tab
    await this.list.reload()
  }

  async loadDetail(id: number, confirm = false) {
    if (this.detail.value?.id !== id) this.detail.reset()
    return this.detail.load(id, confirm)
  }

  /** Cancels a hold or a booking; a paid one is refunded by the server. */
  cancel(id: number) {
    return this.cancellation.run(async () => {
      const registration = await api.cancelRegistration(id)
      runInAction(() => {
        this.detail.value = registration
        this.showElsewhere(registration)
      })
      return registration
    })
  }

  async loadPayOrder(by: { registrationId: number } | { orderNo: string }) {
    this.payOrder.reset()
    await this.payOrder.load(by)
  }

  private showElsewhere(registration: Registration) {
    this.list.update((r) => (r.id === registration.id ? registration : r))
    this.onChange(registration)
  }
}
