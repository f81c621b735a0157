import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, hospitalDto, id, idParam, menuEntry, appId, pageNo, pageSize } from '../schemas'
import * as hospital from '../../domain/hospital'
import * as user from '../../domain/user'
import * as protocol from '../../domain/protocol'
import { MESSAGE_MAX, PAGE_MAX, STACK_MAX, scrubClientText } from '@/utils/clientErrors'

const homeConfig = z.object({
  main: z.boolean(),
  hospital: hospitalDto.nullable(),
  notice: z.string().optional(),
  menus: z.array(menuEntry),
  /** A demo or training server (config.demo): the app marks every page 演示环境. */
  demo: z.boolean(),
})

const articleSummary = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  cover: z.string(),
  category: z.string(),
  author: z.string(),
  doctorId: z.number().nullable(),
  views: z.number(),
  publishedAt: z.date(),
})

export async function hospitalRoutes(app: FastifyInstance) {
  const db = () => app.ctx.db
  // Every app start reads the home page's config. Its answer is built once for each hospital row the process's cache
  // keeps, and sent serialised from then on (route `reuse`); a changed hospital is a new row, so a new answer.
  const homeAnswers = new WeakMap<hospital.HospitalRow, z.input<typeof homeConfig>>()
  const mainHome = { ...hospital.homePageConfig(null), demo: app.ctx.config.demo }

  route(app, {
    method: 'GET',
    url: '/dld-hospital/hospital/list',
    summary: 'Hospitals on the platform, optionally filtered by name or code',
    auth: 'none',
    query: z.object({ keyword: z.string().trim().max(50).optional() }),
    data: z.array(hospitalDto),
    handler: async ({ query }) => hospital.listHospitals(db(), { keyword: query.keyword || undefined }),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/hospitalList/:id',
    summary: 'Hospitals of one brand',
    auth: 'none',
    params: idParam,
    data: z.array(hospitalDto),
    handler: async ({ params }) => hospital.listHospitals(db(), { brandId: params.id }),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/hospital/getByAppId',
    summary: 'The hospital of an official account (or of hospitalCode); null in main mode',
    auth: 'none',
    query: z.object({ appId, hospitalCode: hospitalCode.optional() }),
    data: hospitalDto.nullable(),
    handler: async ({ query }) => {
      const row = query.hospitalCode ? await hospital.requireHospitalByCode(db(), query.hospitalCode) : await hospital.findHospitalByAppId(db(), query.appId)
      return row ? hospital.toHospitalDto(row) : null
    },
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/homePageConfig',
    summary: 'Home page notice and menu of a hospital (the platform’s in main mode)',
    auth: 'none',
    query: z.object({ hospitalCode: hospitalCode.optional() }),
    data: homeConfig,
    reuse: true,
    handler: async ({ query }) => {
      if (!query.hospitalCode) return mainHome
      const row = await hospital.requireHospitalByCode(db(), query.hospitalCode)
      let answer = homeAnswers.get(row)
      if (!answer) homeAnswers.set(row, (answer = { ...hospital.homePageConfig(row), demo: app.ctx.config.demo }))
      return answer
    },
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/isSupervision',
    summary: 'Whether the hospital’s online consultations report to a regulator’s platform (互联网医疗服务监管平台), and its name',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.object({ supervised: z.boolean(), platformName: z.string() }),
    handler: async ({ query }) => hospital.supervision(db(), query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/ad',
    summary: 'Home page banners of a hospital (the platform’s own without a code): enabled, within their dates, in order',
    auth: 'none',
    query: z.object({ hospitalCode: hospitalCode.optional() }),
    data: z.array(z.object({ id: z.number(), title: z.string(), image: z.string(), url: z.string() })),
    handler: async ({ query }) => hospital.listAds(db(), query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/menuConfig/:id',
    summary: 'Menu entries of a hospital; role says which service family shows each',
    auth: 'none',
    params: idParam,
    data: z.array(menuEntry),
    handler: async ({ params }) => (await hospital.requireHospital(db(), params.id)).homePageConfig.menus,
  })

  route(app, {
    method: 'POST',
    url: '/dld-hospital/common/debugLog',
    summary: 'The app reports a script error, an unhandled rejection or a chunk that did not load; it is logged, scrubbed',
    auth: 'optional',
    // per address: a phone in a loop, or someone filling the log, is refused (the app itself sends a few per session)
    rateLimit: { max: 20, timeWindow: 60_000 },
    body: z.object({
      kind: z.enum(['error', 'rejection', 'chunk']),
      message: z.string().min(1, '请说明错误').max(MESSAGE_MAX),
      stack: z.string().max(STACK_MAX).default(''),
      page: z.string().max(PAGE_MAX),
    }),
    data: z.null(),
    handler: async ({ body, auth, req }) => {
      // scrubbed again here: the log keeps no query values, numbers or tokens whatever the client sent
      const report = {
        kind: body.kind,
        page: scrubClientText(body.page.split('?')[0]!, PAGE_MAX),
        message: scrubClientText(body.message, MESSAGE_MAX),
        stack: scrubClientText(body.stack, STACK_MAX),
      }
      req.log.warn({ clientError: report, userId: auth?.userId || null }, 'client error')
      return null
    },
  })

  const protocolText = z.object({ title: z.string(), content: z.string(), version: z.string() })
  route(app, {
    method: 'POST',
    url: '/dld-hospital/common/getProtocol',
    summary: 'The platform’s user agreement and privacy policy in force, each with its version (the hash of its text)',
    auth: 'none',
    data: z.object({ userAgreement: protocolText, privacyPolicy: protocolText }),
    handler: async () => protocol.currentProtocols(db()),
  })

  route(app, {
    method: 'POST',
    url: '/dld-hospital/common/protocol/consent',
    summary: 'Records that the account agreed to the agreement and policy of these versions (refused unless they are in force)',
    auth: 'user',
    body: z.object({
      userAgreementVersion: z.string().regex(/^[0-9a-f]{16}$/, '协议版本不正确'),
      privacyPolicyVersion: z.string().regex(/^[0-9a-f]{16}$/, '协议版本不正确'),
    }),
    data: z.object({ consentedAt: z.string() }),
    handler: async ({ auth, body }) => protocol.recordConsent(db(), auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/common/textConfig/:id',
    summary: 'Texts a hospital configures (notices, agreements), by key',
    auth: 'none',
    params: idParam,
    data: z.record(z.string(), z.string()),
    handler: async ({ params }) => hospital.hospitalTexts(db(), params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/brand/list',
    summary: 'Hospital brands (groups) with their hospital counts',
    auth: 'none',
    data: z.array(z.object({ id: z.number(), name: z.string(), logo: z.string(), intro: z.string(), hospitalCount: z.number() })),
    handler: async () => hospital.listBrands(db()),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/brand/dept/:id',
    summary: 'Featured departments across a brand’s hospitals',
    auth: 'none',
    params: idParam,
    data: z.array(z.object({ id: z.number(), deptName: z.string(), intro: z.string(), hospitalCode: z.string(), hospitalName: z.string() })),
    handler: async ({ params }) => hospital.brandDepartments(db(), params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/brand/hospitalInfo',
    summary: 'A hospital with the brand it belongs to',
    auth: 'none',
    query: z.object({ hospitalCode }),
    data: z.object({
      hospital: hospitalDto,
      brand: z.object({ id: z.number(), name: z.string(), logo: z.string(), intro: z.string() }).nullable(),
    }),
    handler: async ({ query }) => hospital.brandHospitalInfo(db(), query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/userinfo',
    summary: 'The signed-in person; id 0 until a mobile number is bound',
    auth: 'identity',
    data: z.object({
      id: z.number(),
      nickname: z.string(),
      wechatAvatar: z.string(),
      mobile: z.string(),
      roles: z.array(z.string()),
      appId: z.string(),
      provider: z.enum(['wechat', 'alipay']),
      identity: z.object({ name: z.string(), idCard: z.string(), verified: z.boolean() }).nullable(),
      consentNeeded: z.boolean(),
    }),
    handler: async ({ auth }) => user.userInfo(app.ctx.db, app.ctx.cipher, auth),
  })

  route(app, {
    method: 'PUT',
    url: '/dld-hospital/userinfo',
    summary: 'Change the signed-in user’s nickname and avatar (an uploaded file URL)',
    auth: 'user',
    body: z.object({
      nickname: z.string().trim().min(1, '请输入昵称').max(20),
      avatar: z
        .string()
        .max(200)
        .regex(/^(\/dld-file\/files\/[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp)|https:\/\/\S+)?$/, '头像地址不正确')
        .default(''),
    }),
    data: z.object({ id: z.number(), nickname: z.string(), wechatAvatar: z.string() }),
    handler: async ({ auth, body }) => user.updateProfile(app.ctx.db, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/api/patient/article/list',
    summary: 'Articles, newest first, paged: one doctor’s (doctorId), or a hospital’s with the platform’s (health knowledge)',
    auth: 'none',
    query: z.object({
      page: pageNo,
      size: pageSize(50),
      category: z.string().trim().max(20).optional(),
      hospitalCode: hospitalCode.optional(),
      doctorId: id.optional(),
    }),
    data: z.object({ records: z.array(articleSummary), total: z.number(), page: z.number(), size: z.number() }),
    handler: async ({ query }) => hospital.listArticles(db(), query),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/api/patient/article/:id',
    summary: 'One health-knowledge article (counts a view)',
    auth: 'none',
    params: idParam,
    data: articleSummary.extend({ content: z.string() }),
    handler: async ({ params }) => hospital.readArticle(db(), params.id),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/im/patient/record/list',
    summary: 'The signed-in user’s consultations (my consultations tab)',
    auth: 'user',
    query: z.object({ hospitalCode: hospitalCode.optional() }),
    data: z.array(
      z.object({
        id: z.number(),
        orderNo: z.string(),
        doctorName: z.string(),
        doctorAvatar: z.string(),
        deptName: z.string(),
        status: z.string(),
        lastMessage: z.string(),
        unreadCount: z.number(),
        /** `C2C` + the doctor's IM account: whose unread count this is (spec §3 conversation item). */
        conversationID: z.string().optional(),
        /** The inquiry the consultation is, for the room and the order detail. */
        inquiryId: z.number().optional(),
        updatedAt: z.date(),
        hospitalCode: z.string(),
        hospitalName: z.string(),
      }),
    ),
    handler: async ({ auth, query }) => hospital.listConsultations(db(), app.ctx.cipher, auth.userId, query.hospitalCode),
  })
}
