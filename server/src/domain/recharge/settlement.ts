/** 出院结算 (spec §2 /palm/hospitalization/settlement/result): the settlement of one of the patient's finished stays. */
import type { DischargeSettlement, DischargeSettlementInput } from '../../../../types/api/settlement'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { badInput, forbidden } from '../../errors'
import type { HisProvider } from '../../plugins/providers/his'
import { maskName } from '@/utils/mask'
import { hospitalToday } from '@/utils/hospitalClock'
import { costCategoryName, settlementReturnText, stayDays } from '@/utils/settlementRules'
import { ownPatientAt } from '../bills/his'

export const NOT_SETTLED = '该住院尚未办理出院结算'

/**
 * POST /recharge/settlement: the stay must be one of the patient's (else 2999, saying nothing about it) and settled
 * (a stay still in hospital is refused with why). Costs by category, deposits, the balance returned (and how) or owed.
 */
export async function dischargeSettlement(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: DischargeSettlementInput): Promise<DischargeSettlement> {
  const { patient, hospital, who } = await ownPatientAt(db, cipher, userId, input)
  const answer = await his.dischargeSettlement({ hospitalCode: hospital.code, patient: who, admissionNo: input.admissionNo })
  if (!answer) throw forbidden()
  const stay = (await his.admissions({ hospitalCode: hospital.code, patient: who })).find((a) => a.admissionNo === input.admissionNo)
  if (!stay) throw forbidden()
  const s = answer.settled
  if (!s) throw badInput(NOT_SETTLED)
  return {
    hospitalCode: hospital.code,
    patientId: patient.id,
    patientName: maskName(who.name),
    admissionNo: s.admissionNo,
    deptName: stay.deptName,
    ward: stay.ward,
    bed: stay.bed,
    admittedAt: stay.admittedAt,
    dischargedAt: s.dischargedAt,
    stayDays: stayDays(hospitalToday(new Date(stay.admittedAt)), hospitalToday(new Date(s.dischargedAt))),
    costFen: s.costFen,
    depositFen: s.depositFen,
    returnedFen: s.returnedFen,
    owedFen: s.owedFen,
    returns: s.returns.map((r) => ({ ...r, text: settlementReturnText(r.way, r.channel) })),
    categories: s.categories.map((c) => ({ ...c, name: costCategoryName(c.category) })),
  }
}
