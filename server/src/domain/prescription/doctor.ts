/**
 * The doctor's side of prescriptions at the workbench (issue 19). Chinese internet-diagnosis rules, enforced here:
 * only the treating doctor of a consultation in progress writes a prescription for its patient (an assistant, a
 * pharmacist, another doctor, or a consultation waiting or over: 2999 or refused); every prescription waits for a
 * pharmacist's review before it can be ordered (review.ts).
 *
 * Decisions:
 * - Lines: 1 to 5 medicines on a 西药/中成药 prescription (处方管理办法: at most 5 per prescription), 1 to 30 herbs
 *   on a 中药饮片 one. A 中药饮片 prescription holds only 中药饮片; a 西药 one may also hold 中成药 (written on one
 *   prescription); a 中成药 one only 中成药. Quantity: whole units, at most 10 boxes or bottles a line, 1000 g of a herb;
 *   days 1 to 30 (a chronic patient's longest).
 * - Fees: drugFee is Σ price × quantity at the formulary's price when written; diagnosisFee is 0, the consultation was
 *   paid for.
 * - Validity: `prescriptionValidDays` of the hospital's settings (hospital_configs, 1 to 30), else 3 days.
 * - Writing twice with the same idempotency key answers the first prescription.
 */
import { and, desc, eq, inArray } from 'drizzle-orm'
import type { DrugCategory, Prescription, WritePrescriptionInput } from '../../../../types/api/pharmacy'
import type { Db, Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { diseases, drugs, hospitalConfigs, prescriptionLines, prescriptions } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import { requireDeskInquiry, requireDoctor } from '../doctorDesk'
import { lockBoth } from '../inquiry'
import { requireDiseaseCodes } from '../medicalRecord'
import { newBusinessNo } from '../payment/orders'
import type { StaffContext } from '../staff'
import { liveOrders, loadOne, loadPrescriptions } from './view'

export const DIAGNOSES_MAX = 5
export const ADVICE_MAX = 200
export const USAGE_MAX = 20
export const DAYS_MAX = 30
/** Lines per prescription: 5 for 西药/中成药 (处方管理办法), more herbs for a 中药饮片 decoction. */
export const LINES_MAX: Record<DrugCategory, number> = { western: 5, patent: 5, chinese: 30 }
/** The most of one line: boxes or bottles, or g of a herb. */
export const QUANTITY_MAX: Record<DrugCategory, number> = { western: 10, patent: 10, chinese: 1000 }
/** The medicines each category of prescription may hold (西药 and 中成药 may share one). */
export const CATEGORY_DRUGS: Record<DrugCategory, DrugCategory[]> = { western: ['western', 'patent'], patent: ['patent'], chinese: ['chinese'] }
export const CATEGORY_TEXT: Record<DrugCategory, string> = { western: '西药', patent: '中成药', chinese: '中药饮片' }
export const DEFAULT_VALID_DAYS = 3
export const CONFIG_VALID_DAYS = 'prescriptionValidDays'

export const NOT_OPEN = '问诊未在进行中，不能开具处方'
export const CANNOT_REVOKE = '该处方已审核未通过或已撤回，无法撤回'
export const ORDERED = '处方已下单，无法撤回'
export const KEY_USED = '请求编号已用于其他问诊'

const DAY = 86_400_000

/** The hospital's validity of a prescription in days (hospital_configs `prescriptionValidDays`, 1 to 30), else 3. */
export async function validDaysOf(db: Db | Tx, hospitalId: number): Promise<number> {
  const [row] = await db
    .select({ value: hospitalConfigs.value })
    .from(hospitalConfigs)
    .where(and(eq(hospitalConfigs.hospitalId, hospitalId), eq(hospitalConfigs.key, CONFIG_VALID_DAYS)))
  const days = Number(row?.value)
  return Number.isInteger(days) && days >= 1 && days <= DAYS_MAX ? days : DEFAULT_VALID_DAYS
}

/** The diagnoses checked against the hospital's disease list (common/diseaseCode), named as the list names them. */
export async function checkDiagnoses(db: Db, hospitalId: number, input: WritePrescriptionInput['diagnoses']) {
  if (!input.length) throw badInput('请填写诊断')
  if (input.length > DIAGNOSES_MAX) throw badInput(`诊断最多${DIAGNOSES_MAX}个`)
  const codes = await requireDiseaseCodes(db, hospitalId, input.map((d) => d.code))
  const rows = await db.select({ id: diseases.id, name: diseases.name }).from(diseases).where(inArray(diseases.id, codes.map(Number)))
  const nameOf = new Map(rows.map((r) => [String(r.id), r.name]))
  return codes.map((code) => ({ code, name: nameOf.get(code)! }))
}

/** The lines checked against the hospital's formulary and the rules above, priced as the formulary prices them now. */
export async function checkLines(db: Db, hospitalId: number, category: DrugCategory, input: WritePrescriptionInput['lines']) {
  if (!input.length) throw badInput('请添加药品')
  if (input.length > LINES_MAX[category]) throw badInput(`${CATEGORY_TEXT[category]}处方最多${LINES_MAX[category]}种药品`)
  const ids = input.map((l) => l.drugId)
  if (new Set(ids).size !== ids.length) throw badInput('同一药品请合并为一行')
  const found = await db
    .select()
    .from(drugs)
    .where(and(eq(drugs.hospitalId, hospitalId), inArray(drugs.id, ids)))
  const byId = new Map(found.map((d) => [d.id, d]))
  return input.map((l, i) => {
    const drug = byId.get(l.drugId)
    if (!drug) throw badInput(`第${i + 1}行药品不在本院药品目录中`)
    if (!CATEGORY_DRUGS[category].includes(drug.category)) throw badInput(`${drug.name}不能开在${CATEGORY_TEXT[category]}处方中`)
    if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > QUANTITY_MAX[category])
      throw badInput(`${drug.name}的数量应为1至${QUANTITY_MAX[category]}${drug.unit}`)
    if (!Number.isInteger(l.days) || l.days < 1 || l.days > DAYS_MAX) throw badInput(`${drug.name}的用药天数应为1至${DAYS_MAX}天`)
    const dose = l.dose.trim()
    const frequency = l.frequency.trim()
    if (!dose || dose.length > USAGE_MAX) throw badInput(`请填写${drug.name}的每次用量（不超过${USAGE_MAX}个字）`)
    if (!frequency || frequency.length > USAGE_MAX) throw badInput(`请填写${drug.name}的用药频次（不超过${USAGE_MAX}个字）`)
    return { lineNo: i + 1, drugId: drug.id, drugName: drug.name, spec: drug.spec, unit: drug.unit, dose, frequency, days: l.days, quantity: l.quantity, priceFen: drug.priceFen }
  })
}

