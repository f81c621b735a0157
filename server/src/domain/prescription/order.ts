/**
 * For placing a pharmacy order from a prescription (the orders' domain calls it inside its transaction): the caller's
 * prescription, locked, with what the order is made of, or the reason it cannot be ordered.
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Tx } from '../../db'
import { prescriptionLines, prescriptions } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import { ISSUED_STATUSES, isExpired, liveOrders } from './view'

export const NOT_REVIEWED = '处方未审核通过，不可下单'
export const EXPIRED = '处方已过期，不可下单'
export const ALREADY_ORDERED = '处方已下单，请勿重复下单'

export interface OrderablePrescription {
  id: number
  presNo: string
  hospitalId: number
  inquiryId: number
  userId: number
  patientId: number
  doctorId: number
  renewable: boolean
  drugFeeFen: number
  diagnosisFeeFen: number
  expiresAt: Date
  lines: { drugId: number; drugName: string; spec: string; unit: string; quantity: number; priceFen: number }[]
}

/**
 * Locks (FOR UPDATE) the caller's prescription and answers it if it may be ordered now: approved, not expired, no
 * live pharmacy order. Someone else's, a missing, a rejected or a revoked one answers 2999 (the patient never saw
 * it); one under review 400 未审核; an expired one 400 已过期; one already ordered 409 已下单. The lock is held until the
 * caller's transaction ends, so a revocation or a second order at the same moment waits and then sees the order.
 */
export async function orderablePrescriptionForOrder(tx: Tx, q: { userId: number; prescriptionId: number }, now = new Date()): Promise<OrderablePrescription> {
  const [row] = await tx
    .select()
    .from(prescriptions)
    .where(and(eq(prescriptions.id, q.prescriptionId), eq(prescriptions.userId, q.userId)))
    .for('update')
  if (!row || !ISSUED_STATUSES.includes(row.status)) throw forbidden()
  if (row.status !== 'approved') throw badInput(NOT_REVIEWED)
  if (isExpired(row, now)) throw badInput(EXPIRED)
  if ((await liveOrders(tx, [row.id])).size) throw conflict(ALREADY_ORDERED)
  const lines = await tx
    .select({
      drugId: prescriptionLines.drugId,
      drugName: prescriptionLines.drugName,
      spec: prescriptionLines.spec,
      unit: prescriptionLines.unit,
      quantity: prescriptionLines.quantity,
      priceFen: prescriptionLines.priceFen,
    })
    .from(prescriptionLines)
    .where(eq(prescriptionLines.prescriptionId, row.id))
    .orderBy(asc(prescriptionLines.lineNo))
  return {
    id: row.id,
    presNo: row.presNo,
    hospitalId: row.hospitalId,
    inquiryId: row.inquiryId,
    userId: row.userId,
    patientId: row.patientId,
    doctorId: row.doctorId,
    renewable: row.renewable,
    drugFeeFen: row.drugFeeFen,
    diagnosisFeeFen: row.diagnosisFeeFen,
    expiresAt: row.expiresAt,
    lines,
  }
}
