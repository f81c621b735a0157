import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { idParam, mobile } from '../schemas'
import * as address from '../../domain/address'
import { DETAIL_MAX_LENGTH } from '@/utils/address'

/** A form-encoded body sends booleans as text; z.coerce.boolean would read 'false' as true. */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])

/** Optional decimal degrees as text (the app stores what the map answered); '' means none. */
const degrees = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(20)
    .refine((v) => v === '' || (/^-?\d{1,3}(\.\d+)?$/.test(v) && Math.abs(Number(v)) <= max), `${label}不正确`)
    .transform((v) => v || undefined)
    .optional()

const regionCode = z.coerce.number().int().min(100000, '所在地区不正确').max(999999, '所在地区不正确')

const addressInput = z.object({
  name: z.string().trim().min(1, '请输入收货人姓名').max(20, '收货人姓名不能超过20个字'),
  mobile,
  provinceCode: regionCode,
  cityCode: regionCode,
  districtCode: regionCode,
  detail: z.string().trim().min(2, '请输入详细地址').max(DETAIL_MAX_LENGTH, `详细地址不能超过${DETAIL_MAX_LENGTH}个字`),
  latitude: degrees(90, '纬度'),
  longitude: degrees(180, '经度'),
  isDefault: flag.optional(),
})

const addressDto = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string(),
  provinceCode: z.number(),
  cityCode: z.number(),
  districtCode: z.number(),
  regionText: z.string(),
  detail: z.string(),
  latitude: z.string().nullable(),
  longitude: z.string().nullable(),
  isDefault: z.boolean(),
})

/** "lat,lng" in decimal degrees, each within its range. */
const coordinates = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const m = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(v)
    const lat = m ? Number(m[1]) : NaN
    const lng = m ? Number(m[2]) : NaN
    if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) {
      ctx.addIssue({ code: 'custom', message: '坐标格式不正确' })
      return z.NEVER
    }
    return { lat, lng }
  })

const locationDto = z.object({
  latitude: z.number(),
  longitude: z.number(),
  address: z.string(),
  name: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  provinceCode: z.number().nullable(),
  cityCode: z.number().nullable(),
  districtCode: z.number().nullable(),
})

/** Delivery addresses (the caller's own), the region picker and reverse geocoding. Spec §7. */
export async function addressRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db

  route(app, {
    method: 'GET',
    url: '/dld-hospital/addressList',
    summary: 'The caller’s delivery addresses, default first, then newest; names and mobiles masked',
    auth: 'user',
    data: z.array(addressDto),
    handler: async ({ auth }) => address.listAddresses(db(), cipher, auth.userId),
  })

  route(app, {
    method: 'POST',
    url: '/dld-hospital/addAddress',
    summary: 'Add a delivery address; the first one becomes the default',
    auth: 'user',
    body: addressInput,
    data: addressDto,
    handler: async ({ auth, body }) => address.addAddress(db(), cipher, auth.userId, body),
  })

  route(app, {
    method: 'PUT',
    url: '/dld-hospital/updateAddress/:id',
    summary: 'Change one of the caller’s delivery addresses',
    auth: 'user',
    params: idParam,
    body: addressInput,
    data: addressDto,
    handler: async ({ auth, params, body }) => address.updateAddress(db(), cipher, auth.userId, params.id, body),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/address/:id',
    summary: 'One of the caller’s delivery addresses, whole, for the edit page',
    auth: 'user',
    params: idParam,
    data: addressDto,
    handler: async ({ auth, params }) => address.getAddress(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'DELETE',
    url: '/dld-hospital/address/:id',
    summary: 'Delete a delivery address; if it was the default, the newest remaining one becomes the default',
    auth: 'user',
    params: idParam,
    data: z.object({ defaultAddressId: z.number().nullable() }),
    handler: async ({ auth, params }) => address.deleteAddress(db(), auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-system/nation/parent/:id',
    summary: 'Administrative divisions under a region code (0: the provinces), by code',
    auth: 'none',
    params: z.object({ id: z.coerce.number().int().min(0).max(999999) }),
    data: z.array(z.object({ code: z.number(), name: z.string(), level: z.union([z.literal(1), z.literal(2), z.literal(3)]), leaf: z.boolean() })),
    handler: async ({ params }) => address.regionChildren(db(), params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-system/map/getLocation',
    summary: 'Reverse geocoding: the address at "lat,lng"',
    auth: 'identity',
    query: z.object({ location: coordinates }),
    data: locationDto,
    handler: async ({ query }) => app.ctx.providers.location.reverseGeocode(query.location.lat, query.location.lng),
  })
}
