/**
 * The electronic medical record of an online consultation (spec §7 Internet hospital → Medical record): the field
 * list, the hospital's disease codes, writing a record (for the doctor's workbench, domain/doctorDesk.ts) and the
 * patient's reading of their own records. The fields are health information: stored encrypted as one JSON object.
 */
import { and, asc, desc, eq, ilike, inArray, isNotNull, sql } from 'drizzle-orm'
import type { DiseaseCode, MedicalHistoryItem, MedicalRecord, MedicalRecordField, MedicalRecordFields } from '../../../types/api/medical'
import type { Page } from '../../../types/api/hospital'
import type { Db, Tx } from '../db'
import type { FieldCipher } from '../crypto'
import { departments, diseases, doctors, hospitals, inquiries, medicalRecords, patients } from '../db/schema'
import { badInput, forbidden } from '../errors'
import { maskName } from '@/utils/mask'
import { ageOn } from './patientRules'
import { requireHospitalByCode } from './hospital'
import { requireOwnPatient } from './patient'

/** The record's fields as the workbench asks for them and the patient reads them. */
export const MEDICAL_RECORD_FIELDS: MedicalRecordField[] = [
  { key: 'chiefComplaint', label: '主诉', required: true, maxLength: 200 },
  { key: 'presentIllness', label: '现病史', required: true, maxLength: 1000 },
  { key: 'pastHistory', label: '既往史', required: false, maxLength: 500 },
  { key: 'allergyHistory', label: '过敏史', required: false, maxLength: 200 },
  { key: 'diagnosis', label: '初步诊断', required: true, maxLength: 200 },
  { key: 'advice', label: '处理意见', required: true, maxLength: 1000 },
]
export const DISEASE_CODES_MAX = 10
export const DISEASE_SEARCH_LIMIT = 20
export const ORDER_NOS_MAX = 20
export const RECORD_PAGE_MAX = 50

type RecordRow = typeof medicalRecords.$inferSelect

/** A disease's code is its id in the hospital's list (table `diseases`). */
const codeOf = (id: number) => String(id)

/** The fields trimmed and checked against MEDICAL_RECORD_FIELDS; the first problem is the refusal. */
export function checkRecordFields(input: Partial<Record<keyof MedicalRecordFields, unknown>>): MedicalRecordFields {
  const out = {} as MedicalRecordFields
  for (const f of MEDICAL_RECORD_FIELDS) {
    const raw = input[f.key]
    const value = typeof raw === 'string' ? raw.trim() : ''
    if (f.required && !value) throw badInput(`请填写${f.label}`)
    if (value.length > f.maxLength) throw badInput(`${f.label}不能超过${f.maxLength}个字`)
    out[f.key] = value
  }
  return out
}

/** The hospital's diseases by code; 400 naming the first code not in its list. */
export async function requireDiseaseCodes(db: Db | Tx, hospitalId: number, codes: string[]): Promise<string[]> {
  const unique = [...new Set(codes.map((c) => c.trim()))]
  if (unique.length > DISEASE_CODES_MAX) throw badInput(`疾病编码最多${DISEASE_CODES_MAX}个`)
  const ids = unique.map((c) => (/^\d{1,9}$/.test(c) ? Number(c) : NaN))
  const bad = unique.find((_, i) => Number.isNaN(ids[i]))
  if (bad !== undefined) throw badInput(`疾病编码不存在：${bad}`)
  if (!ids.length) return []
  const found = await db
    .select({ id: diseases.id })
    .from(diseases)
    .where(and(eq(diseases.hospitalId, hospitalId), inArray(diseases.id, ids)))
  const have = new Set(found.map((d) => codeOf(d.id)))
  const missing = unique.find((c) => !have.has(String(Number(c))))
  if (missing !== undefined) throw badInput(`疾病编码不存在：${missing}`)
  return unique.map((c) => String(Number(c)))
}

