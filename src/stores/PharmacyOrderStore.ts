import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import type { PayOutcome } from '@/platform'
import * as api from '@/services/pharmacy'
import { startPayment } from '@/services/pay'
import { toastTip } from '@/ui/feedback'
import { pharmacyOrderPayReturnUrl } from '@/pageUrls'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { AddressStore } from './AddressStore'
import { readStock, stockShort } from './CartStore'
import type { CartLine, CartStore } from './CartStore'
import type { PatientStore } from './PatientStore'
import type { Address } from '../../types/api/address'
import type {
  PharmacyDelivery,
  PharmacyOrder,
  PharmacyOrderSource,
  PharmacyOrderStatus,
  PharmacyOrderSummary,
  PharmacyStoreBrief,
  Prescription,
} from '../../types/api/pharmacy'
import { pageStore } from './base/pageStore'
import { useAddressStore } from './AddressStore'
import { useCartStore } from './CartStore'
import { usePatientStore } from './PatientStore'

export const PHARMACY_ORDER_PAGE_SIZE = 10
/** What the checkout says of an address the store does not deliver to. */
export const OUT_OF_RANGE = '该地址不在配送范围'
/** What the checkout says while a line asks for more than the store has. */
export const SHORT_OF_STOCK = '部分药品库存不足'
/** What the server's refund request requires (server: a reason of at most 200 characters). */
export const REFUND_REASON_MAX = 200

export type PharmacyOrderTab = 'all' | 'unpaid' | 'paid' | 'shipped' | 'ready' | 'completed'
/** The tabs of 药品订单 (spec §2 /pages/order/shop/index) and the status each asks the server for. */
export const PHARMACY_ORDER_TABS: { key: PharmacyOrderTab; label: string; status?: PharmacyOrderStatus }[] = [
  { key: 'all', label: '全部' },
  { key: 'unpaid', label: '待支付', status: 'unpaid' },
  { key: 'paid', label: '待处理', status: 'paid' },
  { key: 'shipped', label: '已发货', status: 'shipped' },
  { key: 'ready', label: '待取药', status: 'ready' },
  { key: 'completed', label: '已完成', status: 'completed' },
]

/** A status's colour on the list and the detail: waiting for money stands out, what is over fades. */
export const pharmacyStatusClass = (o: Pick<PharmacyOrderSummary, 'status'>) =>
  o.status === 'unpaid' ? 'pay' : ['cancelled', 'closed', 'refunded', 'completed'].includes(o.status) ? 'over' : 'active'

/** What cancelling asks, saying what happens to the money. */
export const cancelOrderText = (o: Pick<PharmacyOrder, 'status'>) =>
  o.status === 'unpaid' ? '确定取消该订单吗？' : '确定取消该订单吗？取消后已支付的金额将原路退回。'

/**
 * 药品订单 (spec §2 /internet/sureOrder, /pages/storePayment, /pages/order/shop; §3 `presOrder`, `orderList`; §4
 * prescription orders): the checkout being confirmed, from a prescription or from the cart, with its store, delivery,
 * address and fee; placing it once per attempt and paying it through the payment core; the orders and one order with
 * its actions.
 */
export class PharmacyOrderStore {
  // ----- the checkout (presOrder) -----
  source: PharmacyOrderSource = 'shop'
  /** 再次购药: a repeat order of a renewable prescription (planOrder), its medicines and delivery only. */
  repeat = false
  /** The prescription ordered from, with the stores that can fill it. */
  readonly prescription = new Loadable((id: number) => api.getPrescriptionToOrder(id))
  /** The cart's selected lines when the checkout opened (what the order buys). */
  shopLines: CartLine[] = []
  storeId: number | null = null
  /** The chosen store with its phone and hours (到店自提 shows them). */
  readonly store = new Loadable((id: number) => api.getStore(id))
  /** The cities the chosen store delivers to, by city code. */
  readonly cities = new Loadable(async (storeId: number) => new Set((await api.listSupportCities(storeId)).map((c) => c.cityCode)))
  /** The chosen store's stock of the lines, read before the order is placed. */
  readonly stock = new Loadable((storeId: number, drugIds: number[]) => readStock(storeId, drugIds))
  /** The chosen store's fee rule (配送范围). */
  readonly template = new Loadable((storeId: number) => api.getSendTemplate(storeId))
  /** The provinces the chosen store delivers to, and the cities of the one opened (配送范围). */
  readonly shipProvinces = new Loadable((storeId: number) => api.listShipProvinces(storeId))
  readonly shipCities = new Loadable((storeId: number, provinceCode: number) => api.listShipCities(storeId, provinceCode))
  shipProvince: number | null = null
  delivery: PharmacyDelivery = 'express'
  readonly fee = new Loadable((storeId: number, addressId: number, drugFeeFen: number) => api.getExpressFee({ storeId, addressId, drugFeeFen }))
  readonly attempt = new IdempotentAttempt()
  readonly submitting = new OneAtATime()
  /** What this attempt placed (a second tap pays it instead of placing another). */
  placed: PharmacyOrder | null = null
  /** The store, address and amount whose fee tip was shown: the same fee read twice toasts once. */
  private tipShownFor = ''

