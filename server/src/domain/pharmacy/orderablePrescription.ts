/**
 * A stand-in until the prescriptions' own module (domain/prescription) answers it: the caller's approved, unexpired
 * prescription without a live order, locked for the order being placed. Small on purpose; the integrator switches
 * to the prescriptions' `orderablePrescriptionForOrder`.
 */
import { and, asc, eq, gt, gte, notExists, notInArray } from 'drizzle-orm'
import type { Tx } from '../../db'
import { pharmacyOrders, prescriptionLines, prescriptions } from '../../db/schema'
import { badInput, forbidden } from '../../errors'

/** Order statuses that leave the prescription free for another order. */
const ENDED_ORDER_STATUSES = ['cancelled', 'closed', 'refunded'] as const

export interface OrderablePrescription {
  id: number
  hospitalId: number
  patientId: number
  renewable: boolean
  drugFeeFen: number
  diagnosisFeeFen: number
  lines: { drugId: number; drugName: string; spec: string; unit: string; quantity: number; priceFen: number }[]
}

/**
 * Locks the caller's prescription (someone else's answers like a missing one). `allowCompleted`: a renewable one whose
 * last order was completed may be ordered again (planOrder); otherwise any order not ended makes it not orderable.
 */
export async function orderablePrescriptionForOrder(
  tx: Tx,
  input: { userId: number; prescriptionId: number; now: Date; allowCompleted?: boolean },
): Promise<OrderablePrescription> {
  const [pres] = await tx
    .select()
    .from(prescriptions)
    .where(and(eq(prescriptions.id, input.prescriptionId), eq(prescriptions.userId, input.userId)))
    .for('update')
  if (!pres) throw forbidden()
  if (pres.status !== 'approved') throw badInput('处方未审核通过，暂不能购药')
  if (pres.expiresAt.getTime() <= input.now.getTime()) throw badInput('处方已过期')
  if (input.allowCompleted && !pres.renewable) throw badInput('该处方不能续方购药')
  const live = await tx
    .select({ status: pharmacyOrders.status })
    .from(pharmacyOrders)
    .where(and(eq(pharmacyOrders.prescriptionId, pres.id), notInArray(pharmacyOrders.status, [...ENDED_ORDER_STATUSES])))
  const blocking = live.filter((o) => !(input.allowCompleted && o.status === 'completed'))
  if (blocking.length) throw badInput('该处方已下单')
  if (input.allowCompleted && !live.length) throw badInput('该处方尚未完成首次购药')
  const lines = await tx
    .select()
    .from(prescriptionLines)
    .where(eq(prescriptionLines.prescriptionId, pres.id))
    .orderBy(asc(prescriptionLines.lineNo))
  return {
    id: pres.id,
    hospitalId: pres.hospitalId,
    patientId: pres.patientId,
    renewable: pres.renewable,
    drugFeeFen: pres.drugFeeFen,
    diagnosisFeeFen: pres.diagnosisFeeFen,
    lines: lines.map((l) => ({ drugId: l.drugId, drugName: l.drugName, spec: l.spec, unit: l.unit, quantity: l.quantity, priceFen: l.priceFen })),
  }
}

/**
 * Whether the patient (the caller's) has an orderable prescription holding the drug, at least `quantity` of it: what a
 * cart's rx drug needs.
 */
export async function hasOrderablePrescriptionFor(tx: Tx, input: { userId: number; patientId: number; drugId: number; quantity: number; now: Date }): Promise<boolean> {
  const rows = await tx
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .innerJoin(prescriptionLines, eq(prescriptionLines.prescriptionId, prescriptions.id))
    .where(
      and(
        eq(prescriptions.userId, input.userId),
        eq(prescriptions.patientId, input.patientId),
        eq(prescriptions.status, 'approved'),
        gt(prescriptions.expiresAt, input.now),
        eq(prescriptionLines.drugId, input.drugId),
        gte(prescriptionLines.quantity, input.quantity),
        notExists(
          tx
            .select({ id: pharmacyOrders.id })
            .from(pharmacyOrders)
            .where(and(eq(pharmacyOrders.prescriptionId, prescriptions.id), notInArray(pharmacyOrders.status, [...ENDED_ORDER_STATUSES]))),
        ),
      ),
    )
    .limit(1)
  return rows.length > 0
}
