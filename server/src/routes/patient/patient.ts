import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { hospitalCode, idParam, mobile, id, smsCode } from '../schemas'
import * as patient from '../../domain/patient'
import { UPLOADED_PICTURE } from '../../domain/file'
import { PATIENT_NAME_MAX, isAppPagePath, isValidPatientName } from '../../domain/patientRules'
import { isValidIdCard } from '@/utils/idCard'

/** A form-encoded body sends booleans as text; z.coerce.boolean would read 'false' as true. */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
/** A form may send an empty field for "no hospital". */
const optionalHospital = z.union([z.literal('').transform(() => undefined), hospitalCode]).optional()

const personName = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `请输入${what}姓名`)
    .max(PATIENT_NAME_MAX, `${what}姓名不能超过${PATIENT_NAME_MAX}个字`)
    .refine(isValidPatientName, `${what}姓名只能包含汉字和“·”`)
const idCard = (what: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .refine((v) => isValidIdCard(v), `${what}身份证号码不正确`)
const relation = z.string().trim().min(1, '请选择与就诊人的关系').max(10, '与就诊人关系不正确')

const newPatientCommon = {
  mobile,
  code: z.union([z.literal('').transform(() => undefined), smsCode]).optional(),
  relation,
  isDefault: flag.optional(),
  hospitalCode: optionalHospital,
}

const bindBody = z.object({ ...newPatientCommon, name: personName(''), idCard: idCard(''), source: z.enum(['idCard', 'ocr']).default('idCard') })

/** Fields of the completion page; an empty string means "not changed". */
const blank = z.literal('').transform(() => undefined)
const completeBody = z.object({
  id: id,
  name: z.union([blank, personName('')]).optional(),
  idCard: z.union([blank, idCard('')]).optional(),
  mobile: z.union([blank, mobile]).optional(),
  code: z.union([blank, smsCode]).optional(),
  relation: z.union([blank, relation]).optional(),
  guardianName: z.union([blank, personName('监护人')]).optional(),
  guardianIdCard: z.union([blank, idCard('监护人')]).optional(),
})

/**
 * One URL, two bodies: with `id` it completes a bound patient, without it binds a new one. `mode` is derived from
 * `id` before validation, so each body's own messages reach the caller (a plain union reports "invalid input").
 */
const bindOrComplete = z.preprocess(
  (v) => (v && typeof v === 'object' ? { ...v, mode: 'id' in v && v.id !== undefined && v.id !== '' ? 'complete' : 'bind' } : v),
  z.discriminatedUnion('mode', [
    completeBody.extend({ mode: z.literal('complete').describe('derived from id; callers leave it out') }),
    bindBody.extend({ mode: z.literal('bind').describe('derived from id; callers leave it out') }),
  ]),
)

const birthday = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '出生日期格式应为YYYY-MM-DD')
const sex = z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: '请选择性别' }))

const neonateBody = z.object({
  ...newPatientCommon,
  relation: relation.optional(),
  name: personName(''),
  sex,
  birthday,
  guardianName: personName('监护人'),
  guardianIdCard: idCard('监护人'),
})

const healthCardBody = z.object({
  healthCode: z.string().trim().min(1, '健康卡授权码不能为空').max(128),
  relation,
  isDefault: flag.optional(),
  hospitalCode: optionalHospital,
})

const patientField = z.enum(['name', 'idCard', 'mobile', 'guardianName', 'guardianIdCard'])
const patientDto = z.object({
  id: z.number(),
  name: z.string(),
  idCard: z.string(),
  mobile: z.string(),
  sex: z.union([z.literal(1), z.literal(2)]),
  sexText: z.enum(['男', '女']),
  birthday: z.string(),
  age: z.number(),
  relation: z.string(),
  source: z.enum(['idCard', 'ocr', 'neonate', 'eHealth']),
  neonate: z.boolean(),
  isDefault: z.boolean(),
  hisMedCardNo: z.string(),
  complete: z.boolean(),
  missing: z.array(patientField),
})
const patientDetailDto = patientDto.extend({ guardianName: z.string(), guardianIdCard: z.string() })
const hospitalCardDto = z.object({
  patientId: z.number(),
  hospitalCode: z.string(),
  hospitalName: z.string(),
  hisMedCardNo: z.string(),
  existed: z.boolean(),
})
const ocrDto = z.object({
  name: z.string(),
  idCard: z.string(),
  sex: z.union([z.literal(1), z.literal(2)]),
  birthday: z.string(),
  nation: z.string(),
  address: z.string(),
})

