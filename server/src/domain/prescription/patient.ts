/**
 * What a patient reads of prescriptions (`/dld-hospital/pres/*`, `outflow/getPresList`, `/dld-rpflow/api/prescription`,
 * `order/web/prescription`). A user sees the prescriptions written for any of their patients, once issued: one under
 * review shows as 待审核 (it cannot be ordered), an approved one whole; a rejected or revoked one was never issued and
 * is not shown at all. Someone else's prescription, or one not shown, answers 2999 like a missing one. The routes
 * record every read in the audit log.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Page } from '../../../../types/api/hospital'
import type { PharmacyStoreBrief, Prescription, PrescriptionStatusInfo, PrescriptionSummary, UsedDrug } from '../../../../types/api/pharmacy'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { doctors, pharmacyOrders, pharmacyStores, prescriptionLines, prescriptions, storeStock } from '../../db/schema'
import { forbidden } from '../../errors'
import { requireOwnPatient } from '../patient'
import { ISSUED_STATUSES, loadOne, loadPrescriptions } from './view'

export const PRES_PAGE_MAX = 50

const issuedTo = (userId: number) => and(eq(prescriptions.userId, userId), inArray(prescriptions.status, ISSUED_STATUSES))!

async function requireIssued(db: Db, cipher: FieldCipher, userId: number, where: SQL, now: Date): Promise<Prescription> {
  const pres = await loadOne(db, cipher, and(where, issuedTo(userId))!, now)
  if (!pres) throw forbidden()
  return pres
}

/** GET /pres/presDetail/:id */
export const prescriptionDetail = (db: Db, cipher: FieldCipher, userId: number, id: number, now: Date) => requireIssued(db, cipher, userId, eq(prescriptions.id, id), now)

/** POST /pres/getPrescriptionDetail {presNo} */
export const prescriptionByNo = (db: Db, cipher: FieldCipher, userId: number, presNo: string, now: Date) =>
  requireIssued(db, cipher, userId, eq(prescriptions.presNo, presNo), now)

/** GET /pres/order/prescriptionStatus?id= */
export async function prescriptionStatus(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<PrescriptionStatusInfo> {
  const p = await prescriptionDetail(db, cipher, userId, id, now)
  return { id: p.id, status: p.status, statusText: p.statusText, orderable: p.orderable, orderId: p.orderId }
}

/**
 * GET /dld-rpflow/api/prescription/:id: the prescription with the hospital's stores that have every line in stock
 * (none when it cannot be filled: /internet/noStorePrescription/index).
 */
export async function prescriptionToOrder(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<Prescription> {
  const pres = await prescriptionDetail(db, cipher, userId, id, now)
  const hospital = db.select({ id: prescriptions.hospitalId }).from(prescriptions).where(eq(prescriptions.id, id))
  const covered = db
    .select({ storeId: storeStock.storeId })
    .from(storeStock)
    .innerJoin(prescriptionLines, and(eq(prescriptionLines.drugId, storeStock.drugId), eq(prescriptionLines.prescriptionId, id)))
    .where(sql`${storeStock.quantity} >= ${prescriptionLines.quantity}`)
    .groupBy(storeStock.storeId)
    .having(sql`count(*) = ${pres.lines.length}`)
  const stores: PharmacyStoreBrief[] = await db
    .select({ id: pharmacyStores.id, name: pharmacyStores.name, address: pharmacyStores.address, delivery: pharmacyStores.delivery, pickup: pharmacyStores.pickup })
    .from(pharmacyStores)
    .where(and(inArray(pharmacyStores.hospitalId, hospital), inArray(pharmacyStores.id, covered)))
    .orderBy(asc(pharmacyStores.id))
  return { ...pres, stores }
}

/** GET /dld-rpflow/api/order/web/prescription/:id: the prescription the caller's pharmacy order (id) was placed from. */
export async function orderPrescription(db: Db, cipher: FieldCipher, userId: number, orderId: number, now: Date): Promise<Prescription> {
  const [order] = await db
    .select({ prescriptionId: pharmacyOrders.prescriptionId })
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.id, orderId), eq(pharmacyOrders.userId, userId)))
  if (!order?.prescriptionId) throw forbidden()
  return prescriptionDetail(db, cipher, userId, order.prescriptionId, now)
}

