import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/hospital'
import platform from '@/platform'
import { getLocation, listRegions } from '@/services/system'
import { isMobile } from '@/utils/phoneCode'
import { textLength } from '@/utils/text'
import { DETAIL_MAX_LENGTH } from '@/utils/address'
import type { Address, AddressInput, Location, Region } from '../../types/api/address'
import { pageStore } from './base/pageStore'

/** A receiver's name: at most 10 Chinese characters or 20 letters by the spec's text length (spec §5). */
export const RECEIVER_MAX_LENGTH = 20
/** A street and number needs at least this much to be deliverable. */
export const DETAIL_MIN_LENGTH = 2

/** What the add page edits; region codes are 0 until a district is chosen. */
export interface AddressDraft {
  name: string
  mobile: string
  provinceCode: number
  cityCode: number
  districtCode: number
  regionText: string
  detail: string
  latitude: string
  longitude: string
  isDefault: boolean
}

export const emptyDraft = (): AddressDraft => ({
  name: '',
  mobile: '',
  provinceCode: 0,
  cityCode: 0,
  districtCode: 0,
  regionText: '',
  detail: '',
  latitude: '',
  longitude: '',
  isDefault: false,
})

export const draftOf = (a: Address): AddressDraft => ({
  name: a.name,
  mobile: a.mobile,
  provinceCode: a.provinceCode,
  cityCode: a.cityCode,
  districtCode: a.districtCode,
  regionText: a.regionText,
  detail: a.detail,
  latitude: a.latitude ?? '',
  longitude: a.longitude ?? '',
  isDefault: a.isDefault,
})

/** The first thing wrong with a draft, in the words the patient reads, or null when it can be saved. */
export function addressProblem(d: AddressDraft): string | null {
  const name = d.name.trim()
  if (!name) return '请输入收货人姓名'
  if (textLength(name) > RECEIVER_MAX_LENGTH) return '收货人姓名最多10个汉字或20个字母'
  if (!isMobile(d.mobile.trim())) return '请输入正确的手机号'
  if (!d.provinceCode || !d.cityCode || !d.districtCode) return '请选择所在地区'
  const detail = d.detail.trim()
  if (detail.length < DETAIL_MIN_LENGTH) return '请输入详细地址'
  if (detail.length > DETAIL_MAX_LENGTH) return `详细地址最多${DETAIL_MAX_LENGTH}个字`
  return null
}

export function inputOf(d: AddressDraft): AddressInput {
  return {
    name: d.name.trim(),
    mobile: d.mobile.trim(),
    provinceCode: d.provinceCode,
    cityCode: d.cityCode,
    districtCode: d.districtCode,
    detail: d.detail.trim(),
    latitude: d.latitude || undefined,
    longitude: d.longitude || undefined,
    isDefault: d.isDefault,
  }
}

/**
 * The detail line a location gives: its address without the region it starts with, then the place name, with a
 * bracketed note kept last: "广东省深圳市南山区深南大道10000号" + "腾讯大厦" -> "深南大道10000号腾讯大厦".
 */
export function detailFromLocation(loc: Location): string {
  let rest = loc.address.trim()
  for (const part of [loc.province, loc.city, loc.district]) {
    if (part && rest.startsWith(part)) rest = rest.slice(part.length)
  }
  const [, street = '', note = ''] = /^(.*?)([（(][^（()）]*[)）])?$/.exec(rest) ?? []
  const name = street.includes(loc.name) ? '' : loc.name
  return `${street}${name}${note}`.trim()
}

/** Delivery addresses (spec §3 client state `editAddress`), the region lists and the location a map page hands back. */
export class AddressStore {
  list: Address[] = []
  loading = false
  /** The list has been answered at least once (the empty state shows only then). */
  loaded = false
  saving = false
  /** The address the add page edits, whole (spec §3 `editAddress`); null for a new one. */
  editAddress: Address | null = null
  /** The address picked from the list in select mode (pharmacy checkout). */
  chosen: Address | null = null
  /** The location /choose-location confirmed, until the page that opened it takes it. */
  pickedLocation: Location | null = null
  /** The patient left /choose-location to choose the region by hand. */
  manualRegionWanted = false
  private regions = new Map<number, Region[]>()

  constructor() {
    makeAutoObservable<AddressStore, 'regions'>(this, { regions: false })
  }

  get defaultAddress(): Address | null {
    return this.list.find((a) => a.isDefault) ?? null
  }

  async loadList() {
    this.loading = true
    try {
      const list = await api.listAddresses()
      runInAction(() => {
        this.list = list
        this.loaded = true
      })
    } finally {
      runInAction(() => {
        this.loading = false
      })
    }
  }

  /** Loads the address the add page edits (whole values), or starts a new one. */
  async startEdit(id: number | null) {
    this.editAddress = null
    if (!id) return null
    const address = await api.getAddress(id)
    runInAction(() => {
      this.editAddress = address
    })
    return address
  }

  /** Saves the draft (new, or the one being edited); the list reloads. Answers the first problem instead when there is one. */
  async save(draft: AddressDraft): Promise<string | null> {
    const problem = addressProblem(draft)
    if (problem) return problem
    this.saving = true
    try {
      const input = inputOf(draft)
      if (this.editAddress) await api.updateAddress(this.editAddress.id, input)
      else await api.addAddress(input)
      await this.loadList()
      return null
    } finally {
      runInAction(() => {
        this.saving = false
      })
    }
  }

  /** The list is masked, so the whole address is read first and written back as the default. */
  async setDefault(id: number) {
    const whole = await api.getAddress(id)
    await api.updateAddress(id, { ...inputOf(draftOf(whole)), isDefault: true })
    await this.loadList()
  }

  async remove(id: number) {
    await api.deleteAddress(id)
    runInAction(() => {
      if (this.chosen?.id === id) this.chosen = null
    })
    await this.loadList()
  }

  choose(address: Address) {
    this.chosen = address
  }

  /** Regions under a code (0: provinces); each list is asked for once. */
  async regionsUnder(parentCode: number): Promise<Region[]> {
    const cached = this.regions.get(parentCode)
    if (cached) return cached
    const list = await listRegions(parentCode)
    this.regions.set(parentCode, list)
    return list
  }

  handBackLocation(location: Location) {
    this.pickedLocation = location
  }

  /** The confirmed location, once: the page that takes it clears it. */
  takeLocation(): Location | null {
    const location = this.pickedLocation
    this.pickedLocation = null
    return location
  }

  askManualRegion(wanted: boolean) {
    this.manualRegionWanted = wanted
  }

  /** The address the server finds at a position (GCJ-02, as every location the app sends), for 选择位置. */
  placeAt(latitude: number, longitude: number): Promise<Location> {
    return getLocation(latitude, longitude)
  }

  /**
   * 定位 on the address form: where the system has its own map picker (a mini-program), the place chosen there, with
   * the region the server finds at it, handed back at once ('picked'; 'cancelled' when the map was closed); else
   * 'page': the app's own 选择位置 page locates the patient and hands the place back itself.
   */
  async locate(): Promise<'picked' | 'cancelled' | 'page'> {
    if (!platform.pickPlace) return 'page'
    const place = await platform.pickPlace()
    if (!place) return 'cancelled'
    const region = await getLocation(place.latitude, place.longitude)
    this.handBackLocation({ ...region, latitude: place.latitude, longitude: place.longitude, name: place.name || region.name, address: place.address || region.address })
    return 'picked'
  }

}

/** The address store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useAddressStore = pageStore(() => new AddressStore())