  // ----- the orders -----
  tab: PharmacyOrderTab = 'all'
  readonly list = new PagedList<PharmacyOrderSummary>(
    (q) => api.listPharmacyOrders({ status: PHARMACY_ORDER_TABS.find((t) => t.key === this.tab)?.status, ...q }),
    PHARMACY_ORDER_PAGE_SIZE,
  )
  readonly detail = new Loadable(
    (id: number, check: boolean) => (check ? api.checkOrderAgain(id) : api.getPharmacyOrder(id)),
    (order) => this.showElsewhere(order),
  )
  /** The prescription a completed prescription order was placed from (whether it may be bought again). */
  readonly detailPrescription = new Loadable((orderId: number) => api.getOrderPrescription(orderId))
  readonly pickupCode = new Loadable((orderId: number) => api.getPickupCode(orderId))
  readonly payment = new OneAtATime()
  readonly action = new OneAtATime()

  constructor(
    private readonly cart: CartStore,
    private readonly addresses: AddressStore,
    private readonly patients: Pick<PatientStore, 'current'>,
  ) {
    makeAutoObservable<PharmacyOrderStore, 'cart' | 'addresses' | 'patients' | 'tipShownFor'>(this, {
      prescription: false,
      store: false,
      cities: false,
      stock: false,
      template: false,
      shipProvinces: false,
      shipCities: false,
      fee: false,
      attempt: false,
      submitting: false,
      list: false,
      detail: false,
      detailPrescription: false,
      pickupCode: false,
      payment: false,
      action: false,
      cart: false,
      addresses: false,
      patients: false,
      tipShownFor: false,
    })
  }

  // ----- opening the checkout -----

  /**
   * 确认订单 for a prescription: a new attempt, its lines and the first store that can fill it; `repeat`, 再次购药 of a
   * renewable one.
   */
  async openPrescription(prescriptionId: number, repeat = false) {
    this.reset('prescription')
    this.repeat = repeat
    const pres = await this.prescription.load(prescriptionId)
    await this.chooseStore(pres.stores?.[0] ?? null)
  }

  /** 确认订单 for the cart's selected lines: a new attempt at the shop's store. */
  async openCart() {
    this.reset('shop')
    this.shopLines = this.cart.selectedLines
    const storeId = this.shopLines[0]?.drug.storeId
    await this.chooseStore(storeId ? { id: storeId } : null)
  }

  private reset(source: PharmacyOrderSource) {
    this.source = source
    this.repeat = false
    this.prescription.reset()
    this.shopLines = []
    this.storeId = null
    this.store.reset()
    this.cities.reset()
    this.stock.reset()
    this.template.reset()
    this.fee.reset()
    this.placed = null
    this.tipShownFor = ''
    this.attempt.renew()
  }

  async chooseStore(store: Pick<PharmacyStoreBrief, 'id'> | null) {
    this.storeId = store?.id ?? null
    this.store.reset()
    this.cities.reset()
    this.stock.reset()
    this.template.reset()
    this.shipProvinces.reset()
    if (!store) return
    await Promise.all([
      this.store.load(store.id),
      this.cities.load(store.id),
      this.stock.load(store.id, this.lines.map((l) => l.drugId)),
      this.template.load(store.id),
    ]).catch(() => undefined)
    runInAction(() => {
      const s = this.store.value
      if (s && !s[this.delivery === 'express' ? 'delivery' : 'pickup']) this.delivery = s.delivery ? 'express' : 'pickup'
    })
    await this.loadFee()
  }

  async chooseDelivery(delivery: PharmacyDelivery) {
    if (this.placed) return
    this.delivery = delivery
    await this.loadFee()
  }

  /** The address the order is delivered to: the one chosen from the address book, else the default one. */
  get address(): Address | null {
    return this.addresses.chosen ?? this.addresses.defaultAddress
  }

  /** The address is in a city the store delivers to (unknown until the cities are read). */
  get addressSupported(): boolean | null {
    const address = this.address
    const cities = this.cities.value
    if (!address || !cities) return null
    return cities.has(address.cityCode) && this.fee.value?.supported !== false
  }

