import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { drugDetails, DRUG_DETAIL_MAX } from '../../domain/prescription/formulary'
import * as pres from '../../domain/prescription/patient'
import { id, idParam, pageNo, pageSize, PG_INT_MAX } from '../schemas'

const category = z.enum(['western', 'patent', 'chinese'])
const status = z.enum(['reviewing', 'approved', 'rejected', 'revoked'])

export const drugInfoDto = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  commonName: z.string(),
  category,
  drugSpec: z.string(),
  drugSpecUnit: z.string(),
  unit: z.string(),
  dosageForm: z.string(),
  manufacturer: z.string(),
  defaultUsage: z.string(),
  priceFen: z.number().int(),
  rx: z.boolean(),
  picture: z.string(),
})
const diagnosisDto = z.object({ code: z.string(), name: z.string() })
const lineDto = z.object({
  drugId: z.number(),
  drugName: z.string(),
  drugSpec: z.string(),
  drugSpecUnit: z.string(),
  unit: z.string(),
  dose: z.string(),
  frequency: z.string(),
  days: z.number().int(),
  totalCount: z.number().int(),
  priceFen: z.number().int(),
  amountFen: z.number().int(),
})
const storeBriefDto = z.object({ id: z.number(), name: z.string(), address: z.string(), delivery: z.boolean(), pickup: z.boolean() })
export const prescriptionDto = z.object({
  id: z.number(),
  presNo: z.string(),
  inquiryId: z.number(),
  category,
  patientId: z.number(),
  patientName: z.string(),
  sex: z.union([z.literal(1), z.literal(2)]),
  age: z.number().int(),
  doctorId: z.number(),
  doctorName: z.string(),
  deptName: z.string(),
  pharmacistName: z.string(),
  diagnoses: z.array(diagnosisDto),
  advice: z.string(),
  lines: z.array(lineDto),
  drugFeeFen: z.number().int(),
  diagnosisFeeFen: z.number().int(),
  totalFen: z.number().int(),
  status,
  statusText: z.string(),
  rejectReason: z.string().nullable(),
  renewable: z.boolean(),
  expired: z.boolean(),
  orderable: z.boolean(),
  orderId: z.number().nullable(),
  expiresAt: z.string(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  stores: z.array(storeBriefDto).optional(),
})
const summaryDto = prescriptionDto
  .pick({ id: true, presNo: true, patientName: true, doctorName: true, deptName: true, diagnoses: true, totalFen: true, status: true, statusText: true, expired: true, orderable: true, orderId: true, createdAt: true, expiresAt: true })
  .extend({ drugNames: z.array(z.string()) })
const usedDrugDto = z.object({
  drugId: z.number(),
  drugName: z.string(),
  drugSpec: z.string(),
  unit: z.string(),
  lastPrescribedAt: z.string(),
  doctorId: z.number(),
  doctorName: z.string(),
  times: z.number().int(),
})
const ownPatient = z.object({ patientId: id.optional() })
/** `ids=1,2`: at most DRUG_DETAIL_MAX ids. */
const drugIds = z
  .string()
  .regex(/^\d{1,10}(,\d{1,10})*$/, '药品编号不正确')
  .transform((s) => s.split(',').map(Number))
  .pipe(z.array(z.number().int().positive().max(PG_INT_MAX)).max(DRUG_DETAIL_MAX, `一次最多查询${DRUG_DETAIL_MAX}种药品`))

/**
 * The patient's prescriptions (types/api/pharmacy.ts; domain/prescription/patient.ts): the prescription whole by id or
 * number, its status, the list (prescription outflow), medicines used before, the stores that can fill it, the one a
 * pharmacy order was placed from; and a medicine's formulary facts. Every read of a prescription is in the audit log.
 */
export async function prescriptionRoutes(app: FastifyInstance) {
  const { cipher } = app.ctx
  const db = () => app.ctx.db
  const H = '/dld-hospital'
  const R = '/dld-rpflow/api'

  route(app, {
    method: 'GET',
    url: `${H}/pres/presDetail/:id`,
    summary: 'One of the caller’s prescriptions: under review (待审核) or approved; a rejected, revoked or someone else’s answers 2999',
    auth: 'user',
    audit: 'prescription',
    params: idParam,
    data: prescriptionDto,
    handler: async ({ auth, params }) => pres.prescriptionDetail(db(), cipher, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${H}/pres/getPrescriptionDetail`,
    summary: 'One of the caller’s prescriptions by its number (presDetail by presNo)',
    auth: 'user',
    audit: { subject: 'prescription', action: 'read' },
    body: z.object({ presNo: z.string().trim().regex(/^[A-Z0-9]{1,40}$/, '处方编号不正确') }),
    data: prescriptionDto,
    handler: async ({ auth, body }) => pres.prescriptionByNo(db(), cipher, auth.userId, body.presNo, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${H}/pres/drugDetail`,
    summary: 'The formulary facts of medicines (ids=1,2; unknown ids left out); no patient’s data',
    auth: 'user',
    query: z.object({ ids: drugIds }),
    data: z.array(drugInfoDto),
    handler: async ({ query }) => drugDetails(db(), query.ids),
  })

  route(app, {
    method: 'GET',
    url: `${H}/pres/historyDrug`,
    summary: 'Medicines of the caller’s approved prescriptions (of one patient when asked), one per medicine, newest first, for 续方',
    auth: 'user',
    audit: { subject: 'prescription', patients: async ({ auth, query }) => (query.patientId ? [query.patientId] : pres.prescribedPatients(db(), auth.userId)) },
    query: ownPatient,
    data: z.array(usedDrugDto),
    handler: async ({ auth, query }) => pres.usedDrugs(db(), auth.userId, query.patientId),
  })

  route(app, {
    method: 'GET',
    url: `${H}/pres/order/prescriptionStatus`,
    summary: 'Whether the caller’s prescription may be ordered now (approved, not expired, no live order), and its order',
    auth: 'user',
    audit: { subject: 'prescription', patients: async ({ query }) => pres.prescriptionPatients(db(), [query.id]) },
    query: idParam,
    data: z.object({ id: z.number(), status, statusText: z.string(), orderable: z.boolean(), orderId: z.number().nullable() }),
    handler: async ({ auth, query }) => pres.prescriptionStatus(db(), cipher, auth.userId, query.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${H}/outflow/getPresList`,
    summary: 'The caller’s issued prescriptions (of one patient when asked), newest first, paged (prescription outflow)',
    auth: 'user',
    audit: { subject: 'prescription', patients: async ({ query }, data) => (query.patientId ? [query.patientId] : pres.prescriptionPatients(db(), data.records.map((r) => r.id))) },
    query: ownPatient.extend({ page: pageNo, size: pageSize(pres.PRES_PAGE_MAX) }),
    data: z.object({ records: z.array(summaryDto), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    handler: async ({ auth, query }) => pres.listPrescriptions(db(), cipher, auth.userId, query, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${R}/prescription/:id`,
    summary: 'The caller’s prescription with the hospital’s stores that have every line in stock (none: no store can fill it)',
    auth: 'user',
    audit: 'prescription',
    params: idParam,
    data: prescriptionDto,
    handler: async ({ auth, params }) => pres.prescriptionToOrder(db(), cipher, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${R}/order/web/prescription/:id`,
    summary: 'The prescription the caller’s pharmacy order (id) was placed from',
    auth: 'user',
    audit: 'prescription',
    params: idParam,
    data: prescriptionDto,
    handler: async ({ auth, params }) => pres.orderPrescription(db(), cipher, auth.userId, params.id, new Date()),
  })
}
