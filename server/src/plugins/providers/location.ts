import { inArray } from 'drizzle-orm'
import type { Location } from '../../../../types/api/address'
import type { Config } from '../../config'
import type { Db } from '../../db'
import { regions } from '../../db/schema'
import { badInput } from '../../errors'

/**
 * Reverse geocoding: coordinates to an address (`/dld-system/map/getLocation`). Coordinates are GCJ-02 throughout, as
 * Chinese map services (Tencent's default) and the mini-programs' pickers use them; the H5 page converts the browser's
 * WGS-84 before it asks.
 */
export interface LocationProvider {
  readonly kind: 'sandbox' | 'real' | 'disabled'
  reverseGeocode(latitude: number, longitude: number): Promise<Location>
}

export const OUT_OF_SERVICE = '当前位置不在服务范围内'
/** The location page adds "，请重试或手动选择所在地区。" to it. */
export const LOCATION_OFF = '暂不支持自动定位'

/** Farther than this from every provincial capital is taken to be outside China (the sandbox knows nothing else). */
export const SANDBOX_MAX_DISTANCE_KM = 1000

/**
 * The capital of every province-level division (public facts): its city code, the district at its centre, and the
 * centre's coordinates (rounded: a few hundred metres between WGS-84 and GCJ-02 do not matter at this scale).
 */
export const CAPITALS: readonly { city: string; cityCode: number; districtCode: number; lat: number; lng: number }[] = [
  { city: '北京市', cityCode: 110100, districtCode: 110101, lat: 39.9042, lng: 116.4074 },
  { city: '天津市', cityCode: 120100, districtCode: 120101, lat: 39.1167, lng: 117.2 },
  { city: '石家庄市', cityCode: 130100, districtCode: 130102, lat: 38.0428, lng: 114.5149 },
  { city: '太原市', cityCode: 140100, districtCode: 140106, lat: 37.8706, lng: 112.5489 },
  { city: '呼和浩特市', cityCode: 150100, districtCode: 150102, lat: 40.8424, lng: 111.749 },
  { city: '沈阳市', cityCode: 210100, districtCode: 210102, lat: 41.8057, lng: 123.4315 },
  { city: '长春市', cityCode: 220100, districtCode: 220104, lat: 43.8171, lng: 125.3235 },
  { city: '哈尔滨市', cityCode: 230100, districtCode: 230103, lat: 45.8038, lng: 126.5349 },
  { city: '上海市', cityCode: 310100, districtCode: 310101, lat: 31.2304, lng: 121.4737 },
  { city: '南京市', cityCode: 320100, districtCode: 320102, lat: 32.0603, lng: 118.7969 },
  { city: '杭州市', cityCode: 330100, districtCode: 330102, lat: 30.2741, lng: 120.1551 },
  { city: '合肥市', cityCode: 340100, districtCode: 340103, lat: 31.8206, lng: 117.2272 },
  { city: '福州市', cityCode: 350100, districtCode: 350102, lat: 26.0745, lng: 119.2965 },
  { city: '南昌市', cityCode: 360100, districtCode: 360102, lat: 28.6829, lng: 115.8582 },
  { city: '济南市', cityCode: 370100, districtCode: 370102, lat: 36.6512, lng: 117.1201 },
  { city: '郑州市', cityCode: 410100, districtCode: 410105, lat: 34.7466, lng: 113.6254 },
  { city: '武汉市', cityCode: 420100, districtCode: 420106, lat: 30.5928, lng: 114.3055 },
  { city: '长沙市', cityCode: 430100, districtCode: 430102, lat: 28.2282, lng: 112.9388 },
  { city: '广州市', cityCode: 440100, districtCode: 440104, lat: 23.1291, lng: 113.2644 },
  { city: '南宁市', cityCode: 450100, districtCode: 450103, lat: 22.817, lng: 108.3665 },
  { city: '海口市', cityCode: 460100, districtCode: 460106, lat: 20.044, lng: 110.1999 },
  { city: '重庆市', cityCode: 500100, districtCode: 500103, lat: 29.563, lng: 106.5516 },
  { city: '成都市', cityCode: 510100, districtCode: 510104, lat: 30.5728, lng: 104.0668 },
  { city: '贵阳市', cityCode: 520100, districtCode: 520102, lat: 26.647, lng: 106.6302 },
  { city: '昆明市', cityCode: 530100, districtCode: 530102, lat: 25.0389, lng: 102.7183 },
  { city: '拉萨市', cityCode: 540100, districtCode: 540102, lat: 29.652, lng: 91.1721 },
  { city: '西安市', cityCode: 610100, districtCode: 610102, lat: 34.3416, lng: 108.9398 },
  { city: '兰州市', cityCode: 620100, districtCode: 620102, lat: 36.0611, lng: 103.8343 },
  { city: '西宁市', cityCode: 630100, districtCode: 630103, lat: 36.6171, lng: 101.7782 },
  { city: '银川市', cityCode: 640100, districtCode: 640104, lat: 38.4872, lng: 106.2309 },
  { city: '乌鲁木齐市', cityCode: 650100, districtCode: 650102, lat: 43.8256, lng: 87.6168 },
  { city: '台北市', cityCode: 710100, districtCode: 710101, lat: 25.033, lng: 121.5654 },
  { city: '香港岛', cityCode: 810100, districtCode: 810101, lat: 22.2819, lng: 114.1582 },
  { city: '澳门半岛', cityCode: 820100, districtCode: 820105, lat: 22.1987, lng: 113.5439 },
]

