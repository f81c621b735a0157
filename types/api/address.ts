/**
 * Delivery addresses (`/dld-hospital/addressList`, `addAddress`, `updateAddress/{id}`), regions
 * (`/dld-system/nation/parent/{id}`) and reverse geocoding (`/dld-system/map/getLocation`). Spec §7.
 */

export interface Region {
  /** GB/T 2260 code, e.g. 440305. Provinces have parent 0. */
  code: number
  name: string
  level: 1 | 2 | 3
  /** True for districts: nothing below them. */
  leaf: boolean
}

export interface Address {
  id: number
  /** Masked in the list, whole in GET /dld-hospital/address/{id}. */
  name: string
  mobile: string
  provinceCode: number
  cityCode: number
  districtCode: number
  /** "广东省 深圳市 南山区" */
  regionText: string
  detail: string
  latitude: string | null
  longitude: string | null
  isDefault: boolean
}

export interface AddressInput {
  name: string
  mobile: string
  provinceCode: number
  cityCode: number
  districtCode: number
  detail: string
  latitude?: string
  longitude?: string
  isDefault?: boolean
}

/** GET /dld-system/map/getLocation?location=lat,lng */
export interface Location {
  latitude: number
  longitude: number
  /** Formatted address, e.g. "广东省深圳市南山区深南大道" */
  address: string
  /** A nearby landmark the provider suggests as the place name. */
  name: string
  province: string
  city: string
  district: string
  provinceCode: number | null
  cityCode: number | null
  districtCode: number | null
}