const patientQuery = z.object({ id: id })
const hospitalQuery = z.object({ hospitalCode: optionalHospital })
const fileQuery = patientQuery.extend({ hospitalCode })

export async function patientRoutes(app: FastifyInstance) {
  const { cipher, providers, config } = app.ctx
  const db = () => app.ctx.db
  const P = '/dld-palm/api/patient'

  route(app, {
    method: 'POST',
    url: `${P}/bind`,
    audit: 'patient',
    summary:
      'Without id: bind a patient by identity card (sex and birthday from the number; SMS code with purpose patient); answers it masked. ' +
      'With id: complete or edit a bound patient; answers it whole',
    auth: 'user',
    body: bindOrComplete,
    data: z.union([patientDetailDto, patientDto]),
    handler: async ({ body, auth }) => {
      if (body.mode === 'complete') {
        const { mode: _mode, ...input } = body
        return patient.completePatient(db(), cipher, auth.userId, input)
      }
      const { mode: _mode, ...input } = body
      return patient.bindPatient(db(), cipher, providers.his, auth.userId, input)
    },
  })

  route(app, {
    method: 'POST',
    url: `${P}/bind/neonate`,
    summary: 'Bind a child under 6 without an identity card, under an adult guardian; answers it masked',
    audit: 'patient',
    auth: 'user',
    body: neonateBody,
    data: patientDto,
    handler: async ({ body, auth }) => patient.bindNeonate(db(), cipher, providers.his, auth.userId, { ...body, relation: body.relation ?? '' }),
  })

  route(app, {
    method: 'POST',
    url: `${P}/bind/eHealth`,
    summary: 'Bind the holder of an electronic health card by the one-time healthCode its authorisation returned',
    audit: 'patient',
    auth: 'user',
    body: healthCardBody,
    data: patientDto,
    handler: async ({ body, auth }) => patient.bindHealthCard(db(), cipher, providers.his, providers.healthCard, auth.userId, body),
  })

  route(app, {
    method: 'GET',
    url: `${P}/list`,
    summary: 'The caller’s patients, default first then oldest first; names, identity numbers and mobiles masked',
    audit: 'patient',
    auth: 'user',
    query: hospitalQuery,
    data: z.array(patientDto),
    handler: async ({ query, auth }) => patient.listPatients(db(), cipher, auth.userId, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${P}/info`,
    summary: 'One patient of the caller, masked, with whether it is complete (what a flow checks before going on)',
    audit: 'patient',
    auth: 'user',
    query: patientQuery.extend({ hospitalCode: optionalHospital }),
    data: patientDto,
    handler: async ({ query, auth }) => patient.getPatient(db(), cipher, auth.userId, query.id, query.hospitalCode, false),
  })

  route(app, {
    method: 'GET',
    url: `${P}/:id`,
    summary: 'One patient of the caller whole (name, identity number, mobile, guardian), for the edit and completion page',
    audit: 'patient',
    auth: 'user',
    params: idParam,
    query: hospitalQuery,
    data: patientDetailDto,
    handler: async ({ params, query, auth }) => patient.getPatient(db(), cipher, auth.userId, params.id, query.hospitalCode, true),
  })

  route(app, {
    method: 'GET',
    url: `${P}/default`,
    summary: 'The caller’s default patient, masked; null when none is bound',
    audit: 'patient',
    auth: 'user',
    query: hospitalQuery,
    data: patientDto.nullable(),
    handler: async ({ query, auth }) => patient.getDefaultPatient(db(), cipher, auth.userId, query.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${P}/default/:id`,
    summary: 'Make a patient the default (exactly one default at all times); answers it masked',
    audit: 'patient',
    auth: 'user',
    params: idParam,
    query: hospitalQuery,
    data: patientDto,
    handler: async ({ params, query, auth }) => patient.setDefaultPatient(db(), cipher, auth.userId, params.id, query.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${P}/unbind/:id`,
    summary: 'Unbind a patient and its escorts; when it was the default, the oldest remaining patient becomes default',
    audit: 'patient',
    auth: 'user',
    params: idParam,
    data: z.object({ defaultPatientId: z.number().nullable() }),
    handler: async ({ params, auth }) => patient.unbindPatient(db(), auth.userId, params.id),
  })

  const fileAtHospital = {
    auth: 'user' as const,
    query: fileQuery,
    data: hospitalCardDto,
  }
  route(app, {
    method: 'GET',
    url: `${P}/hospital/patient/bind`,
    summary: 'File a complete patient at a hospital (its card number issued once); answers the card',
    audit: 'patient',
    ...fileAtHospital,
    handler: async ({ query, auth }) => patient.fileAtHospital(db(), cipher, providers.his, auth.userId, query.id, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/autoRegister',
    summary: 'File a complete patient at a hospital (same as /patient/hospital/patient/bind), by patientId',
    audit: 'patient',
    auth: 'user',
    query: z.object({ patientId: id, hospitalCode }),
    data: hospitalCardDto,
    handler: async ({ query, auth }) => patient.fileAtHospital(db(), cipher, providers.his, auth.userId, query.patientId, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: `${P}/hospital/patient/record-info`,
    summary: 'Whether and since when a patient is filed at a hospital, with the card number',
    audit: 'patient',
    auth: 'user',
    query: fileQuery,
    data: z.object({
      patientId: z.number(),
      hospitalCode: z.string(),
      hospitalName: z.string(),
      filed: z.boolean(),
      hisMedCardNo: z.string(),
      filedAt: z.string().nullable(),
    }),
    handler: async ({ query, auth }) => patient.patientRecordInfo(db(), cipher, providers.his, auth.userId, query.id, query.hospitalCode),
  })

  route(app, {
    method: 'GET',
    url: '/dld-hospital/jkt/photoUrl',
    summary: 'The QR code of a patient’s electronic health card at a hospital, as the health-card platform draws it',
    audit: 'patient',
    auth: 'user',
    query: z.object({ patientId: id, hospitalCode }),
    data: z.object({ patientId: z.number(), url: z.string(), text: z.string() }),
    handler: async ({ query, auth }) => patient.healthCardQr(db(), cipher, providers.healthCard, auth.userId, query.patientId, query.hospitalCode),
  })

  route(app, {
    method: 'POST',
    url: `${P}/hospital/patient/ocr`,
    summary: 'Read the front of an identity card from a picture the caller uploaded (url from /dld-file/files-upload)',
    auth: 'user',
    body: z.object({ url: z.string().trim().regex(UPLOADED_PICTURE, '请先上传身份证照片') }),
    data: ocrDto,
    handler: async ({ body, auth }) => patient.readIdCardPhoto(db(), providers.ocr, config.uploadDir, auth.identityId, body.url),
  })

  route(app, {
    method: 'POST',
    url: '/thirdParty/tencent-EHealth/refreshUrl',
    summary: 'Where to send the browser to choose an electronic health card; it returns to redirect with healthCode',
    auth: 'identity',
    body: z.object({
      hospitalCode,
      redirect: z.string().trim().refine(isAppPagePath, '回跳页面不正确'),
    }),
    data: z.object({ url: z.string() }),
    handler: async ({ body }) => patient.healthCardAuthorizeUrl(db(), providers.healthCard, body),
  })
}