const byKey = (doctorId: number, key: string) => and(eq(prescriptions.doctorId, doctorId), eq(prescriptions.idempotencyKey, key))!

/**
 * POST /inquiries/:id/prescriptions: the treating doctor of the consultation in progress writes a prescription for
 * its patient; it waits for a pharmacist (status reviewing). Diagnoses and advice are stored encrypted.
 */
export async function writePrescription(db: Db, cipher: FieldCipher, staff: StaffContext, inquiryId: number, input: WritePrescriptionInput, now: Date): Promise<Prescription> {
  const doctorId = requireDoctor(staff)
  const inq = await requireDeskInquiry(db, staff, inquiryId)
  const same = await loadOne(db, cipher, byKey(doctorId, input.idempotencyKey), now)
  if (same) {
    if (same.inquiryId !== inq.id) throw conflict(KEY_USED)
    return same
  }
  if (inq.status !== 'inProgress') throw badInput(NOT_OPEN)
  const advice = input.advice.trim()
  if (advice.length > ADVICE_MAX) throw badInput(`医嘱不能超过${ADVICE_MAX}个字`)
  const diagnoses = await checkDiagnoses(db, inq.hospitalId, input.diagnoses)
  const lines = await checkLines(db, inq.hospitalId, input.category, input.lines)
  const validDays = await validDaysOf(db, inq.hospitalId)
  await db.transaction(async (tx) => {
    // the consultation may have been finished or declined since it was read
    const row = await lockBoth(tx, inq)
    if (row.status !== 'inProgress' || row.doctorId !== doctorId) throw badInput(NOT_OPEN)
    const [pres] = await tx
      .insert(prescriptions)
      .values({
        presNo: newBusinessNo('F', now),
        hospitalId: row.hospitalId,
        inquiryId: row.id,
        userId: row.userId,
        patientId: row.patientId,
        doctorId,
        category: input.category,
        diagnosesEnc: cipher.encrypt(JSON.stringify(diagnoses)),
        adviceEnc: advice ? cipher.encrypt(advice) : '',
        drugFeeFen: lines.reduce((sum, l) => sum + l.priceFen * l.quantity, 0),
        diagnosisFeeFen: 0,
        renewable: input.renewable,
        expiresAt: new Date(now.getTime() + validDays * DAY),
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [prescriptions.doctorId, prescriptions.idempotencyKey] })
      .returning({ id: prescriptions.id })
    // the same key written at the same moment: the other call's prescription is the answer
    if (pres) await tx.insert(prescriptionLines).values(lines.map((l) => ({ ...l, prescriptionId: pres.id })))
  })
  const written = await loadOne(db, cipher, byKey(doctorId, input.idempotencyKey), now)
  if (written!.inquiryId !== inq.id) throw conflict(KEY_USED)
  return written!
}

/** GET /inquiries/:id/prescriptions: the treating doctor's prescriptions of the consultation, newest first, rejected ones with the reason. */
export async function inquiryPrescriptions(db: Db, cipher: FieldCipher, staff: StaffContext, inquiryId: number, now: Date): Promise<Prescription[]> {
  const doctorId = requireDoctor(staff)
  await requireDeskInquiry(db, staff, inquiryId)
  return loadPrescriptions(db, cipher, and(eq(prescriptions.inquiryId, inquiryId), eq(prescriptions.doctorId, doctorId)), now, { order: [desc(prescriptions.id)] })
}

/**
 * POST /prescriptions/:id/revoke: its doctor withdraws a prescription under review or approved that no pharmacy order
 * holds. The row is locked first, so an order placed at the same moment (orderablePrescriptionForOrder locks it too)
 * is either seen here or finds it revoked. Revoking a revoked one answers it.
 */
export async function revokePrescription(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date): Promise<Prescription> {
  const doctorId = requireDoctor(staff)
  const mine = and(eq(prescriptions.id, id), eq(prescriptions.doctorId, doctorId))!
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(prescriptions).where(mine).for('update')
    if (!row) throw forbidden()
    if (row.status === 'revoked') return
    if (row.status === 'rejected') throw badInput(CANNOT_REVOKE)
    if ((await liveOrders(tx, [id])).size) throw conflict(ORDERED)
    await tx.update(prescriptions).set({ status: 'revoked' }).where(eq(prescriptions.id, id))
  })
  return (await loadOne(db, cipher, mine, now))!
}
