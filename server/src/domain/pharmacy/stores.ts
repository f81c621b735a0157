/**
 * Pharmacies, delivery and the shop (spec §7 Prescription flow and shop, types/api/pharmacy.ts): a store's page, its
 * delivery terms and cities, the fee to an address of the caller, stock, and the shop's categories and products.
 */
import { and, asc, count, eq, ilike, inArray, isNull, or } from 'drizzle-orm'
import type { DrugType, ExpressFee, Page, PharmacyStore, PharmacyStoreBrief, Region, SendTemplate, ShipCity, ShopDrug, StockLine } from '../../../../types/api/pharmacy'
import { fenToYuan } from '@/utils/number'
import type { Db, Tx } from '../../db'
import { addresses, drugTypes, drugs, hospitals, pharmacyStores, regions, storeShipCities, storeStock } from '../../db/schema'
import { badInput, forbidden, notFound } from '../../errors'
import { findHospitalByAppId } from '../hospital'
import { requireInternetHospital } from '../internetDoctors'

export type StoreRow = typeof pharmacyStores.$inferSelect
export type DrugRow = typeof drugs.$inferSelect

export const OUT_OF_RANGE = '该地址不在配送范围'
export const MAX_SHOP_PAGE = 50

export async function requireStore(db: Db | Tx, id: number): Promise<StoreRow> {
  const [row] = await db.select().from(pharmacyStores).where(eq(pharmacyStores.id, id))
  if (!row) throw notFound('药房')
  return row
}

export const toStoreBrief = (s: StoreRow): PharmacyStoreBrief => ({ id: s.id, name: s.name, address: s.address, delivery: s.delivery, pickup: s.pickup })

/** GET store/detail/{id}. */
export async function storeDetail(db: Db, id: number): Promise<PharmacyStore> {
  const s = await requireStore(db, id)
  return { ...toStoreBrief(s), phone: s.phone, hours: s.hours, intro: s.intro, latitude: s.latitude, longitude: s.longitude }
}

/** 15.00 → "15", 15.50 → "15.50". */
const yuan = (fen: number) => fenToYuan(fen).replace(/\.00$/, '')

/** The delivery fee of an order of `drugFeeFen` (0 from the free-shipping amount on). */
export const expressFeeOf = (s: StoreRow, drugFeeFen: number) =>
  s.freeShippingFromFen !== null && drugFeeFen >= s.freeShippingFromFen ? 0 : s.expressFeeFen

/** "配送费15元，满99元包邮" (spec §9: the fee is 15 yuan unless the store says otherwise). */
export function deliveryTip(s: StoreRow): string {
  if (s.expressFeeFen === 0) return '免配送费'
  const fee = `配送费${yuan(s.expressFeeFen)}元`
  return s.freeShippingFromFen === null ? fee : `${fee}，满${yuan(s.freeShippingFromFen)}元包邮`
}

/** GET sendTemplate/{storeId}. */
export async function sendTemplate(db: Db, storeId: number): Promise<SendTemplate> {
  const s = await requireStore(db, storeId)
  return { storeId: s.id, expressFeeFen: s.expressFeeFen, freeShippingFromFen: s.freeShippingFromFen, tip: deliveryTip(s) }
}

/** GET sendTemplate/supportCity/{storeId}: every city delivered to, with its province's name. */
export async function supportCities(db: Db, storeId: number): Promise<ShipCity[]> {
  await requireStore(db, storeId)
  const rows = await db
    .select({ provinceCode: storeShipCities.provinceCode, cityCode: storeShipCities.cityCode })
    .from(storeShipCities)
    .where(eq(storeShipCities.storeId, storeId))
    .orderBy(asc(storeShipCities.provinceCode), asc(storeShipCities.cityCode))
  const codes = [...new Set(rows.flatMap((r) => [r.provinceCode, r.cityCode]))]
  const names = new Map((codes.length ? await db.select().from(regions).where(inArray(regions.code, codes)) : []).map((r) => [r.code, r.name]))
  return rows.map((r) => ({ provinceCode: r.provinceCode, provinceName: names.get(r.provinceCode) ?? '', cityCode: r.cityCode, cityName: names.get(r.cityCode) ?? '' }))
}

/** GET sendTemplate/shipProvince/{storeId}: provinces with at least one city delivered to. */
export async function shipProvinces(db: Db, storeId: number): Promise<Region[]> {
  const seen = new Map<number, string>()
  for (const c of await supportCities(db, storeId)) seen.set(c.provinceCode, c.provinceName)
  return [...seen].map(([code, name]) => ({ code, name }))
}

/** GET sendTemplate/shipCity/{storeId}/{provinceCode}. */
export async function shipCities(db: Db, storeId: number, provinceCode: number): Promise<Region[]> {
  return (await supportCities(db, storeId)).filter((c) => c.provinceCode === provinceCode).map((c) => ({ code: c.cityCode, name: c.cityName }))
}

/** The caller's address (someone else's, deleted and missing look the same: 2999). */
export async function requireOwnAddressRow(db: Db | Tx, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId), isNull(addresses.deletedAt)))
  if (!row) throw forbidden()
  return row
}

