import { z } from 'zod'

/** Shapes shared by several routes, so OpenAPI names them once. */
export const hospitalDto = z.object({
  id: z.number(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  shortName: z.string(),
  brandId: z.number().nullable(),
  appId: z.string().nullable(),
  level: z.string(),
  logo: z.string(),
  address: z.string(),
  phone: z.string(),
  intro: z.string(),
  configDto: z.object({ isInternet: z.boolean(), isPalm: z.boolean() }),
})

export const menuEntry = z.object({
  name: z.string(),
  icon: z.string(),
  url: z.string(),
  role: z.enum(['palm', 'internet', 'all']),
  group: z.string().optional(),
})

export const session = z.object({
  token: z.string(),
  refreshToken: z.string(),
  expireTime: z.number(),
  appId: z.string(),
  userId: z.number(),
})

/** PostgreSQL's integer: a larger id names nothing, and would fail in the query instead of answering 400. */
export const PG_INT_MAX = 2_147_483_647
/** A row id in a path, query or body (numbers arrive as text in form bodies and queries). */
export const id = z.coerce.number().int().positive().max(PG_INT_MAX)
export const idParam = z.object({ id })
export const hospitalCode = z.string().trim().min(1).max(32)
export const mobile = z.string().regex(/^1[3-9]\d{9}$/, '手机号格式不正确')
/** The 6-digit code of an SMS (domain/auth.ts sendBindCode and the codes of its kind). */
export const smsCode = z.string().regex(/^\d{6}$/, '请输入6位验证码')
export const appId = z.string().trim().min(1).max(64)
/** The key a client sends with every call that creates an order or moves money: the same key answers the same thing. */
export const idempotencyKey = z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, '请求编号应为8至64位字母、数字、_或-')
/** Paging: the page number (from 1), and a page's size up to what the list allows. */
export const pageNo = z.coerce.number().int().min(1).max(1000).default(1)
export const pageSize = (max: number, byDefault = 10) => z.coerce.number().int().min(1).max(max).default(byDefault)
/** A page of a list (types/api/hospital.ts Page): its records, the total and where it is. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ records: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() })
