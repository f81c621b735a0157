/**
 * Self-service tests (自助开单, issue 17; spec §2 /palm/selfService, §7 `diagnosis/dict`, `diagnosis/onLine/clinicalBill`):
 * the tests the hospital lets a patient order without a doctor's visit, with this patient's sex and age rules
 * (src/utils/selfService.ts, the same rules the app shows), and one unpaid HIS bill for a choice, paid afterwards like
 * any bill (POST /payment/init).
 */
import type { SelfServiceBill, SelfServiceBillInput, SelfServiceDictInput, SelfServiceItem } from '../../../types/api/selfService'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { badInput, conflict } from '../errors'
import type { HisPriceItem, HisProvider } from '../plugins/providers/his'
import { hospitalToday } from '@/utils/hospitalClock'
import { SELF_SERVICE_RULES, audienceOf, checkSelfServiceChoice, selfServicePersonOf, selfServiceRefusal } from '@/utils/selfService'
import { ownPatientAt } from './bills/his'

export const SAME_KEY_OTHER_CHOICE = '重复的请求'

/** The catalogue's lines of the self-service tests at this hospital (a test the catalogue lacks is not offered). */
async function catalogueOf(his: HisProvider, hospitalCode: string): Promise<Map<string, HisPriceItem>> {
  const found = await Promise.all(
    SELF_SERVICE_RULES.map(async (rule) => {
      const page = await his.prices({ hospitalCode, keyword: rule.code, page: 1, size: 10 })
      return page.records.find((r) => r.code === rule.code) ?? null
    }),
  )
  return new Map(found.filter((r): r is HisPriceItem => r !== null).map((r) => [r.code, r]))
}

/** The patient's own sex and birth date: from the identity number, else as recorded when bound (a child without one). */
const personOf = (patient: { sex: 1 | 2; birthday: string }, idCard: string | null) => selfServicePersonOf(idCard, { sex: patient.sex, birthday: patient.birthday })

/** POST /diagnosis/dict: the hospital's self-service tests, each allowed for this patient or not, with the reason. */
export async function selfServiceItems(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: SelfServiceDictInput, now: Date): Promise<SelfServiceItem[]> {
  const { patient, who } = await ownPatientAt(db, cipher, userId, input)
  const person = personOf(patient, who.idCard)
  const today = hospitalToday(now)
  const catalogue = await catalogueOf(his, input.hospitalCode)
  return SELF_SERVICE_RULES.flatMap((rule) => {
    const item = catalogue.get(rule.code)
    if (!item) return []
    const reason = selfServiceRefusal(rule, person, today)
    return [{ code: rule.code, name: item.name, priceFen: item.priceFen, notes: rule.notes, audience: audienceOf(rule), allowed: reason === null, reason }]
  })
}

/**
 * POST /diagnosis/onLine/clinicalBill: every rule checked again (the patient's own, 2999 otherwise; each test allowed
 * for their sex and age), then the HIS makes the unpaid bill. The request number sent to the HIS follows from the
 * caller, the patient and the idempotency key: the same key answers the same bill; the same key for other tests is 409.
 */
export async function createSelfServiceBill(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: SelfServiceBillInput, now: Date): Promise<SelfServiceBill> {
  const { patient, who } = await ownPatientAt(db, cipher, userId, input)
  const catalogue = await catalogueOf(his, input.hospitalCode)
  const offered = input.codes.filter((code) => catalogue.has(code))
  // a test that is not self-service is refused by its name, when the catalogue has it
  const others = await Promise.all(
    [...new Set(input.codes.filter((code) => !catalogue.has(code)))].map(async (code) => {
      const page = await his.prices({ hospitalCode: input.hospitalCode, keyword: code, page: 1, size: 10 })
      return [code, page.records.find((r) => r.code === code)?.name ?? `项目${code}`] as const
    }),
  )
  const nameOf = (code: string) => catalogue.get(code)?.name ?? others.find(([c]) => c === code)?.[1] ?? code
  const checked = checkSelfServiceChoice(input.codes, personOf(patient, who.idCard), hospitalToday(now), nameOf)
  if (!checked.ok) throw badInput(checked.reason)
  if (offered.length !== input.codes.length) throw badInput(`${nameOf(input.codes.find((c) => !catalogue.has(c))!)}不能自助开单`)
  const digest = Buffer.from(cipher.blindIndex(`selfService:${userId}:${input.patientId}:${input.idempotencyKey}`), 'base64url')
  const requestNo = `ZZ${digest.toString('hex').slice(0, 20).toUpperCase()}`
  const bills = await his.selfServiceOrder({ hospitalCode: input.hospitalCode, patient: who, requestNo, items: checked.codes.map((code) => ({ code, quantity: 1 })) })
  const items = bills.flatMap((b) => b.items)
  const billed = new Set(items.map((i) => i.code))
  if (billed.size !== checked.codes.length || !checked.codes.every((c) => billed.has(c))) throw conflict(SAME_KEY_OTHER_CHOICE)
  return {
    billNos: bills.map((b) => b.billNo),
    amountFen: bills.reduce((sum, b) => sum + b.amountFen, 0),
    items: items.map((i) => ({ code: i.code, name: i.name, amountFen: i.amountFen })),
    place: [...new Set(bills.map((b) => b.place).filter(Boolean))].join('、'),
  }
}
