import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { id, idParam, idempotencyKey } from '../schemas'
import type { StaffContext } from '../../domain/staff'
import * as doctor from '../../domain/prescription/doctor'
import { searchFormulary } from '../../domain/prescription/formulary'
import * as template from '../../domain/prescription/template'
import * as review from '../../domain/prescription/review'
import { requireDoctor } from '../../domain/doctorDesk'
import { drugInfoDto, prescriptionDto } from '../patient/prescription'

const P = '/dld-doctor/api'
const category = z.enum(['western', 'patent', 'chinese'], { error: '处方类型不正确' })
const diagnosis = z.object({ code: z.string().trim().min(1).max(20), name: z.string().max(100) })
const daysText = `用药天数应为1至${doctor.DAYS_MAX}天`
const line = z.object({
  drugId: id,
  dose: z.string().max(doctor.USAGE_MAX * 2),
  frequency: z.string().max(doctor.USAGE_MAX * 2),
  days: z.number().int().min(1, daysText).max(doctor.DAYS_MAX, daysText),
  quantity: z.number().int().positive('数量应大于0'),
})
const diagnoses = z.array(diagnosis).max(doctor.DIAGNOSES_MAX, `诊断最多${doctor.DIAGNOSES_MAX}个`)
const lines = z.array(line).max(doctor.LINES_MAX.chinese, `最多${doctor.LINES_MAX.chinese}种药品`)
const templateDto = z.object({
  id: z.number(),
  name: z.string(),
  own: z.boolean(),
  category,
  diagnoses: z.array(z.object({ code: z.string(), name: z.string() })),
  lines: z.array(z.object({ drugId: z.number(), dose: z.string(), frequency: z.string(), days: z.number().int(), quantity: z.number().int() })),
})
const templateInput = z.object({
  name: z.string().trim().min(1, template.TEMPLATE_NAME_TEXT).max(template.TEMPLATE_NAME_MAX, template.TEMPLATE_NAME_TEXT),
  category,
  diagnoses,
  lines,
})

/**
 * Prescribing and its review at the workbench (inside the workbench's token scope; domain/prescription): the doctor's
 * formulary, diagnosis templates (the hospital's, and the doctor's own kept here), writing a prescription in a
 * consultation in progress, that consultation's prescriptions and revoking one; the pharmacist's review queue,
 * approving and rejecting (`/review/*`, which the scope keeps to pharmacists).
 */
export async function prescriptionDeskRoutes(scope: FastifyInstance, staffOf: (req: FastifyRequest) => StaffContext) {
  const { cipher } = scope.ctx
  const db = () => scope.ctx.db
  /** The signed-in doctor (the formulary and templates are a doctor's; an assistant gets 2999). */
  const doctorOf = (req: FastifyRequest) => {
    const staff = staffOf(req)
    return { hospitalId: staff.hospitalId, doctorId: requireDoctor(staff) }
  }

  route(scope, {
    method: 'GET',
    url: `${P}/formulary`,
    summary: 'The doctor’s hospital’s medicines by keyword (name, common name or code) and category, at most 50',
    auth: 'none',
    query: z.object({ keyword: z.string().trim().max(20, '搜索关键词不能超过20个字').optional(), category: category.optional() }),
    data: z.array(drugInfoDto),
    handler: async ({ req, query }) => searchFormulary(db(), doctorOf(req).hospitalId, query),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/diagnosisTemplates`,
    summary: 'Diagnosis templates (诊断模板): the doctor’s own, then the hospital’s shared ones',
    auth: 'none',
    data: z.array(templateDto),
    handler: async ({ req }) => template.listTemplates(db(), doctorOf(req)),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/diagnosisTemplates`,
    summary: `A diagnosis template of the doctor’s own (保存为模板): diagnoses and lines checked as a prescription’s, at most ${template.TEMPLATES_MAX} a doctor`,
    auth: 'none',
    body: templateInput,
    data: templateDto,
    handler: async ({ req, body }) => template.createTemplate(db(), doctorOf(req), body),
  })

  route(scope, {
    method: 'PUT',
    url: `${P}/diagnosisTemplates/:id`,
    summary: 'Rename or rewrite one of the doctor’s own templates (the hospital’s shared ones are read-only)',
    auth: 'none',
    params: idParam,
    body: templateInput,
    data: templateDto,
    handler: async ({ req, params, body }) => template.updateTemplate(db(), doctorOf(req), params.id, body),
  })

  route(scope, {
    method: 'DELETE',
    url: `${P}/diagnosisTemplates/:id`,
    summary: 'Delete one of the doctor’s own templates',
    auth: 'none',
    params: idParam,
    data: z.null(),
    handler: async ({ req, params }) => template.deleteTemplate(db(), doctorOf(req), params.id),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/inquiries/:id/prescriptions`,
    summary: 'Write a prescription (treating doctor of that consultation in progress only): diagnoses, formulary drugs, advice; waits for a pharmacist',
    auth: 'none',
    audit: 'prescription',
    params: idParam,
    body: z.object({
      category,
      diagnoses,
      advice: z.string().max(doctor.ADVICE_MAX, `医嘱不能超过${doctor.ADVICE_MAX}个字`).default(''),
      renewable: z.boolean().default(false),
      lines,
      idempotencyKey,
    }),
    data: prescriptionDto,
    handler: async ({ req, params, body }) => doctor.writePrescription(db(), cipher, staffOf(req), params.id, body, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/inquiries/:id/prescriptions`,
    summary: 'The treating doctor’s prescriptions of that consultation, newest first (a rejected one with the pharmacist’s reason)',
    auth: 'none',
    audit: 'prescription',
    params: idParam,
    data: z.array(prescriptionDto),
    handler: async ({ req, params }) => doctor.inquiryPrescriptions(db(), cipher, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/prescriptions/:id/revoke`,
    summary: 'Withdraw one of the doctor’s prescriptions under review or approved that no pharmacy order holds',
    auth: 'none',
    audit: 'prescription',
    params: idParam,
    data: prescriptionDto,
    handler: async ({ req, params }) => doctor.revokePrescription(db(), cipher, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'GET',
    url: `${P}/review/prescriptions`,
    summary: 'The pharmacist’s hospital’s prescriptions in one status: to review (oldest first), approved or rejected (newest first), at most 100',
    auth: 'none',
    audit: 'prescription',
    query: z.object({ status: z.enum(['reviewing', 'approved', 'rejected']).default('reviewing') }),
    data: z.array(prescriptionDto),
    handler: async ({ req, query }) => review.reviewList(db(), cipher, staffOf(req), query.status, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/review/prescriptions/:id/approve`,
    summary: 'Approve a prescription under review (pharmacist of its hospital): orderable until it expires, its card sent to the consultation room',
    auth: 'none',
    audit: 'prescription',
    params: idParam,
    data: prescriptionDto,
    handler: async ({ req, params }) => review.approvePrescription(db(), cipher, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/review/prescriptions/:id/reject`,
    summary: 'Reject a prescription under review with a reason (pharmacist of its hospital): back to the doctor, never shown to the patient',
    auth: 'none',
    audit: 'prescription',
    params: idParam,
    body: z.object({ reason: z.string().trim().min(1, '请填写驳回原因').max(review.REJECT_REASON_MAX, `驳回原因不能超过${review.REJECT_REASON_MAX}个字`) }),
    data: prescriptionDto,
    handler: async ({ req, params, body }) => review.rejectPrescription(db(), cipher, staffOf(req), params.id, body.reason, new Date()),
  })
}