const EARTH_RADIUS_KM = 6371

/** Great-circle distance (haversine). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180
  const dLat = (lat2 - lat1) * rad
  const dLng = (lng2 - lng1) * rad
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** "北京市" + "北京市" + "东城区" reads "北京市东城区": a municipality's city repeats its province. */
const joinRegion = (province: string, city: string, district: string) => (city === province ? province : province + city) + district

/**
 * Answers the nearest provincial capital's centre, with region codes and names from the `regions` table, so the
 * address form can be filled from it. Good enough to develop and test against without a map key.
 */
export function sandboxLocation(db: Db): LocationProvider {
  return {
    kind: 'sandbox',
    async reverseGeocode(latitude, longitude) {
      let nearest = CAPITALS[0]!
      let best = Infinity
      for (const c of CAPITALS) {
        const d = distanceKm(latitude, longitude, c.lat, c.lng)
        if (d < best) [nearest, best] = [c, d]
      }
      if (best > SANDBOX_MAX_DISTANCE_KM) throw badInput(OUT_OF_SERVICE)
      const provinceCode = Math.floor(nearest.cityCode / 10000) * 10000
      const rows = await db
        .select({ code: regions.code, name: regions.name })
        .from(regions)
        .where(inArray(regions.code, [provinceCode, nearest.cityCode, nearest.districtCode]))
      const names = new Map(rows.map((r) => [r.code, r.name]))
      const province = names.get(provinceCode) ?? ''
      const city = names.get(nearest.cityCode) ?? nearest.city
      const district = names.get(nearest.districtCode) ?? ''
      return {
        latitude,
        longitude,
        address: `${joinRegion(province, city, district)}（模拟定位）`,
        name: `${nearest.city}中心`,
        province,
        city,
        district,
        provinceCode: names.has(provinceCode) ? provinceCode : null,
        cityCode: names.has(nearest.cityCode) ? nearest.cityCode : null,
        districtCode: names.has(nearest.districtCode) ? nearest.districtCode : null,
      }
    },
  }
}

/** No map service on a server that is not a demo: the patient picks the region by hand instead of a capital's centre. */
export function disabledLocation(): LocationProvider {
  return {
    kind: 'disabled',
    async reverseGeocode() {
      throw badInput(LOCATION_OFF)
    },
  }
}

/** The part of Tencent Location Service's reverse-geocoding answer that is used here. */
interface TencentGeocoderReply {
  status: number
  message?: string
  result?: {
    address?: string
    formatted_addresses?: { recommend?: string }
    address_component?: { nation?: string; province?: string; city?: string; district?: string }
    ad_info?: { adcode?: string; nation_code?: string }
  }
}

/** China's nation code in Tencent's ad_info. */
const TENCENT_CHINA = '156'

/**
 * Tencent Location Service reverse geocoding (https://lbs.qq.com/service/webService/webServiceGuide/address/Gcoder).
 * Region codes come from the district's adcode (440305 -> city 440300 -> province 440000).
 */
export function tencentLocation(cfg: NonNullable<Config['map']>): LocationProvider {
  return {
    kind: 'real',
    async reverseGeocode(latitude, longitude) {
      const url = new URL('https://apis.map.qq.com/ws/geocoder/v1/')
      url.searchParams.set('location', `${latitude},${longitude}`)
      url.searchParams.set('key', cfg.key)
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) })
      // the URL carries the key: errors name the status only
      if (!res.ok) throw new Error(`Tencent geocoder answered HTTP ${res.status}`)
      const reply = (await res.json()) as TencentGeocoderReply
      if (reply.status !== 0 || !reply.result) throw new Error(`Tencent geocoder status ${reply.status}: ${reply.message ?? ''}`)
      const { result } = reply
      const part = result.address_component ?? {}
      const nationCode = result.ad_info?.nation_code
      if ((nationCode && nationCode !== TENCENT_CHINA) || (part.nation && part.nation !== '中国')) throw badInput(OUT_OF_SERVICE)
      const adcode = result.ad_info?.adcode ?? ''
      const valid = /^\d{6}$/.test(adcode)
      return {
        latitude,
        longitude,
        address: result.address ?? '',
        name: result.formatted_addresses?.recommend ?? result.address ?? '',
        province: part.province ?? '',
        city: part.city ?? '',
        district: part.district ?? '',
        provinceCode: valid ? Number(`${adcode.slice(0, 2)}0000`) : null,
        cityCode: valid ? Number(`${adcode.slice(0, 4)}00`) : null,
        districtCode: valid && !adcode.endsWith('00') ? Number(adcode) : null,
      }
    },
  }
}
