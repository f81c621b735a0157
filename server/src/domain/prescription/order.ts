/**
 * For placing a pharmacy order from a prescription (the orders' domain calls it inside its transaction): the caller's
 * prescription, locked, with what the order is made of, or the reason it cannot be ordered.
 */
import { and, asc, eq, gt, gte, notExists, notInArray } from 'drizzle-orm'
import type { Tx } from '../../db'
import { pharmacyOrders, prescriptionLines, prescriptions } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import { ENDED_ORDER_STATUSES, ISSUED_STATUSES, isExpired } from './view'

export const NOT_REVIEWED = '处方未审核通过，不可下单'
export const EXPIRED = '处方已过期，不可下单'
export const ALREADY_ORDERED = '处方已下单，请勿重复下单'
export const NOT_RENEWABLE = '该处方不能续方购药'
export const NOT_YET_FILLED = '该处方尚未完成首次购药'

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
 * `repeat` (planOrder): a renewable prescription whose earlier order was completed may be ordered again; any other
 * order not ended still blocks it.
 */
export async function orderablePrescriptionForOrder(
  tx: Tx,
  q: { userId: number; prescriptionId: number; repeat?: boolean },
  now = new Date(),
): Promise<OrderablePrescription> {
  const [row] = await tx
    .select()
    .from(prescriptions)
    .where(and(eq(prescriptions.id, q.prescriptionId), eq(prescriptions.userId, q.userId)))
    .for('update')
  if (!row || !ISSUED_STATUSES.includes(row.status)) throw forbidden()
  if (row.status !== 'approved') throw badInput(NOT_REVIEWED)
  if (isExpired(row, now)) throw badInput(EXPIRED)
  if (q.repeat && !row.renewable) throw badInput(NOT_RENEWABLE)
  const live = await tx
    .select({ status: pharmacyOrders.status })
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.prescriptionId, row.id), notInArray(pharmacyOrders.status, ENDED_ORDER_STATUSES)))
  if (live.some((o) => !(q.repeat && o.status === 'completed'))) throw conflict(ALREADY_ORDERED)
  if (q.repeat && !live.length) throw badInput(NOT_YET_FILLED)
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

/**
 * Whether the patient (the caller's) has an orderable prescription holding at least `quantity` of the drug: what an
 * rx drug in the shop's cart needs.
 */
export async function hasOrderablePrescriptionFor(tx: Tx, q: { userId: number; patientId: number; drugId: number; quantity: number }, now = new Date()): Promise<boolean> {
  const rows = await tx
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .innerJoin(prescriptionLines, eq(prescriptionLines.prescriptionId, prescriptions.id))
    .where(
      and(
        eq(prescriptions.userId, q.userId),
        eq(prescriptions.patientId, q.patientId),
        eq(prescriptions.status, 'approved'),
        gt(prescriptions.expiresAt, now),
        eq(prescriptionLines.drugId, q.drugId),
        gte(prescriptionLines.quantity, q.quantity),
        notExists(
          tx
            .select({ id: pharmacyOrders.id })
            .from(pharmacyOrders)
            .where(and(eq(pharmacyOrders.prescriptionId, prescriptions.id), notInArray(pharmacyOrders.status, ENDED_ORDER_STATUSES))),
        ),
      ),
    )
    .limit(1)
  return rows.length > 0
}