  /** 配送范围: the provinces the chosen store delivers to, none opened. */
  async loadShipProvinces() {
    this.shipProvince = null
    this.shipCities.reset()
    if (this.storeId) await this.shipProvinces.load(this.storeId).catch(() => undefined)
  }

  /** Opens a province of 配送范围 on its cities (again: closes it). */
  async toggleShipProvince(code: number) {
    this.shipCities.reset()
    this.shipProvince = this.shipProvince === code ? null : code
    if (this.shipProvince !== null && this.storeId) await this.shipCities.load(this.storeId, code).catch(() => undefined)
  }

  /** Why the chosen address cannot be delivered to, in the patient's words, or null. */
  get outOfRangeReason(): string | null {
    if (this.addressSupported !== false) return null
    const city = this.address!.regionText.split(' ')[1]
    return `${OUT_OF_RANGE}：${this.store.value?.name ?? '该药房'}暂不配送到${city ?? '该城市'}，请更换收货地址或选择到店自提`
  }

  /** What is left of a line's medicine at the chosen store when it is less than the line asks for, else null. */
  shortOf(line: { drugId: number; quantity: number }): number | null {
    return stockShort(this.stock.value, line.drugId, line.quantity)
  }

  /**
   * The delivery fee of the chosen address, read again whenever the address, the store or the drugs change; its tip
   * (spec §8: 2.5 s, masked) is shown when the fee is known.
   */
  async loadFee() {
    const address = this.address
    if (this.delivery !== 'express' || !this.storeId || !address) {
      this.fee.reset()
      return
    }
    const asked = `${this.storeId}:${address.id}:${this.drugFeeFen}`
    const fee = await this.fee.load(this.storeId, address.id, this.drugFeeFen).catch(() => null)
    if (!fee?.supported || !fee.tip || this.tipShownFor === asked) return
    this.tipShownFor = asked
    toastTip(fee.tip)
  }

  // ----- what the checkout shows -----

  get lines(): { drugId: number; drugName: string; drugSpec: string; unit: string; quantity: number; priceFen: number; rx: boolean }[] {
    if (this.source === 'prescription') {
      return (this.prescription.value?.lines ?? []).map((l) => ({ drugId: l.drugId, drugName: l.drugName, drugSpec: l.drugSpec, unit: l.unit, quantity: l.totalCount, priceFen: l.priceFen, rx: true }))
    }
    return this.shopLines.map((l) => ({ drugId: l.drug.id, drugName: l.drug.name, drugSpec: l.drug.drugSpec, unit: l.drug.unit, quantity: l.quantity, priceFen: l.drug.priceFen, rx: l.drug.rx }))
  }

  get drugFeeFen(): number {
    if (this.source === 'prescription') return this.prescription.value?.drugFeeFen ?? 0
    return this.shopLines.reduce((sum, l) => sum + l.drug.priceFen * l.quantity, 0)
  }

  /** A repeat order pays for the medicines only: the consultation was paid with the first (server: planOrder). */
  get diagnosisFeeFen(): number {
    return this.source === 'prescription' && !this.repeat ? (this.prescription.value?.diagnosisFeeFen ?? 0) : 0
  }

  get expressFeeFen(): number {
    return this.delivery === 'express' && this.fee.value?.supported ? this.fee.value.expressFeeFen : 0
  }

  get totalFen(): number {
    return this.drugFeeFen + this.diagnosisFeeFen + this.expressFeeFen
  }

  /** A cart with a prescription drug is ordered for a patient (whose reviewed prescription the server looks for). */
  get needsPatient(): boolean {
    return this.source === 'shop' && this.shopLines.some((l) => l.drug.rx)
  }

  /** Why the order cannot be submitted yet, or null when it can. */
  get blocker(): string | null {
    if (this.source === 'prescription' && !this.prescription.value) return '处方加载中'
    if (this.lines.length === 0) return '请选择药品'
    if (!this.storeId) return '暂无可配药的药房'
    if (!this.store.value) return '药房信息加载中'
    if (this.needsPatient && !this.patients.current) return '请选择就诊人'
    if (this.lines.some((l) => this.shortOf(l) !== null)) return SHORT_OF_STOCK
    if (this.delivery === 'pickup') return null
    if (!this.address) return '请选择收货地址'
    if (this.addressSupported === false) return OUT_OF_RANGE
    if (!this.fee.value || this.addressSupported === null) return '配送费计算中'
    return null
  }

  // ----- placing and paying -----

