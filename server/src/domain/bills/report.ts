/**
 * 报告缴费 (spec §7 Payment `unpaid/report/detail`, `report/init`): the bill of a test or an examination whose report
 * is released once it is paid. The rule is src/utils/reportBill.ts; paying goes through payBills, one bill, one order.
 */
import type { BillPayStart } from '../../../../types/api/palm'
import type { ReportBillDetail, ReportBillInput, ReportPayInput } from '../../../../types/api/reportBill'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { badInput, forbidden } from '../../errors'
import type { PayProvidersOf } from '../../plugins/providers'
import type { HisBill, HisProvider } from '../../plugins/providers/his'
import { NOT_REPORT_BILL, isReportBill, reportBillNote, reportHeld, reportKindText } from '@/utils/reportBill'
import type { AuthContext } from '../auth'
import { ownPatientAt } from './his'
import { livePayingClaims, toBillDetail } from './unpaid'
import { payBills } from './payment'

/** The patient's own bill of that number, checked to be a report's; someone else's (or none) is 2999. */
async function ownReportBill(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: ReportBillInput) {
  const { hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const [bill] = await his.bills({ hospitalCode: hospital.code, patient: who, billNos: [input.billNo] })
  if (!bill || bill.billNo !== input.billNo) throw forbidden()
  if (!isReportBill(bill.category)) throw badInput(NOT_REPORT_BILL)
  return { hospital, bill: bill as HisBill & { category: 'lab' | 'exam' } }
}

/** POST /payment/unpaid/report/detail: the bill with its items, whether the report waits for it, and what to do. */
export async function reportBillDetail(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: ReportBillInput, now: Date): Promise<ReportBillDetail> {
  const { hospital, bill } = await ownReportBill(db, cipher, his, userId, input)
  const claim = (await livePayingClaims(db, hospital.id, [bill.billNo], now)).get(bill.billNo)
  return {
    ...toBillDetail(bill),
    reportKind: bill.category,
    reportKindText: reportKindText(bill.category),
    reportHeld: reportHeld(bill.status),
    note: reportBillNote(bill.category, bill.status),
    payingId: claim && !claim.expired && claim.userId === userId ? claim.paymentId : null,
  }
}

/**
 * POST /payment/report/init: pays one report's bill as payment/init pays one bill (same idempotency, same claim on the
 * bill, same settlement with the HIS), after checking that it is a report's. A paid one is refused by payBills.
 */
export async function payReportBill(
  db: Db,
  cipher: FieldCipher,
  providers: PayProvidersOf & { his: HisProvider },
  caller: AuthContext & { userId: number },
  input: ReportPayInput,
  now: Date,
): Promise<BillPayStart> {
  await ownReportBill(db, cipher, providers.his, caller.userId, input)
  return payBills(db, cipher, providers, caller, { ...input, billNos: [input.billNo], sourceType: 0 }, now)
}