export async function deliversTo(db: Db | Tx, storeId: number, cityCode: number): Promise<boolean> {
  const [row] = await db
    .select({ id: storeShipCities.id })
    .from(storeShipCities)
    .where(and(eq(storeShipCities.storeId, storeId), eq(storeShipCities.cityCode, cityCode)))
  return !!row
}

/** POST sendTemplate/expressFee: whether the caller's address is delivered to, and the fee of that order. */
export async function expressFee(db: Db, userId: number, input: { storeId: number; addressId: number; drugFeeFen: number }): Promise<ExpressFee> {
  const s = await requireStore(db, input.storeId)
  const address = await requireOwnAddressRow(db, userId, input.addressId)
  if (!s.delivery || !(await deliversTo(db, s.id, address.cityCode))) return { supported: false, expressFeeFen: 0, tip: OUT_OF_RANGE }
  return { supported: true, expressFeeFen: expressFeeOf(s, input.drugFeeFen), tip: deliveryTip(s) }
}

/** POST drugStore/store/inventory: the store's stock of those drugs (0 for one it does not keep). */
export async function inventory(db: Db, storeId: number, drugIds: number[]): Promise<StockLine[]> {
  await requireStore(db, storeId)
  const ids = [...new Set(drugIds)]
  const rows = await db
    .select({ drugId: storeStock.drugId, quantity: storeStock.quantity })
    .from(storeStock)
    .where(and(eq(storeStock.storeId, storeId), inArray(storeStock.drugId, ids)))
  const have = new Map(rows.map((r) => [r.drugId, r.quantity]))
  return ids.map((drugId) => ({ drugId, quantity: have.get(drugId) ?? 0 }))
}

/**
 * The hospital whose shop the caller browses: the one named (an internet hospital), else the hospital of the app
 * the caller signed in to, else the first internet hospital (the platform's own app).
 */
async function shopHospitalId(db: Db, hospitalCode: string | undefined, appId: string | undefined): Promise<number> {
  if (hospitalCode) return (await requireInternetHospital(db, hospitalCode)).id
  const own = appId ? await findHospitalByAppId(db, appId) : null
  if (own?.isInternet) return own.id
  const [first] = await db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.isInternet, true)).orderBy(asc(hospitals.sort), asc(hospitals.id)).limit(1)
  if (!first) throw badInput('暂无互联网医院')
  return first.id
}

/** GET drugType/list. */
export async function listDrugTypes(db: Db, scope: { hospitalCode?: string; appId?: string }): Promise<DrugType[]> {
  const hospitalId = await shopHospitalId(db, scope.hospitalCode, scope.appId)
  return db.select({ id: drugTypes.id, name: drugTypes.name }).from(drugTypes).where(eq(drugTypes.hospitalId, hospitalId)).orderBy(asc(drugTypes.sort), asc(drugTypes.id))
}

export const toDrugInfo = (d: DrugRow) => ({
  id: d.id,
  code: d.code,
  name: d.name,
  commonName: d.commonName,
  category: d.category,
  drugSpec: d.spec,
  drugSpecUnit: d.specUnit,
  unit: d.unit,
  dosageForm: d.dosageForm,
  manufacturer: d.manufacturer,
  defaultUsage: d.defaultUsage,
  priceFen: d.priceFen,
  rx: d.rx,
  picture: d.picture,
})

/** GET drugStore/shop/drugPage: the shelf of the hospital's shop, by category or name, with the stock of its pharmacy. */
export async function shopDrugPage(
  db: Db,
  input: { hospitalCode?: string; appId?: string; typeId?: number; keyword?: string; page: number; size: number },
): Promise<Page<ShopDrug>> {
  const hospitalId = await shopHospitalId(db, input.hospitalCode, input.appId)
  const [store] = await db.select({ id: pharmacyStores.id }).from(pharmacyStores).where(eq(pharmacyStores.hospitalId, hospitalId)).orderBy(asc(pharmacyStores.id)).limit(1)
  const size = Math.min(input.size, MAX_SHOP_PAGE)
  const like = input.keyword ? `%${input.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
  const where = and(
    eq(drugs.hospitalId, hospitalId),
    eq(drugs.onShelf, true),
    input.typeId !== undefined ? eq(drugs.typeId, input.typeId) : undefined,
    like ? or(ilike(drugs.name, like), ilike(drugs.commonName, like)) : undefined,
  )
  const [rows, [total]] = await Promise.all([
    db
      .select({ drug: drugs, stock: storeStock.quantity })
      .from(drugs)
      .leftJoin(storeStock, and(eq(storeStock.drugId, drugs.id), eq(storeStock.storeId, store?.id ?? 0)))
      .where(where)
      .orderBy(asc(drugs.typeId), asc(drugs.id))
      .limit(size)
      .offset((input.page - 1) * size),
    db.select({ n: count() }).from(drugs).where(where),
  ])
  return {
    records: rows.map(({ drug, stock }) => ({ ...toDrugInfo(drug), typeId: drug.typeId, stock: stock ?? 0 })),
    total: total?.n ?? 0,
    page: input.page,
    size,
  }
}