/** GET /outflow/getPresList: the user's issued prescriptions (of one patient when asked), newest first, paged. */
export async function listPrescriptions(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  q: { patientId?: number; page: number; size: number },
  now: Date,
): Promise<Page<PrescriptionSummary>> {
  if (q.patientId !== undefined) await requireOwnPatient(db, userId, q.patientId)
  const where = and(issuedTo(userId), q.patientId !== undefined ? eq(prescriptions.patientId, q.patientId) : undefined)
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(prescriptions).where(where)
  const list = await loadPrescriptions(db, cipher, where, now, { order: [desc(prescriptions.createdAt), desc(prescriptions.id)], limit: q.size, offset: (q.page - 1) * q.size })
  return {
    records: list.map((p) => ({
      id: p.id,
      presNo: p.presNo,
      patientName: p.patientName,
      doctorName: p.doctorName,
      deptName: p.deptName,
      diagnoses: p.diagnoses,
      totalFen: p.totalFen,
      status: p.status,
      statusText: p.statusText,
      expired: p.expired,
      orderable: p.orderable,
      orderId: p.orderId,
      createdAt: p.createdAt,
      expiresAt: p.expiresAt,
      drugNames: p.lines.map((l) => l.drugName),
    })),
    total: count?.n ?? 0,
    page: q.page,
    size: q.size,
  }
}

/**
 * GET /pres/historyDrug?patientId=: the medicines of the user's approved prescriptions (of one patient when asked),
 * one entry per medicine: how often it was prescribed, when and by whom last. Newest first. For 续方.
 */
export async function usedDrugs(db: Db, userId: number, patientId: number | undefined): Promise<UsedDrug[]> {
  if (patientId !== undefined) await requireOwnPatient(db, userId, patientId)
  const rows = await db
    .select({
      drugId: prescriptionLines.drugId,
      drugName: prescriptionLines.drugName,
      drugSpec: prescriptionLines.spec,
      unit: prescriptionLines.unit,
      at: prescriptions.createdAt,
      doctorId: prescriptions.doctorId,
      doctorName: doctors.name,
    })
    .from(prescriptionLines)
    .innerJoin(prescriptions, eq(prescriptions.id, prescriptionLines.prescriptionId))
    .innerJoin(doctors, eq(doctors.id, prescriptions.doctorId))
    .where(and(eq(prescriptions.userId, userId), eq(prescriptions.status, 'approved'), patientId !== undefined ? eq(prescriptions.patientId, patientId) : undefined))
    .orderBy(desc(prescriptions.createdAt), desc(prescriptions.id))
  const byDrug = new Map<number, UsedDrug>()
  for (const r of rows) {
    const seen = byDrug.get(r.drugId)
    if (seen) seen.times += 1
    else
      byDrug.set(r.drugId, {
        drugId: r.drugId,
        drugName: r.drugName,
        drugSpec: r.drugSpec,
        unit: r.unit,
        lastPrescribedAt: r.at.toISOString(),
        doctorId: r.doctorId,
        doctorName: r.doctorName,
        times: 1,
      })
  }
  return [...byDrug.values()]
}

/** The patients of prescriptions, for the audit rows of answers that do not name them (a summary page). */
export async function prescriptionPatients(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  const rows = await db.select({ patientId: prescriptions.patientId }).from(prescriptions).where(inArray(prescriptions.id, ids))
  return rows.map((r) => r.patientId)
}

/** The user's patients with an approved prescription (historyDrug's audit rows when no patient is named). */
export async function prescribedPatients(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ patientId: prescriptions.patientId })
    .from(prescriptions)
    .where(and(eq(prescriptions.userId, userId), eq(prescriptions.status, 'approved')))
  return rows.map((r) => r.patientId)
}
