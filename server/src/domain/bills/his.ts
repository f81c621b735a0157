/** What the bill flows share: the patient as the HIS knows them, the HIS that settles an order, and the rules. */
import { and, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db'
import { open, type FieldCipher } from '../../crypto'
import { patientCards } from '../../db/schema'
import type { HisPatient, HisProvider } from '../../plugins/providers/his'
import { requireOwnPatient } from '../patient'
import { requireHospitalByCode } from '../hospital'

/** An unpaid order of bills waits this long for the money, then closes and lets the bills go. */
export const BILL_ORDER_MINUTES = 30
/** The most bills one order pays (a merged payment of one visit, or of a day's visits). */
export const MAX_BILLS_PER_ORDER = 20
export const MAX_PAGE_SIZE = 50

export const BILLS_PAYING = '所选缴费单正在支付中，请在缴费记录中继续支付或取消后重试'
export const SAME_KEY_OTHER_PAYMENT = '重复的请求'
export const BILL_STATUS_TEXT = { paid: '已缴费', refunded: '已退费', cancelled: '已作废' } as const

/**
 * The HIS each kind of bill settles with. Bills are told paid by the HIS that issued them (outpatient_payments.his_kind);
 * the payment core's handlers are registered once per process while each app builds its own providers, so each app
 * names its HIS here when it is built (businesses.ts).
 */
const hisByKind = new Map<'sandbox' | 'http', HisProvider>()

export function useHisForBills(his: HisProvider): void {
  if (his.kind !== 'disabled') hisByKind.set(his.kind, his)
}

/** The HIS that issued an order's bills; an Error (not a refusal) when it is not configured: the payment is told again later. */
export function hisOfKind(kind: 'sandbox' | 'http'): HisProvider {
  const his = hisByKind.get(kind)
  if (!his) throw new Error(`no ${kind} HIS to settle outpatient bills with`)
  return his
}

/** The kind an order records (a disabled HIS issues no bills, so never reaches an order). */
export function payableKind(his: HisProvider): 'sandbox' | 'http' {
  if (his.kind === 'disabled') throw new Error('a disabled HIS has no bills to pay')
  return his.kind
}

export type PatientRow = Awaited<ReturnType<typeof requireOwnPatient>>

/** The patient as the HIS knows them: the card number at this hospital when filed there, the identity number, the name. */
export async function hisPatientOf(db: Db | Tx, cipher: FieldCipher, patient: PatientRow, hospitalId: number): Promise<HisPatient> {
  const [card] = await db
    .select({ cardNoEnc: patientCards.cardNoEnc })
    .from(patientCards)
    .where(and(eq(patientCards.patientId, patient.id), eq(patientCards.hospitalId, hospitalId)))
    .limit(1)
  return { cardNo: card ? cipher.decrypt(card.cardNoEnc) : null, idCard: open(cipher, patient.idCardEnc), name: cipher.decrypt(patient.nameEnc) }
}

/** The caller's own patient (2999 otherwise, checked first) at a hospital that exists, as the HIS knows them. */
export async function ownPatientAt(db: Db, cipher: FieldCipher, userId: number, input: { patientId: number; hospitalCode: string }) {
  const patient = await requireOwnPatient(db, userId, input.patientId)
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  return { patient, hospital, who: await hisPatientOf(db, cipher, patient, hospital.id) }
}
