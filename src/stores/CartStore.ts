import { makeAutoObservable } from 'mobx'
import * as api from '@/services/pharmacy'
import { LOCAL, local } from '@/services/storage'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { ShopDrug } from '../../types/api/pharmacy'

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

/**
 * 药品商城 and 购物车 (spec §2 /pages/shop/list, /pages/shop/cart; §3 `shopping`): the categories and a page of
 * products at a time, and the current hospital's cart, written to local storage on every change so that it survives
 * a reload. Totals are in fen, over the selected lines.
 */
export class CartStore {
  readonly types = new Loadable(() => api.listDrugTypes())
  /** The category shown (null: 全部) and the words searched for. */
  typeId: number | null = null
  keyword = ''
  readonly products = new PagedList<ShopDrug>(
    (q) => api.listShopDrugs({ typeId: this.typeId ?? undefined, keyword: this.keyword.trim() || undefined, ...q }),
    SHOP_PAGE_SIZE,
  )
  private carts: Carts = local.get<Carts>(LOCAL.shopping) ?? {}

  constructor(private readonly hospitalCode: () => string | undefined) {
    makeAutoObservable<CartStore, 'hospitalCode'>(this, { types: false, products: false, hospitalCode: false })
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
    this.change(drugId, (l) => ({ ...l, quantity: Math.min(Math.max(Math.floor(quantity) || MIN_QUANTITY, MIN_QUANTITY), maxOf(l.drug)) }))
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
