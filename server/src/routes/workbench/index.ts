import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { id, pageNo, pageSize } from '../schemas'
import { inquiryPatients } from '../../domain/audit'
import { route } from '../../route'
import { forbidden, notFound, unauthenticated } from '../../errors'
import { signUser } from '../../plugins/providers/im'
import * as desk from '../../domain/doctorDesk'
import { MEDICAL_RECORD_FIELDS, searchDiseases } from '../../domain/medicalRecord'
import { resolveStaffToken, signInStaff, signOutStaff, staffProfile, type StaffContext } from '../../domain/staff'
import { diseaseCodeDto, medicalRecordDto } from '../patient/medical'
import { intakeDto } from '../patient/inquiry'
import { readUpload, uploadDto } from '../patient/file'
import { hisConsoleRoutes } from './his'
import { suggestionDeskRoutes } from './suggestion'
import { prescriptionDeskRoutes } from './prescription'
import { pharmacyDeskRoutes } from './pharmacy'
import type { SandboxHis } from '../../plugins/providers/hisSandbox'

declare module 'fastify' {
  interface FastifyRequest {
    /** The workbench account a `/dld-doctor/api` call is made by (never set on the patients' calls). */
    staff: StaffContext | null
  }
}

const P = '/dld-doctor/api'
/** The workbench calls of a pharmacist (prescription review, the pharmacy console); any other staff is refused them. */
export const PHARMACIST_PATHS = [`${P}/review/`, `${P}/pharmacy/`]
/** What every workbench account may call. */
const STAFF_COMMON_PATHS = [`${P}/logout`, `${P}/me`]
const idParams = z.object({ id: id })
const inquiryStatus = z.enum(['unpaid', 'waiting', 'inProgress', 'finished', 'cancelled', 'closed'])

const staffDto = z.object({
  kind: z.enum(['doctor', 'assistant', 'pharmacist']),
  name: z.string(),
  doctorId: z.number().nullable(),
  assistantId: z.number().nullable(),
  pharmacistId: z.number().nullable(),
  imAccount: z.string(),
  hospitalName: z.string(),
  deptName: z.string(),
})

const deskInquiryDto = z.object({
  id: z.number(),
  inquiryNo: z.string(),
  kind: z.enum(['inquiry', 'quick', 'chronic']),
  status: inquiryStatus,
  statusText: z.string(),
  patientName: z.string(),
  sex: z.union([z.literal(1), z.literal(2)]),
  age: z.number().int(),
  patientImAccount: z.string(),
  description: z.string(),
  pictures: z.array(z.string()),
  priceFen: z.number().int(),
  paidAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  serviceEndsAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  createdAt: z.string(),
})
const deskDetailDto = deskInquiryDto.extend({ intake: intakeDto.nullable(), record: medicalRecordDto.nullable(), recordEditable: z.boolean() })

/** One text field of the record, checked again (trimmed, required) by the domain. */
const recordField = (key: (typeof MEDICAL_RECORD_FIELDS)[number]['key']) => {
  const f = MEDICAL_RECORD_FIELDS.find((x) => x.key === key)!
  const text = z.string().max(f.maxLength, `${f.label}不能超过${f.maxLength}个字`)
  return f.required ? text : text.optional().default('')
}

/** The workbench page: three files served as they are (no build step), from server/workbench. */
const PAGE_DIR = join(__dirname, '..', '..', '..', 'workbench')
const PAGE_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
}

/**
 * The doctors' workbench, `/dld-doctor/api` (types/api/workbench.ts) and its page at `/workbench/`, with the sandbox
 * HIS's console on a demo server (`/dld-doctor/api/his`, routes/workbench/his.ts). Workbench calls
 * take a workbench token only: it is resolved here from staff_sessions, while a patient's token (resolved in app.ts
 * from sessions) means nothing to them, and the other way round.
 */
