import { makeAutoObservable } from 'mobx'
import * as api from '@/services/pharmacy'
import { LOCAL, local } from '@/services/storage'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { ShopDrug } from '../../types/api/pharmacy'
import { pageStore } from './base/pageStore'

/** One line of the cart: the product as the shop showed it, how many, and whether it goes to the next checkout. */
export interface CartLine {
  drug: ShopDrug
  quantity: number
  selected: boolean
}

/** The carts of every hospital on this phone, by hospital code (spec §3 `shopping`, kept in local storage). */
type Carts = Record<string, CartLine[]>

export const SHOP_PAGE_SIZE = 10
/** spec §5: a number box starts at 1. */
export const MIN_QUANTITY = 1

/** The most of a product one line may hold: what the shop has on the shelf (an order never sells more). */
const maxOf = (drug: ShopDrug) => Math.max(drug.stock, MIN_QUANTITY)

/** A store's stock of some medicines (inventory), by drug id. */
export type Stock = Map<number, number>

export const readStock = async (storeId: number, drugIds: number[]): Promise<Stock> =>
  new Map((await api.getInventory(storeId, drugIds)).map((l) => [l.drugId, l.quantity]))

/** What is left of a medicine when that is less than asked for (the line cannot be ordered as it is), else null. */
export const stockShort = (stock: Stock | null, drugId: number, quantity: number): number | null => {
  const left = stock?.get(drugId)
  return left !== undefined && left < quantity ? left : null
}

/** How a line short of stock is marked. */
export const shortText = (left: number, unit: string) => (left > 0 ? `库存不足，仅剩${left}${unit}` : '库存不足，已售罄')

/**
 * 药品商城 and 购物车 (spec §2 /pages/shop/list, /pages/shop/cart; §3 `shopping`): the categories and a page of
 * products at a time, and the current hospital's cart, written to local storage on every change so that it survives
 * a reload. Totals are in fen, over the selected lines.
 */
export class CartStore {
  readonly types = new Loadable(() => api.listDrugTypes(this.hospitalCode()))
  /** The category shown (null: 全部) and the words searched for. */
  typeId: number | null = null
  keyword = ''
  readonly products = new PagedList<ShopDrug>(
    (q) => api.listShopDrugs({ hospitalCode: this.hospitalCode(), typeId: this.typeId ?? undefined, keyword: this.keyword.trim() || undefined, ...q }),
    SHOP_PAGE_SIZE,
  )
  /** The shop store's stock of the cart's medicines, read when the cart opens (the shelf may have emptied since). */
  readonly stock = new Loadable((storeId: number, drugIds: number[]) => readStock(storeId, drugIds))
  private carts: Carts = local.get<Carts>(LOCAL.shopping) ?? {}

  constructor(private readonly hospitalCode: () => string | undefined) {
    makeAutoObservable<CartStore, 'hospitalCode'>(this, { types: false, products: false, stock: false, hospitalCode: false })
  }

  // ----- the shop -----

  async chooseType(typeId: number | null) {
    this.typeId = typeId
    await this.products.reload()
  }

  async search(keyword: string) {
    this.keyword = keyword
    await this.products.reload()
  }

  // ----- the cart -----

  /** The current hospital's lines, in the order they were added. */
  get lines(): CartLine[] {
    const code = this.hospitalCode()
    return code ? (this.carts[code] ?? []) : []
  }

  /** How many items the cart holds (the badge on the shop's cart button). */
  get count(): number {
    return this.lines.reduce((n, l) => n + l.quantity, 0)
  }

  get selectedLines(): CartLine[] {
    return this.lines.filter((l) => l.selected)
  }

  get allSelected(): boolean {
    return this.lines.length > 0 && this.lines.every((l) => l.selected)
  }

  /** What the selected lines cost, in fen. */
  get totalFen(): number {
    return this.selectedLines.reduce((sum, l) => sum + l.drug.priceFen * l.quantity, 0)
  }

  /** A selected line is a prescription drug: the order needs a patient with a reviewed prescription holding it. */
  get needsPrescription(): boolean {
    return this.selectedLines.some((l) => l.drug.rx)
  }

  /** Reads the shop store's stock of every line afresh. */
  async checkStock() {
    const storeId = this.lines[0]?.drug.storeId
    this.stock.reset()
    if (storeId) await this.stock.load(storeId, this.lines.map((l) => l.drug.id)).catch(() => undefined)
  }

  /** What is left of a line's medicine when it is less than the line asks for, else null. */
  shortOf(line: CartLine): number | null {
    return stockShort(this.stock.value, line.drug.id, line.quantity)
  }

  /** A selected line asks for more than the store has: 去结算 waits until the patient changes it. */
  get blockedByStock(): boolean {
    return this.selectedLines.some((l) => this.shortOf(l) !== null)
  }

  /** The most a line may hold: the shelf as the shop showed it, or less when the store's stock was read since. */
  limitOf(line: CartLine): number {
    const left = this.stock.value?.get(line.drug.id)
    return Math.max(Math.min(line.drug.stock, left ?? line.drug.stock), MIN_QUANTITY)
  }

  quantityOf(drugId: number): number {
    return this.lines.find((l) => l.drug.id === drugId)?.quantity ?? 0
  }

  /** Adds `quantity` of a product (selected), up to what is on the shelf; false when nothing more can be added. */
  add(drug: ShopDrug, quantity = 1): boolean {
    if (drug.stock <= 0) return false
    const line = this.lines.find((l) => l.drug.id === drug.id)
    if (line && line.quantity >= maxOf(drug)) return false
    this.write(
      line
        ? this.lines.map((l) => (l === line ? { drug, quantity: Math.min(l.quantity + quantity, maxOf(drug)), selected: true } : l))
        : [...this.lines, { drug, quantity: Math.min(Math.max(quantity, MIN_QUANTITY), maxOf(drug)), selected: true }],
    )
    return true
  }

  /** Sets a line's quantity, kept between 1 and what is on the shelf. */
  setQuantity(drugId: number, quantity: number) {
    this.change(drugId, (l) => ({ ...l, quantity: Math.min(Math.max(Math.floor(quantity) || MIN_QUANTITY, MIN_QUANTITY), this.limitOf(l)) }))
  }

  toggle(drugId: number) {
    this.change(drugId, (l) => ({ ...l, selected: !l.selected }))
  }

  selectAll(selected: boolean) {
    this.write(this.lines.map((l) => ({ ...l, selected })))
  }

  remove(drugIds: number[]) {
    this.write(this.lines.filter((l) => !drugIds.includes(l.drug.id)))
  }

  private change(drugId: number, fn: (l: CartLine) => CartLine) {
    this.write(this.lines.map((l) => (l.drug.id === drugId ? fn(l) : l)))
  }

  private write(lines: CartLine[]) {
    const code = this.hospitalCode()
    if (!code) return
    this.carts = { ...this.carts, [code]: lines }
    local.set(LOCAL.shopping, this.carts)
  }
}

/** The cart store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useCartStore = pageStore((root) => new CartStore(() => root.hospital.hospital?.hospitalCode))
