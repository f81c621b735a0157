import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { route } from '../../route'
import { hospitalCode, id, pageNo, pageSize } from '../schemas'
import * as internet from '../../domain/internetDoctors'
import { doctorPortraitSvg } from '../../domain/register/catalogue'

const keyword = z.string().trim().min(1, '请输入搜索关键词').max(20, '搜索关键词不能超过20个字')
/** An optional query value the app may send empty. */
const optionalCode = hospitalCode.optional().or(z.literal('').transform(() => undefined))

const stars = z.object({ full: z.number().int(), half: z.boolean(), empty: z.number().int() })
/** An online doctor as every list of them answers it (the consultation tab's recommendations add `consulted`). */
export const onlineDoctor = z.object({
  id: z.number(),
  doctorName: z.string(),
  title: z.string(),
  avatar: z.string(),
  deptId: z.number(),
  deptName: z.string(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  level: z.number(),
  stars,
  priceFen: z.number().int().nullable(),
  avgReplySeconds: z.number().int(),
  replyTimeText: z.string(),
  servedCount: z.number().int(),
  goodRate: z.number().int(),
  online: z.boolean(),
  speciality: z.string(),
  imAccount: z.string(),
})
const onlineDoctorInfo = onlineDoctor.extend({
  intro: z.string(),
  services: z.array(z.object({ type: z.enum(['text', 'video']), name: z.string(), priceFen: z.number().int() })),
  fansCount: z.number().int(),
  followed: z.boolean(),
})
const onlineDept = z.object({ id: z.number(), deptName: z.string(), doctorCount: z.number().int(), onlineCount: z.number().int() })
const followState = z.object({ doctorId: z.number(), followed: z.boolean(), fansCount: z.number().int() })

/**
 * The internet hospital's doctors, `/dld-hospital` (spec §7 Internet hospital → Doctors): listings are public, the
 * follow calls and 我的医生 are the caller's.
 */
export async function internetRoutes(app: FastifyInstance) {
  const db = () => app.ctx.db
  const A = '/dld-hospital'

  route(app, {
    method: 'GET',
    url: `${A}/index/doctorList`,
    summary:
      'A hospital’s online doctors, a page at a time, optionally of one department (a clinic group: all its departments). ' +
      'sort: default (accepting first, then the hospital’s order), level (highest), replyTime (fastest), price (cheapest 图文问诊)',
    auth: 'none',
    query: z.object({
      hospitalCode,
      deptId: id.optional().or(z.literal('').transform(() => undefined)),
      sort: z.enum(['default', 'level', 'replyTime', 'price']).default('default'),
      page: pageNo,
      size: pageSize(internet.MAX_PAGE_SIZE),
    }),
    data: z.object({ records: z.array(onlineDoctor), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    handler: async ({ query }) => internet.listOnlineDoctors(db(), query),
  })

  route(app, {
    method: 'GET',
    url: `${A}/index/search`,
    summary: 'Online doctors whose name, speciality or department matches a keyword, and matching departments; one hospital or all',
    auth: 'none',
    query: z.object({ hospitalCode: optionalCode, keyword }),
    data: z.object({ doctors: z.array(onlineDoctor), depts: z.array(onlineDept.extend({ hospitalCode: z.string(), hospitalName: z.string() })) }),
    handler: async ({ query }) => internet.searchOnline(db(), query),
  })

  route(app, {
    method: 'GET',
    url: `${A}/index/hospitalDept`,
    summary: 'The hospital’s departments that have online doctors, with how many and how many accept consultations now',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.array(onlineDept),
    handler: async ({ query }) => internet.onlineDepartments(db(), query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${A}/index/hotService`,
    summary: 'The most consulted online doctors accepting consultations now (served count), of one hospital or all',
    auth: 'none',
    query: z.object({ hospitalCode: optionalCode, limit: pageSize(20, 6) }),
    data: z.array(onlineDoctor),
    handler: async ({ query }) => internet.hotService(db(), query),
  })

  route(app, {
    method: 'GET',
    url: `${A}/index/city`,
    summary: 'Cities with a hospital that has the internet service, each with those hospitals',
    auth: 'none',
    data: z.array(z.object({ city: z.string(), hospitals: z.array(z.object({ hospitalCode: z.string(), hospitalName: z.string() })) })),
    handler: async () => internet.internetCities(db()),
  })

  route(app, {
    method: 'GET',
    url: `${A}/index/physicianAssistant`,
    summary: 'The hospital’s physician assistants (医生助理) with their IM accounts (a_<id>)',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.array(z.object({ id: z.number(), name: z.string(), imAccount: z.string(), avatar: z.string(), hospitalCode: z.string() })),
    handler: async ({ query }) => internet.listAssistants(db(), query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${A}/doctor/info`,
    summary: 'One online doctor in full: services and prices, fans, and whether the signed-in caller follows them',
    auth: 'optional',
    query: z.object({ id }),
    data: onlineDoctorInfo,
    handler: async ({ query, auth }) => internet.onlineDoctorInfo(db(), query.id, auth?.userId || null),
  })

  route(app, {
    method: 'GET',
    url: `${A}/im/fans/doctor/list`,
    summary: 'The online doctors the caller follows, the latest followed first',
    auth: 'user',
    query: z.object({ hospitalCode: optionalCode }),
    data: z.array(onlineDoctor),
    handler: async ({ query, auth }) => internet.followedDoctors(db(), auth.userId, query.hospitalCode),
  })

  route(app, {
    method: 'PUT',
    url: `${A}/im/fans/follow`,
    summary: 'Follow an online doctor; following again changes nothing',
    auth: 'user',
    body: z.object({ doctorId: id }),
    data: followState,
    handler: async ({ body, auth }) => internet.followDoctor(db(), auth.userId, body.doctorId),
  })

  route(app, {
    method: 'PUT',
    url: `${A}/im/fans/cancel/follow`,
    summary: 'Stop following an online doctor; for one not followed it changes nothing',
    auth: 'user',
    body: z.object({ doctorId: id }),
    data: followState,
    handler: async ({ body, auth }) => internet.unfollowDoctor(db(), auth.userId, body.doctorId),
  })

  route(app, {
    method: 'GET',
    url: `${A}/doctor/chronic/getMyDoctor`,
    summary: '我的医生: the doctors the caller follows, those accepting consultations first, then the latest followed',
    auth: 'user',
    query: z.object({ hospitalCode: optionalCode }),
    data: z.array(onlineDoctor),
    handler: async ({ query, auth }) => internet.myDoctors(db(), auth.userId, query.hospitalCode),
  })

  // assistants' portraits, drawn from the name like the doctors': not part of the API
  app.withTypeProvider<ZodTypeProvider>().get(
    '/static/assistants/:file',
    { schema: { hide: true, params: z.object({ file: z.string().regex(/^\d{1,9}\.svg$/) }) } },
    async (req, reply) => {
      const assistantId = Number(req.params.file.slice(0, -4))
      const name = await internet.assistantName(db(), assistantId)
      if (!name) return reply.status(404).type('text/plain; charset=utf-8').send('not found')
      return reply.type('image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=86400').send(doctorPortraitSvg(assistantId, name))
    },
  )
}
