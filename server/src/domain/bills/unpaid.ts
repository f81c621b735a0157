/** The patient's unpaid bills as the HIS has them (spec §2 Palm pages Payment: list, mergeList, deptMergeList). */
import { and, eq, inArray } from 'drizzle-orm'
import type { BillDetail, UnpaidBillDetailInput, UnpaidBillsInput, UnpaidVisit } from '../../../../types/api/palm'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { orders, outpatientBills, outpatientPayments } from '../../db/schema'
import { forbidden } from '../../errors'
import type { HisBill, HisProvider } from '../../plugins/providers/his'
import { ownPatientAt } from './his'

/** The bills of these numbers held by an unpaid order that has not run out: number -> the payment and its payer. */
export async function livePayingClaims(db: Db, hospitalId: number, billNos: string[], now: Date) {
  const held = new Map<string, { paymentId: number; userId: number; expired: boolean }>()
  if (!billNos.length) return held
  const rows = await db
    .select({ billNo: outpatientBills.billNo, paymentId: outpatientPayments.id, userId: outpatientPayments.userId, expiresAt: orders.expiresAt })
    .from(outpatientBills)
    .innerJoin(outpatientPayments, eq(outpatientPayments.id, outpatientBills.paymentId))
    .innerJoin(orders, eq(orders.id, outpatientPayments.orderId))
    .where(
      and(
        eq(outpatientBills.hospitalId, hospitalId),
        inArray(outpatientBills.billNo, billNos),
        eq(outpatientBills.status, 'holding'),
        inArray(orders.status, ['created', 'paying']),
      ),
    )
  for (const r of rows) held.set(r.billNo, { paymentId: r.paymentId, userId: r.userId, expired: r.expiresAt.getTime() <= now.getTime() })
  return held
}

export function toBillDetail(b: HisBill): BillDetail {
  return {
    billNo: b.billNo,
    visitNo: b.visitNo,
    visitDate: b.visitDate,
    deptName: b.deptName,
    doctorName: b.doctorName,
    title: b.title,
    category: b.category,
    place: b.place,
    status: b.status,
    amountFen: b.amountFen,
    orderedAt: b.orderedAt,
    items: b.items.map((i) => ({ name: i.name, spec: i.spec, unit: i.unit, quantity: i.quantity, unitPriceFen: i.unitPriceFen, amountFen: i.amountFen })),
  }
}

/**
 * POST /payment/unpaid/list: the chosen patient's unpaid bills, one group per visit and department, newest visit
 * first (of one day, the one ordered last). A bill already in an unpaid order says so (and which of the caller's records, when it is theirs).
 */
export async function unpaidVisits(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: UnpaidBillsInput, now: Date): Promise<UnpaidVisit[]> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const bills = await his.unpaidBills({ hospitalCode: hospital.code, patient: who })
  const held = await livePayingClaims(db, hospital.id, bills.map((b) => b.billNo), now)
  const visits = new Map<string, UnpaidVisit>()
  for (const b of bills) {
    const key = `${b.visitNo}\n${b.deptName}`
    const visit = visits.get(key) ?? { visitNo: b.visitNo, visitDate: b.visitDate, deptName: b.deptName, doctorName: b.doctorName, amountFen: 0, bills: [] }
    const claim = held.get(b.billNo)
    const paying = !!claim && !claim.expired
    visit.amountFen += b.amountFen
    visit.bills.push({
      billNo: b.billNo,
      title: b.title,
      category: b.category,
      place: b.place,
      amountFen: b.amountFen,
      orderedAt: b.orderedAt,
      paying,
      payingId: paying && claim.userId === userId ? claim.paymentId : null,
    })
    visits.set(key, visit)
  }
  // the newest visit first; of one day, the one whose orders came last (what the patient has just been sent to pay)
  const lastOrdered = (v: UnpaidVisit) => v.bills.reduce((latest, b) => (b.orderedAt > latest ? b.orderedAt : latest), '')
  return [...visits.values()].sort(
    (a, b) => b.visitDate.localeCompare(a.visitDate) || lastOrdered(b).localeCompare(lastOrdered(a)) || b.visitNo.localeCompare(a.visitNo),
  )
}

/** POST /payment/unpaid/detail: one of the patient's bills with its items; someone else's (or none) is 2999. */
export async function unpaidBillDetail(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: UnpaidBillDetailInput): Promise<BillDetail> {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const [bill] = await his.bills({ hospitalCode: hospital.code, patient: who, billNos: [input.billNo] })
  if (!bill || bill.billNo !== input.billNo) throw forbidden()
  return toBillDetail(bill)
}