/** Up to DISEASE_SEARCH_LIMIT of the hospital's diseases whose name contains the keyword (all, by list order, without one). */
export async function searchDiseases(db: Db, hospitalId: number, keyword: string | undefined): Promise<DiseaseCode[]> {
  const word = (keyword ?? '').trim()
  const rows = await db
    .select({ id: diseases.id, name: diseases.name, deptName: departments.name })
    .from(diseases)
    .innerJoin(departments, eq(departments.id, diseases.deptId))
    .where(and(eq(diseases.hospitalId, hospitalId), word ? ilike(diseases.name, `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined))
    .orderBy(asc(diseases.id))
    .limit(DISEASE_SEARCH_LIMIT)
  return rows.map((r) => ({ code: codeOf(r.id), name: r.name, deptName: r.deptName }))
}

/** GET /common/diseaseCode: the hospital (by code) and its diseases matching the keyword. */
export async function diseaseCodesOf(db: Db, hospitalCode: string, keyword: string | undefined): Promise<DiseaseCode[]> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  return searchDiseases(db, hospital.id, keyword)
}

/** Creates or replaces the inquiry's record inside the caller's transaction (the caller checked access and the window). */
export async function saveRecord(
  tx: Tx,
  cipher: FieldCipher,
  inq: Pick<typeof inquiries.$inferSelect, 'id' | 'userId' | 'patientId' | 'doctorId'>,
  fields: MedicalRecordFields,
  diseaseCodes: string[],
  now: Date,
): Promise<void> {
  const fieldsEnc = cipher.encrypt(JSON.stringify(fields))
  await tx
    .insert(medicalRecords)
    .values({ inquiryId: inq.id, userId: inq.userId, patientId: inq.patientId, doctorId: inq.doctorId, fieldsEnc, diseaseCodes, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: medicalRecords.inquiryId, set: { fieldsEnc, diseaseCodes, updatedAt: now } })
}

// ---- reading -------------------------------------------------------------------------------------------------------

const viewColumns = {
  record: medicalRecords,
  inquiryNo: inquiries.inquiryNo,
  hospitalId: inquiries.hospitalId,
  finishedAt: inquiries.finishedAt,
  hospitalName: hospitals.name,
  doctorName: doctors.name,
  doctorTitle: doctors.title,
  deptName: departments.name,
  patientNameEnc: patients.nameEnc,
  sex: patients.sex,
  birthday: patients.birthday,
}

const viewQuery = (db: Db | Tx) =>
  db
    .select(viewColumns)
    .from(medicalRecords)
    .innerJoin(inquiries, eq(inquiries.id, medicalRecords.inquiryId))
    .innerJoin(hospitals, eq(hospitals.id, inquiries.hospitalId))
    .innerJoin(doctors, eq(doctors.id, medicalRecords.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

function fieldsOf(cipher: FieldCipher, row: RecordRow): MedicalRecordFields {
  const stored = JSON.parse(cipher.decrypt(row.fieldsEnc)) as Partial<MedicalRecordFields>
  const out = {} as MedicalRecordFields
  for (const f of MEDICAL_RECORD_FIELDS) out[f.key] = typeof stored[f.key] === 'string' ? stored[f.key]! : ''
  return out
}

/** The diseases the records name, by code, looked up once. */
async function diseasesByCode(db: Db | Tx, rows: ViewRow[]): Promise<Map<string, DiseaseCode>> {
  const ids = [...new Set(rows.flatMap((r) => r.record.diseaseCodes.map(Number)).filter(Number.isSafeInteger))]
  if (!ids.length) return new Map()
  const found = await db
    .select({ id: diseases.id, name: diseases.name, deptName: departments.name })
    .from(diseases)
    .innerJoin(departments, eq(departments.id, diseases.deptId))
    .where(inArray(diseases.id, ids))
  return new Map(found.map((d) => [codeOf(d.id), { code: codeOf(d.id), name: d.name, deptName: d.deptName }]))
}

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[], now: Date): Promise<MedicalRecord[]> {
  const known = await diseasesByCode(db, rows)
  return rows.map((r) => ({
    id: r.record.id,
    inquiryId: r.record.inquiryId,
    imOrderNo: r.inquiryNo,
    patientId: r.record.patientId,
    // spec §9: names masked
    patientName: maskName(cipher.decrypt(r.patientNameEnc)),
    sex: r.sex,
    age: ageOn(r.birthday, now),
    hospitalName: r.hospitalName,
    deptName: r.deptName,
    doctorId: r.record.doctorId,
    doctorName: r.doctorName,
    doctorTitle: r.doctorTitle,
    fields: fieldsOf(cipher, r.record),
    diseases: r.record.diseaseCodes.flatMap((c) => known.get(c) ?? []),
    createdAt: r.record.createdAt.toISOString(),
    updatedAt: r.record.updatedAt.toISOString(),
  }))
}

/** The inquiry's record as the doctor or the patient reads it (the caller checked access); null before it is written. */
export async function recordOfInquiry(db: Db | Tx, cipher: FieldCipher, inquiryId: number, now = new Date()): Promise<MedicalRecord | null> {
  const [view] = await toViews(db, cipher, await viewQuery(db).where(eq(medicalRecords.inquiryId, inquiryId)), now)
  return view ?? null
}

/** The caller's inquiry by its number, or 2999 (someone else's and a missing one look the same). */
async function requireOwnInquiryNo(db: Db, userId: number, inquiryNo: string) {
  const [row] = await db
    .select({ id: inquiries.id })
    .from(inquiries)
    .where(and(eq(inquiries.inquiryNo, inquiryNo), eq(inquiries.userId, userId)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

/** GET /im/medical/his/recordDetail?imOrderNo=: the record of one of the caller's consultations; null while none is written. */
export async function recordDetail(db: Db, cipher: FieldCipher, userId: number, imOrderNo: string, now = new Date()): Promise<MedicalRecord | null> {
  const inq = await requireOwnInquiryNo(db, userId, imOrderNo)
  return recordOfInquiry(db, cipher, inq.id, now)
}

/** GET /im/medical/his/record: the caller's records (of one of their patients, or all), newest first. */
export async function listRecords(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  query: { patientId?: number; page: number; size: number },
  now = new Date(),
): Promise<Page<MedicalRecord>> {
  if (query.patientId !== undefined) await requireOwnPatient(db, userId, query.patientId)
  const size = Math.min(query.size, RECORD_PAGE_MAX)
  const where = and(eq(medicalRecords.userId, userId), query.patientId !== undefined ? eq(medicalRecords.patientId, query.patientId) : undefined)
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(medicalRecords).where(where)
  const rows = await viewQuery(db)
    .where(where)
    .orderBy(desc(medicalRecords.createdAt), desc(medicalRecords.id))
    .limit(size)
    .offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, rows, now), total: total?.n ?? 0, page: query.page, size }
}

/**
 * POST /im/medical/recordByOrderNos: the records of some of the caller's consultations, in the order asked (one not
 * written yet is left out); any number that is not one of the caller's consultations answers 2999.
 */
export async function recordsByOrderNos(db: Db, cipher: FieldCipher, userId: number, orderNos: string[], now = new Date()): Promise<MedicalRecord[]> {
  const wanted = [...new Set(orderNos)]
  if (wanted.length > ORDER_NOS_MAX) throw badInput(`一次最多查询${ORDER_NOS_MAX}个订单`)
  if (!wanted.length) return []
  const own = await db
    .select({ inquiryNo: inquiries.inquiryNo })
    .from(inquiries)
    .where(and(eq(inquiries.userId, userId), inArray(inquiries.inquiryNo, wanted)))
  if (own.length !== wanted.length) throw forbidden()
  const views = await toViews(db, cipher, await viewQuery(db).where(and(eq(medicalRecords.userId, userId), inArray(inquiries.inquiryNo, wanted))), now)
  const byNo = new Map(views.map((v) => [v.imOrderNo, v]))
  return wanted.flatMap((no) => byNo.get(no) ?? [])
}

/**
 * GET /inquiry/medical/list?patientId=: the patient's finished consultations with a record, newest first, for
 * choosing the diagnosis a follow-up (复诊) continues.
 */
export async function finishedWithRecord(db: Db, cipher: FieldCipher, userId: number, patientId: number, now = new Date()): Promise<MedicalHistoryItem[]> {
  await requireOwnPatient(db, userId, patientId)
  const rows = await viewQuery(db)
    .where(and(eq(medicalRecords.userId, userId), eq(medicalRecords.patientId, patientId), eq(inquiries.status, 'finished'), isNotNull(inquiries.finishedAt)))
    .orderBy(desc(inquiries.finishedAt), desc(inquiries.id))
    .limit(RECORD_PAGE_MAX)
  const views = await toViews(db, cipher, rows, now)
  return views.map((v, i) => ({
    inquiryId: v.inquiryId,
    inquiryNo: v.imOrderNo,
    recordId: v.id,
    doctorId: v.doctorId,
    doctorName: v.doctorName,
    deptName: v.deptName,
    hospitalName: v.hospitalName,
    diagnosis: v.fields.diagnosis,
    diseases: v.diseases,
    finishedAt: rows[i]!.finishedAt?.toISOString() ?? null,
  }))
}