  /**
   * 提交订单: places the order once per attempt (a retry of an answer that never came sends the same key), takes the
   * ordered lines out of the cart, and pays it through the payment core. Answers the order and how paying went; null
   * when nothing was placed (the refusal has been shown).
   */
  async submit(): Promise<{ order: PharmacyOrder; outcome: PayOutcome } | null> {
    return this.submitting.run(async () => {
      let order = this.placed
      if (!order) {
        if (this.blocker) return null
        const express = this.delivery === 'express'
        const input = {
          source: this.source,
          storeId: this.storeId!,
          delivery: this.delivery,
          addressId: express ? this.address!.id : undefined,
          ...(this.source === 'prescription'
            ? { prescriptionId: this.prescription.value!.id }
            : { lines: this.shopLines.map((l) => ({ drugId: l.drug.id, quantity: l.quantity })), patientId: this.needsPatient ? this.patients.current!.id : undefined }),
        }
        const repeatOf = this.repeat ? this.prescription.value!.id : null
        order = await this.attempt.run((idempotencyKey) =>
          repeatOf !== null
            ? api.planOrder({ prescriptionId: repeatOf, storeId: input.storeId, delivery: input.delivery, addressId: input.addressId, idempotencyKey })
            : api.placeOrder({ ...input, idempotencyKey }),
        )
        runInAction(() => {
          this.placed = order
          if (this.source === 'shop') this.cart.remove(this.shopLines.map((l) => l.drug.id))
        })
      }
      return { order, outcome: await this.pay(order.id).catch(() => 'failed' as const) }
    })
  }

  /**
   * Pays an unpaid order: its payment-core order, then the channel. The cashier returns to the detail page, which
   * checks the order again; a sheet that reports paid is checked at once.
   */
  async pay(id: number): Promise<PayOutcome> {
    return this.payment.run(async () => {
      const payOrder = await api.unifiedOrder(id)
      const outcome = await platform.pay(await startPayment({ orderNo: payOrder.orderNo, returnUrl: pharmacyOrderPayReturnUrl(id) }))
      if (outcome === 'paid') await this.loadDetail(id, true).catch(() => undefined)
      return outcome
    }, 'failed')
  }

  // ----- the orders -----

  async switchTab(tab: PharmacyOrderTab) {
    if (tab === this.tab && this.list.state !== 'failed' && this.list.state !== 'idle') return
    this.tab = tab
    await this.list.reload()
  }

  /** One order; `check` asks the provider about its payment first (back from the cashier). */
  async loadDetail(id: number, check = false) {
    if (this.detail.value?.id !== id) {
      this.detail.reset()
      this.pickupCode.reset()
      this.detailPrescription.reset()
    }
    const order = await this.detail.load(id, check)
    if (order.delivery === 'pickup' && (order.status === 'paid' || order.status === 'ready')) await this.pickupCode.load(id).catch(() => undefined)
    if (order.source === 'prescription' && order.status === 'completed') await this.detailPrescription.load(id).catch(() => undefined)
    return order
  }

  /**
   * 再次购药 on a completed prescription order: shown only when the server's planOrder would take it (server
   * orderablePrescriptionForOrder with `repeat`): the prescription is renewable, approved, not expired, and this
   * completed order is the one holding it (a newer repeat order, paid or not, would be its order instead).
   */
  get planAgain(): Prescription | null {
    const o = this.detail.value
    const p = this.detailPrescription.value
    if (!o || !p || o.status !== 'completed' || o.prescriptionId !== p.id) return null
    return p.renewable && p.status === 'approved' && !p.expired && p.orderId === o.id ? p : null
  }

  /** 取消订单: unpaid, given up; paid and not shipped, refunded. */
  cancel(id: number) {
    return this.action.run(async () => this.applied(await api.cancelPharmacyOrder(id)))
  }

  /** 申请退款 of a shipped or ready order, with the patient's reason. */
  requestRefund(id: number, reason: string) {
    return this.action.run(async () => this.applied(await api.requestRefund(id, reason.trim().slice(0, REFUND_REASON_MAX))))
  }

  /** 撤销退款申请. */
  cancelRefund(id: number) {
    return this.action.run(async () => this.applied(await api.cancelRefund(id)))
  }

  private applied(order: PharmacyOrder) {
    this.detail.value = order
    this.showElsewhere(order)
    return order
  }

  private showElsewhere(order: PharmacyOrder) {
    this.list.update((o) => (o.id === order.id ? { ...o, status: order.status, statusText: order.statusText } : o))
  }
}

/** The pharmacyOrders store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const usePharmacyOrderStore = pageStore((root) => new PharmacyOrderStore(useCartStore.of(root), useAddressStore.of(root), usePatientStore.of(root)))
