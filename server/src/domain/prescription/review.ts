/**
 * The pharmacist's review (审方) at the workbench: the hospital's prescriptions by status, approving or rejecting one
 * under review. Each decision is one conditional update (status still `reviewing`): of two pharmacists deciding at
 * once, one wins and the other is told it was decided already. An approved prescription reaches the consultation
 * room as a card (chat message of type 'prescription', payload PrescriptionCard), from the doctor's account, in the
 * same transaction; a rejected one goes back to the doctor's list with the reason.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Prescription, PrescriptionCard, PrescriptionStatus } from '../../../../types/api/pharmacy'
import type { Db, Tx } from '../../db'
import type { FieldCipher } from '../../crypto'
import { inquiries, prescriptionLines, prescriptions } from '../../db/schema'
import { badInput, conflict, forbidden } from '../../errors'
import { patientImAccount } from '@/utils/chatRules'
import { insertMessage } from '../chat'
import { doctorImAccount } from '../internetDoctors'
import type { StaffContext } from '../staff'
import { diagnosesOf, loadOne, loadPrescriptions, type PrescriptionRow } from './view'

export const REJECT_REASON_MAX = 200
/** The most prescriptions one review list answers. */
export const REVIEW_LIST_MAX = 100
export const ALREADY_REVIEWED = '该处方已被审核'

function requirePharmacist(staff: StaffContext): number {
  if (staff.kind !== 'pharmacist' || staff.pharmacistId === null) throw forbidden()
  return staff.pharmacistId
}

const ofHospital = (staff: StaffContext, id: number) => and(eq(prescriptions.id, id), eq(prescriptions.hospitalId, staff.hospitalId))!

/** GET /review/prescriptions?status=: the hospital's prescriptions in that status; those to review oldest first, the others newest first. */
export async function reviewList(db: Db, cipher: FieldCipher, staff: StaffContext, status: PrescriptionStatus, now: Date): Promise<Prescription[]> {
  requirePharmacist(staff)
  return loadPrescriptions(db, cipher, and(eq(prescriptions.hospitalId, staff.hospitalId), eq(prescriptions.status, status)), now, {
    order: status === 'reviewing' ? [asc(prescriptions.id)] : [desc(prescriptions.reviewedAt), desc(prescriptions.id)],
    limit: REVIEW_LIST_MAX,
  })
}

/** The card the consultation room shows. */
async function cardOf(db: Tx, cipher: FieldCipher, row: PrescriptionRow): Promise<PrescriptionCard> {
  const lines = await db.select({ name: prescriptionLines.drugName }).from(prescriptionLines).where(eq(prescriptionLines.prescriptionId, row.id)).orderBy(asc(prescriptionLines.lineNo))
  return {
    prescriptionId: row.id,
    presNo: row.presNo,
    diagnoses: diagnosesOf(cipher, row).map((d) => d.name),
    drugNames: lines.map((l) => l.name),
    totalFen: row.drugFeeFen + row.diagnosisFeeFen,
  }
}

/**
 * Decides one prescription under review of the pharmacist's hospital. Someone else's hospital's (or a missing one)
 * answers 2999; one decided already answers 409.
 */
async function decide(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, decision: { status: 'approved' } | { status: 'rejected'; reason: string }, now: Date) {
  const pharmacistId = requirePharmacist(staff)
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(prescriptions)
      .set({ status: decision.status, pharmacistId, reviewedAt: now, rejectReason: decision.status === 'rejected' ? decision.reason : null })
      .where(and(ofHospital(staff, id), eq(prescriptions.status, 'reviewing')))
      .returning()
    if (!row) {
      const [exists] = await tx.select({ n: sql<number>`1` }).from(prescriptions).where(ofHospital(staff, id))
      throw exists ? conflict(ALREADY_REVIEWED) : forbidden()
    }
    if (decision.status !== 'approved') return
    const [inq] = await tx.select({ inquiryNo: inquiries.inquiryNo }).from(inquiries).where(eq(inquiries.id, row.inquiryId))
    await insertMessage(tx, cipher, doctorImAccount(row.doctorId), {
      clientId: `prescription-${row.id}`,
      to: patientImAccount(row.userId),
      type: 'prescription',
      payload: JSON.stringify(await cardOf(tx, cipher, row)),
      orderNo: inq!.inquiryNo,
    })
  })
  return (await loadOne(db, cipher, ofHospital(staff, id), now))!
}

/** POST /review/prescriptions/:id/approve: orderable by the patient from now until it expires; its card reaches the room. */
export const approvePrescription = (db: Db, cipher: FieldCipher, staff: StaffContext, id: number, now: Date) => decide(db, cipher, staff, id, { status: 'approved' }, now)

/** POST /review/prescriptions/:id/reject {reason}: back to the doctor with the reason; the patient never sees it. */
export async function rejectPrescription(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, reason: string, now: Date) {
  const text = reason.trim()
  if (!text) throw badInput('请填写驳回原因')
  if (text.length > REJECT_REASON_MAX) throw badInput(`驳回原因不能超过${REJECT_REASON_MAX}个字`)
  return decide(db, cipher, staff, id, { status: 'rejected', reason: text }, now)
}
