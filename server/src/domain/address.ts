import { and, asc, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm'
import type { Address, AddressInput, Region } from '../../../types/api/address'
import type { FieldCipher } from '../crypto'
import { uniqueViolation, type Db, type Tx } from '../db'
import { addresses, regions, users } from '../db/schema'
import { badInput, conflict, forbidden } from '../errors'
import { maskMobile, maskName } from '@/utils/mask'
import { regionLabel } from '@/utils/address'
import { MAX_ADDRESSES } from './patientRules'

type AddressRow = typeof addresses.$inferSelect

/** Codes the seed data uses for "county-level places directly under the province": not worth showing. */

/** The children of a region, by code; 0 lists the provinces. Unknown codes have none. */
export async function regionChildren(db: Db, parentCode: number): Promise<Region[]> {
  const rows = await db.select().from(regions).where(eq(regions.parentCode, parentCode)).orderBy(asc(regions.code))
  return rows.map((r) => ({ code: r.code, name: r.name, level: r.level, leaf: r.level === 3 }))
}

/**
 * Checks that province, city and district exist and form one chain (the city's parent is the province, the
 * district's parent the city) and answers their names as the address shows them (regionLabel).
 */
export async function regionText(db: Db | Tx, provinceCode: number, cityCode: number, districtCode: number): Promise<string> {
  const rows = await db.select().from(regions).where(inArray(regions.code, [provinceCode, cityCode, districtCode]))
  const byCode = new Map(rows.map((r) => [r.code, r]))
  const province = byCode.get(provinceCode)
  const city = byCode.get(cityCode)
  const district = byCode.get(districtCode)
  const chained =
    province?.level === 1 &&
    city?.level === 2 &&
    district?.level === 3 &&
    city.parentCode === province.code &&
    district.parentCode === city.code
  if (!chained) throw badInput('所在地区不正确，请重新选择')
  return regionLabel([province.name, city.name, district.name])
}

function toAddress(cipher: FieldCipher, row: AddressRow, masked: boolean): Address {
  const name = cipher.decrypt(row.nameEnc)
  const mobile = cipher.decrypt(row.mobileEnc)
  return {
    id: row.id,
    name: masked ? maskName(name) : name,
    mobile: masked ? maskMobile(mobile) : mobile,
    provinceCode: row.provinceCode,
    cityCode: row.cityCode,
    districtCode: row.districtCode,
    regionText: row.regionText,
    detail: cipher.decrypt(row.detailEnc),
    latitude: row.latitude,
    longitude: row.longitude,
    isDefault: row.isDefault,
  }
}

const active = (userId: number) => and(eq(addresses.userId, userId), isNull(addresses.deletedAt))

/** The caller's own address, or 2999 with nothing revealed (someone else's, deleted and missing look the same). */
async function requireOwnAddress(db: Db | Tx, userId: number, id: number): Promise<AddressRow> {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), active(userId)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

/** Serialises one user's address changes (limit and single default) on a PostgreSQL server. */
async function lockUser(tx: Tx, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
}

/** The caller's addresses, default first, then newest; names and mobiles masked (spec §9). */
export async function listAddresses(db: Db, cipher: FieldCipher, userId: number): Promise<Address[]> {
  const rows = await db
    .select()
    .from(addresses)
    .where(active(userId))
    .orderBy(desc(addresses.isDefault), desc(addresses.createdAt), desc(addresses.id))
  return rows.map((r) => toAddress(cipher, r, true))
}

/** One address whole, for the edit page. */
export async function getAddress(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<Address> {
  return toAddress(cipher, await requireOwnAddress(db, userId, id), false)
}

/** Runs a write; the partial unique index on the default address is the last line of defence. */
async function guardDefault<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (uniqueViolation(err) === 'addresses_default_key') throw conflict('默认地址已被修改，请刷新后重试')
    throw err
  }
}

async function sealed(db: Db | Tx, cipher: FieldCipher, input: AddressInput) {
  return {
    nameEnc: cipher.encrypt(input.name),
    mobileEnc: cipher.encrypt(input.mobile),
    detailEnc: cipher.encrypt(input.detail),
    provinceCode: input.provinceCode,
    cityCode: input.cityCode,
    districtCode: input.districtCode,
    regionText: await regionText(db, input.provinceCode, input.cityCode, input.districtCode),
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
  }
}

/** Adds an address (at most MAX_ADDRESSES); the first one, or one asked to be, becomes the default. */
export async function addAddress(db: Db, cipher: FieldCipher, userId: number, input: AddressInput): Promise<Address> {
  return guardDefault(() =>
    db.transaction(async (tx) => {
      await lockUser(tx, userId)
      const values = await sealed(tx, cipher, input)
      const [row] = await tx.select({ n: count() }).from(addresses).where(active(userId))
      const existing = row?.n ?? 0
      if (existing >= MAX_ADDRESSES) throw badInput(`最多可保存${MAX_ADDRESSES}个收货地址`)
      const isDefault = existing === 0 || input.isDefault === true
      if (isDefault) await tx.update(addresses).set({ isDefault: false }).where(and(active(userId), eq(addresses.isDefault, true)))
      const [created] = await tx
        .insert(addresses)
        .values({ userId, ...values, isDefault })
        .returning()
      return toAddress(cipher, created!, false)
    }),
  )
}

/**
 * Changes an address. isDefault true makes it the default; the default cannot be unset by itself (while any
 * address exists, exactly one is the default), so isDefault false on the default address leaves it default.
 */
export async function updateAddress(db: Db, cipher: FieldCipher, userId: number, id: number, input: AddressInput): Promise<Address> {
  return guardDefault(() =>
    db.transaction(async (tx) => {
      await lockUser(tx, userId)
      const current = await requireOwnAddress(tx, userId, id)
      const values = await sealed(tx, cipher, input)
      const isDefault = current.isDefault || input.isDefault === true
      if (isDefault && !current.isDefault) {
        await tx
          .update(addresses)
          .set({ isDefault: false })
          .where(and(active(userId), eq(addresses.isDefault, true), ne(addresses.id, id)))
      }
      const [updated] = await tx
        .update(addresses)
        .set({ ...values, isDefault })
        .where(eq(addresses.id, id))
        .returning()
      return toAddress(cipher, updated!, false)
    }),
  )
}

/** Deletes an address (kept for the orders that name it); if it was the default, the newest remaining one becomes it. */
export async function deleteAddress(db: Db, userId: number, id: number): Promise<{ defaultAddressId: number | null }> {
  return guardDefault(() =>
    db.transaction(async (tx) => {
      await lockUser(tx, userId)
      const current = await requireOwnAddress(tx, userId, id)
      await tx.update(addresses).set({ deletedAt: new Date(), isDefault: false }).where(eq(addresses.id, id))
      if (!current.isDefault) return { defaultAddressId: null }
      const [next] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(active(userId))
        .orderBy(desc(addresses.createdAt), desc(addresses.id))
        .limit(1)
      if (!next) return { defaultAddressId: null }
      await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, next.id))
      return { defaultAddressId: next.id }
    }),
  )
}
