/**
 * How a prescription is shown (types/api/pharmacy.ts Prescription): its patient (masked, spec §9), doctor,
 * department, reviewing pharmacist, decrypted diagnoses and advice, lines, fees, and what may be done with it now.
 * One reader for the doctor's, the pharmacist's and the patient's calls: they differ only in which rows they may see.
 */
import { and, asc, eq, inArray, notInArray, type SQL } from 'drizzle-orm'
import type { DrugLine, Prescription, PrescriptionDiagnosis } from '../../../../types/api/pharmacy'
import type { Db, Tx } from '../../db'
import { open, type FieldCipher } from '../../crypto'
import { departments, doctors, drugs, patients, pharmacists, pharmacyOrders, prescriptionLines, prescriptions, type PharmacyOrderStatus, type PrescriptionStatus } from '../../db/schema'
import { maskName } from '@/utils/mask'
import { ageOn } from '../patientRules'

export type PrescriptionRow = typeof prescriptions.$inferSelect

/** A pharmacy order in one of these no longer holds its prescription: it may be ordered again. */
export const ENDED_ORDER_STATUSES: PharmacyOrderStatus[] = ['cancelled', 'closed', 'refunded']

/** The statuses a patient sees: a rejected or revoked prescription was never issued. */
export const ISSUED_STATUSES: PrescriptionStatus[] = ['reviewing', 'approved']

export const STATUS_TEXT = { reviewing: '待审核', approved: '审核通过', rejected: '审核未通过', revoked: '已撤回', expired: '已过期', ordered: '已下单' } as const

export const isExpired = (row: Pick<PrescriptionRow, 'expiresAt'>, now: Date) => row.expiresAt.getTime() <= now.getTime()

/** What the patient may do with it: approved, not expired, and no live pharmacy order. */
export function stateOf(row: Pick<PrescriptionRow, 'status' | 'expiresAt'>, orderId: number | null, now: Date) {
  const expired = isExpired(row, now)
  const orderable = row.status === 'approved' && !expired && orderId === null
  const statusText =
    row.status !== 'approved' ? STATUS_TEXT[row.status] : orderId !== null ? STATUS_TEXT.ordered : expired ? STATUS_TEXT.expired : STATUS_TEXT.approved
  return { expired, orderable, statusText }
}

/**
 * The pharmacy order of each prescription that is not cancelled, closed or refunded. At most one is still open
 * (pharmacy_orders_live_prescription_key); a renewable prescription may also hold completed ones.
 */
export async function liveOrders(db: Db | Tx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map()
  const rows = await db
    .select({ id: pharmacyOrders.id, prescriptionId: pharmacyOrders.prescriptionId })
    .from(pharmacyOrders)
    .where(and(inArray(pharmacyOrders.prescriptionId, ids), notInArray(pharmacyOrders.status, ENDED_ORDER_STATUSES)))
    // the newest is the prescription's order
    .orderBy(asc(pharmacyOrders.id))
  return new Map(rows.map((r) => [r.prescriptionId!, r.id]))
}

export const diagnosesOf = (cipher: FieldCipher, row: Pick<PrescriptionRow, 'diagnosesEnc'>): PrescriptionDiagnosis[] =>
  JSON.parse(open(cipher, row.diagnosesEnc) ?? '[]') as PrescriptionDiagnosis[]

const viewQuery = (db: Db | Tx) =>
  db
    .select({
      pres: prescriptions,
      nameEnc: patients.nameEnc,
      sex: patients.sex,
      birthday: patients.birthday,
      doctorName: doctors.name,
      deptName: departments.name,
      pharmacistName: pharmacists.name,
    })
    .from(prescriptions)
    .innerJoin(patients, eq(patients.id, prescriptions.patientId))
    .innerJoin(doctors, eq(doctors.id, prescriptions.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .leftJoin(pharmacists, eq(pharmacists.id, prescriptions.pharmacistId))

/** The prescriptions matching `where`, in `order` (newest first unless told), whole. */
export async function loadPrescriptions(
  db: Db | Tx,
  cipher: FieldCipher,
  where: SQL | undefined,
  now: Date,
  opts: { order?: SQL[]; limit?: number; offset?: number } = {},
): Promise<Prescription[]> {
  let query = viewQuery(db)
    .where(where)
    .orderBy(...(opts.order ?? [asc(prescriptions.id)]))
    .$dynamic()
  if (opts.limit !== undefined) query = query.limit(opts.limit)
  if (opts.offset !== undefined) query = query.offset(opts.offset)
  const rows = await query
  const ids = rows.map((r) => r.pres.id)
  const lines = ids.length
    ? await db
        .select({ line: prescriptionLines, specUnit: drugs.specUnit })
        .from(prescriptionLines)
        .innerJoin(drugs, eq(drugs.id, prescriptionLines.drugId))
        .where(inArray(prescriptionLines.prescriptionId, ids))
        .orderBy(asc(prescriptionLines.lineNo))
    : []
  const orders = await liveOrders(db, ids)
  return rows.map((r) => {
    const p = r.pres
    const orderId = orders.get(p.id) ?? null
    const { expired, orderable, statusText } = stateOf(p, orderId, now)
    return {
      id: p.id,
      presNo: p.presNo,
      inquiryId: p.inquiryId,
      category: p.category,
      patientId: p.patientId,
      patientName: maskName(open(cipher, r.nameEnc)),
      sex: r.sex,
      age: ageOn(r.birthday, now),
      doctorId: p.doctorId,
      doctorName: r.doctorName,
      deptName: r.deptName,
      pharmacistName: r.pharmacistName ?? '',
      diagnoses: diagnosesOf(cipher, p),
      advice: open(cipher, p.adviceEnc) ?? '',
      lines: lines.filter((l) => l.line.prescriptionId === p.id).map((l) => lineOf(l.line, l.specUnit)),
      drugFeeFen: p.drugFeeFen,
      diagnosisFeeFen: p.diagnosisFeeFen,
      totalFen: p.drugFeeFen + p.diagnosisFeeFen,
      status: p.status,
      statusText,
      rejectReason: p.rejectReason,
      renewable: p.renewable,
      expired,
      orderable,
      orderId,
      expiresAt: p.expiresAt.toISOString(),
      reviewedAt: p.reviewedAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
    }
  })
}

/** A line as written (name, specification, price), with its drug's specification unit. */
function lineOf(l: typeof prescriptionLines.$inferSelect, specUnit: string): DrugLine {
  return {
    drugId: l.drugId,
    drugName: l.drugName,
    drugSpec: l.spec,
    drugSpecUnit: specUnit,
    unit: l.unit,
    dose: l.dose,
    frequency: l.frequency,
    days: l.days,
    totalCount: l.quantity,
    priceFen: l.priceFen,
    amountFen: l.priceFen * l.quantity,
  }
}

export async function loadOne(db: Db | Tx, cipher: FieldCipher, where: SQL, now: Date): Promise<Prescription | null> {
  return (await loadPrescriptions(db, cipher, where, now, { limit: 1 }))[0] ?? null
}