export async function workbenchRoutes(app: FastifyInstance) {
  const { cipher, providers, config } = app.ctx
  const db = () => app.ctx.db
  const staffOf = (req: FastifyRequest): StaffContext => {
    if (!req.staff) throw unauthenticated()
    return req.staff
  }

  // sign-in needs no token
  route(app, {
    method: 'POST',
    url: `${P}/login`,
    summary: 'Workbench sign-in of a doctor or physician assistant: a bearer token for 12 h (5 wrong passwords per login and address lock the pair for 15 min, doubling after)',
    auth: 'none',
    // per client address, on top of the per-login lock (domain/staff.ts)
    rateLimit: { max: 20, timeWindow: 60_000 },
    body: z.object({ login: z.string().trim().min(1, '请输入账号').max(64), password: z.string().min(1, '请输入密码').max(128) }),
    data: z.object({ token: z.string(), expiresAt: z.string(), staff: staffDto }),
    handler: async ({ body, req }) => signInStaff(db(), body, req.ip, new Date()),
  })

  // everything else: a workbench token, resolved once per call in this scope only, before the input is looked at
  await app.register(async (scope) => {
    scope.decorateRequest('staff', null)
    scope.addHook('onRequest', async (req) => {
      const header = req.headers.authorization
      req.staff = header?.startsWith('Bearer ') ? await resolveStaffToken(db(), header.slice(7).trim()) : null
      if (!req.staff) throw unauthenticated()
      // a pharmacist sees prescriptions to review and the pharmacy's orders, nothing of the consultations; and only a
      // pharmacist does those
      const pharmacistCall = PHARMACIST_PATHS.some((p) => req.url.startsWith(p))
      if ((req.staff.kind === 'pharmacist') !== pharmacistCall && !STAFF_COMMON_PATHS.includes(req.url.split('?')[0]!)) throw forbidden()
    })

    route(scope, {
      method: 'POST',
      url: `${P}/logout`,
      summary: 'Sign out of the workbench: the token stops working',
      auth: 'none',
      data: z.null(),
      handler: async ({ req }) => {
        await signOutStaff(db(), staffOf(req))
        return null
      },
    })

    route(scope, {
      method: 'GET',
      url: `${P}/me`,
      summary: 'The signed-in doctor or assistant',
      auth: 'none',
      data: staffDto,
      handler: async ({ req }) => staffProfile(db(), staffOf(req)),
    })

    route(scope, {
      method: 'GET',
      url: `${P}/im/user-sig`,
      summary: 'Chat signature of the signed-in doctor’s own IM account (d_<doctorId>, assistants a_<id>), as the app gets its own',
      auth: 'none',
      data: z.object({ driver: z.enum(['tim', 'local']), sdkAppId: z.number(), imAccount: z.string(), userSig: z.string(), expire: z.number() }),
      handler: async ({ req }) => signUser(config, staffOf(req).imAccount),
    })

    route(scope, {
      method: 'GET',
      url: `${P}/inquiries`,
      summary: 'The doctor’s paid consultations (an assistant’s: the hospital’s) by tab: 待接诊, 问诊中, 已结束',
      audit: { subject: 'consultation', patients: (_ctx, data) => inquiryPatients(db(), data.records.map((r) => r.id)) },
      auth: 'none',
      query: z.object({
        status: z.enum(['waiting', 'inProgress', 'finished']),
        page: pageNo,
        size: pageSize(desk.MAX_PAGE_SIZE, 20),
      }),
      data: z.object({ records: z.array(deskInquiryDto), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
      handler: async ({ req, query }) => desk.listDeskInquiries(db(), cipher, staffOf(req), query),
    })

    route(scope, {
      method: 'GET',
      url: `${P}/inquiries/:id`,
      summary: 'One consultation: the patient (masked), the illness, pictures, times and the medical record',
      audit: { subject: 'consultation', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      data: deskDetailDto,
      handler: async ({ req, params }) => desk.deskInquiryDetail(db(), cipher, staffOf(req), params.id),
    })

    route(scope, {
      method: 'POST',
      url: `${P}/inquiries/:id/accept`,
      summary: 'Accept a waiting consultation (doctor only): in progress, the patient gets the `start` message and a notice',
      audit: { subject: 'consultation', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      data: deskDetailDto,
      handler: async ({ req, params }) => desk.acceptDeskInquiry(db(), cipher, staffOf(req), params.id, new Date()),
    })

    route(scope, {
      method: 'POST',
      url: `${P}/inquiries/:id/busy`,
      summary: 'Tell the patient the doctor is busy (`doctorBusy` message), while waiting or in progress',
      audit: { subject: 'consultation', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      data: deskDetailDto,
      handler: async ({ req, params }) => desk.busyDeskInquiry(db(), cipher, staffOf(req), params.id, new Date()),
    })

    route(scope, {
      method: 'POST',
      url: `${P}/inquiries/:id/return`,
      summary: 'Decline (退诊) a waiting or in-progress consultation (doctor only): cancelled and refunded in full, `return` message and a notice',
      audit: { subject: 'consultation', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      body: z.object({ reason: z.string().trim().min(1, '请填写退诊原因').max(desk.REASON_MAX, `退诊原因不能超过${desk.REASON_MAX}个字`) }),
      data: deskDetailDto,
      handler: async ({ req, params, body }) => desk.returnDeskInquiry(db(), cipher, providers, staffOf(req), params.id, body, new Date()),
    })

    route(scope, {
      method: 'POST',
      url: `${P}/inquiries/:id/finish`,
      summary: 'Finish a consultation in progress (doctor only): `orderFinished` message and a notice',
      audit: { subject: 'consultation', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      data: deskDetailDto,
      handler: async ({ req, params }) => desk.finishDeskInquiry(db(), cipher, staffOf(req), params.id, new Date()),
    })

    route(scope, {
      method: 'PUT',
      url: `${P}/inquiries/:id/record`,
      summary: 'Write the medical record (doctor only) while in progress or within 24 h after finishing; fields stored encrypted',
      audit: { subject: 'medical_record', patients: ({ params }) => inquiryPatients(db(), [params.id]) },
      auth: 'none',
      params: idParams,
      body: z.object({
        chiefComplaint: recordField('chiefComplaint'),
        presentIllness: recordField('presentIllness'),
        pastHistory: recordField('pastHistory'),
        allergyHistory: recordField('allergyHistory'),
        diagnosis: recordField('diagnosis'),
        advice: recordField('advice'),
        diseaseCodes: z.array(z.string().max(20)).max(10, '疾病编码最多10个').default([]),
      }),
      data: deskDetailDto,
      handler: async ({ req, params, body }) => desk.writeDeskRecord(db(), cipher, staffOf(req), params.id, body, new Date()),
    })

    route(scope, {
      method: 'GET',
      url: `${P}/diseases`,
      summary: 'The signed-in doctor’s hospital’s disease list, by keyword (at most 20), for the record’s disease codes',
      auth: 'none',
      query: z.object({ keyword: z.string().trim().max(20, '搜索关键词不能超过20个字').optional() }),
      data: z.array(diseaseCodeDto),
      handler: async ({ req, query }) => searchDiseases(db(), staffOf(req).hospitalId, query.keyword),
    })

    route(scope, {
      method: 'GET',
      url: `${P}/medicalRecordFields`,
      summary: 'The medical record’s fields: key, label, required, maxLength',
      auth: 'none',
      data: z.array(z.object({ key: z.string(), label: z.string(), required: z.boolean(), maxLength: z.number().int() })),
      handler: async () => MEDICAL_RECORD_FIELDS,
    })

    route(scope, {
      method: 'POST',
      url: `${P}/files-upload`,
      summary: 'Upload one picture to send in the chat (multipart field `file`); answers its url, as /dld-file/files-upload does',
      auth: 'none',
      data: uploadDto,
      handler: async ({ req }) => {
        const staff = staffOf(req)
        const { bytes, filename } = await readUpload(req)
        return desk.uploadDeskPicture(db(), config.uploadDir, staff, bytes, filename)
      },
    })

    await suggestionDeskRoutes(scope, staffOf)
    await prescriptionDeskRoutes(scope, staffOf)
    await pharmacyDeskRoutes(scope, staffOf)

    // the sandbox HIS's console: only on a server whose HIS is the sandbox
    if (providers.his.kind === 'sandbox') await hisConsoleRoutes(scope, providers.his as SandboxHis, staffOf)
  })

  // the page, read on first use (a restart picks up a new version); no-cache so a new version shows on the next visit
  const pages = new Map<string, Buffer>()
  const send = (name: string) => async (_req: FastifyRequest, reply: FastifyReply) => {
    let body = pages.get(name)
    if (!body) {
      body = await readFile(join(PAGE_DIR, name)).catch(() => undefined)
      if (!body) throw notFound('页面')
      pages.set(name, body)
    }
    return reply.header('cache-control', 'no-cache').type(PAGE_FILES[name]!).send(body)
  }
  app.get('/workbench', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/workbench/'))
  app.get('/workbench/', { schema: { hide: true } }, send('index.html'))
  for (const name of Object.keys(PAGE_FILES)) app.get(`/workbench/${name}`, { schema: { hide: true } }, send(name))
}
